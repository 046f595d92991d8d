import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * An apertium-apy base URL for the Apertium engine tests, or null when there is none:
 *
 * 1. `OPENTMS_TEST_APERTIUM_URL` when set (CI starts apy on 127.0.0.1:2737 and sets it);
 * 2. http://127.0.0.1:2737 when it answers /listPairs with eng→spa;
 * 3. when the `apertium-apy` binary exists, one started here on a free loopback port, in a
 *    process group of its own (its translation pipelines are its children), killed when this
 *    process exits; ready once /listPairs answers (30 s at most). Note that apy has no option
 *    for the address it binds: it listens on every interface.
 *
 * The answer is computed once per test process.
 */

const DEFAULT_URL = 'http://127.0.0.1:2737';
const MODES = '/usr/share/apertium/modes';

let found: Promise<string | null> | null = null;

export function apertiumUrl(): Promise<string | null> {
  found ??= findApertium();
  return found;
}

async function findApertium(): Promise<string | null> {
  const configured = process.env.OPENTMS_TEST_APERTIUM_URL?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  if (await hasEnglishSpanish(DEFAULT_URL)) return DEFAULT_URL;
  const binary = findBinary('apertium-apy');
  if (binary === null || !existsSync(MODES)) return null;
  return startApertium(binary);
}

async function hasEnglishSpanish(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/listPairs`, { signal: AbortSignal.timeout(2_000) });
    if (!response.ok) return false;
    const body = (await response.json()) as { responseData?: Array<{ sourceLanguage?: string; targetLanguage?: string }> };
    return (body.responseData ?? []).some((pair) => pair.sourceLanguage === 'eng' && pair.targetLanguage === 'spa');
  } catch {
    return false;
  }
}

function findBinary(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startApertium(binary: string): Promise<string | null> {
  const port = await freePort();
  const child = spawn(binary, ['-p', String(port), MODES], { detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', () => {
    exited = true;
  });
  const stop = () => {
    if (pid === undefined || exited) return;
    try {
      process.kill(-pid, 'SIGTERM'); // the whole group: apy and its pipelines
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !exited) {
    if (await hasEnglishSpanish(url)) return url;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  stop();
  console.warn(`apertium-apy did not answer on ${url} within 30 s (or it has no eng→spa pair): the Apertium engine tests are skipped`);
  return null;
}

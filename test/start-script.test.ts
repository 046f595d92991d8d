import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, withTimeout } from './support/child-process.js';

/**
 * `npm start` (scripts/start.mjs and scripts/build.mjs, docs/performance.md "Start time") in a
 * scratch project: the real scripts, the real package.json scripts and tsconfig.build.json, and a
 * small src/main.ts that stands in for the server (prints its arguments and a version, exits 0 on
 * SIGTERM, exits with a code it is given). It builds when dist/ is missing or older than the
 * sources, starts without tsc when it is current, never runs stale code, passes arguments, signals
 * and exit codes through, and refuses to start on a failed build.
 */

const realPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

let project: string;
const groups: number[] = [];

function mainSource(version: number, extra = ''): string {
  return `declare const process: any;
declare function setInterval(run: () => void, ms: number): unknown;
${extra}
const args: string[] = process.argv.slice(2);
const exitWith = args.find((arg) => arg.startsWith('--exit='));
if (exitWith) process.exit(Number(exitWith.slice('--exit='.length)));
process.on('SIGTERM', () => {
  process.stdout.write(JSON.stringify({ msg: 'stopped' }) + '\\n');
  process.exit(0);
});
process.stdout.write(JSON.stringify({ msg: 'listening', version: ${version}, args }) + '\\n');
setInterval(() => undefined, 1000);
`;
}

/** Runs `command` in the scratch project: `exited` resolves with its code and output once its streams closed; `listening` (with `untilLine`) at its "listening" line. */
function run(command: string, args: string[], untilLine = false) {
  // A process group of its own, so that afterAll can kill whatever a failed test leaves running.
  const child = spawn(command, args, { cwd: project, detached: true, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
  groups.push(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Ran>((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  const firstLine = new Promise<void>((done) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"msg":"listening"')) done();
    }),
  );
  return { child, exited: withTimeout(exited, 60_000, `${command} ${args.join(' ')}`), listening: untilLine ? firstLine : null };
}

const startOnce = (args: string[] = []) => run(process.execPath, ['scripts/start.mjs', ...args]);

/** Starts, waits for the "listening" line, stops it with SIGTERM, and returns what it printed. */
async function startAndStop(args: string[] = []): Promise<Ran> {
  const started = run(process.execPath, ['scripts/start.mjs', ...args], true);
  await Promise.race([started.listening, started.exited]);
  started.child.kill('SIGTERM');
  return started.exited;
}

const listeningLine = (out: string) =>
  JSON.parse(out.split('\n').find((line) => line.includes('"msg":"listening"')) ?? 'null') as { version: number; args: string[] } | null;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'opentms-start-'));
  mkdirSync(join(project, 'scripts'));
  mkdirSync(join(project, 'src'));
  for (const file of ['scripts/build.mjs', 'scripts/start.mjs', 'tsconfig.build.json']) copyFileSync(join(ROOT, file), join(project, file));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      type: 'module',
      scripts: { start: realPackage.scripts.start, build: realPackage.scripts.build },
    }),
  );
  // The base the build config extends, cut down: no @types, no libraries to check.
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        types: [],
        strict: true,
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  );
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'src', 'main.ts'), mainSource(1));
  writeFileSync(join(project, 'src', 'helper.ts'), 'export const helper = 1;\n');
  writeFileSync(join(project, 'src', 'main.test.ts'), '// a test: not built, not part of the fingerprint\n');
});

afterAll(() => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  rmSync(project, { recursive: true, force: true });
});

describe('npm start (scripts/start.mjs)', () => {
  it('builds dist/ when it is missing, then runs it with the arguments given', { timeout: 60_000 }, async () => {
    const ran = await startAndStop(['--role=api']);
    expect(ran.stderr).toContain('building dist/');
    expect(listeningLine(ran.stdout)).toEqual({ msg: 'listening', version: 1, args: ['--role=api'] });
    expect(ran.code).toBe(0);
    expect(existsSync(join(project, 'dist', 'helper.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'main.test.js'))).toBe(false);
  });

  it('starts without building when dist/ is current, also after a test file changed', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'src', 'main.test.ts'), '// edited\n');
    const ran = await startAndStop();
    expect(ran.stderr).toBe('');
    expect(listeningLine(ran.stdout)?.version).toBe(1);
  });

  it('builds again after a source changes, and removes the output of a deleted source', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(2));
    rmSync(join(project, 'src', 'helper.ts'));
    const ran = await startAndStop();
    expect(ran.stderr).toContain('building dist/');
    expect(listeningLine(ran.stdout)?.version).toBe(2);
    expect(existsSync(join(project, 'dist', 'helper.js'))).toBe(false);
  });

  it('rebuilds when the sources differ from the build, whatever the file times say', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(3));
    expect(listeningLine((await startAndStop()).stdout)?.version).toBe(3);
    // Version 2 back, with a time older than the build's (as a checkout or `cp -p` may leave it).
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(2));
    const past = new Date(Date.now() - 86_400_000);
    utimesSync(join(project, 'src', 'main.ts'), past, past);
    const ran = await startAndStop();
    expect(ran.stderr).toContain('building dist/');
    expect(listeningLine(ran.stdout)?.version).toBe(2);
  });

  it('refuses to start when the build fails, and runs no old code', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(4, 'const wrong: number = "text";'));
    const ran = await startOnce().exited;
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('error TS2322');
    expect(ran.stderr).toContain('not starting');
    expect(ran.stdout).toBe('');
    // The install-time build only warns: a broken tree does not fail `npm install`.
    const prepare = await run(process.execPath, ['scripts/build.mjs', '--if-possible']).exited;
    expect(prepare.code).toBe(0);
    expect(prepare.stderr).toContain('npm start will build again');
    // `npm run build` fails.
    expect((await run(process.execPath, ['scripts/build.mjs']).exited).code).not.toBe(0);
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(4));
  });

  it("passes main's exit code through", { timeout: 60_000 }, async () => {
    expect((await startOnce(['--exit=3']).exited).code).toBe(3);
  });

  it('builds once when two processes start at once on stale sources', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'src', 'main.ts'), mainSource(5));
    const [a, b] = await Promise.all([startAndStop(['--role=api']), startAndStop(['--role=worker'])]);
    expect([a, b].map((ran) => listeningLine(ran.stdout)?.version)).toEqual([5, 5]);
    expect([a, b].filter((ran) => ran.stderr.includes('building dist/'))).toHaveLength(1);
    expect(existsSync(join(project, 'dist', '.build-lock'))).toBe(false);
  });

  it('npm start hands SIGTERM to main and exits with its code (no shell left in between)', { timeout: 60_000 }, async () => {
    const started = run('npm', ['start', '--silent', '--', '--role=worker'], true);
    await Promise.race([started.listening, started.exited]);
    started.child.kill('SIGTERM'); // to npm only, as a process manager does
    const ran = await started.exited;
    expect(listeningLine(ran.stdout)?.args).toEqual(['--role=worker']);
    expect(ran.stdout).toContain('"msg":"stopped"');
    expect(ran.code).toBe(0);
  });
});

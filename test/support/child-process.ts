import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

/** The project folder, where child processes run `--import tsx <script>`. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface StartedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Every JSON log line the process printed so far. */
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

const started: ChildProcessWithoutNullStreams[] = [];

/**
 * Runs `script` (TypeScript, through tsx) as a child process with only PATH and `env` in its
 * environment, and resolves once one of its JSON log lines satisfies `ready` (20 s at most).
 */
export function startProcess(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: (line: Record<string, unknown>) => boolean,
  what = script,
): Promise<StartedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
  started.push(child);
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolveStarted, fail) => {
    const deadline = setTimeout(() => fail(new Error(`${what} was not ready in 20 s; stderr: ${stderr}`)), 20_000);
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        if (ready(line)) {
          clearTimeout(deadline);
          resolveStarted({ child, lines, exited });
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    void exited.then((code) => fail(new Error(`${what} exited with ${code} before it was ready: ${stderr}`)));
  });
}

/** Kills every child started here that is still running, and waits for them to go. */
export async function killAllStarted(): Promise<void> {
  const running = started.splice(0).filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(running.map((child) => new Promise((done) => child.on('exit', done))));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, fail) => setTimeout(() => fail(new Error(`${what} took over ${ms} ms`)), ms))]);
}

/** Runs `script` to its end (20 s at most) and returns its exit code and what it printed on stderr. */
export async function runToExit(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
  started.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await withTimeout(new Promise<number | null>((done) => child.on('exit', (c) => done(c))), 20_000, `${script} to exit`);
  return { code, stderr };
}

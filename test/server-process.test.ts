import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, TEST_DATABASE_URL } from './harness.js';

/**
 * The real entry point (src/main.ts) as a child process: it starts from nothing, announces the
 * generated admin password once, answers /health, and on SIGTERM finishes a request that is
 * still arriving before it exits 0. Bounded: every wait has a deadline and the children are killed.
 */
const ROOT = resolve(import.meta.dirname, '..');
const children: ChildProcessWithoutNullStreams[] = [];

interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
  });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((ready, fail) => {
    const deadline = setTimeout(() => fail(new Error(`server did not start in 20 s; stderr: ${stderr}`)), 20_000);
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(String(line.msg));
        if (match) {
          clearTimeout(deadline);
          ready({ child, port: Number(match[1]), lines, exited });
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    void exited.then((code) => fail(new Error(`server exited with ${code} before listening: ${stderr}`)));
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, fail) => setTimeout(() => fail(new Error(`${what} took over ${ms} ms`)), ms))]);
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe(`the server process (${testDialect})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'opentms-process-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  let env: Record<string, string> = { OPENTMS_DATA_DIR: dataDir };

  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('starts from nothing, prints a generated admin password once, and answers /health', async () => {
    if (TEST_DATABASE_URL) {
      // An empty schema of its own, passed through the connection string as a user would.
      const { schema, drop } = await createTestDatabase({ migrate: false });
      dropDatabase = drop;
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env = { ...env, DATABASE_URL: url.toString() };
    }
    const server = await startServer(env);
    const health = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { dialect: testDialect } });
    const announced = server.lines.filter((l) => typeof l.password === 'string');
    expect(announced).toHaveLength(1);

    const login = await fetch(`http://127.0.0.1:${server.port}/api2/v3/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password: announced[0]!.password }),
    });
    expect(login.status).toBe(200);

    // Every request's log lines carry its request id.
    const requestLines = server.lines.filter((l) => l.req !== undefined || l.res !== undefined);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((l) => typeof l.reqId === 'string')).toBe(true);

    server.child.kill('SIGTERM');
    expect(await withTimeout(server.exited, 10_000, 'stopping')).toBe(0);
  });

  it('on restart keeps its data and prints no password again', async () => {
    const server = await startServer(env);
    expect(server.lines.filter((l) => typeof l.password === 'string')).toEqual([]);
    expect(server.lines.some((l) => String(l.msg).includes('up to date'))).toBe(true);
    server.child.kill('SIGTERM');
    expect(await withTimeout(server.exited, 10_000, 'stopping')).toBe(0);
  });

  it('on SIGTERM finishes a request that is still arriving, then exits 0', async () => {
    const server = await startServer(env);
    const body = JSON.stringify({ userName: 'admin', password: 'not the password' });
    const socket = connect(server.port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk.toString();
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    await new Promise<void>((done) => socket.on('connect', () => done()));
    // Send the headers and half the body, stop the server, then send the rest.
    socket.write(
      `POST /api2/v3/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((done) => setTimeout(done, 200));
    server.child.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 300));
    expect(server.child.exitCode).toBeNull(); // still waiting for the request in flight
    socket.write(body.slice(10));
    await withTimeout(closed, 10_000, 'the in-flight response');
    expect(response).toMatch(/^HTTP\/1\.1 401/);
    expect(response).toContain('AuthInvalidCredentials');
    expect(await withTimeout(server.exited, 10_000, 'stopping')).toBe(0);
    expect(server.lines.some((l) => l.msg === 'stopped')).toBe(true);
  });

  it('refuses to start with a readable message when the configuration is wrong', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty', OPENTMS_DATA_DIR: dataDir },
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await withTimeout(new Promise((done) => child.on('exit', done)), 20_000, 'exiting');
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be a whole number');
  });
});

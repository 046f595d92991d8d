import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, TEST_DATABASE_URL } from './harness.js';
import { killAllStarted, runToExit, startProcess, withTimeout } from './support/child-process.js';
import type { StartedProcess } from './support/child-process.js';
import { waitFor } from './support/wait.js';

/**
 * The real entry point (src/main.ts) as a child process: it starts from nothing, announces the
 * generated admin password once, answers /health, and on SIGTERM finishes a request that is
 * still arriving before it exits 0. Bounded: every wait has a deadline and the children are killed.
 */

interface Server extends StartedProcess {
  port: number;
}

function startServer(env: Record<string, string>): Promise<Server> {
  const listening = (line: Record<string, unknown>) => /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(String(line.msg));
  return startProcess('src/main.ts', [], { HOST: '127.0.0.1', PORT: '0', ...env }, (line) => listening(line) !== null, 'the server').then(
    (started) => ({
      ...started,
      port: Number(started.lines.map(listening).find((m) => m)?.[1]),
    }),
  );
}

afterAll(killAllStarted);

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
    const announced = server.lines.filter((l) => typeof l.generatedPassword === 'string');
    expect(announced).toHaveLength(1);

    const login = await fetch(`http://127.0.0.1:${server.port}/api2/v3/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password: announced[0]!.generatedPassword }),
    });
    expect(login.status).toBe(200);
    // main.ts logs through the shared configuration (src/logging.ts): the token of a query is masked.
    const token = ((await login.json()) as { token: string }).token;
    expect((await fetch(`http://127.0.0.1:${server.port}/api2/v1/auth/whoAmI?token=${token}`)).status).toBe(200);
    await waitFor('the masked request line', () =>
      server.lines.some((l) => (l.req as { url?: string } | undefined)?.url === '/api2/v1/auth/whoAmI?token=[REDACTED]'),
    );
    expect(JSON.stringify(server.lines)).not.toContain(token);

    // Every request's log lines carry its request id.
    const requestLines = server.lines.filter((l) => l.req !== undefined || l.res !== undefined);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((l) => typeof l.reqId === 'string')).toBe(true);

    server.child.kill('SIGTERM');
    expect(await withTimeout(server.exited, 10_000, 'stopping')).toBe(0);
  });

  it('on restart keeps its data and prints no password again', async () => {
    const server = await startServer(env);
    expect(server.lines.filter((l) => typeof l.generatedPassword === 'string')).toEqual([]);
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
    const { code, stderr } = await runToExit('src/main.ts', [], { PORT: 'eighty', OPENTMS_DATA_DIR: dataDir });
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be a whole number');
  });
});

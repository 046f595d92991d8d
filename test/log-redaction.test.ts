import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createLogger, maskUrlSecrets, scrubSecrets } from '../src/logging.js';
import { createJsonLogger } from '../src/queue/log.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, loginAs, makeOrganization, makeServiceAccount, makeUser, tokenRequest } from './factories.js';

/**
 * Issue 13, "Secrets never in logs": the log of the real app (its own logger configuration,
 * src/logging.ts, at level trace) while clients send every kind of secret, and the worker's log.
 * No secret value may appear in any line, while the lines themselves are there.
 */
describe('secrets in logs', () => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  let t: TestApp;
  const password = 'Pa55-word-that-must-never-be-logged';
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({ log: { stream, level: 'trace' } });
  });
  afterAll(() => t.close());

  /** The captured log, and the secrets (by name) found in it. */
  const leaks = () => {
    const text = lines.join('');
    return [...secrets].filter(([, value]) => text.includes(value)).map(([name]) => name);
  };
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('redacts passwords, tokens, Authorization, Cookie, client secrets and webhook secrets in every line', async () => {
    const organization = await makeOrganization(t.database.db);
    const user = await makeUser(t.database.db, organization, { role: 'ADMIN', password });
    secrets.set('password', password);

    // A login with a password, and a failed one (401 AuthInvalidCredentials).
    const token = await loginAs(t, user, password);
    secrets.set('login token', token);
    const wrong = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: user.userName, password: `${password}-wrong` },
    });
    expect(wrong.statusCode).toBe(401);
    secrets.set('wrong password', `${password}-wrong`);

    // The token in the query (how Phrase clients authenticate), on a success and on a 404.
    expect((await t.inject({ url: `/api2/v1/auth/whoAmI?token=${token}` })).statusCode).toBe(200);
    expect((await t.inject({ url: `/api2/v1/projects/nope?pageSize=1&token=${token}` })).statusCode).toBe(404);
    // The Authorization header, and a cookie.
    const cookie = 'cookie-value-that-must-never-be-logged';
    secrets.set('cookie', cookie);
    expect(
      (await t.inject({ url: '/api2/v1/auth/whoAmI', headers: { ...apiToken(token), cookie: `OPENTMS_SESSION=${cookie}` } })).statusCode,
    ).toBe(200);

    // A service account: its client secret in the answer, then in the token request (good and bad).
    const account = await makeServiceAccount(t, apiToken(token));
    secrets.set('client secret', account.clientSecret);
    const issued = await tokenRequest(t, {
      grant_type: 'client_credentials',
      client_id: account.clientId,
      client_secret: account.clientSecret,
    });
    expect(issued.statusCode).toBe(200);
    secrets.set('access token', (issued.json() as { access_token: string }).access_token);
    const refused = await tokenRequest(t, {
      grant_type: 'client_credentials',
      client_id: account.clientId,
      client_secret: `${account.clientSecret}x`,
    });
    expect(refused.statusCode).toBe(401);

    // A webhook with a secret token; its signing secret comes back in the answer.
    const secretToken = 'webhook-secret-token-that-must-never-be-logged';
    secrets.set('webhook secret token', secretToken);
    const webhook = await t.inject({
      method: 'POST',
      url: '/api2/v2/webhooks',
      headers: apiToken(token),
      payload: { url: 'https://hooks.example.test/opentms', events: ['JOB_CREATED'], secretToken },
    });
    expect(webhook.statusCode).toBe(201);
    secrets.set('webhook signing secret', (webhook.json() as { signingSecret: string }).signingSecret);
    // A webhook refused for its body: the request carried the secret too.
    const badWebhook = await t.inject({
      method: 'POST',
      url: `/api2/v2/webhooks?token=${token}`,
      payload: { url: 'ftp://hooks.example.test/', events: ['JOB_CREATED'], secretToken },
    });
    expect(badWebhook.statusCode).toBe(400);

    // An unexpected failure (500): the table is gone while a request with secrets is served.
    await sql`alter table webhooks rename to webhooks_gone`.execute(t.database.db);
    try {
      const failure = await t.app.inject({
        method: 'POST',
        url: `/api2/v2/webhooks?token=${token}`,
        headers: { cookie: `OPENTMS_SESSION=${cookie}`, 'x-memsource-token': secretToken },
        payload: { url: 'https://hooks.example.test/opentms', events: ['JOB_CREATED'], secretToken },
      });
      expect(failure.statusCode).toBe(500);
    } finally {
      await sql`alter table webhooks_gone rename to webhooks`.execute(t.database.db);
    }
    // An error object that carries the request (body and headers), as an HTTP client's errors do.
    t.app.log.error(
      {
        err: Object.assign(new Error(`could not process /api2/v2/webhooks?token=${token}`), {
          body: { userName: user.userName, password, clientSecret: account.clientSecret, nested: { deeper: { secretToken } } },
          request: { url: `/api2/v2/webhooks?token=${token}`, headers: { ...apiToken(token), cookie, 'x-memsource-token': secretToken } },
        }),
      },
      'request failed',
    );

    // The lines are there: Fastify's request lines (URL masked) and the error with its body.
    const logged = parsed();
    const requestUrls = logged.filter((l) => l.msg === 'incoming request').map((l) => (l.req as { url: string }).url);
    expect(requestUrls).toContain('/api2/v1/auth/whoAmI?token=[REDACTED]');
    expect(requestUrls).toContain('/api2/v1/projects/nope?pageSize=1&token=[REDACTED]');
    expect(logged.filter((l) => l.msg === 'request completed').length).toBeGreaterThanOrEqual(10);
    const failures = logged.filter((l) => l.msg === 'request failed');
    expect(failures).toHaveLength(2);
    expect((failures[0]!.req as { url: string } | undefined)?.url ?? String(failures[0]!.reqId)).toBeTruthy();
    const failed = failures[1];
    const err = failed!.err as {
      message: string;
      body: Record<string, unknown>;
      request: { url: string; headers: Record<string, unknown> };
    };
    expect(err.message).toBe('could not process /api2/v2/webhooks?token=[REDACTED]');
    expect(err.body).toMatchObject({ userName: user.userName, password: '[REDACTED]', clientSecret: '[REDACTED]' });
    expect(err.body.nested).toEqual({ deeper: { secretToken: '[REDACTED]' } });
    expect(err.request.headers).toMatchObject({ authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-memsource-token': '[REDACTED]' });
    expect(logged.some((l) => l.errorCode === 'AuthInvalidCredentials')).toBe(true);

    expect(leaks()).toEqual([]);
  });

  it('redacts what code logs directly: fields named like secrets, headers, URLs, messages', () => {
    const before = lines.length;
    const token = secrets.get('login token')!;
    t.app.log.info({ password, body: { user: { password } }, headers: { authorization: `ApiToken ${token}` } }, 'direct');
    t.app.log.info({ url: `https://tms.example.test/api2/v1/users?pageSize=5&token=${token}` }, `GET /x?token=${token}`);
    t.app.log.warn({ callbackUrl: `https://user:${password}@hooks.example.test/cb` }, 'callback');
    // MT engine credentials, in a body and in an engine's URL.
    t.app.log.info({ body: { name: 'DeepL', credentials: { apiKey: 'mt-secret-key-42' } } }, 'mt settings');
    t.app.log.info({ url: 'http://127.0.0.1:2737/translate?langpair=eng|spa&key=mt-secret-key-42' }, 'engine');
    const added = lines.slice(before).join('');
    expect(added).not.toContain('mt-secret-key-42');
    expect(added).toContain('direct');
    expect(added).toContain('pageSize=5&token=[REDACTED]');
    expect(added).toContain('https://user:[REDACTED]@hooks.example.test/cb');
    expect(added).not.toContain(password);
    expect(added).not.toContain(token);
  });

  it("redacts the worker's and the queue's log lines the same way", () => {
    const workerLines: string[] = [];
    const log = createJsonLogger('debug', (line) => workerLines.push(line));
    const token = 'queue-token-that-must-never-be-logged';
    const error = Object.assign(new Error(`callback to https://hooks.example.test/cb?token=${token} failed`), {
      url: `https://hooks.example.test/cb?token=${token}`,
      payload: { secretToken: token, headers: { authorization: `Bearer ${token}` } },
    });
    log.warn({ taskId: '7', kind: 'async.callback', attempt: 5, err: error }, 'task failed for good');
    log.info({ taskId: '8', payload: { clientSecret: token } }, 'task started');
    expect(workerLines).toHaveLength(2);
    const first = JSON.parse(workerLines[0]!) as { msg: string; taskId: string; err: { url: string; payload: unknown } };
    expect(first).toMatchObject({ msg: 'task failed for good', taskId: '7', level: 40 });
    expect(first.err.url).toBe('https://hooks.example.test/cb?token=[REDACTED]');
    expect(first.err.payload).toEqual({ secretToken: '[REDACTED]', headers: { authorization: '[REDACTED]' } });
    expect(workerLines.join('')).not.toContain(token);
  });
});

describe('maskUrlSecrets and scrubSecrets', () => {
  it.each([
    ['/api2/v1/users?token=abc', '/api2/v1/users?token=[REDACTED]'],
    ['/api2/v1/users?pageSize=5&TOKEN=abc&x=1', '/api2/v1/users?pageSize=5&TOKEN=[REDACTED]&x=1'],
    ['/idm?client_secret=s3&access_token=t#frag', '/idm?client_secret=[REDACTED]&access_token=[REDACTED]#frag'],
    ['https://u:p4ss@host.example/x', 'https://u:[REDACTED]@host.example/x'],
    ['/api2/v1/users?mytoken=keep', '/api2/v1/users?mytoken=keep'],
    ['client_secret=s3&grant_type=client_credentials', 'client_secret=[REDACTED]&grant_type=client_credentials'],
    ['form: grant_type=password&password=p4ss', 'form: grant_type=password&password=[REDACTED]'],
    ['no secrets here', 'no secrets here'],
  ])('%s', (input, expected) => {
    expect(maskUrlSecrets(input)).toBe(expected);
  });

  it('scrubs at any depth, survives cycles and leaves instances out', () => {
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(scrubSecrets({ a: { b: { c: { d: { Password: 'x', keep: 1 } } } }, cyclic, buffer: Buffer.from('secret') })).toEqual({
      a: { b: { c: { d: { Password: '[REDACTED]', keep: 1 } } } },
      cyclic: { name: 'a', self: '[Circular]' },
      buffer: '[Buffer]',
    });
  });

  it('is the configuration of createLogger, at the level asked', () => {
    const out: string[] = [];
    const log = createLogger('warn', { write: (line: string) => void out.push(line) });
    log.info({ password: 'x' }, 'below the level');
    log.warn({ password: 'x' }, 'at the level');
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ password: '[REDACTED]', msg: 'at the level', time: expect.stringMatching(/^\d{4}-/) });
  });
});

import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors/index.js';
import { classifyAddress } from '../src/domain/network/address-ranges.js';
import { MAX_RESPONSE_BYTES, OutboundFailed, OutboundRefused, postJson } from '../src/outbound/http-client.js';
import type { PostJsonOptions, ResolvedAddress } from '../src/outbound/http-client.js';
import { SIGNATURE_HEADER, signBody, verifySignature } from '../src/outbound/signature.js';
import { assertOutboundUrl, checkOutboundUrl } from '../src/outbound/url-policy.js';

// ---------------------------------------------------------------------------------------------
// Loopback receivers

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  origin: string;
  port: number;
  received: Received[];
  server: http.Server | https.Server;
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

const servers: (http.Server | https.Server)[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: http.Server | https.Server, host: string): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function receiver(handler: Handler, host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, response, body);
    });
  });
  const port = await listen(server, host);
  const shown = host.includes(':') ? `[${host}]` : host;
  return { origin: `http://${shown}:${port}`, port, received, server };
}

const ok: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
};

const redirectTo =
  (status: number, location: string): Handler =>
  (_request, response) => {
    response.writeHead(status, { location }).end();
  };

const BODY = JSON.stringify({ event: 'JOB_STATUS_CHANGED', timestamp: 1, text: 'Grüße ✓' });
const allowed: PostJsonOptions = { timeoutMs: 5_000, allowPrivate: true };
const strict: PostJsonOptions = { timeoutMs: 5_000, allowPrivate: false };

/** Marks 127.0.0.2 as a public address, so that a loopback server can stand in for the Internet. */
const classifyWithPublicLoopback2 = (ip: string) => (ip === '127.0.0.2' ? 'public' : classifyAddress(ip));

function resolverFrom(table: Record<string, string[]>, calls: string[] = []) {
  return async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return error as OutboundRefused;
}

async function failure(promise: Promise<unknown>): Promise<OutboundFailed> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundFailed);
  return error as OutboundFailed;
}

// ---------------------------------------------------------------------------------------------

describe('checkOutboundUrl', () => {
  it.each([
    'https://example.com/hook',
    'http://example.com:8080/hook?x=1',
    'https://hooks.example.com./path',
    'http://8.8.8.8/hook',
    'http://[2606:4700:4700::1111]:8443/hook',
    'HTTPS://EXAMPLE.COM/Hook',
  ])('accepts %s', (url) => {
    const result = checkOutboundUrl(url, { allowPrivate: false });
    expect(result.ok).toBe(true);
  });

  it.each([
    ['ftp://example.com/file', /Only http and https/],
    ['file:///etc/passwd', /Only http and https/],
    ['javascript:alert(1)', /Only http and https/],
    ['data:application/json,{}', /Only http and https/],
    ['ws://example.com/socket', /Only http and https/],
    ['gopher://example.com/', /Only http and https/],
    ['mailto:someone@example.com', /Only http and https/],
    ['https://user:secret@example.com/hook', /user name or password/],
    ['https://user@example.com/hook', /user name or password/],
    ['https://:secret@example.com/hook', /user name or password/],
    ['/relative/hook', /not a valid absolute URL/],
    ['example.com/hook', /not a valid absolute URL/],
    ['http://exa mple.com/', /spaces or control/],
    [' https://example.com/', /spaces or control/],
    ['https://example.com/\nhook', /spaces or control/],
    ['https://example.com/\thook', /spaces or control/],
    ['', /empty/],
    ['http://[::1/', /not a valid absolute URL/],
  ])('refuses %j', (url, reason) => {
    const result = checkOutboundUrl(url, { allowPrivate: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('limits the length to 2048 characters', () => {
    const base = 'https://example.com/';
    expect(checkOutboundUrl(base + 'a'.repeat(2048 - base.length), { allowPrivate: false }).ok).toBe(true);
    const long = checkOutboundUrl(base + 'a'.repeat(2049 - base.length), { allowPrivate: false });
    expect(long).toEqual({ ok: false, reason: 'The URL is longer than 2048 characters.' });
  });

  it.each([
    // Odd IPv4 spellings: the URL parser normalises them, and the normalised address is checked.
    ['http://2130706433/hook', '127.0.0.1', 'loopback'],
    ['http://0177.0.0.1/hook', '127.0.0.1', 'loopback'],
    ['http://0x7f.1/hook', '127.0.0.1', 'loopback'],
    ['http://0x7f000001/hook', '127.0.0.1', 'loopback'],
    ['http://127.1/hook', '127.0.0.1', 'loopback'],
    ['http://017700000001/hook', '127.0.0.1', 'loopback'],
    ['http://0/hook', '0.0.0.0', 'unspecified'],
    ['http://167772161/', '10.0.0.1', 'private'],
    ['http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/', '169.254.169.254', 'link-local'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'link-local'],
    ['http://100.64.0.1/', '100.64.0.1', 'private'],
    ['http://192.168.1.1/', '192.168.1.1', 'private'],
    ['http://172.16.0.1/', '172.16.0.1', 'private'],
    ['http://224.0.0.1/', '224.0.0.1', 'multicast'],
    ['http://255.255.255.255/', '255.255.255.255', 'reserved'],
    ['http://192.0.2.10/', '192.0.2.10', 'reserved'],
    // IPv6, including IPv4 carried inside IPv6
    ['http://[::1]/', '::1', 'loopback'],
    ['http://[::]/', '::', 'unspecified'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
    ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1', 'private'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe', 'link-local'],
    ['http://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1', 'private'],
    ['http://[fe80::1]/', 'fe80::1', 'link-local'],
    ['http://[fd00::1]/', 'fd00::1', 'private'],
    ['http://[ff02::1]/', 'ff02::1', 'multicast'],
  ])('refuses %s (%s, %s) unless private targets are allowed', (url, address, kind) => {
    const result = checkOutboundUrl(url, { allowPrivate: false });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain(`${address} is a`);
      expect(result.reason).toContain(kind === 'private' ? 'private network' : kind === 'reserved' ? 'reserved' : kind);
      expect(result.reason).toContain('OPENTMS_ALLOW_PRIVATE_CALLBACKS');
    }
    const permitted = checkOutboundUrl(url, { allowPrivate: true });
    expect(permitted.ok).toBe(true);
    if (permitted.ok) expect(permitted.url.hostname.replace(/^\[|\]$/g, '')).toBe(address);
  });

  it.each(['http://localhost/hook', 'http://LOCALHOST:8080/', 'http://localhost./', 'http://api.localhost/'])(
    'refuses %s by name, without a lookup, unless private targets are allowed',
    (url) => {
      const result = checkOutboundUrl(url, { allowPrivate: false });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/local host/);
      expect(checkOutboundUrl(url, { allowPrivate: true }).ok).toBe(true);
    },
  );

  it('leaves names to the lookup at send time', () => {
    // notlocalhost.example is not the local host by name; what it resolves to is checked by postJson.
    expect(checkOutboundUrl('http://notlocalhost.example/', { allowPrivate: false }).ok).toBe(true);
  });
});

describe('assertOutboundUrl', () => {
  it('returns the parsed URL', () => {
    expect(assertOutboundUrl('https://example.com/a?b=c', { allowPrivate: false }, 'url').href).toBe('https://example.com/a?b=c');
  });

  it('throws a 400 InvalidCallbackUrl naming the field', () => {
    let caught: unknown;
    try {
      assertOutboundUrl('http://10.0.0.1/hook', { allowPrivate: false }, 'callbackUrl');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const error = caught as ApiError;
    expect(error.statusCode).toBe(400);
    expect(error.errorCode).toBe('InvalidCallbackUrl');
    expect(error.message).toMatch(/^Invalid callbackUrl: 10\.0\.0\.1 is a private network address/);
    expect(error.details).toEqual([{ field: 'callbackUrl', message: expect.stringMatching(/^10\.0\.0\.1 is a private network address/) }]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('postJson: policy', () => {
  it('refuses a loopback receiver by default, before connecting', async () => {
    const target = await receiver(ok);
    const error = await refusal(postJson(`${target.origin}/hook`, BODY, strict));
    expect(error.reason).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(error.url).toBe(`${target.origin}/hook`);
    expect(target.received).toHaveLength(0);
  });

  it('refuses localhost by name', async () => {
    const target = await receiver(ok);
    const error = await refusal(postJson(`http://localhost:${target.port}/hook`, BODY, strict));
    expect(error.reason).toMatch(/localhost is the local host/);
    expect(target.received).toHaveLength(0);
  });

  it('refuses a name that resolves to a forbidden address', async () => {
    const target = await receiver(ok);
    const error = await refusal(
      postJson(`http://receiver.test:${target.port}/hook`, BODY, { ...strict, resolve: resolverFrom({ 'receiver.test': ['127.0.0.1'] }) }),
    );
    expect(error.reason).toMatch(/^receiver\.test resolves to 127\.0\.0\.1, which is a loopback address/);
    expect(target.received).toHaveLength(0);
  });

  it('refuses when any of the addresses is forbidden (DNS rebinding), whatever the order', async () => {
    const target = await receiver(ok);
    for (const addresses of [
      ['93.184.216.34', '127.0.0.1'],
      ['127.0.0.1', '93.184.216.34'],
      ['2606:2800:220:1:248:1893:25c8:1946', '::ffff:169.254.169.254'],
    ]) {
      const error = await refusal(
        postJson(`http://rebind.test:${target.port}/hook`, BODY, { ...strict, resolve: resolverFrom({ 'rebind.test': addresses }) }),
      );
      expect(error.reason).toMatch(/^rebind\.test resolves to /);
    }
    expect(target.received).toHaveLength(0);
  });

  it('connects to the address it checked, not to a second lookup, and sends the name as Host', async () => {
    // receiver.test does not exist in DNS: only the resolver seam knows it. Were the connection
    // to look the name up again, it would fail.
    const target = await receiver(ok);
    const calls: string[] = [];
    const result = await postJson(`http://receiver.test:${target.port}/hook`, BODY, {
      ...allowed,
      resolve: resolverFrom({ 'receiver.test': ['127.0.0.1'] }, calls),
    });
    expect(result.status).toBe(200);
    expect(result.remoteAddress).toBe('127.0.0.1');
    expect(calls).toEqual(['receiver.test']);
    expect(target.received[0]!.headers.host).toBe(`receiver.test:${target.port}`);
  });

  it('tries the next checked address when one refuses the connection, and only those', async () => {
    const target = await receiver(ok);
    const result = await postJson(`http://multi.test:${target.port}/hook`, BODY, {
      ...allowed,
      resolve: resolverFrom({ 'multi.test': ['127.0.0.3', '127.0.0.1'] }),
    });
    expect(result.status).toBe(200);
    expect(result.remoteAddress).toBe('127.0.0.1');
  });

  it('reaches a name whose addresses are all public', async () => {
    const target = await receiver(ok, '127.0.0.2');
    const result = await postJson(`http://public.test:${target.port}/hook`, BODY, {
      ...strict,
      classify: classifyWithPublicLoopback2,
      resolve: resolverFrom({ 'public.test': ['127.0.0.2'] }),
    });
    expect(result.status).toBe(200);
    expect(result.remoteAddress).toBe('127.0.0.2');
  });

  it('checks the TLS certificate against the original name, sent as SNI', async () => {
    const names: string[] = [];
    const server = https.createServer(
      {
        key: TEST_KEY,
        cert: TEST_CERT,
        SNICallback: (name, callback) => {
          names.push(name);
          callback(null, undefined);
        },
      },
      (_request, response) => response.end('ok'),
    );
    server.on('tlsClientError', () => undefined);
    const port = await listen(server, '127.0.0.1');
    const error = await failure(
      postJson(`https://receiver.test:${port}/hook`, BODY, { ...allowed, resolve: resolverFrom({ 'receiver.test': ['127.0.0.1'] }) }),
    );
    // The self-signed certificate is not trusted: verification is on.
    expect(error.code).toBe('NETWORK');
    expect((error.cause as NodeJS.ErrnoException).code).toMatch(/CERT|SELF_SIGNED/);
    expect(names).toEqual(['receiver.test']);
  });
});

describe('postJson: exchange', () => {
  it('POSTs the body with the client headers and the caller headers', async () => {
    const target = await receiver(ok);
    const result = await postJson(`${target.origin}/hook?x=1`, BODY, {
      ...allowed,
      headers: { 'X-OpenTMS-Event': 'JOB_STATUS_CHANGED', 'x-memsource-token': 'secret-token' },
    });
    expect(result).toMatchObject({
      status: 200,
      bodySnippet: 'thanks',
      bodyTruncated: false,
      finalUrl: `${target.origin}/hook?x=1`,
      remoteAddress: '127.0.0.1',
      redirects: 0,
      finalMethod: 'POST',
    });
    expect(result.headers['content-type']).toBe('text/plain');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [request] = target.received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/hook?x=1');
    expect(request!.body.toString('utf8')).toBe(BODY);
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request!.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(request!.headers['user-agent']).toMatch(/^OpenTMS\/\d+\.\d+\.\d+\S* \(\+webhooks\)$/);
    expect(request!.headers['x-opentms-event']).toBe('JOB_STATUS_CHANGED');
    expect(request!.headers['x-memsource-token']).toBe('secret-token');
  });

  it('keeps its own Host, Content-Type, Content-Length and User-Agent', async () => {
    const target = await receiver(ok);
    await postJson(`${target.origin}/hook`, BODY, {
      ...allowed,
      headers: {
        Host: 'evil.example',
        'content-type': 'text/plain',
        'Content-Length': '1',
        'User-Agent': 'curl',
        'Transfer-Encoding': 'chunked',
      },
    });
    const headers = target.received[0]!.headers;
    expect(headers.host).toBe(`127.0.0.1:${target.port}`);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(headers['user-agent']).toMatch(/^OpenTMS\//);
    expect(headers['transfer-encoding']).toBeUndefined();
  });

  it.each([201, 204, 400, 401, 404, 410, 500, 503])('returns status %i without throwing', async (status) => {
    const target = await receiver((_request, response) => {
      response.writeHead(status).end(status === 204 ? undefined : `status ${status}`);
    });
    const result = await postJson(`${target.origin}/hook`, BODY, allowed);
    expect(result.status).toBe(status);
    expect(result.bodySnippet).toBe(status === 204 ? '' : `status ${status}`);
  });

  it('reaches the IPv6 loopback when allowed', async () => {
    let target: Receiver;
    try {
      target = await receiver(ok, '::1');
    } catch {
      return; // no IPv6 on this machine
    }
    const result = await postJson(`${target.origin}/hook`, BODY, allowed);
    expect(result.status).toBe(200);
    expect(result.remoteAddress).toBe('::1');
    await refusal(postJson(`${target.origin}/hook`, BODY, strict));
  });

  it('times out on a receiver that never answers', async () => {
    const target = await receiver(() => undefined);
    const started = Date.now();
    const error = await failure(postJson(`${target.origin}/hook`, BODY, { ...allowed, timeoutMs: 200 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/200 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('returns the status of a receiver whose body never ends, once the time is up', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const started = Date.now();
    const result = await postJson(`${target.origin}/hook`, BODY, { ...allowed, timeoutMs: 300 });
    expect(result.status).toBe(200);
    expect(result.bodySnippet).toBe('partial');
    expect(result.bodyTruncated).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reads at most 64 KiB of a large response and keeps 2 KiB', async () => {
    let written = 0;
    let closed = false;
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        // 8 MiB if nobody stops reading; the client stops at 64 KiB.
        while (written < 8 * 1024 * 1024 && !closed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => (closed = true));
      pump();
    });
    const result = await postJson(`${target.origin}/hook`, BODY, allowed);
    expect(result.status).toBe(200);
    expect(result.bodySnippet).toBe('x'.repeat(2048));
    expect(result.bodyTruncated).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(true);
    expect(written).toBeLessThan(8 * 1024 * 1024);
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
  });

  it('does not cut a character in two in the snippet', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(500).end('a' + 'é'.repeat(2000));
    });
    const result = await postJson(`${target.origin}/hook`, BODY, allowed);
    expect(result.bodySnippet).toBe('a' + 'é'.repeat(1023));
    expect(result.bodyTruncated).toBe(false);
  });

  it('fails with NETWORK when nothing listens', async () => {
    const target = await receiver(ok);
    const port = target.port;
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(postJson(`http://127.0.0.1:${port}/hook`, BODY, allowed));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('fails with DNS when the name does not resolve', async () => {
    const error = await failure(postJson('http://nowhere.test/hook', BODY, { ...strict, resolve: resolverFrom({}) }));
    expect(error.code).toBe('DNS');
    expect(error.message).toMatch(/nowhere\.test could not be resolved \(ENOTFOUND\)/);
    const empty = await failure(postJson('http://empty.test/hook', BODY, { ...strict, resolve: async () => [] }));
    expect(empty.code).toBe('DNS');
  });

  it('counts a slow lookup against the timeout', async () => {
    const error = await failure(
      postJson('http://slow.test/hook', BODY, { ...strict, timeoutMs: 100, resolve: () => new Promise(() => undefined) }),
    );
    expect(error.code).toBe('TIMEOUT');
  });

  it('stops when the caller aborts', async () => {
    const target = await receiver(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(postJson(`${target.origin}/hook`, BODY, { ...allowed, signal: controller.signal }));
    expect(error.code).toBe('ABORTED');
    const already = await failure(postJson(`${target.origin}/hook`, BODY, { ...allowed, signal: AbortSignal.abort() }));
    expect(already.code).toBe('ABORTED');
  });
});

describe('postJson: redirects', () => {
  it.each([
    [301, 'GET'],
    [302, 'GET'],
    [303, 'GET'],
    [307, 'POST'],
    [308, 'POST'],
  ])('follows %i with %s', async (status, method) => {
    const target = await receiver((request, response) => {
      if (request.url === '/old') redirectTo(status, '/new?y=2')(request, response, Buffer.alloc(0));
      else ok(request, response, Buffer.alloc(0));
    });
    const result = await postJson(`${target.origin}/old`, BODY, allowed);
    expect(result).toMatchObject({ status: 200, redirects: 1, finalUrl: `${target.origin}/new?y=2`, finalMethod: method });
    const second = target.received[1]!;
    expect(second.method).toBe(method);
    expect(second.url).toBe('/new?y=2');
    if (method === 'POST') {
      expect(second.body.toString('utf8')).toBe(BODY);
      expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    } else {
      expect(second.body.length).toBe(0);
      expect(second.headers['content-type']).toBeUndefined();
      expect(second.headers['content-length']).toBeUndefined();
    }
  });

  it('follows at most maxRedirects hops and returns the last redirect', async () => {
    const target = await receiver(redirectTo(302, '/again'));
    const result = await postJson(`${target.origin}/start`, BODY, allowed);
    expect(result.status).toBe(302);
    expect(result.redirects).toBe(3);
    expect(result.headers.location).toBe('/again');
    expect(target.received).toHaveLength(4);
    const none = await postJson(`${target.origin}/start`, BODY, { ...allowed, maxRedirects: 0 });
    expect(none.status).toBe(302);
    expect(none.redirects).toBe(0);
  });

  it('returns a redirect without Location as it is', async () => {
    const target = await receiver((_request, response) => response.writeHead(302).end());
    const result = await postJson(`${target.origin}/hook`, BODY, allowed);
    expect(result.status).toBe(302);
    expect(target.received).toHaveLength(1);
  });

  it('refuses a redirect from a public target to a forbidden address', async () => {
    const inside = await receiver(ok, '127.0.0.1');
    const outside = await receiver(redirectTo(307, `${inside.origin}/admin`), '127.0.0.2');
    const options = { ...strict, classify: classifyWithPublicLoopback2 };
    const error = await refusal(postJson(`${outside.origin}/hook`, BODY, options));
    expect(error.reason).toMatch(/^the redirect to http:\/\/127\.0\.0\.1:\d+\/admin is refused: 127\.0\.0\.1 is a loopback address/);
    expect(error.url).toBe(`${inside.origin}/admin`);
    expect(outside.received).toHaveLength(1);
    expect(inside.received).toHaveLength(0);
  });

  it('refuses a redirect to a name that resolves to a forbidden address', async () => {
    const inside = await receiver(ok, '127.0.0.1');
    const outside = await receiver(redirectTo(302, `http://internal.test:${inside.port}/`), '127.0.0.2');
    const error = await refusal(
      postJson(`${outside.origin}/hook`, BODY, {
        ...strict,
        classify: classifyWithPublicLoopback2,
        resolve: resolverFrom({ 'internal.test': ['10.0.0.5', '127.0.0.1'] }),
      }),
    );
    expect(error.reason).toMatch(/^the redirect to http:\/\/internal\.test:\d+\/ is refused: internal\.test resolves to 10\.0\.0\.5/);
    expect(inside.received).toHaveLength(0);
  });

  it.each([
    ['file:///etc/passwd', /Only http and https/],
    ['http://user:pw@127.0.0.2/', /user name or password/],
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://localhost/', /local host/],
  ])('refuses a redirect to %s', async (location, reason) => {
    const outside = await receiver(redirectTo(302, location), '127.0.0.2');
    const error = await refusal(postJson(`${outside.origin}/hook`, BODY, { ...strict, classify: classifyWithPublicLoopback2 }));
    expect(error.reason).toMatch(/^the redirect to .* is refused: /);
    expect(error.reason).toMatch(reason);
  });

  it('follows redirects between public targets', async () => {
    const second = await receiver(ok, '127.0.0.2');
    const first = await receiver(redirectTo(308, `${second.origin}/final`), '127.0.0.2');
    const result = await postJson(`${first.origin}/hook`, BODY, { ...strict, classify: classifyWithPublicLoopback2 });
    expect(result).toMatchObject({ status: 200, redirects: 1, finalUrl: `${second.origin}/final`, remoteAddress: '127.0.0.2' });
    expect(second.received[0]!.body.toString('utf8')).toBe(BODY);
  });

  it('drops secret headers when the redirect leaves the origin, and keeps them within it', async () => {
    const other = await receiver(ok);
    const target = await receiver((request, response) => {
      if (request.url === '/same') redirectTo(307, '/moved')(request, response, Buffer.alloc(0));
      else if (request.url === '/cross') redirectTo(307, `${other.origin}/moved`)(request, response, Buffer.alloc(0));
      else ok(request, response, Buffer.alloc(0));
    });
    const headers = {
      'X-Memsource-Token': 'secret-token',
      Authorization: 'Bearer x',
      [SIGNATURE_HEADER]: signBody('signing-secret', BODY),
      'X-OpenTMS-Event': 'JOB_CREATED',
    };
    await postJson(`${target.origin}/same`, BODY, { ...allowed, headers });
    const same = target.received[1]!.headers;
    expect(same['x-memsource-token']).toBe('secret-token');
    expect(same.authorization).toBe('Bearer x');

    await postJson(`${target.origin}/cross`, BODY, { ...allowed, headers });
    const cross = other.received[0]!.headers;
    expect(cross['x-memsource-token']).toBeUndefined();
    expect(cross.authorization).toBeUndefined();
    expect(cross['x-opentms-signature']).toBe(signBody('signing-secret', BODY));
    expect(cross['x-opentms-event']).toBe('JOB_CREATED');
  });

  it('spends one time budget on every hop', async () => {
    const slow = await receiver(() => undefined);
    const first = await receiver(redirectTo(307, `${slow.origin}/slow`));
    const error = await failure(postJson(`${first.origin}/hook`, BODY, { ...allowed, timeoutMs: 200 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.url).toBe(`${slow.origin}/slow`);
  });
});

describe('signatures', () => {
  it('is sha256=<hex HMAC-SHA256>', () => {
    // RFC 4231-style known answer.
    expect(signBody('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    expect(SIGNATURE_HEADER).toBe('X-OpenTMS-Signature');
  });

  it('verifies its own signatures, of strings and of raw bytes', () => {
    const header = signBody('s3cret', BODY);
    expect(verifySignature('s3cret', BODY, header)).toBe(true);
    expect(verifySignature('s3cret', Buffer.from(BODY, 'utf8'), header)).toBe(true);
    expect(verifySignature('s3cret', BODY, header.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifySignature('s3cret', BODY, ` ${header} `)).toBe(true);
  });

  it('detects tampering, the wrong secret and malformed headers', () => {
    const header = signBody('s3cret', BODY);
    expect(verifySignature('s3cret', BODY.replace('JOB_STATUS_CHANGED', 'JOB_CREATED'), header)).toBe(false);
    expect(verifySignature('s3cret', `${BODY} `, header)).toBe(false);
    expect(verifySignature('other', BODY, header)).toBe(false);
    expect(verifySignature('s3cret', BODY, undefined)).toBe(false);
    expect(verifySignature('s3cret', BODY, null)).toBe(false);
    expect(verifySignature('s3cret', BODY, [header])).toBe(false);
    expect(verifySignature('s3cret', BODY, header.slice('sha256='.length))).toBe(false);
    expect(verifySignature('s3cret', BODY, header.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifySignature('s3cret', BODY, header.slice(0, -2))).toBe(false);
    expect(verifySignature('s3cret', BODY, `${header}00`)).toBe(false);
    expect(verifySignature('s3cret', BODY, 'sha256=' + 'z'.repeat(64))).toBe(false);
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(verifySignature('s3cret', BODY, flipped)).toBe(false);
  });

  it('lets a receiver verify the bytes it got', async () => {
    const target = await receiver((request, response, body) => {
      const valid = verifySignature('s3cret', body, request.headers['x-opentms-signature']);
      response.writeHead(valid ? 204 : 401).end();
    });
    const good = await postJson(`${target.origin}/hook`, BODY, { ...allowed, headers: { [SIGNATURE_HEADER]: signBody('s3cret', BODY) } });
    expect(good.status).toBe(204);
    const bad = await postJson(`${target.origin}/hook`, BODY, { ...allowed, headers: { [SIGNATURE_HEADER]: signBody('wrong', BODY) } });
    expect(bad.status).toBe(401);
  });
});

// A throwaway self-signed certificate for receiver.test (EC P-256, 100 years), used only to check
// that TLS verification is on and that SNI carries the original name. Not a secret.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7W9Y3UBxctcKuzcb
ucITykQi1Ff6fdz1jPNf7/mRHm6hRANCAARt5sKR2llHA6uk8e+yCKlkZY5W2g8g
hVsLCy/t+7DsKLhoKDW65y5Fo1D+0HGzTNmkFnh0Y9pfmVZ9B2b1jzDO
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBoTCCAUegAwIBAgIUQrKygumCkn+cdfghw4Z2/Pf6ofEwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDAgFw0yNjExMjExNDI5MTFaGA8yMTI2
MTAyODE0MjkxMVowGDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABG3mwpHaWUcDq6Tx77IIqWRljlbaDyCFWwsLL+37sOwo
uGgoNbrnLkWjUP7QcbNM2aQWeHRj2l+ZVn0HZvWPMM6jbTBrMB0GA1UdDgQWBBSC
DIzffuHSZMjd7xwA+5HGpGyt3zAfBgNVHSMEGDAWgBSCDIzffuHSZMjd7xwA+5HG
pGyt3zAPBgNVHRMBAf8EBTADAQH/MBgGA1UdEQQRMA+CDXJlY2VpdmVyLnRlc3Qw
CgYIKoZIzj0EAwIDSAAwRQIhALohVjSHXZ2p8F+BKYQPQGAaYK2EP7cnrKE8jWw4
o4XjAiAuEdpuzmc1aZMUKrzA5UqjPb4Ugb+sFIjy60DBUGbaQQ==
-----END CERTIFICATE-----
`;

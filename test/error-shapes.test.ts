import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMS_ERRORS } from '../src/errors/index.js';
import type { ErrorCode } from '../src/errors/index.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';
import { filePart, multipart } from './support/upload-bodies.js';

/**
 * The refusals the HTTP layer makes before a handler runs (a body over the limit, a content type
 * no parser takes, headers larger than Node's parser allows, bytes that are not HTTP), checked
 * over a real loopback connection rather than `inject`: Node's parser and the socket handling only
 * take part there. Each must answer in the error shape of every other error, as JSON.
 */

const BODY_LIMIT = 1024;
const UPLOAD_LIMIT = 4096;
/** Every exchange is bounded: a server that does not answer fails the test instead of hanging it. */
const EXCHANGE_TIMEOUT_MS = 5000;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as raw bytes on a new connection and reads one response (by Content-Length, or until the server closes). */
function exchange(port: number, request: Buffer | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${EXCHANGE_TIMEOUT_MS} ms`));
    }, EXCHANGE_TIMEOUT_MS);
    const parsed = (): RawResponse | null => {
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const body = raw.subarray(end + 4);
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (length !== undefined && body.length < length) return null;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
    };
    const finish = (response: RawResponse | null, error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (response) resolve(response);
      else reject(error ?? new Error(`the connection closed without a complete response: ${Buffer.concat(chunks).toString('latin1')}`));
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const response = parsed();
      if (response && response.headers['content-length'] !== undefined) finish(response);
    });
    socket.on('end', () => finish(parsed()));
    // A reset after the answer arrived still leaves a complete answer to read.
    socket.on('error', (error) => finish(parsed(), error));
    // Not end(): a client that half-closes makes Node abort the request it is still reading.
    socket.write(request);
  });
}

/** An HTTP/1.1 request as bytes; the server closes the connection after answering. */
function httpRequest(method: string, path: string, headers: Record<string, string | number> = {}, body: Buffer | string = ''): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const all: Record<string, string | number> = { host: '127.0.0.1', connection: 'close', ...headers };
  if (bytes.length > 0) all['content-length'] = bytes.length;
  const head = [`${method} ${path} HTTP/1.1`, ...Object.entries(all).map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), bytes]);
}

/** A TMS error answer: JSON `{errorCode, errorDescription, errorDetails}` with the catalogue's status for the code. */
function expectTmsError(response: RawResponse, code: ErrorCode): void {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toEqual({ errorCode: code, errorDescription: expect.any(String), errorDetails: expect.any(Array) });
  expect(response.status).toBe(TMS_ERRORS[code].status);
}

describe('error answers of the HTTP layer, over a real connection', () => {
  let t: TestApp;
  let port: number;
  let token: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_BODY_LIMIT_BYTES: String(BODY_LIMIT), OPENTMS_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });
    ({ headers: token } = await signedInUser(t, 'ADMIN'));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const tooLargeJson = JSON.stringify({ userName: 'x'.repeat(BODY_LIMIT * 2), password: 'secret-password' });

  it.each(['/api2', '/web/api2'])('%s: a JSON body over OPENTMS_BODY_LIMIT_BYTES is a 413 PayloadTooLarge', async (prefix) => {
    const response = await exchange(
      port,
      httpRequest('POST', `${prefix}/v3/auth/login`, { 'content-type': 'application/json' }, tooLargeJson),
    );
    expectTmsError(response, 'PayloadTooLarge');
  });

  it.each(['/api2', '/web/api2'])(
    '%s: an upload over OPENTMS_UPLOAD_LIMIT_BYTES is a 413 FileTooLarge, as octet-stream and as multipart',
    async (prefix) => {
      const octets = await exchange(
        port,
        httpRequest(
          'POST',
          `${prefix}/v1/files`,
          { ...token, 'content-type': 'application/octet-stream', 'content-disposition': "filename*=UTF-8''big.bin" },
          Buffer.alloc(UPLOAD_LIMIT * 4, 1),
        ),
      );
      expectTmsError(octets, 'FileTooLarge');

      const form = await multipart([filePart('big.bin', Buffer.alloc(UPLOAD_LIMIT * 4, 2))]);
      const parts = await exchange(port, httpRequest('POST', `${prefix}/v1/files`, { ...token, ...form.headers }, form.payload));
      expectTmsError(parts, 'FileTooLarge');
    },
  );

  it.each(['/api2', '/web/api2'])('%s: a Content-Type no parser takes is a 415 UnsupportedMediaType', async (prefix) => {
    const response = await exchange(port, httpRequest('POST', `${prefix}/v3/auth/login`, { 'content-type': 'text/xml' }, '<login/>'));
    expectTmsError(response, 'UnsupportedMediaType');
  });

  it.each(['/api2/v1/users', '/web/api2/v1/users', '/health', '/no/such/path'])(
    '%s: headers larger than Node accepts are a 431 in the error shape, and the connection closes',
    async (path) => {
      const response = await exchange(port, httpRequest('GET', path, { ...token, 'x-padding': 'a'.repeat(20_000) }));
      expectTmsError(response, 'RequestHeaderFieldsTooLarge');
      expect(response.headers.connection).toBe('close');
      // The server itself is unaffected.
      expect((await exchange(port, httpRequest('GET', '/health'))).status).toBe(200);
    },
  );

  it('bytes that are not an HTTP request are a 400 BadRequest in the error shape', async () => {
    const response = await exchange(port, 'NOT AN HTTP REQUEST\r\n\r\n');
    expectTmsError(response, 'BadRequest');
  });

  it('a path that is not a valid URL is a 400 InvalidRequestPath, a path parameter over 500 characters a 414', async () => {
    expectTmsError(await exchange(port, httpRequest('GET', '/api2/v1/users/%zz', token)), 'InvalidRequestPath');
    expectTmsError(await exchange(port, httpRequest('GET', `/web/api2/v1/users/${'u'.repeat(600)}`, token)), 'PathParameterTooLong');
  });

  it('elsewhere the token service answers an oversized body with its own JSON error (RFC 6749) and the same status', async () => {
    const form = `grant_type=client_credentials&client_id=${'x'.repeat(BODY_LIMIT * 2)}`;
    const response = await exchange(
      port,
      httpRequest('POST', '/idm/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, form),
    );
    expect(response.status).toBe(413);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });
});

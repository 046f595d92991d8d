import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { signedInUser } from './factories.js';

/** Issue 2, "API conventions": every case gets the right status and the TMS error body. */

function expectErrorBody(body: unknown, errorCode: string) {
  expect(body).toEqual({ errorCode, errorDescription: expect.any(String), errorDetails: expect.any(Array) });
  expect((body as { errorDescription: string }).errorDescription.length).toBeGreaterThan(5);
}

describe('API conventions', () => {
  let t: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // A small body limit so the 413 case needs no large payload.
    t = await createTestApp({ env: { OPENTMS_BODY_LIMIT_BYTES: '4096' } });
    ({ headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(() => t.close());

  describe('malformed JSON', () => {
    it('answers 400 InvalidJson', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"userName": "a", "password":',
      });
      expect(response.statusCode).toBe(400);
      expectErrorBody(response.json(), 'InvalidJson');
    });

    it('answers 400 RequestBodyMissing for an empty body declared as JSON, where the operation needs a body', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(response.statusCode).toBe(400);
      expectErrorBody(response.json(), 'RequestBodyMissing');
    });

    it('answers 400 InvalidArguments, naming the field, when a required field is missing', async () => {
      const response = await t.inject({ method: 'POST', url: '/api2/v3/auth/login', payload: { userName: 'x' } });
      expect(response.statusCode).toBe(400);
      expectErrorBody(response.json(), 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'password' });
    });
  });

  describe('paging', () => {
    it.each([
      ['pageSize=0', 'pageSize'],
      ['pageSize=51', 'pageSize'],
      ['pageNumber=-1', 'pageNumber'],
      ['pageSize=abc', 'pageSize'],
      ['pageSize=1.5', 'pageSize'],
      ['pageNumber=99999999999', 'pageNumber'],
    ])('%s is a 400, not a silent clamp', async (query, field) => {
      const response = await t.inject({ url: `/api2/v1/users?${query}`, headers });
      expect(response.statusCode).toBe(400);
      expectErrorBody(response.json(), 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field, in: 'querystring' });
    });

    it('defaults to pageNumber 0 and pageSize 50, in the spec envelope', async () => {
      const response = await t.inject({ url: '/api2/v1/users', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ pageNumber: 0, pageSize: 50, totalElements: 1, totalPages: 1, numberOfElements: 1 });
      expect(Object.keys(response.json()).sort()).toEqual(
        ['content', 'numberOfElements', 'pageNumber', 'pageSize', 'totalElements', 'totalPages'].sort(),
      );
    });

    it('accepts the bounds 1 and 50', async () => {
      for (const size of [1, 50]) {
        const response = await t.inject({ url: `/api2/v1/users?pageSize=${size}`, headers });
        expect(response.statusCode).toBe(200);
        expect(response.json().pageSize).toBe(size);
      }
    });
  });

  describe('unknown paths and methods', () => {
    it.each(['/api2/v1/nothingHere', '/web/api2/v9/users', '/nowhere', '/api2/v1/users/x/y/z'])(
      '%s is a 404 with the error body',
      async (url) => {
        const response = await t.inject({ url, headers });
        expect(response.statusCode).toBe(404);
        expectErrorBody(response.json(), 'ResourceNotFound');
      },
    );

    it('a known path with the wrong method is a 405 with Allow', async () => {
      const response = await t.inject({ method: 'DELETE', url: '/api2/v3/auth/login' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expectErrorBody(response.json(), 'MethodNotAllowed');
    });

    it('405 also under /web/api2 and for paths with parameters in them', async () => {
      const response = await t.inject({ method: 'PUT', url: '/web/api2/v1/users', headers });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
    });
  });

  it('an unsupported Content-Type is a 415', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(response.statusCode).toBe(415);
    expectErrorBody(response.json(), 'UnsupportedMediaType');
  });

  it('a body over the configured limit is a 413', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v3/auth/login',
      payload: { userName: 'x', password: 'y'.repeat(5000) },
    });
    expect(response.statusCode).toBe(413);
    expectErrorBody(response.json(), 'PayloadTooLarge');
  });

  it('serves the same operations under /web/api2', async () => {
    const plain = await t.inject({ url: '/api2/v1/users', headers });
    const web = await t.inject({ url: '/web/api2/v1/users', headers });
    expect(web.statusCode).toBe(200);
    expect(web.json()).toEqual(plain.json());
  });

  it('ignores a trailing slash', async () => {
    const response = await t.inject({ url: '/api2/v1/users/', headers });
    expect(response.statusCode).toBe(200);
  });

  describe('request ids', () => {
    it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
      const given = await t.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } });
      expect(given.headers['x-request-id']).toBe('abc-123');
      const made = await t.inject({ url: '/health', headers: { 'x-request-id': 'bad id with spaces\n' } });
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const none = await t.inject({ url: '/health' });
      expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(none.headers['x-request-id']).not.toBe(made.headers['x-request-id']);
    });

    it('carries the id on error responses too', async () => {
      const response = await t.inject({ url: '/nowhere', headers: { 'x-request-id': 'err-1' } });
      expect(response.headers['x-request-id']).toBe('err-1');
    });
  });

  it('never leaks a stack trace: an unexpected failure is a 500 with the error body', async () => {
    // Closing the database under the app makes the next query fail unexpectedly.
    const broken = await createTestApp();
    const { headers: brokenHeaders } = await signedInUser(broken);
    await broken.database.close();
    const response = await broken.app.inject({ url: '/api2/v1/users', headers: brokenHeaders });
    expect(response.statusCode).toBe(500);
    expectErrorBody(response.json(), 'InternalError');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
    await broken.close();
  });
});

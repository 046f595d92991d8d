import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { booleanNormalizerFor, nullDropperFor } from '../src/http/json-leniency.js';
import { Nullable } from '../src/http/schema-helpers.js';
import { pythonConstantsAsJson } from '../src/http/uploads.js';
import { Type } from 'typebox';
import type { ProjectRow } from '../src/modules/translation-workflow/kernel/index.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { DEFAULT_PASSWORD, makeServiceAccount, signedInUser, tokenRequest } from './factories.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import type { Headers } from './support/api.js';
import { makeJobs, makeProject } from './support/workflow-factories.js';

/**
 * What real clients send (issue 13; docs/api-conventions.md, "What clients may send"): the exact
 * requests of generated and hand-written Phrase clients, through the real app, on SQLite and
 * PostgreSQL.
 */

function expectError(response: LightMyRequestResponse, status: number, errorCode: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ errorCode, errorDescription: expect.any(String), errorDetails: expect.any(Array) });
}

describe('what real clients send', () => {
  let t: TestApp;
  let organization: OrganizationRow;
  let admin: UserRow;
  let headers: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    ({ organization, user: admin, headers } = await signedInUser(t, 'ADMIN'));
  });
  afterAll(() => t.close());

  const json = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body: unknown, as: Headers = headers) =>
    t.inject({ method, url, headers: { ...as, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  const project = (targetLangs = ['de', 'fr']) => makeProject(t, organization.id, { targetLangs, createdById: admin.id });

  const disposition = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

  describe('null on an optional field is an absent field', () => {
    it.each(['/api2/v1/auth/login', '/api2/v3/auth/login'])('%s: login with "code": null, as generated clients send it', async (url) => {
      const response = await json('POST', url, { userName: admin.userName, password: DEFAULT_PASSWORD, code: null, userUid: null }, {});
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().token).toEqual(expect.any(String));
    });

    it('creates a project when every unset field is null', async () => {
      const response = await json('POST', '/api2/v3/projects', {
        name: 'Nulls everywhere',
        sourceLang: 'en',
        targetLangs: ['de'],
        client: null,
        businessUnit: null,
        dateDue: null,
        purchaseOrder: null,
        note: null,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ name: 'Nulls everywhere', sourceLang: 'en' });
    });

    it('keeps the meaning null has where the schema gives it one: "client": null clears the association, "name": null is absent', async () => {
      const client = await json('POST', '/api2/v1/clients', { name: `Client ${Date.now()}` });
      expect(client.statusCode, client.body).toBe(201);
      const created = await json('POST', '/api2/v3/projects', {
        name: 'Has a client',
        sourceLang: 'en',
        targetLangs: ['de'],
        client: { id: client.json().uid },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().client).toMatchObject({ uid: client.json().uid });

      const patched = await json('PATCH', `/api2/v1/projects/${created.json().uid}`, { client: null, name: null });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().client ?? null).toBeNull();
      expect(patched.json().name).toBe('Has a client');
    });

    it('a required field sent as null is reported missing, naming it', async () => {
      const response = await json('POST', '/api2/v3/auth/login', { userName: admin.userName, password: null }, {});
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'password' });
    });

    it('drops nulls in nested objects and arrays of objects, and only where the schema does not allow null', () => {
      const schema = Type.Object({
        name: Type.Optional(Type.String()),
        note: Type.Optional(Nullable(Type.String())),
        owner: Type.Optional(Nullable(Type.Object({ id: Type.Optional(Type.String()), note: Nullable(Type.String()) }))),
        steps: Type.Optional(Type.Array(Type.Object({ due: Type.Optional(Type.String()), lqa: Nullable(Type.String()) }))),
        settings: Type.Optional(Type.Object({}, { additionalProperties: true })),
      });
      const body = {
        name: null,
        note: null,
        owner: { id: null, note: null },
        steps: [{ due: null, lqa: null }, null, { due: '2026-01-01' }],
        settings: { anything: null },
      };
      nullDropperFor(schema)!(body);
      expect(body).toEqual({
        note: null,
        owner: { note: null },
        steps: [{ lqa: null }, null, { due: '2026-01-01' }],
        settings: { anything: null },
      });
    });
  });

  describe('booleans in query strings in any case', () => {
    let listed: ProjectRow;
    beforeAll(async () => {
      listed = await project(['de']);
      await makeJobs(t, listed);
    });

    it.each(['True', 'TRUE', 'true'])('count=%s answers the totals only', async (value) => {
      const response = await t.inject({ url: `/api2/v2/projects/${listed.uid}/jobs?count=${value}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ totalElements: 1, content: [] });
    });

    it.each(['False', 'FALSE', 'false'])('count=%s answers the page', async (value) => {
      const response = await t.inject({ url: `/api2/v2/projects/${listed.uid}/jobs?count=${value}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().content).toHaveLength(1);
    });

    it('the same rule serves path parameters and headers (no published operation has a boolean there yet)', () => {
      const headersSchema = Type.Object({ 'x-flag': Type.Optional(Type.Boolean()), list: Type.Optional(Type.Array(Type.Boolean())) });
      const values: Record<string, unknown> = { 'x-flag': 'TRUE', list: ['False', 'true'], other: 'True' };
      booleanNormalizerFor(headersSchema)!(values);
      expect(values).toEqual({ 'x-flag': 'true', list: ['false', 'true'], other: 'True' });
      expect(booleanNormalizerFor(Type.Object({ name: Type.String() }))).toBeUndefined();
    });

    it('anything else is still a 400', async () => {
      const response = await t.inject({ url: `/api2/v2/projects/${listed.uid}/jobs?count=Yes`, headers });
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'count', in: 'querystring' });
    });
  });

  describe('Content-Type: application/json with an empty body', () => {
    it.each([{}, { 'content-length': '0' }])('a DELETE that takes no body succeeds (%o)', async (extra) => {
      const client = await json('POST', '/api2/v1/clients', { name: `Gone ${Math.random()}` });
      const response = await t.inject({
        method: 'DELETE',
        url: `/api2/v1/clients/${client.json().uid}`,
        headers: { ...headers, 'content-type': 'application/json', ...extra },
      });
      expect(response.statusCode, response.body).toBe(204);
    });

    it('an operation that needs a body answers 400 RequestBodyMissing', async () => {
      const target = await project();
      const response = await t.inject({
        method: 'DELETE',
        url: `/api2/v1/projects/${target.uid}/jobs/batch`,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      expectError(response, 400, 'RequestBodyMissing');
      expect(response.json().errorDetails).toEqual([{ field: 'body', message: 'is required', in: 'body' }]);
    });

    it.each([
      ['an empty body', { 'content-type': 'application/json' }, ''],
      ['no body and no Content-Type', {}, undefined],
      ['the JSON null', { 'content-type': 'application/json' }, 'null'],
    ])('login with %s is RequestBodyMissing', async (_case, extra, payload) => {
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        headers: extra,
        ...(payload === undefined ? {} : { payload }),
      });
      expectError(response, 400, 'RequestBodyMissing');
    });
  });

  describe('Content-Type', () => {
    it('a JSON body without Content-Type is read as JSON (PUT v2 project)', async () => {
      const target = await project();
      const response = await t.inject({
        method: 'PUT',
        url: `/api2/v2/projects/${target.uid}`,
        headers,
        payload: JSON.stringify({ name: 'Renamed without a Content-Type' }),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().name).toBe('Renamed without a Content-Type');
    });

    it('an upload without Content-Type is application/octet-stream (create job)', async () => {
      const target = await project(['de']);
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${target.uid}/jobs`,
        headers: { ...headers, 'content-disposition': disposition('plain.txt'), memsource: JSON.stringify({ targetLangs: ['de'] }) },
        payload: Buffer.from('Hello world.\n'),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().jobs).toHaveLength(1);
      expect(response.json().jobs[0]).toMatchObject({ filename: 'plain.txt', targetLang: 'de' });
    });

    it.each(['text/plain', 'application/xml', 'application/octet-stream'])(
      'a body of type %s on a JSON operation is a 415',
      async (type) => {
        const response = await t.inject({
          method: 'POST',
          url: '/api2/v3/projects',
          headers: { ...headers, 'content-type': type },
          payload: JSON.stringify({ name: 'x', sourceLang: 'en', targetLangs: ['de'] }),
        });
        expectError(response, 415, 'UnsupportedMediaType');
      },
    );
  });

  describe('the Memsource header', () => {
    const createJob = (target: ProjectRow, memsource: string) =>
      t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${target.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': disposition('dict.txt'),
          memsource,
        },
        payload: Buffer.from('One.\n'),
      });

    it("takes a Python dict literal: {'targetLangs': ['fr']}", async () => {
      const target = await project(['de', 'fr']);
      const response = await createJob(target, "{'targetLangs': ['fr']}");
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().jobs.map((job: { targetLang: string }) => job.targetLang)).toEqual(['fr']);
    });

    it("reads Python's True, False and None outside strings: {'targetLangs': ['fr'], 'due': None, 'path': 'True'}", async () => {
      const target = await project(['de', 'fr']);
      const response = await createJob(target, "{'targetLangs': ['fr'], 'due': None, 'path': 'It\\'s True', \"note\": \"None\"}");
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().jobs.map((job: { targetLang: string }) => job.targetLang)).toEqual(['fr']);
      expect(pythonConstantsAsJson("{'a': True, 'b': [False, None], 'TrueName': 'None', \"x\": \"a\\\" True\", Truth: 1}")).toBe(
        "{'a': true, 'b': [false, null], 'TrueName': 'None', \"x\": \"a\\\" True\", Truth: 1}",
      );
    });

    it('drops nulls there too, as in bodies', async () => {
      const target = await project(['de', 'fr']);
      const response = await createJob(target, JSON.stringify({ targetLangs: ['de'], due: null, path: null, callbackUrl: null }));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().jobs.map((job: { targetLang: string }) => job.targetLang)).toEqual(['de']);
    });

    it.each(["{'targetLangs': ['de'", 'targetLangs=de', "{'targetLangs': [de]}"])('refuses %s with 400 InvalidJson', async (header) => {
      const target = await project(['de']);
      const response = await createJob(target, header);
      expectError(response, 400, 'InvalidJson');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'Memsource' });
    });

    it('refuses a header over the size limit', async () => {
      const target = await project(['de']);
      const response = await createJob(target, `{'targetLangs': ['de'], 'note': '${'x'.repeat(40_000)}'}`);
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'Memsource' });
    });
  });

  describe('multipart', () => {
    const boundary = '----client-leniency';
    const part = (name: string, value: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: text/plain\r\n' : ''}\r\n${value}\r\n`;
    const post = (target: ProjectRow, payload: string) =>
      t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${target.uid}/jobs`,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });

    it('takes the json part after the file parts', async () => {
      const target = await project(['de', 'fr']);
      const response = await post(
        target,
        `${part('file', 'First.', 'a.txt')}${part('file', 'Second.', 'b.txt')}${part('json', JSON.stringify({ targetLangs: ['fr'] }))}--${boundary}--\r\n`,
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().jobs.map((job: { filename: string; targetLang: string }) => `${job.filename}:${job.targetLang}`)).toEqual([
        'a.txt:fr',
        'b.txt:fr',
      ]);
    });

    it('a json part after the files that is refused leaves no job and no file behind', async () => {
      const target = await project(['de']);
      const before = await t.database.db.selectFrom('storedFiles').select('sha256').execute();
      const response = await post(
        target,
        `${part('file', `Unique ${Math.random()}`, 'c.txt')}${part('json', JSON.stringify({ targetLangs: ['xx_yy'] }))}--${boundary}--\r\n`,
      );
      expect(response.statusCode).toBe(400);
      const jobs = await t.database.db.selectFrom('jobs').select('id').where('projectId', '=', target.id).execute();
      expect(jobs).toEqual([]);
      const after = await t.database.db.selectFrom('storedFiles').select('sha256').execute();
      expect(after.length).toBe(before.length);
    });
  });

  describe('unknown paths', () => {
    it.each([
      ['POST', 'jobs/bilingualFiles'],
      ['POST', 'jobs/notAnOperation'],
      ['POST', 'jobs/connectorTask'],
    ] as const)('%s under jobs/ (%s) is a 404, not a 405', async (method, path) => {
      const target = await project(['de']);
      const response = await t.inject({ method, url: `/api2/v1/projects/${target.uid}/${path}`, headers, payload: {} });
      expectError(response, 404, 'ResourceNotFound');
    });

    it('a known path with another method is still a 405', async () => {
      const target = await project(['de']);
      const { jobs } = await makeJobs(t, target);
      const response = await t.inject({ method: 'POST', url: `/api2/v1/projects/${target.uid}/jobs/${jobs[0]!.uid}`, headers });
      expectError(response, 405, 'MethodNotAllowed');
      expect(response.headers.allow).toContain('GET');
    });
  });

  describe('U+0000 in a request', () => {
    it.each(['/api2/v1/auth/login', '/api2/v3/auth/login', '/web/api2/v3/auth/login'])(
      '%s: a NUL in the user name is a 400 naming the field, before anything is looked up',
      async (url) => {
        const response = await json('POST', url, { userName: 'ad\u0000min', password: 'x' }, {});
        expectError(response, 400, 'InvalidArguments');
        expect(response.json().errorDetails[0]).toMatchObject({ field: 'userName', in: 'body' });
        expect(response.json().errorDescription).toContain('body.userName');
      },
    );

    it('in a nested value, an array item, or a key', async () => {
      const nested = await json('POST', '/api2/v3/projects', { name: 'x', sourceLang: 'en', targetLangs: ['de', 'f\u0000r'] });
      expectError(nested, 400, 'InvalidArguments');
      expect(nested.json().errorDetails[0]).toMatchObject({ field: 'targetLangs.1', in: 'body' });

      const key = await json('POST', '/api2/v3/projects', { name: 'x', sourceLang: 'en', targetLangs: ['de'], 'no\u0000te': 'n' });
      expectError(key, 400, 'InvalidArguments');
      expect(key.json().errorDetails[0].field).toBe('no\\u0000te');
    });

    it('in a query string', async () => {
      const response = await t.inject({ url: '/api2/v1/users?name=a%00b', headers });
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'name', in: 'querystring' });
    });

    it('in the Memsource header', async () => {
      const target = await project(['de']);
      const response = await t.inject({
        method: 'POST',
        url: `/api2/v1/projects/${target.uid}/jobs`,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'content-disposition': disposition('nul.txt'),
          memsource: '{"targetLangs": ["de\\u0000"]}',
        },
        payload: Buffer.from('One.\n'),
      });
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0]).toMatchObject({ field: 'targetLangs.0', in: 'Memsource' });
    });

    it('at the token service: an RFC 6749 invalid_request', async () => {
      const account = await makeServiceAccount(t, headers);
      const response = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: `${account.clientId}\u0000`,
        client_secret: account.clientSecret,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('a deeply nested body costs one pass and never overflows the stack', async () => {
      const depth = 100_000;
      const payload = `{"userName": "nobody", "password": "x", "extra": ${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`;
      const response = await t.inject({
        method: 'POST',
        url: '/api2/v3/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectError(response, 400, 'InvalidArguments');
      expect(response.json().errorDetails[0].field).toMatch(/^extra(\.0)+$/);
    });
  });
});

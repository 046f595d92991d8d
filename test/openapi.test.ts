import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMS_ERRORS, isErrorCode } from '../src/errors/index.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';

describe('OpenAPI document and /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api2/openapi.json is an OpenAPI 3 document generated from the routes', async () => {
    const response = await t.inject('/api2/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api2/v3/auth/login'].post.operationId).toBe('login_1');
    // Every documented path is a real route of the app, and no route is missing from the document.
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api2/v') || r.url.startsWith('/idm/') || r.url === '/health')
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(new Set(documented)).toEqual(new Set(routed));
  });

  it('marks deprecated operations', async () => {
    const doc = (await t.inject('/api2/openapi.json')).json();
    expect(doc.paths['/api2/v1/auth/login'].post.deprecated).toBe(true);
    expect(doc.paths['/api2/v3/auth/login'].post.deprecated).toBeUndefined();
  });

  it('lists the /web/api2 copies once, under /api2', async () => {
    const doc = (await t.inject('/api2/openapi.json')).json();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/web/'))).toEqual([]);
  });

  it('documents paging parameters with their bounds', async () => {
    const doc = (await t.inject('/api2/openapi.json')).json();
    const params = doc.paths['/api2/v1/users'].get.parameters as { name: string; schema: Record<string, unknown> }[];
    expect(params.find((p) => p.name === 'pageSize')?.schema).toMatchObject({ minimum: 1, maximum: 50, default: 50 });
    expect(params.find((p) => p.name === 'pageNumber')?.schema).toMatchObject({ minimum: 0, default: 0 });
  });

  describe('error responses', () => {
    type Response = { description: string; content?: Record<string, { schema: { $ref?: string } }> };
    type Operation = { responses: Record<string, Response> };
    const operations = async () => {
      const doc = (await t.inject('/api2/openapi.json')).json();
      return {
        doc,
        list: Object.entries(doc.paths as Record<string, Record<string, Operation>>)
          .filter(([path]) => path.startsWith('/api2/v'))
          .flatMap(([path, ops]) => Object.entries(ops).map(([method, operation]) => ({ path, method, operation }))),
      };
    };

    it('every TMS operation lists its error responses, each referring to the one shared ErrorResponse schema', async () => {
      const { doc, list } = await operations();
      expect(doc.components.schemas.ErrorResponse).toMatchObject({
        type: 'object',
        required: ['errorCode', 'errorDescription', 'errorDetails'],
      });
      for (const { path, method, operation } of list) {
        const errors = Object.entries(operation.responses).filter(([status]) => /^4\d\d$/.test(status));
        expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
        const schema = path.startsWith('/api2/v1/scim/') ? 'ScimErrorResponse' : 'ErrorResponse';
        for (const [status, response] of errors) {
          const refs = Object.values(response.content ?? {}).map((media) => media.schema.$ref);
          expect(refs, `${method} ${path} ${status}`).toEqual([`#/components/schemas/${schema}`]);
        }
      }
    });

    it('names, for each status, catalogue codes that have that status', async () => {
      const { list } = await operations();
      for (const { path, method, operation } of list.filter((o) => !o.path.startsWith('/api2/v1/scim/'))) {
        for (const [status, response] of Object.entries(operation.responses).filter(([s]) => /^4\d\d$/.test(s))) {
          const codes = response.description.split(': ')[1]?.split(', ') ?? [];
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) {
            expect(isErrorCode(code) && String(TMS_ERRORS[code].status), `${method} ${path} ${status}: ${code}`).toBe(status);
          }
        }
      }
    });

    it('derives the usual statuses from the route and adds those of the codes it declares', async () => {
      const { doc } = await operations();
      const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).filter((status) => status >= '400');
      // A body, authentication, restricted access, a rate limit; config.errors adds the taken name's 409.
      expect(statuses('/api2/v1/clients', 'post')).toEqual(['400', '401', '403', '409', '413', '415', '429']);
      expect(doc.paths['/api2/v1/clients'].post.responses['409'].description).toBe('Conflict: NameAlreadyExists');
      // A path parameter and no body: 404, no 413/415.
      expect(statuses('/api2/v1/clients/{clientUid}', 'get')).toEqual(['400', '401', '403', '404', '429']);
      // Public: no 401 of its own, but the failed login it declares.
      expect(statuses('/api2/v3/auth/login', 'post')).toEqual(['400', '401', '403', '413', '415', '429']);
      expect(doc.paths['/api2/v3/auth/login'].post.responses['401'].description).toBe('Unauthorized: AuthInvalidCredentials');
    });
  });

  it('/docs serves a browsable page', async () => {
    const response = await t.inject('/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toMatch(/swagger/i);
    const init = await t.inject('/docs/static/swagger-initializer.js');
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('/api2/openapi.json');
  });
});

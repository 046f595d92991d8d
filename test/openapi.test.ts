import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

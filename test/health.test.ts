import { describe, expect, it } from 'vitest';
import { createTestApp, testDialect } from './harness.js';

describe('GET /health', () => {
  it('answers 200 after a database round trip, without a token', async () => {
    const t = await createTestApp();
    const response = await t.inject('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: { dialect: testDialect, ok: true, latencyMs: expect.any(Number) } });
    await t.close();
  });

  it('answers 503 when the database does not answer', async () => {
    const t = await createTestApp();
    await t.database.close();
    const response = await t.inject('/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'unavailable', database: { ok: false } });
    await t.close();
  });
});

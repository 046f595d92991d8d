import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { assertContract } from './harness.js';
import { loadContractChecker } from './contract/response-contract.js';

const fake = (statusCode: number, body: unknown) =>
  ({
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  }) as unknown as LightMyRequestResponse;

describe.skipIf(!loadContractChecker())('the harness applies the contract check to responses', () => {
  it('throws for a response that breaks the published schema', () => {
    const page = {
      totalElements: 1,
      totalPages: 1,
      pageSize: 50,
      pageNumber: 0,
      numberOfElements: 1,
      content: [{ uid: 'x', role: 'WIZARD' }],
    };
    expect(() => assertContract('GET', '/api2/v1/users?pageSize=5', fake(200, page))).toThrow(/role/);
  });

  it('throws for an /api2 error without the error body', () => {
    expect(() => assertContract('GET', '/api2/v1/users', fake(404, { message: 'nope' }))).toThrow(/errorCode/);
  });

  it('passes a conforming response', () => {
    const page = { totalElements: 0, totalPages: 0, pageSize: 50, pageNumber: 0, numberOfElements: 0, content: [] };
    expect(() => assertContract('GET', '/web/api2/v1/users', fake(200, page))).not.toThrow();
  });
});

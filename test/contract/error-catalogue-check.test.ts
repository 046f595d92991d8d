import { describe, expect, it } from 'vitest';
import { createErrorCatalogueCheck } from './error-catalogue-check.js';

/** The error catalogue check of test/harness.ts, on a small OpenAPI document of its own. */

const document = {
  paths: {
    '/api2/v1/clients': { post: { responses: { '201': {}, '400': {}, '401': {}, '403': {}, '409': {} } } },
    '/api2/v1/clients/{clientUid}': { get: { responses: { '200': {}, '401': {}, '403': {}, '404': {} } } },
    '/api2/v1/scim/Users': { post: { responses: { '201': {}, '400': {}, '401': {}, '409': {} } } },
    '/api2/v1/projects/{projectUid}': { get: { responses: { '200': {}, '401': {} } } },
  },
};

const check = createErrorCatalogueCheck(document);
const tms = (errorCode: string) => JSON.stringify({ errorCode, errorDescription: 'x', errorDetails: [] });
const scim = (status: number, scimType?: string) =>
  JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), scimType, detail: 'x' });

describe('error catalogue check', () => {
  it('passes a catalogue code with its status, on an operation that lists it, under both prefixes', () => {
    expect(check.check({ method: 'POST', url: '/api2/v1/clients', statusCode: 409, body: tms('NameAlreadyExists') })).toEqual([]);
    expect(check.check({ method: 'GET', url: '/web/api2/v1/clients/abc?x=1', statusCode: 404, body: tms('ResourceNotFound') })).toEqual([]);
  });

  it('refuses a code the catalogue does not have, or a status the catalogue does not give it', () => {
    expect(check.check({ method: 'POST', url: '/api2/v1/clients', statusCode: 409, body: tms('NameTaken') })).toEqual([
      'POST /api2/v1/clients 409: errorCode "NameTaken" is not in the error catalogue (src/errors/catalogue.ts)',
    ]);
    expect(check.check({ method: 'POST', url: '/api2/v1/clients', statusCode: 400, body: tms('NameAlreadyExists') })).toEqual([
      'POST /api2/v1/clients 400: errorCode NameAlreadyExists has the status 409 in the catalogue, not 400',
    ]);
  });

  it('refuses a status the operation does not list in the OpenAPI document', () => {
    const problems = check.check({ method: 'GET', url: '/api2/v1/clients/abc', statusCode: 429, body: tms('TooManyRequests') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('does not list 429 for GET /api2/v1/clients/{clientUid}');
  });

  it('checks only the code of what matches no operation (unknown paths, other methods) and of 5xx answers', () => {
    expect(check.check({ method: 'GET', url: '/api2/v9/nothing', statusCode: 404, body: tms('ResourceNotFound') })).toEqual([]);
    expect(check.check({ method: 'DELETE', url: '/api2/v1/clients', statusCode: 405, body: tms('MethodNotAllowed') })).toEqual([]);
    expect(check.check({ method: 'POST', url: '/api2/v1/clients', statusCode: 500, body: tms('InternalError') })).toEqual([]);
    expect(check.check({ method: 'GET', url: '/api2/v9/nothing', statusCode: 404, body: tms('NoSuchThing') })).toHaveLength(1);
  });

  it('applies both rules to the translation-workflow routes too (no route is exempt)', () => {
    const problems = check.check({ method: 'GET', url: '/api2/v1/projects/p1', statusCode: 404, body: tms('ResourceNotFound') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('does not list 404 for GET /api2/v1/projects/{projectUid}');
    expect(check.check({ method: 'GET', url: '/api2/v1/projects/p1', statusCode: 404, body: tms('ProjectGone') })).toHaveLength(2);
  });

  it('checks SCIM answers against the SCIM family and the TMS codes SCIM renders', () => {
    expect(check.check({ method: 'POST', url: '/api2/v1/scim/Users', statusCode: 409, body: scim(409, 'uniqueness') })).toEqual([]);
    expect(check.check({ method: 'POST', url: '/api2/v1/scim/Users', statusCode: 400, body: scim(400, 'invalidValue') })).toEqual([]);
    expect(check.check({ method: 'POST', url: '/api2/v1/scim/Users', statusCode: 403, body: scim(403) })).toHaveLength(1); // not listed
    expect(check.check({ method: 'POST', url: '/api2/v1/scim/Users', statusCode: 409, body: scim(409, 'tooMany') })).toHaveLength(1);
  });

  it('ignores successes, HEAD answers and paths outside /api2', () => {
    expect(check.check({ method: 'POST', url: '/api2/v1/clients', statusCode: 201, body: '{}' })).toEqual([]);
    expect(check.check({ method: 'HEAD', url: '/api2/v1/clients/abc', statusCode: 404, body: '' })).toEqual([]);
    expect(check.check({ method: 'POST', url: '/idm/oauth/token', statusCode: 400, body: '{"error":"invalid_request"}' })).toEqual([]);
  });
});

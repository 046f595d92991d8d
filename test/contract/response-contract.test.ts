import { describe, expect, it } from 'vitest';
import { loadContractChecker } from './response-contract.js';
import type { ObservedResponse } from './response-contract.js';

// Prints "contract checks skipped: ..." and skips everything below in a clone without ../shared.
const checker = loadContractChecker();

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON response of `method url` with the given status and body. */
function response(method: string, url: string, statusCode: number, body: unknown): ObservedResponse {
  return { method, url, statusCode, contentType: JSON_TYPE, body: JSON.stringify(body) };
}

function check(observed: ObservedResponse): string[] {
  return checker!.check(observed);
}

const user = {
  id: '1',
  uid: 'uUser1',
  userName: 'jdoe',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jdoe@example.com',
  dateCreated: '2024-05-01T10:00:00+0000',
  role: 'PROJECT_MANAGER',
  timezone: 'Europe/London',
  terminologist: false,
  sourceLangs: ['en'],
  targetLangs: ['de', 'fr'],
  active: true,
  createdBy: { uid: 'uAdmin', userName: 'admin', role: 'ADMIN' },
};

const usersPage = (content: unknown[]) => ({
  totalElements: content.length,
  totalPages: 1,
  pageSize: 50,
  pageNumber: 0,
  numberOfElements: content.length,
  content,
});

const whoAmI = {
  user: { id: '1', uid: 'uUser1', userName: 'jdoe', firstName: 'Jane', lastName: 'Doe', email: 'jdoe@example.com', role: 'ADMIN' },
  organization: { uid: 'uOrg1', name: 'Acme' },
  edition: { id: '1', name: 'ULTIMATE', title: 'Ultimate' },
  features: { icuEnabled: false },
};

const errorBody = { errorCode: 'AuthUnauthorized', errorDescription: 'Authentication is required.', errorDetails: [] };

describe.skipIf(!checker)('response contract check', () => {
  describe('bodies', () => {
    it('passes a valid body (GET /api2/v1/users -> PageDtoUserDto)', () => {
      expect(check(response('GET', '/api2/v1/users?pageNumber=0', 200, usersPage([user])))).toEqual([]);
    });

    it('passes nulls in fields, also in nested references and arrays of strings', () => {
      const withNulls = { ...user, firstName: null, dateDeleted: null, role: null, sourceLangs: null, createdBy: null, priceList: null };
      expect(check(response('GET', '/api2/v1/users', 200, { ...usersPage([withNulls]), totalPages: null }))).toEqual([]);
    });

    it('fails a null top-level body', () => {
      expect(check(response('GET', '/api2/v1/users', 200, null))).toEqual([
        'GET /api2/v1/users 200 (getListOfUsersFiltered): $: expected object, got null',
      ]);
    });

    it('fails a field of the wrong type, naming the JSON path', () => {
      const problems = check(response('GET', '/api2/v1/users', 200, usersPage([{ ...user, active: 'yes' }])));
      expect(problems).toEqual([
        'GET /api2/v1/users 200 (getListOfUsersFiltered): $.content[0].active: expected boolean (or null), got string "yes"',
      ]);
    });

    it('fails an int32 field outside the 32-bit range', () => {
      const problems = check(response('GET', '/api2/v1/users', 200, { ...usersPage([]), totalElements: 2 ** 31 }));
      expect(problems).toEqual([
        'GET /api2/v1/users 200 (getListOfUsersFiltered): $.totalElements: number 2147483648 is not a valid int32',
      ]);
    });

    it('fails a value outside the enum', () => {
      const problems = check(response('GET', '/api2/v1/users', 200, usersPage([{ ...user, role: 'SUPERUSER' }])));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^GET \/api2\/v1\/users 200 \(getListOfUsersFiltered\): \$\.content\[0\]\.role: string "SUPERUSER" is not one of SYS_ADMIN, .*SUBMITTER$/,
      );
    });

    it('fails a string that is not a date-time in a date-time field', () => {
      const body = { user: whoAmI.user, token: 't0ken', expires: 'tomorrow' };
      expect(check(response('POST', '/api2/v3/auth/login', 200, body))).toEqual([
        'POST /api2/v3/auth/login 200 (login_1): $.expires: string "tomorrow" is not a valid date-time',
      ]);
    });

    it('passes the date-time forms Phrase sends', () => {
      for (const expires of ['2024-05-01T10:00:00+0000', '2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00+02:00']) {
        expect(check(response('POST', '/api2/v3/auth/login', 200, { user: whoAmI.user, token: 't', expires }))).toEqual([]);
      }
    });

    it('fails an unknown field on a closed definition, naming the definition', () => {
      const problems = check(response('GET', '/api2/v1/users', 200, usersPage([{ ...user, foo: 1 }])));
      expect(problems).toEqual(["GET /api2/v1/users 200 (getListOfUsersFiltered): $.content[0].foo: UserDto has no field 'foo'"]);
    });

    it('allows unknown fields on a definition with subtypes (discriminator), where the subtype adds fields', () => {
      const details = {
        uid: 'u1',
        userName: 'j',
        firstName: 'J',
        lastName: 'D',
        email: 'j@example.com',
        role: 'LINGUIST',
        timezone: 'UTC',
        editAllTermsInTB: true,
      };
      expect(check(response('GET', '/api2/v3/users/u1', 200, details))).toEqual([]);
    });

    describe('discriminated project views (userRole)', () => {
      const project = {
        uid: 'p1',
        id: '1',
        internalId: 1,
        name: 'P',
        sourceLang: 'en',
        targetLangs: ['de'],
        dateCreated: '2026-11-21T12:00:00Z',
      };

      it('checks a manager view against the "Admin, Project Manager" subtype: its fields pass, others fail', () => {
        expect(
          check(response('GET', '/api2/v1/projects/p1', 200, { ...project, userRole: 'PROJECT_MANAGER', status: 'NEW', archived: false })),
        ).toEqual([]);
        expect(check(response('GET', '/api2/v1/projects/p1', 200, { ...project, userRole: 'ADMIN', colour: 'red' }))).toEqual([
          "GET /api2/v1/projects/{projectUid} 200 (getProject): $.colour: Admin, Project Manager has no field 'colour'",
        ]);
      });

      it('keeps a linguist view to the base fields', () => {
        expect(check(response('GET', '/api2/v1/projects/p1', 200, { ...project, userRole: 'LINGUIST' }))).toEqual([]);
        expect(check(response('GET', '/api2/v1/projects/p1', 200, { ...project, userRole: 'LINGUIST', status: 'NEW' }))).toHaveLength(1);
      });

      it('fails an unknown or missing userRole', () => {
        expect(check(response('GET', '/api2/v1/projects/p1', 200, { ...project, userRole: 'Admin' })).join('\n')).toMatch(/userRole/);
        expect(check(response('GET', '/api2/v1/projects/p1', 200, project)).join('\n')).toMatch(/userRole/);
      });
    });

    it('passes the extension field organization.id in whoAmI, and still fails other unknown fields there', () => {
      const extended = { ...whoAmI, organization: { ...whoAmI.organization, id: '7' } };
      expect(check(response('GET', '/api2/v1/auth/whoAmI', 200, extended))).toEqual([]);
      const unknown = { ...whoAmI, organization: { ...whoAmI.organization, plan: 'gold' } };
      expect(check(response('GET', '/api2/v1/auth/whoAmI', 200, unknown))).toEqual([
        "GET /api2/v1/auth/whoAmI 200 (whoAmI): $.organization.plan: OrganizationReference has no field 'plan'",
      ]);
    });

    it('fails a body that is not valid JSON although its content type says JSON', () => {
      const problems = check({ method: 'GET', url: '/api2/v1/auth/whoAmI', statusCode: 200, contentType: JSON_TYPE, body: '{"user":' });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^GET \/api2\/v1\/auth\/whoAmI 200 \(whoAmI\): body is not valid JSON/);
    });

    it('fails a non-JSON body where the spec declares a JSON one', () => {
      const problems = check({ method: 'GET', url: '/api2/v1/auth/whoAmI', statusCode: 200, contentType: 'text/plain', body: 'hello' });
      expect(problems).toEqual([
        'GET /api2/v1/auth/whoAmI 200 (whoAmI): spec declares a JSON body (LoginUserDto), got content-type text/plain',
      ]);
    });
  });

  describe('finding the operation', () => {
    it('maps /web/api2/... to the spec path /api2/...', () => {
      expect(check(response('GET', '/web/api2/v1/auth/whoAmI', 200, whoAmI))).toEqual([]);
      const problems = check(response('GET', '/web/api2/v1/users', 200, usersPage([{ ...user, foo: 1 }])));
      expect(problems).toEqual(["GET /api2/v1/users 200 (getListOfUsersFiltered): $.content[0].foo: UserDto has no field 'foo'"]);
    });

    it('prefers a static path over a parameter at the same position', () => {
      // GET /api2/v1/lqa/profiles/authors returns an array of UserReference, /lqa/profiles/{profileUid} an object.
      const authors = [whoAmI.user];
      expect(check(response('GET', '/api2/v1/lqa/profiles/authors', 200, authors))).toEqual([]);
      expect(check(response('GET', '/api2/v1/lqa/profiles/p1', 200, authors))).toEqual([
        'GET /api2/v1/lqa/profiles/{profileUid} 200 (getLqaProfile): $: expected object, got array',
      ]);
    });

    it('gives [] for a path or method that is not in the spec', () => {
      expect(check(response('GET', '/api2/v1/noSuchThing', 200, { anything: 1 }))).toEqual([]);
      expect(check(response('GET', '/health', 200, { status: 'ok' }))).toEqual([]);
      expect(check(response('DELETE', '/api2/v1/auth/whoAmI', 200, { anything: 1 }))).toEqual([]);
    });
  });

  describe('statuses', () => {
    it('fails a 2xx the spec does not declare for the operation', () => {
      expect(check(response('POST', '/api2/v3/auth/login', 201, { token: 't' }))).toEqual([
        'POST /api2/v3/auth/login 201 (login_1): spec declares 200, got 201',
      ]);
    });

    it('passes a declared 2xx other than 200', () => {
      // createUserV3 declares 201 only.
      const created = { uid: 'u1', userName: 'j', firstName: 'J', lastName: 'D', email: 'j@example.com', role: 'ADMIN', timezone: 'UTC' };
      expect(check(response('POST', '/api2/v3/users', 201, created))).toEqual([]);
    });
  });

  describe('errors under /api2', () => {
    it('passes a well-formed error', () => {
      expect(check(response('GET', '/api2/v1/users', 401, errorBody))).toEqual([]);
      expect(check(response('GET', '/web/api2/v1/noSuchThing', 404, { ...errorBody, errorCode: 'ResourceNotFound' }))).toEqual([]);
    });

    it('fails an error without errorCode', () => {
      expect(check(response('GET', '/api2/v1/users', 401, { errorDescription: 'No.', errorDetails: [] }))).toEqual([
        'GET /api2/v1/users 401 (getListOfUsersFiltered): $.errorCode: expected string, got nothing',
      ]);
    });

    it('fails an error that is not JSON, also on paths the spec does not know', () => {
      const problems = check({ method: 'GET', url: '/api2/v1/noSuchThing', statusCode: 404, contentType: 'text/plain', body: 'Not Found' });
      expect(problems).toEqual([
        'GET /api2/v1/noSuchThing 404 (not in the spec): an error body must be JSON {errorCode: string, errorDescription: string, errorDetails: array}, got content-type text/plain',
      ]);
    });

    it('leaves errors outside /api2 alone', () => {
      expect(check({ method: 'GET', url: '/health/nope', statusCode: 404, contentType: 'text/plain', body: 'Not Found' })).toEqual([]);
    });
  });
});

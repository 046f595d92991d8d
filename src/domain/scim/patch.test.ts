import { describe, expect, it } from 'vitest';
import { applyPatch, parsePatchRequest } from './patch.js';
import { USER_ATTRIBUTES } from './schema.js';
import { scimError } from '../../../test/support/scim.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const base = () => ({
  userName: 'bjensen',
  name: { givenName: 'Barbara', familyName: 'Jensen' },
  emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  active: true,
  roles: [{ value: 'LINGUIST', primary: true }],
});

/** Applies `operations` (as a client would send them) to the base user. */
function patch(operations: unknown[], resource: Record<string, unknown> = base()) {
  return applyPatch(resource, parsePatchRequest({ schemas: [PATCH_OP], Operations: operations }), USER_ATTRIBUTES);
}

describe('applyPatch', () => {
  it.each<[string, unknown[], Record<string, unknown>]>([
    ['replace a simple attribute', [{ op: 'replace', path: 'userName', value: 'babs' }], { userName: 'babs' }],
    ['Entra: capitalised op and a string boolean', [{ op: 'Replace', path: 'active', value: 'False' }], { active: false }],
    ['Entra: "True" as well', [{ op: 'Replace', path: 'active', value: 'True' }], { active: true }],
    ['Okta: replace without a path', [{ op: 'replace', value: { active: false } }], { active: false }],
    ['path in any case', [{ op: 'replace', path: 'NAME.GIVENNAME', value: 'Babs' }], { name: { givenName: 'Babs', familyName: 'Jensen' } }],
    [
      'core-schema-qualified path',
      [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:name.familyName', value: 'J' }],
      { name: { givenName: 'Barbara', familyName: 'J' } },
    ],
    ['a sub-attribute', [{ op: 'add', path: 'name.givenName', value: 'Babs' }], { name: { givenName: 'Babs', familyName: 'Jensen' } }],
    [
      'replace a complex attribute merges',
      [{ op: 'replace', path: 'name', value: { familyName: 'Doe' } }],
      { name: { givenName: 'Barbara', familyName: 'Doe' } },
    ],
    [
      'without a path, dotted keys',
      [{ op: 'Add', value: { 'name.givenName': 'B', 'name.familyName': 'J' } }],
      { name: { givenName: 'B', familyName: 'J' } },
    ],
    [
      'without a path, a complex value merges',
      [{ op: 'replace', value: { name: { givenName: 'B' }, userName: 'b2' } }],
      { userName: 'b2', name: { givenName: 'B', familyName: 'Jensen' } },
    ],
    [
      'the work e-mail through a value filter',
      [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'new@example.com' }],
      { emails: [{ value: 'new@example.com', type: 'work', primary: true }] },
    ],
    [
      'operators in the value filter in any case',
      [{ op: 'Replace', path: 'emails[TYPE EQ "Work"].value', value: 'n@example.com' }],
      { emails: [{ value: 'n@example.com', type: 'work', primary: true }] },
    ],
    [
      'add through a value filter that matches nothing creates the value',
      [{ op: 'add', path: 'emails[type eq "home"].value', value: 'home@example.com' }],
      {
        emails: [
          { value: 'bjensen@example.com', type: 'work', primary: true },
          { type: 'home', value: 'home@example.com' },
        ],
      },
    ],
    [
      'add to a multi-valued attribute appends; a new primary takes over',
      [{ op: 'add', path: 'emails', value: [{ value: 'b@jensen.org', type: 'home', primary: 'True' }] }],
      {
        emails: [
          { value: 'bjensen@example.com', type: 'work', primary: false },
          { value: 'b@jensen.org', type: 'home', primary: true },
        ],
      },
    ],
    [
      'replace a multi-valued attribute replaces all values',
      [{ op: 'replace', path: 'emails', value: [{ value: 'only@example.com' }] }],
      { emails: [{ value: 'only@example.com' }] },
    ],
    [
      'a single value for a multi-valued attribute',
      [{ op: 'replace', path: 'emails', value: { value: 'one@example.com' } }],
      { emails: [{ value: 'one@example.com' }] },
    ],
    [
      'replace the selected values whole',
      [{ op: 'replace', path: 'emails[type eq "work"]', value: { value: 'w@example.com', type: 'work' } }],
      { emails: [{ value: 'w@example.com', type: 'work' }] },
    ],
    [
      'remove a sub-attribute of selected values',
      [{ op: 'remove', path: 'emails[type eq "work"].primary' }],
      { emails: [{ value: 'bjensen@example.com', type: 'work' }] },
    ],
    ['remove selected values', [{ op: 'remove', path: 'emails[value co "example.com"]' }], { emails: undefined }],
    ['remove through a filter that matches nothing is a no-op', [{ op: 'remove', path: 'emails[type eq "home"]' }], {}],
    [
      'remove listed values of a multi-valued attribute',
      [{ op: 'remove', path: 'emails', value: [{ value: 'BJENSEN@example.com' }] }],
      { emails: undefined },
    ],
    ['remove a simple attribute', [{ op: 'remove', path: 'active' }], { active: undefined }],
    ['replace with null unassigns', [{ op: 'replace', path: 'name.givenName', value: null }], { name: { familyName: 'Jensen' } }],
    [
      'Entra: the role of the primary app role assignment',
      [{ op: 'Replace', path: 'roles[primary eq "True"].value', value: 'ADMIN' }],
      { roles: [{ value: 'ADMIN', primary: true }] },
    ],
    [
      'add a role without a filter replaces nothing',
      [{ op: 'add', path: 'roles', value: [{ value: 'ADMIN', primary: true }] }],
      {
        roles: [
          { value: 'LINGUIST', primary: false },
          { value: 'ADMIN', primary: true },
        ],
      },
    ],
    ['set the password (write-only)', [{ op: 'replace', path: 'password', value: 'a new secret' }], { password: 'a new secret' }],
    [
      'attributes OpenTMS does not keep are ignored',
      [
        { op: 'Add', path: 'externalId', value: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef' },
        { op: 'Replace', path: 'displayName', value: 'Babs' },
        { op: 'Replace', path: 'addresses[type eq "work"].formatted', value: 'Somewhere' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
        { op: 'Add', value: { 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: '1' }, title: 'Boss' } },
        { op: 'Replace', path: 'name.formatted', value: 'Ms Barbara J Jensen III' },
      ],
      {},
    ],
    [
      'read-only attributes echoed without a path are skipped',
      [{ op: 'replace', value: { id: 'x', meta: { created: 'x' }, schemas: ['x'], active: false } }],
      { active: false },
    ],
    [
      'operations apply in order',
      [
        { op: 'replace', path: 'userName', value: 'a' },
        { op: 'replace', path: 'userName', value: 'b' },
      ],
      { userName: 'b' },
    ],
  ])('%s', (_what, operations, changes) => {
    const expected: Record<string, unknown> = { ...base(), ...changes };
    for (const [key, value] of Object.entries(expected)) if (value === undefined) delete expected[key];
    expect(patch(operations)).toEqual(expected);
  });

  it('does not change the resource it was given', () => {
    const resource = base();
    patch(
      [
        { op: 'replace', path: 'name.givenName', value: 'X' },
        { op: 'remove', path: 'emails' },
      ],
      resource,
    );
    expect(resource).toEqual(base());
  });

  it.each<[string, unknown[], string]>([
    ['a path naming a read-only attribute', [{ op: 'replace', path: 'id', value: '1' }], 'mutability'],
    ['meta', [{ op: 'replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' }], 'mutability'],
    ['schemas', [{ op: 'replace', path: 'schemas', value: [] }], 'mutability'],
    [
      'replace through a value filter that matches nothing',
      [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'x@y' }],
      'noTarget',
    ],
    ['a value filter on a single-valued attribute', [{ op: 'replace', path: 'userName[value eq "x"]', value: 'y' }], 'invalidPath'],
    ['a sub-attribute of a simple attribute', [{ op: 'replace', path: 'userName.first', value: 'y' }], 'invalidPath'],
    ['a boolean that is not one', [{ op: 'replace', path: 'active', value: 'maybe' }], 'invalidValue'],
    ['a string that is not one', [{ op: 'replace', path: 'userName', value: 42 }], 'invalidValue'],
    ['a complex value that is not an object', [{ op: 'replace', path: 'name', value: 'Barbara Jensen' }], 'invalidValue'],
    ['no path and a value that is not an object', [{ op: 'replace', value: 'x' }], 'invalidValue'],
    ['no path and a key that is no attribute name', [{ op: 'replace', value: { 'not an attribute': 1 } }], 'invalidPath'],
  ])('refuses %s', (_what, operations, scimType) => {
    const error = scimError(() => patch(operations));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe(scimType);
  });
});

describe('parsePatchRequest', () => {
  it.each<[string, unknown, string]>([
    ['a body that is not an object', [{ op: 'add' }], 'invalidSyntax'],
    [
      'the wrong message schema',
      { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], Operations: [{ op: 'add', value: {} }] },
      'invalidSyntax',
    ],
    ['no operations', { schemas: [PATCH_OP], Operations: [] }, 'invalidSyntax'],
    ['operations that are not a list', { schemas: [PATCH_OP], Operations: { op: 'add' } }, 'invalidSyntax'],
    ['an unknown op', { schemas: [PATCH_OP], Operations: [{ op: 'move', path: 'userName', value: 'x' }] }, 'invalidSyntax'],
    ['an operation that is not an object', { schemas: [PATCH_OP], Operations: ['add'] }, 'invalidSyntax'],
    ['remove without a path', { schemas: [PATCH_OP], Operations: [{ op: 'remove' }] }, 'noTarget'],
    ['add without a value', { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'userName' }] }, 'invalidValue'],
    ['a path that is not a string', { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 3, value: 'x' }] }, 'invalidPath'],
    ['a malformed path', { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'emails[type eq', value: 'x' }] }, 'invalidPath'],
    [
      'a malformed value filter',
      { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'emails[type xx "a"].value', value: 'x' }] },
      'invalidFilter',
    ],
  ])('refuses %s', (_what, body, scimType) => {
    const error = scimError(() => parsePatchRequest(body));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe(scimType);
  });

  it('accepts "operations" in any case and a message without schemas, and an empty path as none', () => {
    expect(parsePatchRequest({ operations: [{ OP: 'REMOVE', Path: 'active' }] })).toEqual([
      { op: 'remove', path: { schema: null, attribute: 'active', subAttribute: null, filter: null }, value: undefined },
    ]);
    expect(parsePatchRequest({ Operations: [{ op: 'replace', path: '', value: { active: false } }] })[0]!.path).toBeNull();
  });
});

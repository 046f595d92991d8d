import { describe, expect, it } from 'vitest';
import { normalizeAttributes, parseAttributeList, projectResource } from './resource.js';
import { USER_ATTRIBUTES } from './schema.js';
import { scimError } from '../../../test/support/scim.js';

describe('normalizeAttributes', () => {
  it('keeps known attributes under their canonical names, coerced to their types', () => {
    expect(
      normalizeAttributes(
        {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          id: 'ignored',
          externalId: 'ignored',
          USERNAME: 'bjensen',
          Name: { GivenName: 'Barbara', familyName: 'Jensen', formatted: 'ignored' },
          emails: { value: 'b@example.com', Primary: 'true' },
          active: 'False',
          roles: [],
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'ignored' },
          meta: { created: 'ignored' },
        },
        USER_ATTRIBUTES,
      ),
    ).toEqual({
      userName: 'bjensen',
      name: { givenName: 'Barbara', familyName: 'Jensen' },
      emails: [{ value: 'b@example.com', primary: true }],
      active: false,
    });
  });

  it.each([
    [{ userName: ['x'] }, 'userName must be a string'],
    [{ active: 'yes' }, 'active must be true or false'],
    [{ name: 'Barbara' }, 'name must be an object'],
    [{ emails: [{ value: 1 }] }, 'emails[0].value must be a string'],
    [{ emails: [{ value: 'a@b', primary: 'sometimes' }] }, 'emails[0].primary must be true or false'],
  ])('refuses %j', (input, message) => {
    const error = scimError(() => normalizeAttributes(input, USER_ATTRIBUTES));
    expect(error.scimType).toBe('invalidValue');
    expect(error.message).toContain(message);
  });
});

describe('projectResource', () => {
  const user = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: 'abc',
    userName: 'bjensen',
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [{ value: 'b@example.com', type: 'work', primary: true }],
    active: true,
    meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z' },
  };

  it.each<[string, { attributes?: string; excludedAttributes?: string }, Record<string, unknown>]>([
    ['nothing asked: everything', {}, user],
    ['attributes: those, with schemas and id', { attributes: 'userName' }, { schemas: user.schemas, id: 'abc', userName: 'bjensen' }],
    [
      'attributes in any case, sub-attributes',
      { attributes: 'USERNAME, name.familyName,emails.value' },
      { schemas: user.schemas, id: 'abc', userName: 'bjensen', name: { familyName: 'Jensen' }, emails: [{ value: 'b@example.com' }] },
    ],
    [
      'two sub-attributes of one multi-valued attribute',
      { attributes: 'emails.value,emails.type' },
      { schemas: user.schemas, id: 'abc', emails: [{ value: 'b@example.com', type: 'work' }] },
    ],
    [
      'core-qualified names',
      { attributes: 'urn:ietf:params:scim:schemas:core:2.0:User:active' },
      { schemas: user.schemas, id: 'abc', active: true },
    ],
    ['unknown names select nothing', { attributes: 'title,urn:x:y:department' }, { schemas: user.schemas, id: 'abc' }],
    ['excludedAttributes', { excludedAttributes: 'emails,meta.created' }, { ...user, emails: undefined, meta: { resourceType: 'User' } }],
    ['id cannot be excluded', { excludedAttributes: 'id,schemas' }, user],
  ])('%s', (_what, query, expected) => {
    const clean = JSON.parse(JSON.stringify(expected));
    const projection = {
      attributes: parseAttributeList(query.attributes),
      excludedAttributes: parseAttributeList(query.excludedAttributes),
    };
    expect(projectResource(user, projection)).toEqual(clean);
  });

  it('refuses a list entry that is not an attribute name', () => {
    expect(scimError(() => parseAttributeList('userName,a.b.c')).scimType).toBe('invalidValue');
  });
});

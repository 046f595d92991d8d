import { describe, expect, it } from 'vitest';
import { evaluateFilter, parseAttributePath, parseFilter, parsePatchPath } from './filter.js';
import type { Filter } from './filter.js';
import { USER_ATTRIBUTES } from './schema.js';
import { scimError } from '../../../test/support/scim.js';

/** Filters written back in a compact prefix form, so that the table below stays readable. */
function show(filter: Filter): string {
  const path = (p: { schema: string | null; attribute: string; subAttribute: string | null }) =>
    `${p.schema ? `${p.schema}:` : ''}${p.attribute}${p.subAttribute ? `.${p.subAttribute}` : ''}`;
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filter.kind} ${show(filter.left)} ${show(filter.right)})`;
    case 'not':
      return `(not ${show(filter.filter)})`;
    case 'present':
      return `(pr ${path(filter.path)})`;
    case 'valuePath':
      return `${path(filter.path)}[${show(filter.filter)}]`;
    case 'compare':
      return `(${filter.operator} ${path(filter.path)} ${JSON.stringify(filter.value)})`;
  }
}

describe('parseFilter', () => {
  it.each([
    ['userName eq "bjensen"', '(eq userName "bjensen")'],
    ['USERNAME EQ "bjensen"', '(eq USERNAME "bjensen")'],
    ['name.familyName co "O\'Malley"', '(co name.familyName "O\'Malley")'],
    ['userName sw "J"', '(sw userName "J")'],
    ['userName ew "son"', '(ew userName "son")'],
    ['title pr', '(pr title)'],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', '(gt meta.lastModified "2011-05-13T04:42:34Z")'],
    ['meta.lastModified ge "2011-05-13T04:42:34Z"', '(ge meta.lastModified "2011-05-13T04:42:34Z")'],
    ['meta.lastModified lt "2011-05-13T04:42:34Z"', '(lt meta.lastModified "2011-05-13T04:42:34Z")'],
    ['meta.lastModified le "2011-05-13T04:42:34Z"', '(le meta.lastModified "2011-05-13T04:42:34Z")'],
    ['active eq true', '(eq active true)'],
    ['active Eq False', '(eq active false)'],
    ['active ne null', '(ne active null)'],
    ['x eq -1.5e2', '(eq x -150)'],
    ['userName eq "a \\"quoted\\" \\u00e9"', '(eq userName "a \\"quoted\\" é")'],
    ['title pr and userType eq "Employee"', '(and (pr title) (eq userType "Employee"))'],
    ['title pr or userType eq "Intern"', '(or (pr title) (eq userType "Intern"))'],
    // and binds tighter than or
    ['a eq "1" or b eq "2" and c eq "3"', '(or (eq a "1") (and (eq b "2") (eq c "3")))'],
    ['a eq "1" and b eq "2" or c eq "3"', '(or (and (eq a "1") (eq b "2")) (eq c "3"))'],
    ['(a eq "1" or b eq "2") and c eq "3"', '(and (or (eq a "1") (eq b "2")) (eq c "3"))'],
    [
      'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
      '(and (eq userType "Employee") (or (co emails "example.com") (co emails.value "example.org")))',
    ],
    ['not (userName eq "x")', '(not (eq userName "x"))'],
    ['NOT(userName eq "x") and active eq true', '(and (not (eq userName "x")) (eq active true))'],
    ['emails[type eq "work" and value co "@example.com"]', 'emails[(and (eq type "work") (co value "@example.com"))]'],
    ['emails[type eq "work"] or active eq false', '(or emails[(eq type "work")] (eq active false))'],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x"', '(eq urn:ietf:params:scim:schemas:core:2.0:User:userName "x")'],
    [
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"',
      '(eq urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value "26118915-6090-4610-87e4-49d8ca9f808d")',
    ],
    ['  userName   eq   "spaced"  ', '(eq userName "spaced")'],
  ])('%s', (text, expected) => {
    expect(show(parseFilter(text))).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['userName', 'expected an operator'],
    ['userName eq', 'expected a value'],
    ['userName xx "a"', 'expected an operator'],
    ['userName eq bjensen', 'expected a value'],
    ["userName eq 'single'", 'unexpected'],
    ['userName eq "open', 'not closed'],
    ['userName eq "bad \\q escape"', 'invalid escape'],
    ['(userName eq "a"', 'expected ")"'],
    ['userName eq "a")', 'unexpected ")"'],
    ['not userName eq "a"', '"(" after "not"'],
    ['userName eq "a" and', 'expected an attribute name'],
    ['userName eq "a" userName eq "b"', 'unexpected "userName"'],
    ['emails[type eq "work"', 'expected "]"'],
    ['emails[type eq "work" and x[y eq "1"]]', 'cannot be nested'],
    ['name.givenName[x eq "1"]', 'multi-valued'],
    ['a.b.c eq "1"', 'not an attribute name'],
    ['1abc eq "1"', 'not a number'],
    ['userName eq "a" ; drop table users', 'unexpected ";"'],
    [`${'('.repeat(40)}a eq "1"${')'.repeat(40)}`, 'nested more than'],
    [`userName eq "${'x'.repeat(5000)}"`, 'longer than'],
  ])('refuses %j (%s) with invalidFilter', (text, message) => {
    const error = scimError(() => parseFilter(text));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidFilter');
    expect(error.message).toContain(message);
  });
});

describe('parseAttributePath', () => {
  it.each([
    ['userName', { schema: null, attribute: 'userName', subAttribute: null }],
    ['name.givenName', { schema: null, attribute: 'name', subAttribute: 'givenName' }],
    ['members.$ref', { schema: null, attribute: 'members', subAttribute: '$ref' }],
    [
      'urn:ietf:params:scim:schemas:core:2.0:User:name.familyName',
      { schema: 'urn:ietf:params:scim:schemas:core:2.0:User', attribute: 'name', subAttribute: 'familyName' },
    ],
    [
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
      { schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', attribute: 'department', subAttribute: null },
    ],
    ['a.b.c', null],
    ['1a', null],
    ['', null],
    ['urn:x:', null],
  ])('%s', (text, expected) => {
    expect(parseAttributePath(text)).toEqual(expected);
  });
});

describe('parsePatchPath', () => {
  it.each([
    ['active', 'active', null, null],
    ['name.givenName', 'name', 'givenName', null],
    ['emails[type eq "work"]', 'emails', null, 'emails[(eq type "work")]'],
    ['emails[type eq "work"].value', 'emails', 'value', 'emails[(eq type "work")]'],
    ['emails[type eq "work" and primary eq true].value', 'emails', 'value', 'emails[(and (eq type "work") (eq primary true))]'],
    ['roles[primary eq "True"].value', 'roles', 'value', 'roles[(eq primary "True")]'],
    [
      'members[value eq "2819c223-7f76-453a-919d-413861904646"]',
      'members',
      null,
      'members[(eq value "2819c223-7f76-453a-919d-413861904646")]',
    ],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', 'employeeNumber', null, null],
  ])('%s', (text, attribute, subAttribute, filter) => {
    const path = parsePatchPath(text);
    expect(path.attribute).toBe(attribute);
    expect(path.subAttribute).toBe(subAttribute);
    expect(path.filter ? show({ kind: 'valuePath', path: { ...path, subAttribute: null }, filter: path.filter }) : null).toBe(filter);
  });

  it.each([
    ['', 'invalidPath'],
    ['[type eq "work"]', 'invalidPath'],
    ['a.b.c', 'invalidPath'],
    ['emails[type eq "work"', 'invalidPath'],
    ['emails[type eq "work"]value', 'invalidPath'],
    ['emails[type eq "work"].value.x', 'invalidPath'],
    ['emails[type eq "work"] extra', 'invalidPath'],
    ['name.givenName[type eq "x"]', 'invalidPath'],
    ['emails[]', 'invalidFilter'],
    ['emails[type xx "work"]', 'invalidFilter'],
    ['emails[type eq "work" or]', 'invalidFilter'],
  ])('refuses %j with %s', (text, scimType) => {
    const error = scimError(() => parsePatchPath(text));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe(scimType);
  });
});

describe('evaluateFilter', () => {
  const user = {
    userName: 'Bjensen',
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    active: true,
    roles: [{ value: 'LINGUIST', primary: true }],
  };

  it.each([
    ['userName eq "bjensen"', true], // case-insensitive (caseExact: false)
    ['USERNAME EQ "BJENSEN"', true],
    ['userName ne "bjensen"', false],
    ['userName co "ens"', true],
    ['userName sw "bj"', true],
    ['userName ew "SEN"', true],
    ['userName ew "x"', false],
    ['userName gt "a"', true],
    ['userName lt "a"', false],
    ['userName ge "bjensen"', true],
    ['userName le "bjensen"', true],
    ['userName pr', true],
    ['name.familyName sw "Jen"', true],
    ['name.middleName pr', false],
    ['emails co "jensen.org"', true],
    ['emails.value eq "bjensen@example.com"', true],
    ['emails[type eq "work" and value co "example.com"]', true],
    ['emails[type eq "home" and value co "example.com"]', false],
    ['emails[primary eq "True"]', true],
    ['active eq true', true],
    ['active eq "False"', false],
    ['active ne false', true],
    ['not (active eq true)', false],
    ['active eq false or userName eq "bjensen"', true],
    ['active eq false and userName eq "bjensen"', false],
    ['title eq null', true],
    ['userName eq null', false],
    ['userName ne null', true],
    ['unknownAttribute eq "x"', false],
    ['roles[value eq "linguist"]', true],
  ])('%s -> %s', (text, expected) => {
    expect(evaluateFilter(parseFilter(text), user, USER_ATTRIBUTES)).toBe(expected);
  });

  it.each([
    ['active gt true', 'boolean'],
    ['active eq "maybe"', 'boolean'],
    ['userName eq 5', 'string'],
    ['userName gt null', 'null'],
  ])('refuses %s', (text, message) => {
    const error = scimError(() => evaluateFilter(parseFilter(text), user, USER_ATTRIBUTES));
    expect(error.scimType).toBe('invalidFilter');
    expect(error.message).toContain(message);
  });

  it('compares date-times as instants', () => {
    const dated = { when: '2026-11-21T12:00:00.000Z' };
    const attributes = [
      {
        name: 'when',
        type: 'dateTime',
        multiValued: false,
        required: false,
        caseExact: false,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
        description: '',
      },
    ] as const;
    expect(evaluateFilter(parseFilter('when gt "2026-11-21T11:59:59Z"'), dated, attributes)).toBe(true);
    expect(evaluateFilter(parseFilter('when eq "2026-11-21T13:00:00+01:00"'), dated, attributes)).toBe(true);
    expect(scimError(() => evaluateFilter(parseFilter('when co "2026"'), dated, attributes)).scimType).toBe('invalidFilter');
  });
});

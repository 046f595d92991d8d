import { describe, expect, it } from 'vitest';
import { configureProducts, narrowGrant, scopesForProduct, spaceSeparated } from './products.js';
import type { ProductGrant } from './products.js';

describe('configureProducts', () => {
  it.each([
    [['tms'], ['read', 'write'], [{ product: 'tms', scopes: ['read', 'write'] }]],
    [
      ['tms', 'strings'],
      ['write'],
      [
        { product: 'tms', scopes: ['write'] },
        { product: 'strings', scopes: ['write'] },
      ],
    ],
    [
      ['strings', 'tms'],
      ['tms:read'],
      [
        { product: 'strings', scopes: [] },
        { product: 'tms', scopes: ['read'] },
      ],
    ],
    [['tms', 'tms'], ['write', 'read', 'read'], [{ product: 'tms', scopes: ['read', 'write'] }]],
    [['tms'], [], [{ product: 'tms', scopes: [] }]],
  ])('%j with %j -> %j', (products, scopes, expected) => {
    expect(configureProducts(products, scopes)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [['billing'], ['read'], 'products'],
    [[], ['read'], 'products'],
    [['tms'], ['admin'], 'scopes'],
    [['tms'], ['strings:read'], 'scopes'],
    [['tms'], ['tms:admin'], 'scopes'],
    [['tms'], ['constructor'], 'scopes'],
    [['__proto__'], [], 'products'],
  ])('refuses %j with %j (%s)', (products, scopes, field) => {
    const result = configureProducts(products, scopes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.field).toBe(field);
  });
});

describe('narrowGrant', () => {
  const configured: ProductGrant[] = [
    { product: 'tms', scopes: ['read', 'write'] },
    { product: 'strings', scopes: ['read'] },
  ];

  it.each([
    [null, null, ['tms', 'strings'], ['tms:read', 'tms:write', 'strings:read']],
    [['strings'], null, ['strings'], ['strings:read']],
    [[], null, ['tms', 'strings'], ['tms:read', 'tms:write', 'strings:read']],
    [null, ['read'], ['tms', 'strings'], ['tms:read', 'strings:read']],
    [null, ['write'], ['tms'], ['tms:write']],
    [null, ['write', 'strings:read'], ['tms', 'strings'], ['tms:write', 'strings:read']],
    [['tms'], ['strings:read', 'read'], ['tms'], ['tms:read']],
    [null, ['write', 'bogus'], ['tms'], ['tms:write']],
  ])('resource %j scope %j -> aud %j scope %j', (resource, scope, audience, scopes) => {
    expect(narrowGrant(configured, resource, scope)).toEqual({ ok: true, value: { audience, scopes } });
  });

  it('keeps a product configured with no scope in the audience when no scope is requested', () => {
    const grants: ProductGrant[] = [{ product: 'tms', scopes: [] }];
    expect(narrowGrant(grants, null, null)).toEqual({ ok: true, value: { audience: ['tms'], scopes: [] } });
    expect(narrowGrant(grants, null, ['read'])).toMatchObject({ ok: false, error: { error: 'invalid_scope' } });
  });

  it.each([
    [['billing'], null, 'invalid_target'],
    [['tms', 'billing'], null, 'invalid_target'],
    [null, ['admin'], 'invalid_scope'],
    [['strings'], ['write'], 'invalid_scope'],
  ])('resource %j scope %j -> %s', (resource, scope, error) => {
    expect(narrowGrant(configured, resource, scope)).toMatchObject({ ok: false, error: { error } });
  });
});

describe('helpers', () => {
  it('splits space-separated lists, dropping empties and repeats', () => {
    expect(spaceSeparated(' tms  strings tms ')).toEqual(['tms', 'strings']);
  });
  it("reads one product's scopes out of a scope claim", () => {
    expect(scopesForProduct('tms:read strings:write tms:write', 'tms')).toEqual(['read', 'write']);
    expect(scopesForProduct('strings:write', 'tms')).toEqual([]);
    expect(scopesForProduct('', 'tms')).toEqual([]);
  });
});

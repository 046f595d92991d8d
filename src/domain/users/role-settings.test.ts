import { describe, expect, it } from 'vitest';
import {
  PROJECT_MANAGER_RIGHTS,
  RoleSettingsError,
  hasRight,
  parseRoleSettings,
  referencedKeys,
  roleSettingsFromInput,
  withoutReferences,
} from './role-settings.js';

describe('role settings', () => {
  it.each([
    ['projectCreate', true],
    ['userCreate', true],
    ['setupServer', true],
    ['clientDomainSubDomainCreate', true],
    // The service description overrides: client and subdomain rights of PMs are off by default.
    ['clientCreate', false],
    ['clientViewOther', false],
    ['clientEditOther', false],
    ['clientDeleteOther', false],
    ['subDomainCreate', false],
  ] as const)('a new project manager has %s = %s', (right, expected) => {
    const settings = roleSettingsFromInput('PROJECT_MANAGER', {});
    expect(settings.rights[right]).toBe(expected);
    expect(hasRight('PROJECT_MANAGER', settings, right)).toBe(expected);
  });

  it.each([
    ['LINGUIST', { editAllTermsInTB: false, editTranslationsInTM: false, enableMT: true, mayRejectJobs: false }],
    ['SUBMITTER', { projectViewCreatedByOtherSubmitters: false }],
    ['ADMIN', {}],
  ] as const)('%s defaults', (role, rights) => {
    expect(roleSettingsFromInput(role, {}).rights).toEqual(rights);
  });

  it('a GUEST needs a client, and gets the guest rights', () => {
    expect(() => roleSettingsFromInput('GUEST', {})).toThrow(RoleSettingsError);
    const settings = roleSettingsFromInput('GUEST', { client: { uid: 'c1' }, termBaseEditOther: false });
    expect(settings.references.client).toBe('c1');
    expect(settings.rights).toMatchObject({ termBaseEditOther: false, termBaseViewOther: true, enableMT: true });
  });

  it('ADMIN holds every right; linguists none of the management rights', () => {
    expect(hasRight('ADMIN', null, 'clientCreate')).toBe(true);
    expect(hasRight('LINGUIST', roleSettingsFromInput('LINGUIST', {}), 'userCreate')).toBe(false);
  });

  it('on edit, rights not sent keep their previous values; sent ones replace them', () => {
    const before = roleSettingsFromInput('PROJECT_MANAGER', { userCreate: false, clientCreate: true });
    const after = roleSettingsFromInput('PROJECT_MANAGER', { projectCreate: false }, before);
    expect(after.rights).toMatchObject({ userCreate: false, clientCreate: true, projectCreate: false });
  });

  it.each([
    [{ projectCreate: 'yes' }, 'projectCreate'],
    [{ sourceLocales: 'en' }, 'sourceLocales'],
    [{ clients: [{ name: 'no uid' }] }, 'clients[0]'],
    [{ dashboardSetting: 'EVERYTHING' }, 'dashboardSetting'],
  ])('rejects %j naming the field', (input, field) => {
    try {
      roleSettingsFromInput('PROJECT_MANAGER', input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RoleSettingsError);
      expect((error as RoleSettingsError).field).toBe(field);
    }
  });

  it('ignores the fields of other roles', () => {
    const settings = roleSettingsFromInput('LINGUIST', { projectCreate: false, mayRejectJobs: true });
    expect(settings.rights).not.toHaveProperty('projectCreate');
    expect(settings.rights.mayRejectJobs).toBe(true);
  });

  it('collects references by kind, without duplicates', () => {
    const settings = roleSettingsFromInput('PROJECT_MANAGER', {
      clients: [{ uid: 'a' }, { uid: 'a' }],
      projectClients: [{ uid: 'b' }],
      domains: [{ uid: 'd' }],
    });
    const keys = referencedKeys('PROJECT_MANAGER', settings);
    expect([...(keys.get('client') ?? [])].sort()).toEqual(['a', 'b']);
    expect([...(keys.get('domain') ?? [])]).toEqual(['d']);
  });

  it('rights added after a user was stored take their default when read', () => {
    const stored = JSON.stringify({ rights: { projectCreate: false } });
    const settings = parseRoleSettings('PROJECT_MANAGER', stored);
    expect(settings.rights.projectCreate).toBe(false);
    expect(settings.rights.vendorCreate).toBe(PROJECT_MANAGER_RIGHTS.vendorCreate);
  });

  describe('withoutReferences: a deleted record leaves every list that named it', () => {
    const pm = roleSettingsFromInput('PROJECT_MANAGER', {
      clients: [{ uid: 'c1' }, { uid: 'c2' }],
      projectClients: [{ uid: 'c1' }],
      domains: [{ uid: 'c1' }],
    });
    const cases: {
      name: string;
      kind: Parameters<typeof withoutReferences>[2];
      keys: string[];
      expected: Record<string, string[]> | null;
    }[] = [
      {
        name: 'client lists lose the client, a domain of the same key stays',
        kind: 'client',
        keys: ['c1'],
        expected: { clients: ['c2'], projectClients: [], domains: ['c1'] },
      },
      { name: 'several keys at once', kind: 'client', keys: ['c1', 'c2'], expected: { clients: [], projectClients: [], domains: ['c1'] } },
      { name: 'a key nobody names changes nothing', kind: 'client', keys: ['zz'], expected: null },
      { name: 'a kind the role has no list of changes nothing', kind: 'priceList', keys: ['c1'], expected: null },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const result = withoutReferences('PROJECT_MANAGER', pm, c.kind, new Set(c.keys));
        if (c.expected === null) expect(result).toBeNull();
        else for (const [field, keys] of Object.entries(c.expected)) expect(result!.referenceLists[field]).toEqual(keys);
      });
    }
    it('single references are cleared to null', () => {
      const linguist = roleSettingsFromInput('LINGUIST', { netRateScheme: { uid: 'n1' } });
      expect(withoutReferences('LINGUIST', linguist, 'netRateScheme', new Set(['n1']))!.references.netRateScheme).toBeNull();
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportedLanguages } from '../src/domain/languages/supported-languages.js';
import type { UserRole } from '../src/db/schema.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';
import { apiToken, signedInUser } from './factories.js';

/** Issue 5: the supported language list and its use as the validation of language parameters. */

interface LanguageDto {
  code: string;
  name: string;
  rfc: string;
  android: string;
  androidBcp: string;
}

const LEGACY_CODES = ['in', 'in_id', 'iw', 'iw_il', 'ji', 'mo', 'mo_md', 'sh', 'sr_cs', 'sr_cyrl_cs', 'sr_latn_cs'];

const newUser = (extra: Record<string, unknown>) => ({
  userName: `lang-${Math.random().toString(36).slice(2, 10)}`,
  firstName: 'Lena',
  lastName: 'Lang',
  email: 'lena@example.test',
  password: 'a good password',
  timezone: 'Europe/Prague',
  ...extra,
});

describe('supported languages', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let organizationId: string;

  async function languages(query = '', requestHeaders = headers) {
    const response = await t.inject({ url: `/api2/v1/languages${query}`, headers: requestHeaders });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { languages: LanguageDto[] }).languages;
  }

  async function usersOfOrganization() {
    return t.database.db.selectFrom('users').select(['id', 'roleSettings']).where('organizationId', '=', organizationId).execute();
  }

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await signedInUser(t, 'ADMIN');
    headers = admin.headers;
    organizationId = admin.organization.id;
  });
  afterAll(() => t.close());

  describe('GET /api2/v1/languages', () => {
    it('lists every supported language once, sorted by code, with exactly the LanguageDto fields', async () => {
      const list = await languages();
      expect(list.length).toBe(supportedLanguages().length);
      expect(list.length).toBeGreaterThan(400);
      const codes = list.map((l) => l.code);
      expect(new Set(codes).size).toBe(codes.length);
      expect([...codes].sort()).toEqual(codes);
      for (const language of list) {
        expect(Object.keys(language).sort()).toEqual(['android', 'androidBcp', 'code', 'name', 'rfc']);
        for (const value of Object.values(language)) expect(typeof value === 'string' && value.length > 0).toBe(true);
      }
    });

    it.each([
      ['en', 'English', 'en', 'en', 'en'],
      ['en_us', 'English (USA)', 'en-US', 'en-rUS', 'en-rUS'],
      ['de_de', 'German (Germany)', 'de-DE', 'de-rDE', 'de-rDE'],
      ['zh_cn', 'Chinese (PRC)', 'zh-CN', 'zh-rCN', 'zh-rCN'],
      ['zh_tw', 'Chinese (Taiwan)', 'zh-TW', 'zh-rTW', 'zh-rTW'],
      ['pt_br', 'Portuguese (Brazil)', 'pt-BR', 'pt-rBR', 'pt-rBR'],
      ['es_419', 'Spanish (Latin America)', 'es-419', 'es', 'b+es+419'],
      ['sr_latn_rs', 'Serbian (Latin, Serbia)', 'sr-Latn-RS', 'sr-rRS', 'b+sr+Latn+RS'],
      ['uz_cyrl_uz', 'Uzbek (Cyrillic, Uzbekistan)', 'uz-Cyrl-UZ', 'uz-rUZ', 'b+uz+Cyrl+UZ'],
      ['iw', 'Hebrew (legacy code)', 'iw', 'iw', 'iw'],
    ])('has %s with its name and tags', async (code, name, rfc, android, androidBcp) => {
      const list = await languages();
      expect(list.find((l) => l.code === code)).toEqual({ code, name, rfc, android, androidBcp });
    });

    it('active=true leaves out the legacy codes; active=false lists only them; together they are the whole list', async () => {
      const all = await languages();
      const active = await languages('?active=true');
      const inactive = await languages('?active=false');
      expect(inactive.map((l) => l.code)).toEqual(LEGACY_CODES);
      const activeCodes = active.map((l) => l.code);
      expect(activeCodes).toContain('en_us');
      expect(activeCodes).toContain('he');
      for (const legacy of LEGACY_CODES) expect(activeCodes).not.toContain(legacy);
      expect([...activeCodes, ...LEGACY_CODES].sort()).toEqual(all.map((l) => l.code));
    });

    it('refuses an active value that is not a boolean', async () => {
      const response = await t.inject({ url: '/api2/v1/languages?active=sometimes', headers });
      expect(response.statusCode).toBe(400);
    });

    it('needs a token: 401 without one or with a wrong one', async () => {
      expect((await t.inject({ url: '/api2/v1/languages' })).statusCode).toBe(401);
      expect((await t.inject({ url: '/api2/v1/languages', headers: apiToken('not-a-token') })).statusCode).toBe(401);
    });

    it('answers every organization role the same list; SYS_ADMIN gets 403', async () => {
      const expected = await languages('?active=true');
      for (const role of ['PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER'] as UserRole[]) {
        const other = await signedInUser(t, role);
        expect(await languages('?active=true', other.headers), role).toEqual(expected);
      }
      const sysAdmin = await signedInUser(t, 'SYS_ADMIN');
      expect((await t.inject({ url: '/api2/v1/languages', headers: sysAdmin.headers })).statusCode).toBe(403);
    });

    it('is served under /web/api2 too', async () => {
      const response = await t.inject({ url: '/web/api2/v1/languages?active=false', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().languages.map((l: LanguageDto) => l.code)).toEqual(LEGACY_CODES);
    });
  });

  describe('language parameters elsewhere are validated against the list (user role settings)', () => {
    it.each([
      ['an unknown code', { role: 'LINGUIST', targetLocales: ['de', 'xx_yy'] }, 'targetLocales', 'xx_yy'],
      ['a code of the right shape that is not listed', { role: 'PROJECT_MANAGER', sourceLocales: ['en_xx'] }, 'sourceLocales', 'en_xx'],
      ['a malformed code', { role: 'LINGUIST', sourceLocales: ['Klingon!'] }, 'sourceLocales', 'Klingon!'],
    ])('a user create with %s gets 400 UnsupportedLanguage and writes nothing', async (_what, extra, field, code) => {
      const before = await usersOfOrganization();
      const response = await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser(extra) });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json();
      expect(body.errorCode).toBe('UnsupportedLanguage');
      expect(body.errorDescription).toContain(code);
      expect(body.errorDetails).toEqual([{ field, message: `unsupported language code "${code}"` }]);
      expect(await usersOfOrganization()).toEqual(before);
    });

    it('stores valid codes given in any case or with dashes in their canonical form, once each', async () => {
      const payload = newUser({
        role: 'PROJECT_MANAGER',
        sourceLocales: ['EN-us', 'en_US'],
        targetLocales: ['De_De', 'sr-Latn-RS', 'ZH-cn', 'es-419'],
      });
      const created = await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(body.sourceLocales).toEqual(['en_us']);
      expect(body.targetLocales).toEqual(['de_de', 'sr_latn_rs', 'zh_cn', 'es_419']);
      const read = (await t.inject({ url: `/api2/v3/users/${body.uid}`, headers })).json();
      expect(read.sourceLocales).toEqual(['en_us']);
      expect(read.targetLocales).toEqual(['de_de', 'sr_latn_rs', 'zh_cn', 'es_419']);
      const stored = await t.database.db.selectFrom('users').select('roleSettings').where('uid', '=', body.uid).executeTakeFirstOrThrow();
      // SQLite keeps the JSON as text, PostgreSQL as jsonb.
      const settings = typeof stored.roleSettings === 'string' ? JSON.parse(stored.roleSettings) : stored.roleSettings;
      expect(settings.locales).toEqual({ sourceLocales: ['en_us'], targetLocales: ['de_de', 'sr_latn_rs', 'zh_cn', 'es_419'] });
    });

    it('an edit is validated the same way: a bad code changes nothing, a good one is stored canonical', async () => {
      const created = (
        await t.inject({ method: 'POST', url: '/api2/v3/users', headers, payload: newUser({ role: 'LINGUIST', targetLocales: ['fr_fr'] }) })
      ).json();
      const base = {
        userName: created.userName,
        firstName: 'Lena',
        lastName: 'Lang',
        email: 'lena@example.test',
        timezone: 'UTC',
        role: 'LINGUIST',
      };
      const refused = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${created.uid}`,
        headers,
        payload: { ...base, targetLocales: ['fr_fr', 'fr_xx'] },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorCode).toBe('UnsupportedLanguage');
      expect((await t.inject({ url: `/api2/v3/users/${created.uid}`, headers })).json()).toMatchObject({
        timezone: 'Europe/Prague',
        targetLocales: ['fr_fr'],
      });

      const edited = await t.inject({
        method: 'PUT',
        url: `/api2/v3/users/${created.uid}`,
        headers,
        payload: { ...base, targetLocales: ['FR-ca', 'iw'] },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().targetLocales).toEqual(['fr_ca', 'iw']);
    });
  });
});

import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect } from './harness.js';
import type { TestApp } from './harness.js';
import { apiCaller, uniqueName } from './support/api.js';
import type { Headers, Method } from './support/api.js';
import { apertiumUrl } from './support/apertium.js';
import { signedInUser } from './factories.js';

/**
 * Issue 17: MT settings (the OpenTMS create/edit/delete extension and the published reads), MT
 * through a real apertium-apy, tags and the active glossary through it, the cache and the usage
 * counts (docs/machine-translation.md).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

const apy = await apertiumUrl();
if (!apy)
  console.warn('apertium-apy is not installed (apt-get install apertium-apy apertium-eng-spa apertium-eng-cat): the MT tests are skipped.');

/** A loopback port with nothing listening. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!apy)(`machine translation (${testDialect})`, () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let manager: Awaited<ReturnType<typeof signedInUser>>;
  let linguist: Awaited<ReturnType<typeof signedInUser>>;
  let otherAdmin: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { OPENTMS_MT_REQUEST_TIMEOUT_MS: '30000', OPENTMS_MT_ATTEMPTS: '2' } });
    admin = await signedInUser(t, 'ADMIN');
    manager = await signedInUser(t, 'PROJECT_MANAGER', admin.organization);
    linguist = await signedInUser(t, 'LINGUIST', admin.organization);
    otherAdmin = await signedInUser(t, 'ADMIN');
  });
  afterAll(() => t.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  async function ok(method: Method, url: string, headers: Headers, payload?: unknown, status = 200): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.statusCode === 204 ? null : response.json();
  }
  async function refused(method: Method, url: string, headers: Headers, payload: unknown, status: number, code: string): Promise<any> {
    const response = await api(method, url, headers, payload);
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json();
    expect(body).toMatchObject({ errorCode: code, errorDescription: expect.any(String) });
    return body;
  }
  const createSettings = (payload: Record<string, unknown> = {}, headers: Headers = admin.headers) =>
    ok('POST', 'machineTranslateSettings', headers, { name: uniqueName('Apertium'), type: 'Apertium', args: { url: apy }, ...payload });
  const consumed = async (headers: Headers = admin.headers) => (await ok('GET', 'mtuUsage', headers)).consumedMtus as number;

  it('lists the engine types: Apertium and the cloud engines Phrase knows; only Apertium may be created', async () => {
    const { types } = await ok('GET', 'machineTranslateSettings/types', manager.headers);
    expect(types).toContain('Apertium');
    expect(types.length).toBeGreaterThan(10);
    const cloud = types.find((type: string) => type !== 'Apertium');
    const body = await refused(
      'POST',
      'machineTranslateSettings',
      admin.headers,
      { name: 'Cloud', type: cloud, credentials: { apiKey: 'k' } },
      400,
      'MtEngineNotAvailable',
    );
    expect(body.errorDescription).toContain(cloud);
    await refused('POST', 'machineTranslateSettings', admin.headers, { name: 'X', type: 'NoSuchEngine' }, 400, 'InvalidArguments');
  });

  it('creates, reads, edits and deletes settings (ADMIN only); credentials are sealed and never answered', async () => {
    const created = await createSettings({ credentials: { apiKey: 'very-secret-key-123' }, default_: true });
    expect(created).toMatchObject({ type: 'Apertium', default_: true, includeTags: true, args: { url: apy }, charCount: 0 });
    expect(JSON.stringify(created)).not.toContain('very-secret-key-123');
    const row = await t.database.db.selectFrom('mtSettings').select('credentials').where('uid', '=', created.uid).executeTakeFirstOrThrow();
    expect(row.credentials).toMatch(/^v1\./);
    expect(row.credentials).not.toContain('very-secret');

    const fetched = await ok('GET', `machineTranslateSettings/${created.uid}`, manager.headers);
    expect(fetched).toEqual(created);
    expect(await ok('GET', `machineTranslateSettings/${created.id}`, manager.headers)).toEqual(created);
    const list = await ok('GET', `machineTranslateSettings?name=${encodeURIComponent(created.name)}`, manager.headers);
    expect(list.content.map((s: any) => s.uid)).toEqual([created.uid]);
    expect(
      (await ok('GET', `machineTranslateSettings/thirdPartyEngines?name=${encodeURIComponent(created.name)}`, admin.headers)).totalElements,
    ).toBe(1);

    // Only one default per organization.
    const second = await createSettings({ default_: true });
    expect((await ok('GET', `machineTranslateSettings/${created.uid}`, admin.headers)).default_).toBe(false);

    const edited = await ok('PUT', `machineTranslateSettings/${created.uid}`, admin.headers, {
      name: 'Renamed',
      type: 'Apertium',
      includeTags: false,
    });
    expect(edited).toMatchObject({ name: 'Renamed', includeTags: false, args: { url: apy } });
    // Credentials left out are kept.
    const kept = await t.database.db
      .selectFrom('mtSettings')
      .select('credentials')
      .where('uid', '=', created.uid)
      .executeTakeFirstOrThrow();
    expect(kept.credentials).toBe(row.credentials);
    await refused('PUT', `machineTranslateSettings/${created.uid}`, admin.headers, { name: 'X', type: 'DeepL' }, 400, 'InvalidArguments');
    await refused(
      'POST',
      'machineTranslateSettings',
      admin.headers,
      { name: 'X', type: 'Apertium', args: { url: 'ftp://x' } },
      400,
      'InvalidArguments',
    );
    await refused(
      'POST',
      'machineTranslateSettings',
      admin.headers,
      { name: 'X', type: 'Apertium', args: { apiKey: 'x' } },
      400,
      'InvalidArguments',
    );

    // Managers and linguists may not manage; linguists may not read; another organization sees nothing.
    await refused('POST', 'machineTranslateSettings', manager.headers, { name: 'X', type: 'Apertium' }, 403, 'AccessDenied');
    await refused('DELETE', `machineTranslateSettings/${second.uid}`, manager.headers, undefined, 403, 'AccessDenied');
    await refused('GET', 'machineTranslateSettings', linguist.headers, undefined, 403, 'AccessDenied');
    await refused('GET', `machineTranslateSettings/${created.uid}`, otherAdmin.headers, undefined, 404, 'ResourceNotFound');

    await ok('DELETE', `machineTranslateSettings/${second.uid}`, admin.headers, undefined, 204);
    await refused('GET', `machineTranslateSettings/${second.uid}`, admin.headers, undefined, 404, 'ResourceNotFound');
  });

  it('reports the engine status: reachable, and down on a port with nothing listening', async () => {
    const up = await createSettings();
    expect(await ok('GET', `machineTranslateSettings/${up.uid}/status`, manager.headers)).toEqual({ ok: true, error: null });
    const down = await createSettings({ args: { url: `http://127.0.0.1:${await deadPort()}` } });
    const status = await ok('GET', `machineTranslateSettings/${down.uid}/status`, admin.headers);
    expect(status.ok).toBe(false);
    expect(status.error).toEqual(expect.any(String));
  });

  it('translates for real, keeps tags, and sends the same text only once (the cache); usage counts what was sent', async () => {
    const settings = await createSettings();
    const before = await consumed();
    const texts = ['The red car is fast.', 'Open the {1>file<1} now.', 'Press {1} to save your work.'];
    const { translations } = await ok('POST', `machineTranslations/${settings.uid}/translate`, manager.headers, {
      sourceTexts: texts,
      from: 'en',
      to: 'es',
    });
    expect(translations).toHaveLength(3);
    expect(translations[0]).toMatch(/coche/i);
    expect(translations[1]).toMatch(/\{1>.+<1\}/);
    expect(translations[2]).toContain('{1}');
    const afterFirst = await consumed();
    expect(afterFirst).toBeGreaterThan(before);
    // The same texts again: answered from the cache, nothing sent, nothing counted.
    const again = await ok('POST', `machineTranslations/${settings.uid}/translate`, admin.headers, {
      sourceTexts: texts,
      from: 'en',
      to: 'es',
    });
    expect(again.translations).toEqual(translations);
    expect(await consumed()).toBe(afterFirst);
    expect((await ok('GET', `machineTranslateSettings/${settings.uid}`, admin.headers)).charCount).toBe(afterFirst - before);
    // Catalan too.
    const ca = await ok('POST', `machineTranslations/${settings.uid}/translate`, admin.headers, {
      sourceTexts: ['The red car is fast.'],
      from: 'en',
      to: 'ca',
    });
    expect(ca.translations[0]).toMatch(/vermell/i);
    // Usage is per organization.
    expect(await consumed(otherAdmin.headers)).toBe(0);
  });

  it('enforces the active glossary: source terms protected, target terms put in', async () => {
    const settings = await createSettings();
    const glossary = await ok('POST', 'glossaries', admin.headers, { name: uniqueName('G'), langs: ['en', 'es'] });
    const csv = 'en,es\r\nprint queue,cola de impresión OpenTMS\r\nfile,fichero-OT\r\n';
    const upload = await t.inject({
      method: 'POST',
      url: `/api2/v1/glossaries/${glossary.uid}/upload`,
      headers: { ...admin.headers, 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="g.csv"' },
      payload: Buffer.from(csv, 'utf8'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    await ok('PUT', `glossaries/${glossary.uid}/activate`, admin.headers, { active: true });
    const { translations } = await ok('POST', `machineTranslations/${settings.uid}/translate`, admin.headers, {
      sourceTexts: ['Open the file and check the print queue.', 'The profile is ready.'],
      from: 'en',
      to: 'es',
    });
    expect(translations[0]).toContain('fichero-OT');
    expect(translations[0]).toContain('cola de impresión OpenTMS');
    // "profile" is not the term "file".
    expect(translations[1]).not.toContain('fichero-OT');
  });

  it('answers 400 for a pair the engine lacks and 502 for an engine that is down, changing nothing', async () => {
    const settings = await createSettings();
    await refused(
      'POST',
      `machineTranslations/${settings.uid}/translate`,
      admin.headers,
      { sourceTexts: ['Hello'], from: 'en', to: 'ja' },
      400,
      'MtLanguagePairNotSupported',
    );
    const down = await createSettings({ args: { url: `http://127.0.0.1:${await deadPort()}` } });
    const before = await consumed();
    const started = Date.now();
    await refused(
      'POST',
      `machineTranslations/${down.uid}/translate`,
      admin.headers,
      { sourceTexts: ['Hello world'], from: 'en', to: 'es' },
      502,
      'MachineTranslationFailed',
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await consumed()).toBe(before);
    await refused(
      'POST',
      `machineTranslations/${settings.uid}/translate`,
      admin.headers,
      { sourceTexts: [], from: 'en', to: 'es' },
      400,
      'InvalidArguments',
    );
  });

  it('lists each MT settings as a Language AI profile', async () => {
    const settings = await createSettings();
    const profiles = await ok('GET', 'memsourceTranslateProfiles?pageSize=50', manager.headers);
    const profile = profiles.content.find((p: any) => p.uid === settings.uid);
    expect(profile).toMatchObject({ name: settings.name, locked: false, memsourceTranslate: { glossarySupported: true } });
  });
});

import { newUid } from '../../src/db/ids.js';
import { resolveSettings } from '../../src/domain/analysis/settings.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeProject } from '../support/workflow-factories.js';

/**
 * Quotes: a project of organization A with a FINISHED analysis (written directly: no worker runs
 * in the matrix), a price list pricing its language pair, and quotes of it made through the API:
 * one the reading routes use (and DELETE removes last), and one without a provider that email
 * quotes is called with (400: every quote needs a provider, so the matrix sends no mail).
 */
const build: FixtureBuilder = async ({ t, organization, admin, adminHeaders, client }) => {
  const db = t.database.db;
  const now = t.clock().toISOString();
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de'] });
  const analysis = await db
    .insertInto('analyses')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      projectId: project.id,
      innerId: 1,
      type: 'PreAnalyse',
      name: 'Matrix analysis',
      providerUserId: null,
      providerVendorId: null,
      netRateSchemeId: null,
      settings: JSON.stringify(resolveSettings({})),
      status: 'OK',
      errorMessage: null,
      asyncRequestId: null,
      createdAt: now,
      createdById: admin.id,
      deletedAt: null,
    })
    .returning(['id', 'uid'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('analysisLanguageParts')
    .values({
      analysisId: analysis.id,
      position: 0,
      sourceLang: 'en',
      targetLang: 'de',
      tallies: JSON.stringify({ 'transMemoryMatches.match0': { segments: 2, wordHundredths: 1000, characters: 60 } }),
    })
    .execute();

  const call = async (method: 'POST', url: string, payload: object, status: number) => {
    const response = await t.inject({ method, url: `/api2/${url}`, headers: adminHeaders, payload });
    if (response.statusCode !== status) throw new Error(`quotes fixture ${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string | number; uid: string }>();
  };
  const list = await call('POST', 'v1/priceLists', { name: `Matrix prices ${newUid().slice(0, 6)}`, currencyCode: 'EUR' }, 201);
  await call('POST', `v1/priceLists/${list.uid}/priceSets`, { sourceLanguages: ['en'], targetLanguages: ['de'] }, 201);
  await call('POST', `v1/priceLists/${list.uid}/priceSets/prices`, { price: 0.1 }, 200);

  const body = {
    name: 'Matrix quote',
    project: { uid: project.uid },
    analyse: { id: String(analysis.id) },
    priceList: { id: String(list.id) },
  };
  const read = await call('POST', 'v2/quotes', body, 201);
  const unsent = await call('POST', 'v2/quotes', { ...body, name: 'Matrix quote without provider' }, 201);
  return {
    values: { quoteUid: read.uid, '/api2/v1/projects/:projectUid/quotes:projectUid': project.uid },
    bodies: {
      'POST /api2/v2/quotes': body,
      'POST /api2/v1/quotes': body,
      'POST /api2/v1/quotes/email': { quotes: [{ uid: unsent.uid }], subject: 'Quote', body: 'Your quote.' },
    },
  };
};
export default build;

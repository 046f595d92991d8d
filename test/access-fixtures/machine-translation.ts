import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * MT settings of organization A (Apertium on the default loopback address: the matrix checks who
 * may call, not what the engine answers), and bodies for the MT, pre-translation and human
 * translation routes naming the shared job (test/access-fixtures/_workflow.ts).
 */
const build: FixtureBuilder = async ({ t, adminHeaders, organization }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/machineTranslateSettings',
    headers: adminHeaders,
    payload: { name: 'Matrix MT', type: 'Apertium', args: { url: 'http://127.0.0.1:2737' } },
  });
  if (created.statusCode !== 200) throw new Error(`fixture MT settings: ${created.statusCode} ${created.body}`);
  const mtsUid = created.json<{ uid: string }>().uid;
  const job = await t.database.db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id', 'asc')
    .executeTakeFirstOrThrow();
  const jobs = [{ uid: job.uid }];
  return {
    values: { mtsUid, mtSettingsUid: mtsUid },
    bodies: {
      'PUT /api2/v1/machineTranslateSettings/:mtsUid': { name: 'Matrix MT', type: 'Apertium' },
      'POST /api2/v1/machineTranslations/:mtSettingsUid/translate': { sourceTexts: ['Hello world.'], from: 'en', to: 'es' },
      'POST /api2/v3/projects/:projectUid/jobs/preTranslate': {
        jobs,
        preTranslateSettings: { machineTranslationSettings: { useMachineTranslation: false } },
      },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/translations/translateWithMachineTranslation': { sourceTexts: ['Hello world.'] },
      'POST /api2/v1/projects/:projectUid/jobs/humanTranslate': { jobs, humanTranslateSettings: { id: '1' } },
    },
  };
};
export default build;

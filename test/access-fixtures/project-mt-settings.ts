import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * The MT and pre-translate settings of projects and templates: MT settings of organization A, and
 * valid bodies naming them for the shared project (de, fr) and template (de) of _workflow.ts.
 */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/machineTranslateSettings',
    headers: adminHeaders,
    payload: { name: 'Matrix MT', type: 'Apertium', args: { url: 'http://127.0.0.1:2737' } },
  });
  if (created.statusCode !== 200) throw new Error(`fixture MT settings: ${created.statusCode} ${created.body}`);
  const uid = created.json().uid as string;
  const preTranslate = { translationMemorySettings: { useTranslationMemory: true, translationMemoryThreshold: 0.75 } };
  const flat = { useTranslationMemory: true, translationMemoryThreshold: 0.75 };
  return {
    bodies: {
      'PUT /api2/v1/projects/:projectUid/mtSettings': { machineTranslateSettings: { id: uid } },
      'PUT /api2/v1/projects/:projectUid/mtSettingsPerLanguage': {
        mtSettingsPerLangList: [{ targetLang: 'de', machineTranslateSettings: { id: uid } }],
      },
      'PUT /api2/v3/projectTemplates/:projectTemplateUid/mtSettings': {
        machineTranslateSettingsPerLangs: [{ targetLang: 'de', machineTranslateSettings: { uid } }],
      },
      'PUT /api2/v4/projects/:projectUid/preTranslateSettings': preTranslate,
      'PUT /api2/v4/projectTemplates/:projectTemplateUid/preTranslateSettings': preTranslate,
      'PUT /api2/v1/projects/:projectUid/preTranslateSettings': flat,
      'PUT /api2/v2/projects/:projectUid/preTranslateSettings': flat,
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/preTranslateSettings': flat,
      'PUT /api2/v2/projectTemplates/:projectTemplateUid/preTranslateSettings': flat,
    },
  };
};
export default build;

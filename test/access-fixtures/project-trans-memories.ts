import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * The TMs of projects, templates and jobs: a TM of organization A (en → de, fr) that fits the
 * shared project and template of _workflow.ts, and valid bodies for the PUT and search routes.
 */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/transMemories',
    headers: adminHeaders,
    payload: { name: 'Matrix project TM', sourceLang: 'en', targetLangs: ['de', 'fr'] },
  });
  if (created.statusCode !== 201) throw new Error(`fixture TM: ${created.statusCode} ${created.body}`);
  const transMemory = { uid: created.json().uid as string };
  const context = { transMemories: [{ transMemory, readMode: true, writeMode: true, penalty: 1 }] };
  return {
    bodies: {
      'PUT /api2/v1/projects/:projectUid/transMemories': context,
      'PUT /api2/v2/projects/:projectUid/transMemories': { dataPerContext: [context] },
      'PUT /api2/v3/projects/:projectUid/transMemories': { dataPerContext: [context] },
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/transMemories': context,
      'PUT /api2/v2/projectTemplates/:projectTemplateUid/transMemories': { dataPerContext: [context] },
      'POST /api2/v3/projects/:projectUid/jobs/:jobUid/transMemories/search': { query: 'Hello world.' },
      'POST /api2/v3/projects/:projectUid/jobs/:jobUid/transMemories/wildCardSearch': { query: 'Hello*' },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/transMemories/searchSegment': { segment: 'Hello world.' },
      'POST /api2/v1/projects/:projectUid/transMemories/searchSegmentInProject': { segment: 'Hello world.', targetLangs: ['de'] },
    },
  };
};
export default build;

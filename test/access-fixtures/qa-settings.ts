import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * The QA settings of projects and templates: a valid edit for the shared project and template of
 * _workflow.ts, and the v4 job view's required `jobUid`, the shared project's first job (which the
 * matrix's linguist provides).
 */
const build: FixtureBuilder = async ({ t, organization }) => {
  const job = await t.database.db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const edit = { checks: [{ name: 'emptyTarget', type: 'VOID', enabled: true, ignorable: false }] };
  return {
    bodies: {
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/qaSettings': edit,
      'PUT /api2/v2/projects/:projectUid/qaSettings': edit,
    },
    queries: { 'GET /api2/v4/projects/:projectUid/jobs/qualityAssurances/settings': `jobUid=${job.uid}` },
  };
};
export default build;

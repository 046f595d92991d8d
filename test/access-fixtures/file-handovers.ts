import type { FixtureBuilder } from '../support/access-fixtures.js';

/** File handovers: the delete body names the shared job (test/access-fixtures/_workflow.ts). */
const build: FixtureBuilder = async ({ t, organization }) => {
  const job = await t.database.db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id', 'asc')
    .executeTakeFirstOrThrow();
  return { bodies: { 'DELETE /api2/v1/projects/:projectUid/fileHandovers': { jobs: [{ uid: job.uid }] } } };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Bilingual files: the download names its jobs in the body, so it gets a job of the shared
 * project (another organization's caller then sees 404 from the project). Upload, compare,
 * convert and preview take a file the matrix does not send: allowed roles get 400 or 415.
 */
const build: FixtureBuilder = async ({ t, organization }) => {
  const job = await t.database.db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { bodies: { 'POST /api2/v1/projects/:projectUid/jobs/bilingualFile': { jobs: [{ uid: job.uid }] } } };
};
export default build;

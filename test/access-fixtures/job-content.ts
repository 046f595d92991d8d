import type { FixtureBuilder } from '../support/access-fixtures.js';

/** Job content: bodies naming the shared job (test/access-fixtures/_workflow.ts) and an e-mail template. */
const build: FixtureBuilder = async ({ t, organization }) => {
  const db = t.database.db;
  const job = await db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id', 'asc')
    .executeTakeFirstOrThrow();
  const template = await db
    .selectFrom('emailTemplates')
    .select('id')
    .where('organizationId', '=', organization.id)
    .executeTakeFirstOrThrow();
  const jobs = [{ uid: job.uid }];
  return {
    bodies: {
      'POST /api2/v1/projects/:projectUid/jobs/copySourceToTarget': { jobs },
      'DELETE /api2/v1/projects/:projectUid/jobs/translations': { jobs },
      'DELETE /api2/v2/projects/:projectUid/jobs/translations': { jobs },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/pseudoTranslate': { prefix: '[' },
      'POST /api2/v2/projects/:projectUid/jobs/pseudoTranslate': { jobParts: { jobs }, pseudoTranslate: { suffix: ']' } },
      'POST /api2/v1/projects/:projectUid/jobs/notifyAssigned': { jobs, emailTemplate: { id: template.id } },
      'PUT /api2/v1/projects/:projectUid/jobs/:jobUid/importSettings': {},
    },
  };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs } from '../support/workflow-factories.js';

/**
 * Bodies of the job routes. They name jobs of the shared matrix project (_workflow.ts, loaded
 * first): its first job, and a file of its own that the batch delete may remove without taking
 * the shared job away from the routes called after it.
 */
const build: FixtureBuilder = async ({ t, organization }) => {
  const db = t.database.db;
  const shared = await db
    .selectFrom('jobs')
    .selectAll()
    .where('organizationId', '=', organization.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const project = await db.selectFrom('projects').selectAll().where('id', '=', shared.projectId).executeTakeFirstOrThrow();
  const disposable = await makeJobs(t, project, { filename: 'matrix-delete.txt', targetLangs: ['de'] });
  const jobs = [{ uid: shared.uid }];
  return {
    bodies: {
      'PUT /api2/v1/projects/:projectUid/jobs/:jobUid': { status: 'NEW' },
      'PATCH /api2/v1/projects/:projectUid/jobs/:jobUid': {},
      'PUT /api2/v1/projects/:projectUid/jobs/batch': { jobs, status: 'NEW' },
      'DELETE /api2/v1/projects/:projectUid/jobs/batch': { jobs: [{ uid: disposable.jobs[0]!.uid }] },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/setStatus': { requestedStatus: 'NEW' },
      'POST /api2/v1/projects/:projectUid/jobs/segmentsCount': { jobs },
      'POST /api2/v1/projects/:projectUid/jobs/search': { jobs },
    },
  };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * QA runs and warnings (docs/qa-runs-and-warnings.md): bodies naming the shared job
 * (test/access-fixtures/_workflow.ts) and one of its segments, `<file uid>:0`. Allowed callers
 * get 200/204 or a 400 for a warning the job's last run does not have; others the kernel's 403/404.
 */
const build: FixtureBuilder = async ({ t, organization }) => {
  const db = t.database.db;
  const job = await db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .select(['jobs.uid', 'jobSources.uid as sourceUid'])
    .where('jobs.organizationId', '=', organization.id)
    .orderBy('jobs.id', 'asc')
    .executeTakeFirstOrThrow();
  const jobs = [{ uid: job.uid }];
  const segment = `${job.sourceUid}:0`;
  const ignored = { jobParts: [{ jobPartUid: job.uid, segments: [{ uid: segment, warnings: [{ id: 'warning' }] }] }] };
  return {
    values: { segmentId: segment },
    bodies: {
      'POST /api2/v3/projects/:projectUid/jobs/:jobUid/qualityAssurances/run': {},
      'POST /api2/v3/projects/:projectUid/jobs/qualityAssurances/run': { jobs },
      'POST /api2/v4/projects/:projectUid/jobs/qualityAssurances/run': { jobs },
      'POST /api2/v3/projects/:projectUid/jobs/qualityAssurances/segments/run': {
        jobsAndSegments: [{ job: { uid: job.uid }, segments: [segment] }],
      },
      'POST /api2/v4/projects/:projectUid/jobs/qualityAssurances/segments/:segmentId/runWithUpdate': {
        job: { uid: job.uid },
        target: 'Hallo',
      },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoredWarnings': ignored,
      'DELETE /api2/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoredWarnings': ignored,
      'POST /api2/v2/projects/:projectUid/jobs/qualityAssurances/ignoredWarnings': ignored,
      'DELETE /api2/v2/projects/:projectUid/jobs/qualityAssurances/ignoredWarnings': ignored,
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/qualityAssurances/ignoreChecks': {
        segment: { uid: segment },
        warningTypes: ['EmptyTranslation'],
      },
    },
  };
};
export default build;

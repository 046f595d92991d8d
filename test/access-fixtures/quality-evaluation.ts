import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Quality evaluation: bodies naming the shared job of test/access-fixtures/_workflow.ts (its
 * first segment for segmentWarnings). The qualityProfiles routes name no record in their path:
 * the matrix checks their roles; who sees which job is tested in test/quality-evaluation.test.ts.
 */
const build: FixtureBuilder = async ({ t, organization }) => {
  const job = await t.database.db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .select(['jobs.uid', 'jobSources.uid as sourceUid'])
    .where('jobs.organizationId', '=', organization.id)
    .orderBy('jobs.id', 'asc')
    .executeTakeFirstOrThrow();
  const jobs = [{ uid: job.uid }];
  return {
    bodies: {
      'POST /api2/v1/projects/:projectUid/jobs/evaluateQuality': { jobs },
      'POST /api2/v1/qualityProfiles/evaluate': { jobs, qualityProfileUid: 'matrix-profile' },
      'POST /api2/v1/qualityProfiles/qeWarnings': { jobParts: jobs },
      'POST /api2/v1/qualityProfiles/segmentWarnings': {
        jobPartUid: job.uid,
        segments: [{ segmentId: `${job.sourceUid}:0`, results: [] }],
      },
    },
  };
};
export default build;

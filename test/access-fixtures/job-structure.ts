import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/**
 * Job structure. Split gets a file of its own with many segments: every allowed caller halves the
 * job again (it keeps its uid as the first part). Compare and the project's provider suggestions
 * read a project of their own.
 */
const build: FixtureBuilder = async ({ t, organization, admin, client }) => {
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de'] });
  const segments = Array.from({ length: 64 }, (_, i) => `Segment ${i + 1}.`);
  const { jobs: splitJobs } = await makeJobs(t, project, { createdById: admin.id, segments });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id });
  return {
    values: {
      '/api2/v1/projects/:projectUid/jobs/:jobUid/split:projectUid': project.uid,
      '/api2/v1/projects/:projectUid/jobs/:jobUid/split:jobUid': splitJobs[0]!.uid,
      '/api2/v1/projects/:projectUid/jobs/compare:projectUid': project.uid,
      '/api2/v2/projects/:projectUid/providers/suggest:projectUid': project.uid,
    },
    bodies: {
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/split': { partCount: 2 },
      'POST /api2/v1/projects/:projectUid/jobs/compare': { jobs: [{ uid: jobs[0]!.uid }] },
      'POST /api2/v2/projects/:projectUid/providers/suggest': { jobs: [{ uid: jobs[0]!.uid }], limit: 5 },
    },
  };
};
export default build;

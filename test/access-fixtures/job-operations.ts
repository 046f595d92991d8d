import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/**
 * Job operations. Clone gets a project of its own (every allowed caller adds jobs to it); the
 * bulk edit body only sets a due date, so the shared fixture jobs keep their status and providers.
 */
const build: FixtureBuilder = async ({ t, organization, admin, client }) => {
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de', 'fr'] });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id, targetLangs: ['de'] });
  return {
    values: {
      '/api2/v1/projects/:projectUid/jobs/clone:projectUid': project.uid,
      '/api2/v2/projects/:projectUid/jobs/providers/suggest:projectUid': project.uid,
    },
    bodies: {
      'POST /api2/v1/projects/:projectUid/jobs/clone': { jobPartTargetLangs: [{ uid: jobs[0]!.uid, targetLangs: ['fr'] }] },
      'POST /api2/v2/projects/:projectUid/jobs/providers/suggest': { jobs: [{ uid: jobs[0]!.uid }], limit: 5 },
      'PATCH /api2/v3/jobs': { jobs: [{ uid: jobs[0]!.uid }], dateDue: '2027-01-01T00:00:00Z' },
    },
  };
};
export default build;

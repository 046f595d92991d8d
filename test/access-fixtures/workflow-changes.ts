import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/** The workflow changes report names its jobs in the body (no path parameter): a job of organization A. */
const build: FixtureBuilder = async ({ t, organization, admin, client }) => {
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de'] });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id });
  return { bodies: { 'POST /api2/v2/jobs/workflowChanges': { jobs: [{ uid: jobs[0]!.uid }] } } };
};
export default build;

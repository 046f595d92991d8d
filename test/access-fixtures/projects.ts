import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeProject } from '../support/workflow-factories.js';

/**
 * Project routes: a project of their own for the routes that change or delete the record itself
 * (get / patch / delete, PUT v2 / v3, adding steps and languages), so that the shared project of
 * _workflow.ts keeps its client and jobs for the other areas; and a valid body for every route
 * with a body.
 */
const build: FixtureBuilder = async ({ t, organization, admin, client }) => {
  const own = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, name: 'Matrix own project' });
  const step = await t.database.db
    .selectFrom('workflowSteps')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('orderIndex', 'desc')
    .executeTakeFirstOrThrow();
  // A job of the shared project (_workflow.ts runs first).
  const job = await t.database.db
    .selectFrom('jobs')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const ownFor = (pattern: string) => ({ [`${pattern}:projectUid`]: own.uid });
  return {
    values: {
      ...ownFor('/api2/v1/projects/:projectUid'),
      ...ownFor('/api2/v2/projects/:projectUid'),
      ...ownFor('/api2/v3/projects/:projectUid'),
      ...ownFor('/api2/v1/projects/:projectUid/workflowSteps'),
      ...ownFor('/api2/v1/projects/:projectUid/targetLangs'),
    },
    bodies: {
      'PATCH /api2/v1/projects/:projectUid': { note: 'Matrix' },
      'PUT /api2/v1/projects/:projectUid': { name: 'Matrix own project', client: { id: client.uid } },
      'PUT /api2/v2/projects/:projectUid': { name: 'Matrix own project', client: { id: client.uid } },
      'PUT /api2/v3/projects/:projectUid': { name: 'Matrix own project', client: { id: client.uid } },
      'POST /api2/v1/projects/:projectUid/setStatus': { status: 'NEW' },
      'POST /api2/v1/projects/:projectUid/clone': { name: 'Matrix clone' },
      'PUT /api2/v2/projects/:projectUid/accessSettings': {},
      'PUT /api2/v1/projects/:projectUid/financialSettings': {},
      'PUT /api2/v1/projects/:projectUid/fileNamingSettings': {},
      'PUT /api2/v1/projects/:projectUid/importSettings': {},
      'POST /api2/v1/projects/:projectUid/workflowSteps': { workflowSteps: [{ id: step.uid }] },
      'POST /api2/v1/projects/:projectUid/targetLangs': { targetLangs: ['it'] },
      'POST /api2/v1/projects/:projectUid/assignVendor': {},
      'POST /api2/v1/projects/:projectUid/contentGroup': { contentGroup: { uid: 'matrix-group', name: 'Matrix' } },
      'POST /api2/v2/projects/applyTemplate/:templateUid': { name: 'Matrix from template' },
      'POST /api2/v1/projects/:projectUid/applyTemplate/:templateUid/assignProviders/forJobParts': { jobs: [{ uid: job.uid }] },
      'POST /api2/v2/projects/applyTemplate/async/:templateUid': { name: 'Matrix from template (async)' },
    },
    personaBodies: {
      // The vendor a project is shared with sets the vendor's statuses.
      'POST /api2/v1/projects/:projectUid/setStatus': { vendor: { status: 'ACCEPTED_BY_VENDOR' } },
    },
  };
};
export default build;

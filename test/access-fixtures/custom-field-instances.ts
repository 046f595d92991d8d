import { newUid } from '../../src/db/ids.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/**
 * A project, a job and a template of organization A, each holding a value of a STRING custom
 * field, for the custom field instance routes (their own records, so that deleting an instance
 * touches nothing of the other areas).
 */
const build: FixtureBuilder = async ({ t, organization, admin, adminHeaders, client }) => {
  const post = async (url: string, payload: unknown) => {
    const response = await t.inject({ method: 'POST', url, headers: adminHeaders, payload: payload as object });
    if (response.statusCode !== 200 && response.statusCode !== 201)
      throw new Error(`fixture ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const field = await post('/api2/v1/customFields', { name: 'Matrix instance field', type: 'STRING', allowedEntities: ['PROJECT'] });
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id });
  const now = t.clock().toISOString();
  const template = await t.database.db
    .insertInto('projectTemplates')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      name: 'Matrix instance template',
      createdAt: now,
      createdById: admin.id,
      lastModifiedAt: now,
    })
    .returning('uid')
    .executeTakeFirstOrThrow();
  const create = { customFieldInstances: [{ customField: { uid: field.uid }, value: 'Matrix value' }] };
  const instanceOf = async (collection: string) => (await post(collection, create)).customFieldInstances[0].uid as string;

  const projectPath = '/api2/v1/projects/:projectUid/customFields';
  const templatePath = '/api2/v1/projectTemplates/:projectTemplateUid/customFields';
  const jobPath = '/api2/v1/projects/:projectUid/jobs/:jobPartUid/customFields';
  const values: Record<string, string> = {
    [`${projectPath}:projectUid`]: project.uid,
    [`${projectPath}/:fieldInstanceUid:projectUid`]: project.uid,
    [`${projectPath}/:fieldInstanceUid:fieldInstanceUid`]: await instanceOf(`/api2/v1/projects/${project.uid}/customFields`),
    [`${templatePath}:projectTemplateUid`]: template.uid,
    [`${templatePath}/:fieldInstanceUid:projectTemplateUid`]: template.uid,
    [`${templatePath}/:fieldInstanceUid:fieldInstanceUid`]: await instanceOf(`/api2/v1/projectTemplates/${template.uid}/customFields`),
    [`${jobPath}:projectUid`]: project.uid,
    [`${jobPath}:jobPartUid`]: jobs[0]!.uid,
    [`${jobPath}/:instanceUid:projectUid`]: project.uid,
    [`${jobPath}/:instanceUid:jobPartUid`]: jobs[0]!.uid,
    [`${jobPath}/:instanceUid:instanceUid`]: await instanceOf(`/api2/v1/projects/${project.uid}/jobs/${jobs[0]!.uid}/customFields`),
  };
  const bodies: Record<string, unknown> = {};
  for (const path of [projectPath, templatePath, jobPath]) {
    const instance = `${path}/:${path === jobPath ? 'instanceUid' : 'fieldInstanceUid'}`;
    bodies[`POST ${path}`] = create;
    bodies[`PUT ${path}`] = { addInstances: [] };
    bodies[`PUT ${instance}`] = { value: 'Matrix value' };
  }
  return { values, bodies };
};
export default build;

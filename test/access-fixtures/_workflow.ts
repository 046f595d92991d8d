import { newUid } from '../../src/db/ids.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/**
 * The records every issue-6 area addresses (loaded first: `_` sorts before the area files): a
 * project of organization A for the matrix's client, an imported file with its jobs, and a
 * project template. Area files add route-specific values (`<route pattern>:<param>`) and bodies,
 * but leave these generic names alone.
 */
const build: FixtureBuilder = async ({ t, organization, admin, client }) => {
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de', 'fr'] });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id });
  const now = t.clock().toISOString();
  const template = await t.database.db
    .insertInto('projectTemplates')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      name: 'Matrix template',
      createdAt: now,
      createdById: admin.id,
      sourceLang: 'en',
      targetLangs: JSON.stringify(['de']),
      lastModifiedAt: now,
    })
    .returning('uid')
    .executeTakeFirstOrThrow();
  return {
    values: {
      projectUid: project.uid,
      jobUid: jobs[0]!.uid,
      jobPartUid: jobs[0]!.uid,
      projectTemplateUid: template.uid,
      templateUid: template.uid,
    },
  };
};
export default build;

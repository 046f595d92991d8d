import { newUid } from '../../src/db/ids.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';
import { filePart, multipart } from '../support/upload-bodies.js';

/**
 * A reference file of the shared project and one of the shared template (test/access-fixtures/
 * _workflow.ts), made through the API, and valid bodies for the routes that take one.
 */
const build: FixtureBuilder = async ({ t, organization, adminHeaders }) => {
  // _workflow.ts runs first, so its project and template are organization A's first ones.
  const db = t.database.db;
  const project = await db
    .selectFrom('projects')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .orderBy('id', 'asc')
    .executeTakeFirstOrThrow();
  const template = await db
    .selectFrom('projectTemplates')
    .select('uid')
    .where('organizationId', '=', organization.id)
    .where('name', '=', 'Matrix template')
    .orderBy('id', 'asc')
    .executeTakeFirstOrThrow();

  const projectReference = await t.inject({
    method: 'POST',
    url: `/api2/v1/projects/${project.uid}/references`,
    headers: adminHeaders,
    payload: { note: 'Matrix reference' },
  });
  if (projectReference.statusCode !== 201)
    throw new Error(`fixture project reference: ${projectReference.statusCode} ${projectReference.body}`);
  const body = await multipart([filePart(`matrix-${newUid().slice(0, 6)}.txt`, 'matrix')]);
  const templateReference = await t.inject({
    method: 'POST',
    url: `/api2/v1/projectTemplates/${template.uid}/references`,
    headers: { ...adminHeaders, ...body.headers },
    payload: body.payload,
  });
  if (templateReference.statusCode !== 201)
    throw new Error(`fixture template reference: ${templateReference.statusCode} ${templateReference.body}`);

  const referenceId = projectReference.json().id as string;
  const referenceUid = templateReference.json().referenceFiles[0].uid as string;
  const projectSelection = { referenceFiles: [{ id: referenceId }] };
  const templateSelection = { referenceFiles: [{ uid: referenceUid }] };
  return {
    values: {
      '/api2/v1/projects/:projectUid/references/:referenceFileId:referenceFileId': referenceId,
      '/api2/v1/projectTemplates/:projectTemplateUid/references/:referenceFileId:referenceFileId': referenceUid,
    },
    bodies: {
      'POST /api2/v1/projects/:projectUid/references': { note: 'Matrix note' },
      'POST /api2/v1/projects/:projectUid/references/download': projectSelection,
      'DELETE /api2/v1/projects/:projectUid/references': projectSelection,
      'POST /api2/v1/projectTemplates/:projectTemplateUid/references/download': templateSelection,
      'DELETE /api2/v1/projectTemplates/:projectTemplateUid/references': templateSelection,
    },
  };
};
export default build;

import { newUid } from '../../src/db/ids.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * A template of organization A for the routes that change or delete the template itself (edit
 * v1 / v2, delete), so that the shared `projectTemplateUid` of _workflow.ts stays in place for
 * the other areas' routes.
 */
const build: FixtureBuilder = async ({ t, organization, admin }) => {
  const now = t.clock().toISOString();
  const template = await t.database.db
    .insertInto('projectTemplates')
    .values({
      uid: newUid(),
      organizationId: organization.id,
      name: 'Matrix own template',
      createdAt: now,
      createdById: admin.id,
      sourceLang: 'en',
      targetLangs: JSON.stringify(['de']),
      lastModifiedAt: now,
    })
    .returning('uid')
    .executeTakeFirstOrThrow();
  const body = { templateName: 'Matrix own template', sourceLang: 'en', targetLangs: ['de'] };
  return {
    values: {
      '/api2/v1/projectTemplates/:projectTemplateUid:projectTemplateUid': template.uid,
      '/api2/v2/projectTemplates/:projectTemplateUid:projectTemplateUid': template.uid,
    },
    bodies: {
      'PUT /api2/v1/projectTemplates/:projectTemplateUid': body,
      'PUT /api2/v2/projectTemplates/:projectTemplateUid': body,
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/accessSettings': { downloadEnabled: true },
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/importSettings': { inputCharset: 'UTF-8' },
    },
  };
};
export default build;

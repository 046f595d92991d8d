import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import type { EmailTemplateType } from '../../../domain/email-templates/email-template-defaults.js';
import { findEmailTemplate, listEmailTemplates } from './email-templates.repository.js';
import type { EmailTemplateRow } from './email-templates.repository.js';
import { EmailTemplateListQuery, EmailTemplatePage, EmailTemplateSchema, EmailTemplateUidParams } from './email-templates.schemas.js';

/** Email templates are organization settings that project managers pick from: ADMIN and PROJECT_MANAGER. */
const READERS: Access = roles('ADMIN', 'PROJECT_MANAGER');

function toEmailTemplateDto(row: EmailTemplateRow): Static<typeof EmailTemplateSchema> {
  return {
    id: row.id,
    uid: row.uid,
    type: row.type as EmailTemplateType,
    name: row.name,
    subject: row.subject,
    body: row.body,
    ccAddress: row.ccAddress,
    bccAddress: row.bccAddress,
  };
}

/** Email Template operations (routes relative to `/api2`). */
export function emailTemplatesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/emailTemplates',
      {
        config: { access: READERS },
        schema: {
          tags: ['Email Template'],
          operationId: 'listOrgEmailTemplates',
          summary: 'List email templates',
          description: '`type` must be one of the template types (400 otherwise). Listed in the order they were created.',
          querystring: EmailTemplateListQuery,
          response: { 200: EmailTemplatePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, type } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listEmailTemplates(db, caller.organizationId, { type }, page);
        return toPage(rows.map(toEmailTemplateDto), total, page);
      },
    );

    app.get(
      '/v1/emailTemplates/:templateUid',
      {
        config: { access: READERS },
        schema: {
          tags: ['Email Template'],
          operationId: 'getOrgEmailTemplate',
          summary: 'Get email template',
          params: EmailTemplateUidParams,
          response: { 200: EmailTemplateSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const row = await findEmailTemplate(db, caller.organizationId, request.params.templateUid);
        if (!row) throw errors.ResourceNotFound({ what: 'Email template' });
        return toEmailTemplateDto(row);
      },
    );
  };
}

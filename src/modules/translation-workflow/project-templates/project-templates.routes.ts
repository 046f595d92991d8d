import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { FileImportSettingsCreateDto, FileImportSettingsDto, importSettingsView } from '../kernel/index.js';
import { assertSegmentationRuleIds } from '../../organization-setup/segmentation-rules/index.js';
import { toTemplateDto, toTemplateReferences } from './project-template-views.js';
import { listTemplates } from './project-templates.repository.js';
import {
  AccessSettingsSchema,
  CreateTemplateBody,
  EditAccessSettingsBody,
  EditTemplateBody,
  ProjectTemplatePage,
  ProjectTemplateSchema,
  TemplateListQuery,
  TemplateUidParams,
} from './project-templates.schemas.js';
import { createTemplate, deleteTemplate, editTemplate, replaceTemplateSetting } from './project-templates.service.js';
import type { EditMode } from './project-templates.service.js';
import { onTemplate, templateAccessOf } from '../kernel/index.js';
import { accessSettingsFromBody, parseTemplateSettings, templateAccessSettings } from './template-settings.js';

/**
 * Project template operations (issue 6; docs/project-templates.md). Templates are project setup:
 * ADMIN and PROJECT_MANAGER use them; which templates a manager sees and changes follows the
 * template rights (template-access.ts).
 */
const MANAGERS: Access = roles('ADMIN', 'PROJECT_MANAGER');
const CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'projectTemplateCreate' };
const TAG = ['Project Template'];

export function projectTemplatesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/projectTemplates',
      {
        config: { access: MANAGERS },
        schema: {
          tags: TAG,
          operationId: 'getProjectTemplates',
          summary: 'List project templates',
          description:
            'Name filters match part of the name, ignoring case; `clientId` / `costCenterId` are numeric ids. A manager sees own templates, and others’ with projectTemplateViewOther.',
          querystring: TemplateListQuery,
          response: { 200: ProjectTemplatePage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const page = { pageNumber: request.query.pageNumber, pageSize: request.query.pageSize };
        const { rows, total } = await listTemplates(db, caller, request.query, page);
        return toPage(await toTemplateReferences(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/projectTemplates',
      {
        config: { access: CREATORS, errors: ['ReferenceNotFound', 'ResourceNotFound'] },
        schema: {
          tags: TAG,
          operationId: 'createProjectTemplate',
          summary: 'Create project template',
          description:
            'Made from an existing project the caller may see (`project.uid`; 404 otherwise): languages, workflow steps, setup references, settings and custom field values are copied. `name` is the template’s name (`templateName`).',
          body: CreateTemplateBody,
          response: { 201: ProjectTemplateSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const row = await createTemplate(deps, caller, request.body);
        return reply.code(201).send(await toTemplateDto(db, caller.organizationId, row));
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: TAG,
          operationId: 'getProjectTemplate',
          summary: 'Get project template',
          params: TemplateUidParams,
          response: { 200: ProjectTemplateSchema },
        },
      },
      async (request) => {
        return toTemplateDto(db, callerOf(request).organizationId, templateAccessOf(request).template);
      },
    );

    const editRoute = (version: 'v1' | 'v2', mode: EditMode) =>
      app.put(
        `/${version}/projectTemplates/:projectTemplateUid`,
        {
          config: { access: onTemplate(MANAGERS, 'edit'), errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
          schema: {
            tags: TAG,
            operationId: version === 'v1' ? 'editProjectTemplate' : 'editProjectTemplateV2',
            summary: 'Edit project template',
            deprecated: version === 'v1' ? true : undefined,
            description:
              mode === 'partial'
                ? 'v1: fields left out keep their values; null clears a reference. workFlowSettings, when given, replaces the steps and their providers. Superseded by v2.'
                : 'v2: the body is the whole template: fields left out are cleared (references, note, dynamic title, notify settings, workflow steps and providers).',
            params: TemplateUidParams,
            body: EditTemplateBody,
            response: { 200: ProjectTemplateSchema },
          },
        },
        async (request) => {
          const caller = callerOf(request);
          const row = await editTemplate(deps, caller, templateAccessOf(request).template, request.body, mode);
          return toTemplateDto(db, caller.organizationId, row);
        },
      );
    editRoute('v1', 'partial');
    editRoute('v2', 'whole');

    app.delete(
      '/v1/projectTemplates/:projectTemplateUid',
      {
        config: { access: onTemplate(MANAGERS, 'delete') },
        schema: {
          tags: TAG,
          operationId: 'deleteProjectTemplate',
          summary: 'Delete project template',
          description: 'Projects made from the template keep living. Its reference files and custom field values go with it.',
          params: TemplateUidParams,
        },
      },
      async (request, reply) => {
        await deleteTemplate(deps, callerOf(request), templateAccessOf(request).template);
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/accessSettings',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: TAG,
          operationId: 'getProjectTemplateAccessSettings',
          summary: 'Get project template access and security settings',
          params: TemplateUidParams,
          response: { 200: AccessSettingsSchema },
        },
      },
      async (request) => {
        return templateAccessSettings(parseTemplateSettings(templateAccessOf(request).template.settings));
      },
    );

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/accessSettings',
      {
        config: { access: onTemplate(MANAGERS, 'edit') },
        schema: {
          tags: TAG,
          operationId: 'editProjectTemplateAccessSettings',
          summary: 'Edit project template access and security settings',
          description: 'Replaces the document: fields left out take their defaults.',
          params: TemplateUidParams,
          body: EditAccessSettingsBody,
          response: { 200: AccessSettingsSchema },
        },
      },
      async (request) => {
        const settings = await replaceTemplateSetting(
          deps,
          callerOf(request),
          templateAccessOf(request).template,
          'accessSettings',
          accessSettingsFromBody(request.body),
        );
        return templateAccessSettings(settings);
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/importSettings',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: TAG,
          operationId: 'getImportSettingsForProjectTemplate',
          summary: 'Get import settings',
          params: TemplateUidParams,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => {
        const { template } = templateAccessOf(request);
        return importSettingsView(db, template.organizationId, parseTemplateSettings(template.settings).importSettings);
      },
    );

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/importSettings',
      {
        config: { access: onTemplate(MANAGERS, 'edit'), errors: ['ReferenceNotFound'] },
        schema: {
          tags: TAG,
          operationId: 'editProjectTemplateImportSettings',
          summary: 'Edit project template import settings',
          description:
            'Replaces the whole object: format sections left out reset to the system defaults (description, "Behaviour of other operations" 4). ' +
            '`segmentationRuleId` and `targetSegmentationRuleId` name segmentation rules of the organization (400 ReferenceNotFound otherwise); projects made from the template keep them (docs/segmentation-rules.md).',
          params: TemplateUidParams,
          body: FileImportSettingsCreateDto,
          response: { 200: FileImportSettingsDto },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const body = (request.body ?? {}) as Record<string, unknown>;
        await assertSegmentationRuleIds(db, caller.organizationId, body);
        const settings = await replaceTemplateSetting(deps, caller, templateAccessOf(request).template, 'importSettings', body);
        return importSettingsView(db, caller.organizationId, settings.importSettings);
      },
    );
  };
}

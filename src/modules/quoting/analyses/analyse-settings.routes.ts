import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import {
  onProject,
  onTemplate,
  projectAccessOf,
  ProjectUidParams,
  templateAccessOf,
  TemplateUidParams,
} from '../../translation-workflow/kernel/index.js';
import {
  AnalyseSettingsSchema,
  analyseSettingsFromBody,
  analyseSettingsOf,
  EditAnalyseSettingsBody,
  TemplateAnalyseSettingsSchema,
  writeTemplateAnalyseSettings,
} from './analyse-settings.js';

/** Analysis settings are internal users' (description, "Access rules" of analyses); the record's own rules decide further. */
const INTERNAL = roles('ADMIN', 'PROJECT_MANAGER');

/** getAnalyseSettingsForProject, get/updateAnalyseSettingsForProjectTemplate (docs/analysis.md, "Analysis settings"). */
export function analyseSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/analyseSettings',
      {
        config: { access: onProject(INTERNAL, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getAnalyseSettingsForProject',
          summary: 'Get analyse settings',
          description:
            'The project’s analysis settings, which an analysis created with `useProjectAnalysisSettings` starts from; a project made from a template has the template’s. Without stored settings: the defaults of an analysis request.',
          params: ProjectUidParams,
          response: { 200: AnalyseSettingsSchema },
        },
      },
      async (request) => analyseSettingsOf(projectAccessOf(request).project.settings),
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/analyseSettings',
      {
        config: { access: onTemplate(INTERNAL, 'view') },
        schema: {
          tags: ['Project Template'],
          operationId: 'getAnalyseSettingsForProjectTemplate',
          summary: 'Get analyse settings',
          description: 'The analysis settings projects made from the template get. Every field is shown, whatever the type.',
          params: TemplateUidParams,
          response: { 200: TemplateAnalyseSettingsSchema },
        },
      },
      async (request) => analyseSettingsOf(templateAccessOf(request).template.settings),
    );

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/analyseSettings',
      {
        config: { access: onTemplate(INTERNAL, 'edit') },
        schema: {
          tags: ['Project Template'],
          operationId: 'updateAnalyseSettingsForProjectTemplate',
          summary: 'Edit analyse settings',
          description:
            'Replaces the settings: fields left out take the defaults of an analysis request (analyzeByProvider true, unless analyzeByLanguage is true). analyzeByLanguage and analyzeByProvider both true is 400. Projects made from the template afterwards get these settings; existing projects keep theirs.',
          params: TemplateUidParams,
          body: EditAnalyseSettingsBody,
          response: { 200: TemplateAnalyseSettingsSchema },
        },
      },
      async (request) =>
        writeTemplateAnalyseSettings(
          deps,
          callerOf(request),
          templateAccessOf(request).template,
          analyseSettingsFromBody(request.body ?? {}),
        ),
    );
  };
}

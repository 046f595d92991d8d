import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import {
  JobUidParams,
  ProjectUidParams,
  TemplateUidParams,
  jobAccessOf,
  onJob,
  onProject,
  onTemplate,
  projectAccessOf,
  templateAccessOf,
} from '../kernel/index.js';
import {
  EditProjectMtSettingsBody,
  EditProjectMtSettingsPerLangBody,
  EditTemplateMtSettingsV3Body,
  MtSettingsPerLanguageList,
  TranslationResourcesSchema,
} from './project-mt-settings.schemas.js';
import {
  editMtSettingsV3,
  mtSettingsList,
  projectMtOwner,
  setMtSettingsForAll,
  setMtSettingsPerLanguage,
  templateMtOwner,
} from './project-mt-settings.service.js';
import { translationResources } from './translation-resources.js';

/**
 * The MT settings of projects and templates and a job's translation resources
 * (docs/project-mt-settings.md). MT settings records are the admins';
 * project managers choose which a project or template uses: ADMIN and PROJECT_MANAGER with `view`
 * read them, with `edit` change them. A job's translation resources: whoever may view the job
 * (linguists: the jobs they provide).
 */

const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const JOB_VIEWERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER');
const SETTINGS_ERRORS = ['ReferenceNotFound', 'UnsupportedLanguage'] as const;

const LIST_DESCRIPTION =
  'One entry with `targetLang` null when one MT settings serve every target language, or one entry per target language that has settings; `mtSettingsPerLangList` is empty when there are none. Machine translation of a job uses the entry of its target language.';
const REFERENCES =
  'Each settings must be of the organization (by id or uid; 400 ReferenceNotFound naming the field) and each `targetLang` a target language of the record (400 naming the field); nothing is changed on a refusal.';

export function projectMtSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/mtSettings',
      {
        config: { access: onProject(MANAGERS, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getMtSettingsForProject',
          summary: 'Get project machine translate settings',
          description: LIST_DESCRIPTION,
          params: ProjectUidParams,
          response: { 200: MtSettingsPerLanguageList },
        },
      },
      async (request) => mtSettingsList(deps, await projectMtOwner(db, projectAccessOf(request).project)),
    );

    app.put(
      '/v1/projects/:projectUid/mtSettings',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: [...SETTINGS_ERRORS] },
        schema: {
          tags: ['Project'],
          operationId: 'setMtSettingsForProject',
          summary: 'Edit machine translate settings',
          description: `The settings \`machineTranslateSettings\` names serve every target language. This erases all MT settings per language of the project. To remove all MT settings from the project, call without \`machineTranslateSettings\`. ${REFERENCES} Emits PROJECT_METADATA_UPDATED when something changed; answers the settings.`,
          params: ProjectUidParams,
          body: EditProjectMtSettingsBody,
          response: { 200: MtSettingsPerLanguageList },
        },
      },
      async (request) =>
        setMtSettingsForAll(deps, callerOf(request), await projectMtOwner(db, projectAccessOf(request).project), request.body ?? {}),
    );

    app.put(
      '/v1/projects/:projectUid/mtSettingsPerLanguage',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: [...SETTINGS_ERRORS] },
        schema: {
          tags: ['Project'],
          operationId: 'setMtSettingsPerLanguageForProject',
          summary: 'Edit machine translate settings per language',
          description: `The listed target languages get their settings; the project's other target languages get none. This erases the MT settings the project had for every language. An entry without \`machineTranslateSettings\` leaves its language without settings; a language listed twice takes its last entry. ${REFERENCES} Emits PROJECT_METADATA_UPDATED when something changed; answers the settings.`,
          params: ProjectUidParams,
          body: EditProjectMtSettingsPerLangBody,
          response: { 200: MtSettingsPerLanguageList },
        },
      },
      async (request) =>
        setMtSettingsPerLanguage(deps, callerOf(request), await projectMtOwner(db, projectAccessOf(request).project), request.body ?? {}),
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/mtSettings',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: ['Project Template'],
          operationId: 'getMachineTranslateSettingsForProjectTemplate',
          summary: 'Get project template machine translate settings',
          description: `${LIST_DESCRIPTION} A project made from the template starts with them (per-language entries for the target languages it has).`,
          params: TemplateUidParams,
          response: { 200: MtSettingsPerLanguageList },
        },
      },
      async (request) => mtSettingsList(deps, templateMtOwner(templateAccessOf(request).template)),
    );

    app.put(
      '/v3/projectTemplates/:projectTemplateUid/mtSettings',
      {
        config: { access: onTemplate(MANAGERS, 'edit'), errors: [...SETTINGS_ERRORS] },
        schema: {
          tags: ['Machine Translation Settings'],
          operationId: 'setMtSettingsForProjectTemplateV3',
          summary: 'Edit project template machine translate settings',
          description: `\`machineTranslateSettings\` (by \`uid\`; null removes them) serves every target language; \`machineTranslateSettingsPerLangs\` changes only the listed target languages (an entry whose \`machineTranslateSettings\` is null or left out removes that language's settings). When both are given, the per-language values win. Switching from settings for every language to per-language settings first gives every target language not listed the settings it had (or, when the body also names \`machineTranslateSettings\`, those). Neither field: nothing changes. ${REFERENCES} Emits PROJECT_TEMPLATE_UPDATED when something changed; answers the settings (MTSettingsPerLanguageListDto).`,
          params: TemplateUidParams,
          body: EditTemplateMtSettingsV3Body,
          response: { 200: MtSettingsPerLanguageList },
        },
      },
      async (request) => editMtSettingsV3(deps, callerOf(request), templateMtOwner(templateAccessOf(request).template), request.body ?? {}),
    );

    app.get(
      '/v1/projects/:projectUid/jobs/:jobUid/translationResources',
      {
        config: { access: onJob(JOB_VIEWERS, 'view') },
        schema: {
          tags: ['Job', 'Machine Translation Settings', 'Term Base', 'Translation Memory'],
          operationId: 'getTranslationResources',
          summary: 'Get translation resources',
          description:
            "What the job is translated with: the MT settings of its target language (null: none), and the TMs and term bases of the project's settings for its target language and workflow step (the most specific context that lists any), in their priority order; term bases that only QA checks are left out. `targetLang` and `workflowStep` of an entry are those of its context (null: every target language / every step).",
          params: JobUidParams,
          response: { 200: TranslationResourcesSchema },
        },
      },
      async (request) => {
        const { project, job } = jobAccessOf(request);
        return translationResources(db, project.project, job);
      },
    );
  };
}

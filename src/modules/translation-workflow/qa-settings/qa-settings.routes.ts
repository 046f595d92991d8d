import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { enabledChecksView, enabledWarningTypes, qaSettingsView } from '../../../domain/quality-assurance/settings.js';
import {
  JobUidParams,
  PROJECT_EDITORS,
  PROJECT_READERS,
  ProjectUidParams,
  TemplateUidParams,
  jobAccessOf,
  onJob,
  onProject,
  onTemplate,
  projectAccessOf,
  requireJobOf,
  templateAccessOf,
} from '../kernel/index.js';
import { editProjectQaSettings, editTemplateQaSettings, qaSettingsOf, userCanSetInstantQA } from './qa-settings.service.js';
import { EditQaSettingsBody, EnabledQualityChecksSchema, JobUidQuery, QaChecksSchema, QaSettingsSchema } from './qa-settings.schemas.js';

/**
 * The QA settings of projects and templates and the views of them that jobs get
 * (docs/qa-settings.md). Read: whoever sees the project or job (a linguist their own jobs);
 * templates: ADMIN and PROJECT_MANAGER with `view`. Edit: ADMIN and PROJECT_MANAGER with `edit`.
 */

const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');

const GET_SHAPE =
  'Every check, each once, with its type: VOID checks `enabled`, `ignorable`, `instant`; NUMBER checks also `value` (the limit, when set); the STRING check `forbiddenStringsEnabled` its comma-separated `value`; MORAVIA its `profile`; REGEX (`regexp`) `enabled` and its `rules`, each with an `id`. OpenTMS adds `customChecks` (its own checks, reported as CustomQA warnings) and `inconsistencyScope` (`JOB` or `PROJECT`). A record that never set its settings has the defaults (docs/qa-settings.md, "Defaults").';
const PUT_RULES =
  'Only the checks listed change, and only the fields they give (a field left out or null keeps its value): Phrase’s documented rule. `type`, when given, must be the name’s (`targetLength` is NUMBER). NUMBER `value`s are non-negative numbers (numeric text such as "12" is read as the number); an enabled NUMBER check needs one. `forbiddenStrings` is read as `forbiddenStringsEnabled`; `customQa` (VOID) switches all of OpenTMS’s custom checks. A REGEX check’s `rules` replaces the rule list: each rule needs `sourceRegexp` or `targetRegexp`, each a Java regular expression that compiles; a rule without `id` gets one; the check is on when rules remain unless `enabled` says otherwise. An unknown name, a wrong type, a negative number or an expression that does not compile is a 400 InvalidArguments naming the check by its index (`checks[2].rules[0].targetRegexp`), and nothing changes. Answers the settings as stored.';
const JOB_VIEW =
  'The checks that run (enabled, and given their limit, strings or rules), each under the warning type it reports (`checkerType`) with `ignorable` and `instant`; OpenTMS’s own checks as `CustomQA` with the check’s name as `customQaDisplayName` and provider `OpenTMS`. `forbiddenStrings` and `regexpRules` when their checks run; `excludeLockedSegments` and `strictJobStatus` (the flags); `userCanSetInstantQA` from the project’s access settings (`userMaySetInstantQA`). Jobs use their project’s settings.';

export function qaSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/projectTemplates/:projectTemplateUid/qaSettings',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: ['Project Template'],
          operationId: 'getProjectTemplateQASettings',
          summary: 'Get quality assurance settings',
          description: `${GET_SHAPE} Projects made from the template start with a copy.`,
          params: TemplateUidParams,
          response: { 200: QaSettingsSchema },
        },
      },
      async (request) => qaSettingsView(qaSettingsOf(templateAccessOf(request).template.settings)),
    );

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/qaSettings',
      {
        config: { access: onTemplate(MANAGERS, 'edit') },
        schema: {
          tags: ['Project Template'],
          operationId: 'setProjectTemplateQASettings',
          summary: 'Edit quality assurance settings',
          description: `${PUT_RULES} Projects made from the template afterwards get these settings; existing projects keep theirs. Emits PROJECT_TEMPLATE_UPDATED.`,
          params: TemplateUidParams,
          body: EditQaSettingsBody,
          response: { 200: QaSettingsSchema },
        },
      },
      async (request) =>
        qaSettingsView(await editTemplateQaSettings(deps, callerOf(request), templateAccessOf(request).template, request.body ?? {})),
    );

    app.put(
      '/v2/projects/:projectUid/qaSettings',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit') },
        schema: {
          tags: ['Project'],
          operationId: 'setProjectQASettingsV2',
          summary: 'Edit quality assurance settings',
          description: `${PUT_RULES} A project starts with its template’s settings, or the defaults. QA runs of the project’s jobs use the settings current when they run. Emits PROJECT_METADATA_UPDATED.`,
          params: ProjectUidParams,
          body: EditQaSettingsBody,
          response: { 200: QaSettingsSchema },
        },
      },
      async (request) =>
        qaSettingsView(await editProjectQaSettings(deps, callerOf(request), projectAccessOf(request).project, request.body ?? {})),
    );

    app.get(
      '/v1/projects/:projectUid/qaSettingsChecks',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'enabledQualityChecks',
          summary: 'Get QA checks',
          description:
            'Returns enabled quality assurance settings: every warning type the project’s running checks may report, once each (`CustomQA` when one of OpenTMS’s own checks is on).',
          params: ProjectUidParams,
          response: { 200: EnabledQualityChecksSchema },
        },
      },
      async (request) => ({ enabledChecks: enabledWarningTypes(qaSettingsOf(projectAccessOf(request).project.settings)) }),
    );

    app.get(
      '/v2/projects/:projectUid/jobs/:jobUid/qualityAssurances/settings',
      {
        config: { access: onJob(PROJECT_READERS, 'view') },
        schema: {
          tags: ['Quality Assurance'],
          operationId: 'enabledQualityChecksForJob',
          summary: 'Get QA settings for job',
          deprecated: true,
          description: `Deprecated: use GET /api2/v4/projects/{projectUid}/jobs/qualityAssurances/settings?jobUid=…, which answers the same. ${JOB_VIEW}`,
          params: JobUidParams,
          response: { 200: QaChecksSchema },
        },
      },
      async (request) => {
        const { project } = jobAccessOf(request).project;
        return enabledChecksView(qaSettingsOf(project.settings), userCanSetInstantQA(project));
      },
    );

    app.get(
      '/v2/projects/:projectUid/jobs/qualityAssurances/settings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: ['Quality Assurance'],
          operationId: 'enabledQualityChecksForJob_1',
          summary: 'Get QA settings',
          deprecated: true,
          description: `Deprecated: use GET /api2/v4/projects/{projectUid}/jobs/qualityAssurances/settings?jobUid=…. The project’s settings, which all its jobs use. ${JOB_VIEW}`,
          params: ProjectUidParams,
          response: { 200: QaChecksSchema },
        },
      },
      async (request) => {
        const { project } = projectAccessOf(request);
        return enabledChecksView(qaSettingsOf(project.settings), userCanSetInstantQA(project));
      },
    );

    app.get(
      '/v4/projects/:projectUid/jobs/qualityAssurances/settings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: ['Quality Assurance'],
          operationId: 'getQaSettingsForJobPartV4',
          summary: 'Get QA settings for job part',
          description: `Returns enabled quality assurance checks and settings for the job part \`jobUid\` names (required; one of the project’s jobs the caller sees: a linguist their own), in the shape of the v2 operation (QualityAssuranceChecksDtoV2). ${JOB_VIEW}`,
          params: ProjectUidParams,
          querystring: JobUidQuery,
          response: { 200: QaChecksSchema },
        },
      },
      async (request) => {
        const access = projectAccessOf(request);
        await requireJobOf(deps.database.db, callerOf(request), access, request.query.jobUid, 'view');
        return enabledChecksView(qaSettingsOf(access.project.settings), userCanSetInstantQA(access.project));
      },
    );
  };
}

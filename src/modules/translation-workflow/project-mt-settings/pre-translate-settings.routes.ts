import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { ProjectUidParams, TemplateUidParams, onProject, onTemplate, projectAccessOf, templateAccessOf } from '../kernel/index.js';
import {
  preTranslateFromFlatBody,
  preTranslateFromV4Body,
  preTranslateOf,
  toFlat,
  writeProjectPreTranslate,
  writeTemplatePreTranslate,
} from './pre-translate-settings.js';
import {
  PreTranslateSettingsFlatBody,
  PreTranslateSettingsFlatSchema,
  PreTranslateSettingsV4Body,
  PreTranslateSettingsV4Schema,
} from './pre-translate-settings.schemas.js';

/**
 * The pre-translate settings of projects and templates (docs/project-mt-settings.md,
 * "Pre-translate settings"): v4, and the deprecated v1/v2 forms (description, "Versioning":
 * "v1/v2 pre-translate settings → v4 preTranslateSettings") in the older flat shape, over the
 * same stored document. Read: ADMIN and PROJECT_MANAGER with `view`; write: with `edit`.
 */

const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');

const V4_GET =
  'The settings pre-translation uses when asked to use the project’s settings (and on job creation with `preTranslateOnJobCreation`). Every field is answered; a record that never set them has the defaults: every flag false, `translationMemoryThreshold` 0.7, `confirmMatchesThreshold` 1.0.';
const V4_PUT =
  'Replaces the whole settings: a field left out (or null) takes its default (every flag false, `translationMemoryThreshold` 0.7, `confirmMatchesThreshold` 1.0). `translationMemoryThreshold` is a fraction from 0 to 1.01 and `confirmMatchesThreshold` from 0 to 1 (400 naming the field otherwise). Answers the settings as stored.';
const FLAT_SHAPE =
  'Deprecated: use v4 preTranslateSettings, which reads and writes the same settings. This older form is flat: `preTranslateOnJobCreation`, `setJobStatusCompleted`, `setJobStatusCompletedWhenConfirmed`, `setProjectStatusCompleted`, `overwriteExistingTranslations`; the TM fields `useTranslationMemory`, `translationMemoryThreshold`, `confirm100PercentMatches`, `confirm101PercentMatches`, `lock100PercentMatches`, `lock101PercentMatches`; the MT fields `useMachineTranslation`, `lock100PercentMtMatches`, `confirmMtMatches`, `confirmMtMatchesThreshold` (v4 `machineTranslationSettings.lock100PercentMatches`, `confirmMatches`, `confirmMatchesThreshold`), `useAltTransOnly`, `mtQeMatchesInEditors`, `mtForTMAbove100`; the non-translatable fields `preTranslateNonTranslatables`, `confirm100NonTranslatableMatches`, `lock100NonTranslatableMatches` (v4 `nonTranslatableSettings.confirm100PercentMatches`, `lock100PercentMatches`), `nonTranslatablesInEditors`; the repetition fields `autoPropagateRepetitions`, `confirmRepetitions`, `autoPropagateToLockedRepetitions`, `lockSubsequentRepetitions`.';
const FLAT_PUT =
  'A PUT replaces the whole settings: a field left out takes its default (as v4). Answers the settings in the same flat shape.';

export function preTranslateSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v4/projects/:projectUid/preTranslateSettings',
      {
        config: { access: onProject(MANAGERS, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getProjectPreTranslateSettingsV4',
          summary: 'Get project pre-translate settings',
          description: `${V4_GET} A project made from a template starts with the template's.`,
          params: ProjectUidParams,
          response: { 200: PreTranslateSettingsV4Schema },
        },
      },
      async (request) => preTranslateOf(projectAccessOf(request).project.settings),
    );

    app.put(
      '/v4/projects/:projectUid/preTranslateSettings',
      {
        config: { access: onProject(MANAGERS, 'edit') },
        schema: {
          tags: ['Project'],
          operationId: 'updateProjectPreTranslateSettingsV4',
          summary: 'Update project pre-translate settings',
          description: `${V4_PUT} Emits PROJECT_METADATA_UPDATED.`,
          params: ProjectUidParams,
          body: PreTranslateSettingsV4Body,
          response: { 200: PreTranslateSettingsV4Schema },
        },
      },
      async (request) =>
        writeProjectPreTranslate(deps, callerOf(request), projectAccessOf(request).project, preTranslateFromV4Body(request.body ?? {})),
    );

    app.get(
      '/v4/projectTemplates/:projectTemplateUid/preTranslateSettings',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: ['Project Template'],
          operationId: 'getProjectTemplatePreTranslateSettingsV4',
          summary: 'Get project template pre-translate settings',
          description: `${V4_GET} Projects made from the template get a copy.`,
          params: TemplateUidParams,
          response: { 200: PreTranslateSettingsV4Schema },
        },
      },
      async (request) => preTranslateOf(templateAccessOf(request).template.settings),
    );

    app.put(
      '/v4/projectTemplates/:projectTemplateUid/preTranslateSettings',
      {
        config: { access: onTemplate(MANAGERS, 'edit') },
        schema: {
          tags: ['Project Template'],
          operationId: 'updateProjectTemplatePreTranslateSettingsV4',
          summary: 'Update project template pre-translate settings',
          description: `${V4_PUT} Projects made from the template afterwards get these settings; existing projects keep theirs. Emits PROJECT_TEMPLATE_UPDATED.`,
          params: TemplateUidParams,
          body: PreTranslateSettingsV4Body,
          response: { 200: PreTranslateSettingsV4Schema },
        },
      },
      async (request) =>
        writeTemplatePreTranslate(deps, callerOf(request), templateAccessOf(request).template, preTranslateFromV4Body(request.body ?? {})),
    );

    for (const version of [1, 2] as const) {
      const suffix = version === 1 ? '' : 'V2';
      app.get(
        `/v${version}/projects/:projectUid/preTranslateSettings`,
        {
          config: { access: onProject(MANAGERS, 'view') },
          schema: {
            tags: ['Project'],
            operationId: `getProjectPreTranslateSettings${suffix}`,
            summary: 'Get project pre-translate settings (deprecated)',
            deprecated: true,
            description: FLAT_SHAPE,
            params: ProjectUidParams,
            response: { 200: PreTranslateSettingsFlatSchema },
          },
        },
        async (request) => toFlat(preTranslateOf(projectAccessOf(request).project.settings)),
      );

      app.put(
        `/v${version}/projects/:projectUid/preTranslateSettings`,
        {
          config: { access: onProject(MANAGERS, 'edit') },
          schema: {
            tags: ['Project'],
            operationId: `updateProjectPreTranslateSettings${suffix}`,
            summary: 'Update project pre-translate settings (deprecated)',
            deprecated: true,
            description: `${FLAT_SHAPE} ${FLAT_PUT} Emits PROJECT_METADATA_UPDATED.`,
            params: ProjectUidParams,
            body: PreTranslateSettingsFlatBody,
            response: { 200: PreTranslateSettingsFlatSchema },
          },
        },
        async (request) =>
          toFlat(
            await writeProjectPreTranslate(
              deps,
              callerOf(request),
              projectAccessOf(request).project,
              preTranslateFromFlatBody(request.body ?? {}),
            ),
          ),
      );

      app.get(
        `/v${version}/projectTemplates/:projectTemplateUid/preTranslateSettings`,
        {
          config: { access: onTemplate(MANAGERS, 'view') },
          schema: {
            tags: ['Project Template'],
            operationId: `getProjectTemplatePreTranslateSettings${suffix}`,
            summary: 'Get project template pre-translate settings (deprecated)',
            deprecated: true,
            description: FLAT_SHAPE,
            params: TemplateUidParams,
            response: { 200: PreTranslateSettingsFlatSchema },
          },
        },
        async (request) => toFlat(preTranslateOf(templateAccessOf(request).template.settings)),
      );

      app.put(
        `/v${version}/projectTemplates/:projectTemplateUid/preTranslateSettings`,
        {
          config: { access: onTemplate(MANAGERS, 'edit') },
          schema: {
            tags: ['Project Template'],
            operationId: `updateProjectTemplatePreTranslateSettings${suffix}`,
            summary: 'Update project template pre-translate settings (deprecated)',
            deprecated: true,
            description: `${FLAT_SHAPE} ${FLAT_PUT} Emits PROJECT_TEMPLATE_UPDATED.`,
            params: TemplateUidParams,
            body: PreTranslateSettingsFlatBody,
            response: { 200: PreTranslateSettingsFlatSchema },
          },
        },
        async (request) =>
          toFlat(
            await writeTemplatePreTranslate(
              deps,
              callerOf(request),
              templateAccessOf(request).template,
              preTranslateFromFlatBody(request.body ?? {}),
            ),
          ),
      );
    }
  };
}

import { primaryLanguage } from '../../../domain/terminology/index.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { PathUid } from '../../../http/schema-helpers.js';
import { SpellCheckRequest, SpellCheckResponse, checkTexts } from '../../language-resources/spell-check/index.js';
import { qaTargetTermTexts } from '../job-term-bases/index.js';
import { findVisibleProject, requireJobOf } from '../kernel/index.js';
import { projectUidOfJob } from './job-spell-check.repository.js';

/**
 * checkByJob (docs/spelling.md): the Spell Check operation on one job, by the settings of the
 * job's project: the organization's dictionary and the target-language terms of the job's QA term
 * bases are never flagged. Whoever may see the job (the kernel's `view`: linguists their own
 * jobs); the path names the job alone, so the handler finds its project and asks the kernel.
 */

const tags = ['Spell Check'];
const JobOnlyParams = Type.Object({ jobUid: PathUid });

export function jobSpellCheckRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.post(
      '/v1/spellCheck/check/:jobUid',
      {
        config: { access: AUTHENTICATED, errors: ['SpellingDictionaryMissing'] },
        schema: {
          tags,
          operationId: 'checkByJob',
          summary: 'Spell check for job',
          description:
            'Spell check using the settings from the project of the job: as `check`, and the terms of the job’s QA term bases in its target language are never flagged either. ' +
            'Whoever may see the job (linguists: the jobs they provide); others get 404.',
          params: JobOnlyParams,
          body: SpellCheckRequest,
          response: { 200: SpellCheckResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const lang = assertLanguage('lang', request.body.lang);
        const projectUid = await projectUidOfJob(db, request.params.jobUid);
        const visible = projectUid === undefined ? null : await findVisibleProject(db, caller, projectUid);
        if (visible === null) throw errors.ResourceNotFound({ what: 'Job' });
        const { project, job } = await requireJobOf(db, caller, visible, request.params.jobUid, 'view');
        const terms = primaryLanguage(lang) === primaryLanguage(job.targetLang) ? await qaTargetTermTexts(db, project.project, job) : [];
        return { spellCheckResults: await checkTexts(db, project.project.organizationId, lang, request.body, terms) };
      },
    );
  };
}

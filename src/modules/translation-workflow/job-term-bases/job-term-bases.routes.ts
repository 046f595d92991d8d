import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { callerOf, roles } from '../../../http/access.js';
import { PageOf, PagingQuery, toPage } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { Enum, TermSchema, toTermBaseDtos } from '../../language-resources/term-bases/index.js';
import { GENDERS, NUMBERS, PARTS_OF_SPEECH, TERM_TYPES } from '../../../formats/term-entries.js';
import { TermBaseSchema } from '../../language-resources/term-bases/index.js';
import {
  JobUidParams,
  ProjectUidParams,
  TemplateUidParams,
  emitProjectEvents,
  jobAccessOf,
  onJob,
  onProject,
  onTemplate,
  projectAccessOf,
  templateAccessOf,
} from '../kernel/index.js';
import { WorkflowStepReference } from '../../organization-setup/setup-records/index.js';
import { projectSettingsOwner, templateSettingsOwner } from '../job-trans-memories/index.js';
import { createTermByJob, searchByJob, searchInTextByJob } from './job-term-search.js';
import { relevantTermBases } from './relevant-term-bases.js';
import { contextOfBody, replaceContext, tbSettingDtos, tbSettingRows } from './tb-settings.js';

/**
 * The term bases of projects, templates and jobs (docs/terminology.md, "Term bases of projects,
 * templates and jobs"). Settings: ADMIN and PROJECT_MANAGER with `view` / `edit` on the project or
 * template. Job operations: whoever may view the job (linguists: the jobs they provide), so
 * linguists reach term bases only through their jobs; createTermByJob writes to the project's
 * write term base for the job.
 */

const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const JOB_USERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');

const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Spec definitions `SetTermBaseDto` (project) and `SetProjectTemplateTermBaseDto` (template: with `workflowStep`). */
const SetTermBasesBody = Type.Object({
  readTermBases: Type.Optional(Type.Array(IdReference, { maxItems: 100 })),
  writeTermBase: Type.Optional(IdReference),
  qualityAssuranceTermBases: Type.Optional(Type.Array(IdReference, { maxItems: 100 })),
  targetLang: Type.Optional(Type.String({ maxLength: 64 })),
});
const SetTemplateTermBasesBody = Type.Object({ ...SetTermBasesBody.properties, workflowStep: Type.Optional(IdReference) });

const settingItem = (title: string) =>
  Type.Object(
    {
      targetLocale: Nullable(Type.String()),
      workflowStep: Nullable(WorkflowStepReference),
      readMode: Type.Boolean(),
      writeMode: Type.Boolean(),
      termBase: TermBaseSchema,
      qualityAssurance: Type.Boolean(),
    },
    { title },
  );
const ProjectTermBaseList = Type.Object({ termBases: Type.Array(settingItem('ProjectTermBaseDto')) }, { title: 'ProjectTermBaseListDto' });
const TemplateTermBaseList = Type.Object(
  { termBases: Type.Array(settingItem('ProjectTemplateTermBaseDto')) },
  { title: 'ProjectTemplateTermBaseListDto' },
);

const RelevantQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  domainName: Type.Optional(Type.String({ maxLength: 255 })),
  clientName: Type.Optional(Type.String({ maxLength: 255 })),
  subDomainName: Type.Optional(Type.String({ maxLength: 255 })),
  targetLangs: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
  strictLangMatching: Type.Boolean({ default: false }),
  ...PagingQuery,
});

const TermV2 = Type.Omit(TermSchema, ['definition', 'domain', 'subDomains', 'url', 'conceptNote'], { title: 'TermV2Dto' });
const ConceptV2 = Type.Object(
  {
    id: Type.String(),
    definition: Type.Optional(Type.String()),
    domain: Type.Optional(Type.String()),
    subDomains: Type.Array(Type.String()),
    url: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
  },
  { title: 'ConceptDtov2' },
);
const TermBaseReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() }, { title: 'TermBaseReference' });
const SearchByJobBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 2000 }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default: 15' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Default: 0' })),
  reverse: Type.Optional(Type.Boolean({ description: 'Default: false. true: search the target-language terms.' })),
});
const SearchByJobResponse = Type.Object(
  {
    searchResults: Type.Array(
      Type.Object(
        { termBase: TermBaseReference, concept: ConceptV2, sourceTerm: TermV2, translationTerms: Type.Array(TermV2) },
        { title: 'SearchTbResponseDto' },
      ),
    ),
  },
  { title: 'SearchTbResponseListDto' },
);
/** The longest text searchInTextByJob reads (a segment is far shorter). */
export const SEARCH_IN_TEXT_MAX_CHARS = 100_000;
const SearchInTextBody = Type.Object({
  text: Type.String({ maxLength: SEARCH_IN_TEXT_MAX_CHARS }),
  reverse: Type.Optional(Type.Boolean({ description: 'Default: false. true: find the target-language terms.' })),
  zeroLengthSeparator: Type.Optional(
    Type.String({ maxLength: 16, description: 'A string that stands for nothing in `text` (left out like a tag).' }),
  ),
});
const SearchInTextResponse = Type.Object(
  {
    searchResults: Type.Array(
      Type.Object(
        {
          termBase: TermBaseReference,
          sourceTerm: TermV2,
          concept: ConceptV2,
          translationTerms: Type.Array(TermV2),
          subTerm: Type.Boolean(),
          matches: Type.Array(Type.Object({ beginIndex: Type.Integer(), text: Type.String() }, { title: 'Match' })),
        },
        { title: 'SearchInTextResponse2Dto' },
      ),
    ),
  },
  { title: 'SearchInTextResponseList2Dto' },
);
const TermByJob = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 2000 }),
  caseSensitive: Type.Optional(Type.Boolean()),
  exactMatch: Type.Optional(Type.Boolean()),
  forbidden: Type.Optional(Type.Boolean()),
  preferred: Type.Optional(Type.Boolean()),
  usage: Type.Optional(Type.String({ maxLength: 255 })),
  note: Type.Optional(Type.String({ maxLength: 16_384 })),
  shortTranslation: Type.Optional(Type.String({ maxLength: 2000 })),
  termType: Type.Optional(Enum(TERM_TYPES)),
  partOfSpeech: Type.Optional(Enum(PARTS_OF_SPEECH)),
  gender: Type.Optional(Enum(GENDERS)),
  number: Type.Optional(Enum(NUMBERS)),
});
const CreateByJobBody = Type.Object({ sourceTerm: TermByJob, targetTerm: TermByJob });
const TermPair = Type.Object({ sourceTerm: TermSchema, targetTerm: TermSchema }, { title: 'TermPairDto' });

const SETTINGS_DESCRIPTION =
  'Per context (`targetLocale`: a target language, null for all; on templates also `workflowStep`, null for all) the term bases read (`readMode`: the editor and the job searches find their terms), the one written (`writeMode`: createTermByJob), and those QA checks (`qualityAssurance`), in their priority order. A job uses the most specific context that lists any term base.';
const SET_DESCRIPTION =
  'Replaces the term bases of ONE context, the one `targetLang` names (none: all target languages), leaving the other contexts as they are: `readTermBases` in priority order, `writeTermBase`, `qualityAssuranceTermBases`; empty lists clear the context. Each term base must be of the organization (400 ReferenceNotFound) and hold the source language or a target language of the context (by family: `de` ~ `de_at`); at most 10 term bases per context.';
const JOB_DESCRIPTION =
  "The job's term bases: the project's term bases read in the context of the job's target language (and workflow step), in their priority order. The source side is the project's source language, the target side the job's target language; `reverse` swaps them.";

export function jobTermBasesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/termBases',
      {
        config: { access: onProject(MANAGERS, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getProjectTermBases',
          summary: 'Get term bases',
          description: SETTINGS_DESCRIPTION,
          params: ProjectUidParams,
          response: { 200: ProjectTermBaseList },
        },
      },
      async (request) => {
        const owner = await projectSettingsOwner(db, projectAccessOf(request).project);
        return tbSettingDtos(db, owner, await tbSettingRows(db, owner));
      },
    );

    app.put(
      '/v1/projects/:projectUid/termBases',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: ['Project'],
          operationId: 'setProjectTermBases',
          summary: 'Edit term bases',
          description: `${SET_DESCRIPTION} Emits PROJECT_METADATA_UPDATED; answers the whole setting.`,
          params: ProjectUidParams,
          body: SetTermBasesBody,
          response: { 200: ProjectTermBaseList },
        },
      },
      async (request) => {
        const access = projectAccessOf(request);
        const owner = await projectSettingsOwner(db, access.project);
        const { targetLang, rows } = await contextOfBody(db, owner, request.body ?? {});
        await db.transaction().execute(async (trx) => {
          await replaceContext(trx, owner, targetLang, null, rows);
          await emitProjectEvents(deps, trx, callerOf(request), access.project.id, ['PROJECT_METADATA_UPDATED']);
        });
        deps.taskWakeup.notify();
        return tbSettingDtos(db, owner, await tbSettingRows(db, owner));
      },
    );

    app.get(
      '/v1/projects/:projectUid/termBases/relevant',
      {
        config: { access: onProject(MANAGERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: ['Project'],
          operationId: 'relevantTermBases',
          summary: 'List project relevant term bases',
          description:
            "The term bases the caller sees that hold the project's source language and one of its target languages (or of `targetLangs`); `strictLangMatching` compares codes exactly, otherwise by family (`de` ~ `de_at`). The name filters match part of the name, ignoring case. By name.",
          params: ProjectUidParams,
          querystring: RelevantQuery,
          response: { 200: PageOf(TermBaseSchema, 'PageDtoTermBaseDto') },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const owner = await projectSettingsOwner(db, projectAccessOf(request).project);
        const { pageNumber, pageSize, ...query } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await relevantTermBases(db, caller, owner, query, page);
        return toPage(await toTermBaseDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.get(
      '/v1/projectTemplates/:projectTemplateUid/termBases',
      {
        config: { access: onTemplate(MANAGERS, 'view') },
        schema: {
          tags: ['Project Template'],
          operationId: 'getProjectTemplateTermBases',
          summary: 'Get term bases',
          description: `${SETTINGS_DESCRIPTION} A project made from the template starts with them.`,
          params: TemplateUidParams,
          response: { 200: TemplateTermBaseList },
        },
      },
      async (request) => {
        const owner = await templateSettingsOwner(db, templateAccessOf(request).template);
        return tbSettingDtos(db, owner, await tbSettingRows(db, owner));
      },
    );

    app.put(
      '/v1/projectTemplates/:projectTemplateUid/termBases',
      {
        config: { access: onTemplate(MANAGERS, 'edit'), errors: ['ReferenceNotFound', 'UnsupportedLanguage'] },
        schema: {
          tags: ['Project Template'],
          operationId: 'setProjectTemplateTermBases',
          summary: 'Edit term bases in project template',
          description: `${SET_DESCRIPTION} \`workflowStep\` (a step of the template) narrows the context to that step. Needs a source and a target language on the template (400 otherwise).`,
          params: TemplateUidParams,
          body: SetTemplateTermBasesBody,
          response: { 200: TemplateTermBaseList },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const template = templateAccessOf(request).template;
        const owner = await templateSettingsOwner(db, template);
        if (owner.sourceLang === null || owner.targetLangs.length === 0) {
          throw errors.InvalidArguments({
            reason:
              'The term bases of a template can be edited only when the template has a source language and at least one target language.',
            details: [
              {
                field: owner.sourceLang === null ? 'sourceLang' : 'targetLangs',
                message: `the template has no ${owner.sourceLang === null ? 'source language' : 'target language'}`,
              },
            ],
          });
        }
        const { targetLang, step, rows } = await contextOfBody(db, owner, request.body ?? {});
        await db.transaction().execute(async (trx) => {
          await replaceContext(trx, owner, targetLang, step?.id ?? null, rows);
          await trx
            .updateTable('projectTemplates')
            .set({ lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
            .where('id', '=', template.id)
            .execute();
        });
        return tbSettingDtos(db, owner, await tbSettingRows(db, owner));
      },
    );

    for (const version of [2, 1] as const) {
      const deprecated = version === 1 ? { deprecated: true } : {};
      const replaced = (v2: string) => (version === 1 ? `Replaced by ${v2}; still works, with the same shapes. ` : '');
      app.post(
        `/v${version}/projects/:projectUid/jobs/:jobUid/termBases/searchByJob`,
        {
          config: { access: onJob(JOB_USERS, 'view') },
          schema: {
            tags: ['Term Base'],
            operationId: version === 2 ? 'searchTermsByJob_1' : 'searchTermsByJob',
            summary: "Search job's term bases",
            ...deprecated,
            description: `${replaced('POST /api2/v2/projects/{projectUid}/jobs/{jobUid}/termBases/searchByJob')}${JOB_DESCRIPTION} Terms matching \`query\`, best first (the same text ignoring case, then terms starting with it, then fuzzy matches by the TM's score), \`count\` (default 15) from \`offset\`, each with its concept's terms on the other side.`,
            params: JobUidParams,
            body: SearchByJobBody,
            response: { 200: SearchByJobResponse },
          },
        },
        async (request) => {
          const { project, job } = jobAccessOf(request);
          return searchByJob(deps, project.project, job, request.body);
        },
      );

      app.post(
        `/v${version}/projects/:projectUid/jobs/:jobUid/termBases/searchInTextByJob`,
        {
          config: { access: onJob(JOB_USERS, 'view') },
          schema: {
            tags: ['Term Base'],
            operationId: version === 2 ? 'searchTermsInTextByJobV2' : 'searchTermsInTextByJob',
            summary: 'Search terms in text',
            ...deprecated,
            description: `${replaced('POST /api2/v2/projects/{projectUid}/jobs/{jobUid}/termBases/searchInTextByJob')}${JOB_DESCRIPTION} Every term found in \`text\` with each place it occurs (\`beginIndex\` in UTF-16 code units, \`text\` as it stands there), in the order they first occur: case-insensitive unless the term is case-sensitive, exact when it demands it, otherwise tolerant of inflection (Snowball stemmers); CJK and Thai by character; inline tags and \`zeroLengthSeparator\` inside a term do not break it; of overlapping matches the longest; \`subTerm\` when found as part of a compound (German, Dutch, Scandinavian, Finnish). Forbidden terms are found too (\`forbidden\`). Rules: docs/terminology.md.`,
            params: JobUidParams,
            body: SearchInTextBody,
            response: { 200: SearchInTextResponse },
          },
        },
        async (request) => {
          const { project, job } = jobAccessOf(request);
          return searchInTextByJob(deps, project.project, job, request.body);
        },
      );
    }

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/termBases/createByJob',
      {
        config: { access: onJob(JOB_USERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: ['Term Base'],
          operationId: 'createTermByJob',
          summary: "Create term in job's term bases",
          description:
            "A new concept with `sourceTerm` (the project's source language) and `targetTerm` (the job's target language) in the term base the project writes to for the job (its write term base); 400 when there is none. Linguists may do this on the jobs they provide: the project's setting gives them the write access.",
          params: JobUidParams,
          body: CreateByJobBody,
          response: { 200: TermPair },
        },
      },
      async (request) => {
        const { project, job } = jobAccessOf(request);
        return createTermByJob(deps, callerOf(request), project.project, job, request.body);
      },
    );
  };
}

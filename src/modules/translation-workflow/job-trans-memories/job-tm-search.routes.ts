import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { roles } from '../../../http/access.js';
import { SearchResults, SearchResultsV3 } from '../../language-resources/translation-memories/index.js';
import { JobUidParams, ProjectUidParams, jobAccessOf, onJob, onProject, projectAccessOf } from '../kernel/index.js';
import {
  SearchByJobV3Body,
  SearchSegmentByJobBody,
  SearchSegmentInProjectBody,
  WildCardSearchByJobV3Body,
} from './job-tm-search.schemas.js';
import { searchByJob, searchSegmentByJob, searchSegmentInProject, wildCardSearchByJob } from './job-tm-search.service.js';

/**
 * Searches of the TMs of a job or a project (docs/translation-memory.md, "Access"): the caller
 * needs `view` on the job (linguists: the jobs they provide; a vendor: the jobs of projects shared
 * with them), so linguists and vendors reach TMs only through their jobs; managers through the
 * projects they see. Guests and submitters do not search TMs.
 */

const TAGS = ['Job', 'Translation Memory'];
const SEARCHERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');
const SCORE = 'Scores are fractions (0.7 = 70 %, 1.01 = in context); the score is published in docs/translation-memory.md.';
const TMS =
  "The project's TMs with read enabled in the context that applies to the job's target language and workflow step (the most specific of: that language and step, that language, that step, all), each with its penalty and, where the context enables ordering, its order.";

export function jobTransMemoriesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v3/projects/:projectUid/jobs/:jobUid/transMemories/search',
      {
        config: { access: onJob(SEARCHERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'searchByJob3',
          summary: "Search job's translation memories",
          description: `${TMS} Fuzzy search of \`query\`, best first, \`maxResults\` (default 15) from \`scoreThreshold\` (default 0.7). ${SCORE} \`reverse\` (searching the targets) is not offered yet: 400.`,
          params: JobUidParams,
          body: SearchByJobV3Body,
          response: { 200: SearchResultsV3 },
        },
      },
      async (request) => {
        const { project, job } = jobAccessOf(request);
        return searchByJob(deps, project.project, job, request.body);
      },
    );

    app.post(
      '/v3/projects/:projectUid/jobs/:jobUid/transMemories/wildCardSearch',
      {
        config: { access: onJob(SEARCHERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'wildCardSearchByJob3',
          summary: "Wildcard search job's translation memories",
          description: `${TMS} \`*\` stands for any run of characters and \`?\` for one, over the whole source (\`reverse\`: the target), ignoring case; \`count\` (1–50, default 50) sources from \`offset\`.`,
          params: JobUidParams,
          body: WildCardSearchByJobV3Body,
          response: { 200: SearchResultsV3 },
        },
      },
      async (request) => {
        const { project, job } = jobAccessOf(request);
        return wildCardSearchByJob(deps, project.project, job, request.body);
      },
    );

    app.post(
      '/v1/projects/:projectUid/jobs/:jobUid/transMemories/searchSegment',
      {
        config: { access: onJob(SEARCHERS, 'view') },
        schema: {
          tags: ['Translation Memory', 'Job'],
          operationId: 'searchSegmentByJob',
          summary: 'Search translation memory for segment by job',
          description: `What a CAT editor shows for one segment: ${TMS} At most \`maxSegments\` (default 5) matches from \`scoreThreshold\` (default 0.7); with \`previousSegment\` and \`nextSegment\` (or \`contextKey\`) an exact match in the same context scores 1.01. \`workflowLevel\` reads the settings of another step of the project. ${SCORE} Sub-segment matches (\`maxSubSegments\`) are not searched yet: none are returned.`,
          params: JobUidParams,
          body: SearchSegmentByJobBody,
          response: { 200: SearchResults },
        },
      },
      async (request) => {
        const { project, job } = jobAccessOf(request);
        return searchSegmentByJob(deps, project.project, job, request.body);
      },
    );

    app.post(
      '/v1/projects/:projectUid/transMemories/searchSegmentInProject',
      {
        config: { access: onProject(SEARCHERS, 'view'), errors: ['UnsupportedLanguage'] },
        schema: {
          tags: ['Project', 'Translation Memory'],
          operationId: 'searchSegment_1',
          summary: 'Search translation memory for segment in the project',
          description: `As searchSegmentByJob, for the project's target languages \`targetLangs\` (400 for one that is not the project's), at \`workflowLevel\` (default: the project's first step); the matches of all the languages together, best first. ${SCORE}`,
          params: ProjectUidParams,
          body: SearchSegmentInProjectBody,
          response: { 200: SearchResults },
        },
      },
      async (request) => searchSegmentInProject(deps, projectAccessOf(request).project, request.body),
    );
  };
}

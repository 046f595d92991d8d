import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { Id } from '../../../db/schema.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { errors } from '../../../errors/index.js';
import { DEFAULT_MIN_SCORE, fuzzySearch, searchResultsDto, wildcardSearch } from '../../language-resources/translation-memories/index.js';
import type { SearchHit, SearchResultsV3 } from '../../language-resources/translation-memories/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { projectTargetLanguages } from '../kernel/index.js';
import type {
  SearchByJobV3Body,
  SearchSegmentByJobBody,
  SearchSegmentInProjectBody,
  WildCardSearchByJobV3Body,
} from './job-tm-search.schemas.js';
import { projectTransMemoryTargets, searchLangsFor } from './tm-settings.js';

/**
 * Searches of the TMs a job (or a project) reads (docs/translation-memory.md, "Search and the
 * index"): the project's TMs with read enabled in the context that applies to the target language
 * and the workflow step, each with its penalty, applyPenaltyTo101Only and order. Results name users
 * and projects of the project's organization (a vendor's caller sees the buyer's TM units).
 */

/** A score threshold of the API (a fraction, 0.7) as a score (70); absent: the TM module's default. */
const minScoreOf = (threshold: number | null | undefined) =>
  threshold === null || threshold === undefined ? DEFAULT_MIN_SCORE : Math.min(101, Math.round(threshold * 100));

/** The project's step at `level` (400 when it has none), or the job's own step. */
async function stepFor(deps: AppDeps, projectId: Id, fallback: Id | null, level: number | null | undefined): Promise<Id | null> {
  if (level === null || level === undefined) return fallback;
  const step = await deps.database.db
    .selectFrom('projectWorkflowSteps')
    .select('id')
    .where('projectId', '=', projectId)
    .where('workflowLevel', '=', level)
    .executeTakeFirst();
  if (!step) {
    throw errors.InvalidArguments({
      reason: `The project has no workflow step at level ${level}.`,
      details: [{ field: 'workflowLevel', message: `no workflow step at level ${level}` }],
    });
  }
  return step.id;
}

async function targetsOf(deps: AppDeps, projectId: Id, lang: string, stepId: Id | null) {
  const targets = await projectTransMemoryTargets(deps.database.db, projectId, lang, stepId, 'read');
  return {
    targets,
    langs: searchLangsFor(
      targets.map((t) => t.tm),
      lang,
    ),
  };
}

/** searchByJob3: fuzzy search of `query` (reverse search is not offered: the index holds sources). */
export async function searchByJob(deps: AppDeps, project: ProjectRow, job: JobRow, body: SearchByJobV3Body) {
  if (body.reverse === true) throw errors.NotSupportedYet({ fields: ['reverse'] });
  const { targets, langs } = await targetsOf(deps, project.id, job.targetLang, job.projectWorkflowStepId);
  const hits = await fuzzySearch(deps, targets, {
    text: body.query,
    targetLangs: langs,
    minScore: minScoreOf(body.scoreThreshold),
    maxResults: body.maxResults ?? 15,
  });
  return (await searchResultsDto(deps, project.organizationId, hits, { v3: true })) as Static<typeof SearchResultsV3>;
}

/** wildCardSearchByJob3: `*` and `?` over the whole source (or, `reverse`, target). */
export async function wildCardSearchByJob(deps: AppDeps, project: ProjectRow, job: JobRow, body: WildCardSearchByJobV3Body) {
  const { targets, langs } = await targetsOf(deps, project.id, job.targetLang, job.projectWorkflowStepId);
  const reverse = body.reverse === true;
  const hits = await wildcardSearch(deps, targets, {
    pattern: body.query,
    targetLangs: langs,
    reverse,
    offset: body.offset ?? 0,
    count: body.count ?? 50,
  });
  return (await searchResultsDto(deps, project.organizationId, hits, { v3: true, reverse })) as Static<typeof SearchResultsV3>;
}

/** searchSegmentByJob: what the editor shows for one segment, in context (101), at the job's level unless `workflowLevel`. */
export async function searchSegmentByJob(deps: AppDeps, project: ProjectRow, job: JobRow, body: SearchSegmentByJobBody) {
  const maxResults = body.maxSegments ?? 5;
  if (maxResults === 0) return { searchResults: [] };
  const stepId = await stepFor(deps, project.id, job.projectWorkflowStepId, body.workflowLevel);
  const { targets, langs } = await targetsOf(deps, project.id, job.targetLang, stepId);
  const hits = await fuzzySearch(deps, targets, {
    text: body.segment,
    targetLangs: langs,
    previous: body.previousSegment,
    next: body.nextSegment,
    key: body.contextKey,
    minScore: minScoreOf(body.scoreThreshold),
    maxResults,
  });
  return searchResultsDto(deps, project.organizationId, hits);
}

/**
 * searchSegment_1: the same for the project's target languages `targetLangs` (400 for a language
 * that is not the project's), at `workflowLevel` (default: the first level); results of every
 * language together, best first.
 */
export async function searchSegmentInProject(deps: AppDeps, project: ProjectRow, body: SearchSegmentInProjectBody) {
  const maxResults = body.maxSegments ?? 5;
  const projectLangs = await projectTargetLanguages(deps.database.db, project.id);
  const langs = [...new Set(assertLanguages('targetLangs', body.targetLangs))];
  const foreign = langs.filter((lang) => !projectLangs.includes(lang));
  if (foreign.length) throw errors.InvalidTargetLanguage({ langs: foreign });
  if (maxResults === 0) return { searchResults: [] };
  const level = body.workflowLevel ?? null;
  const firstStep = await deps.database.db
    .selectFrom('projectWorkflowSteps')
    .select('id')
    .where('projectId', '=', project.id)
    .orderBy('workflowLevel')
    .executeTakeFirst();
  const stepId = level === null ? (firstStep?.id ?? null) : await stepFor(deps, project.id, null, level);
  const merged = new Map<string, SearchHit>();
  for (const lang of langs) {
    const { targets, langs: searchLangs } = await targetsOf(deps, project.id, lang, stepId);
    const hits = await fuzzySearch(deps, targets, {
      text: body.segment,
      targetLangs: searchLangs,
      previous: body.previousSegment,
      next: body.nextSegment,
      key: body.contextKey,
      minScore: minScoreOf(body.scoreThreshold),
      maxResults,
    });
    for (const hit of hits) {
      const key = `${hit.target.tm.id}:${hit.sourceHash}`;
      const known = merged.get(key);
      if (!known) merged.set(key, { ...hit, units: [...hit.units] });
      else {
        for (const unit of hit.units) if (!known.units.some((u) => String(u.id) === String(unit.id))) known.units.push(unit);
        if (hit.score > known.score) merged.set(key, { ...hit, units: known.units });
      }
    }
  }
  const hits = [...merged.values()]
    .sort((a, b) => b.score - a.score || a.target.order - b.target.order || (a.units[0]!.modifiedAt < b.units[0]!.modifiedAt ? 1 : -1))
    .slice(0, maxResults);
  return searchResultsDto(deps, project.organizationId, hits);
}

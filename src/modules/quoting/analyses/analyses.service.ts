import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { Id } from '../../../db/schema.js';
import { resolveSettings } from '../../../domain/analysis/settings.js';
import type { AnalysisSettings } from '../../../domain/analysis/settings.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { enqueue } from '../../../queue/queue.js';
import type { Db } from '../../../queue/types.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import { resolvePricingReference } from '../../organization-setup/setup-records/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { currentProviders, parseSettings, requireProject, resolveProviders } from '../../translation-workflow/kernel/index.js';
import type { ProjectAccess, ResolvedProvider } from '../../translation-workflow/kernel/index.js';
import {
  findAnalysis,
  insertAnalysis,
  insertAnalysisJobs,
  insertLanguagePart,
  jobsByUids,
  reserveInnerIds,
  segmentsOf,
} from './analyses.repository.js';
import type { AnalysisRow, RequestedJob } from './analyses.repository.js';
import type { CreateAnalyseV2Body } from './analyses.schemas.js';
import { ANALYSIS_TASK } from './analysis.task.js';

type CreateBody = Static<typeof CreateAnalyseV2Body>;
export type CreateMode = 'single' | 'byLanguages' | 'byProviders';

/** The async request action of each analysis type (spec enum of AsyncRequestDto.action). */
const ACTIONS = { PreAnalyse: 'PRE_ANALYSE', PostAnalyse: 'POST_ANALYSE', Compare: 'COMPARE_ANALYSE' } as const;

export interface CreatedAnalysis {
  analysis: AnalysisRow;
  asyncRequest: AsyncRequestRow;
}

/** The project's stored analysis settings (GET …/analyseSettings), as analysis settings. */
export function projectAnalysisSettings(settingsJson: string): Partial<AnalysisSettings> {
  const stored = parseSettings(settingsJson)['analyseSettings'];
  return stored && typeof stored === 'object' ? (stored as Partial<AnalysisSettings>) : {};
}

/** The project's net rate scheme (its financial settings), if any. */
function projectNetRateScheme(settingsJson: string): Id | null {
  const financial = parseSettings(settingsJson)['financialSettings'] as { netRateSchemeId?: unknown } | null | undefined;
  const id = financial && typeof financial === 'object' ? financial.netRateSchemeId : null;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * Creates analyses of the given jobs (docs/analysis.md, "Requests"), with their async requests
 * and tasks, in one transaction: one analysis (`single`, v2), one per target language, or one
 * per provider. The jobs must belong to one project the caller may edit; more segments than the
 * limit is 400 and nothing is created.
 */
export async function createAnalyses(deps: AppDeps, caller: Caller, body: CreateBody, mode: CreateMode): Promise<CreatedAnalysis[]> {
  const db = deps.database.db;
  const uids = body.jobs.map((j) => j.uid);
  const found = await jobsByUids(db, caller.organizationId, uids);
  const byUid = new Map(found.map((j) => [j.uid, j]));
  const missing = uids.filter((uid) => !byUid.has(uid));
  if (missing.length) throw errors.ResourceNotFound({ what: 'Job', uids: [...new Set(missing)], field: 'jobs' });
  const jobs = [...new Set(uids)].map((uid) => byUid.get(uid)!);
  const projectIds = new Set(jobs.map((j) => j.projectId));
  if (projectIds.size > 1) {
    throw errors.InvalidArguments({
      reason: 'The jobs of one analysis must belong to one project.',
      details: [{ field: 'jobs', message: 'jobs of several projects' }],
    });
  }
  const projectUid = (await db.selectFrom('projects').select('uid').where('id', '=', jobs[0]!.projectId).executeTakeFirstOrThrow()).uid;
  const access = await requireProject(db, caller, projectUid, 'edit');
  const project = access.project;

  const pending = jobs.filter((j) => j.importStatus === 'RUNNING');
  if (pending.length) throw errors.JobImportNotFinished({ jobUid: pending[0]!.uid });

  const segments = jobs.reduce((sum, j) => sum + (j.importStatus === 'OK' ? segmentsOf(j) : 0), 0);
  const limit = deps.config.analysisLimits.maxSegments;
  if (segments > limit) throw errors.AnalysisTooLarge({ segments, limit });

  const base = body.useProjectAnalysisSettings ? projectAnalysisSettings(project.settings) : {};
  const settings = resolveSettings(body, base);
  if (settings.type === 'Compare' && settings.compareWorkflowLevel === null) {
    throw errors.InvalidArguments({
      reason: 'A compare analysis needs compareWorkflowLevel.',
      details: [{ field: 'compareWorkflowLevel', message: 'required for type Compare' }],
    });
  }
  const netRateSchemeId =
    body.netRateScheme === undefined || body.netRateScheme === null
      ? projectNetRateScheme(project.settings)
      : await resolvePricingReference(db, caller.organizationId, 'netRateScheme', 'netRateScheme', { id: String(body.netRateScheme.id) });
  const requestedProvider = body.provider ? (await resolveProviders(db, caller.organizationId, 'provider', [body.provider]))[0]! : null;

  const groups = await groupJobs(deps, access, jobs, mode, requestedProvider);
  const created = await db.transaction().execute(async (trx) => {
    const first = await reserveInnerIds(trx, project.id, groups.length);
    const result: CreatedAnalysis[] = [];
    for (const [i, group] of groups.entries()) {
      const innerId = first + i;
      const asyncRequest = await createAsyncRequest(deps, trx, {
        organizationId: caller.organizationId,
        createdById: caller.userId,
        action: ACTIONS[settings.type],
        project: { uid: project.uid, name: project.name },
        callbackUrl: body.callbackUrl ?? null,
      });
      const analysis = await insertAnalysis(trx, {
        organizationId: caller.organizationId,
        projectId: project.id,
        innerId,
        type: mode === 'byProviders' && settings.type === 'PreAnalyse' ? 'PreAnalyseProvider' : settings.type,
        name: body.name?.trim() || `Analysis #${innerId}`,
        providerUserId: group.provider?.userId ?? null,
        providerVendorId: group.provider?.vendorId ?? null,
        netRateSchemeId,
        settings: JSON.stringify(settings),
        status: 'RUNNING',
        errorMessage: null,
        asyncRequestId: asyncRequest.id,
        createdAt: deps.clock().toISOString(),
        createdById: caller.userId,
        deletedAt: null,
      });
      await insertParts(trx, analysis.id, project.sourceLang, group.jobs);
      await enqueue(
        trx,
        {
          kind: ANALYSIS_TASK,
          payload: { analysisId: analysis.id, asyncRequestId: asyncRequest.id },
          organizationId: caller.organizationId,
          asyncRequestId: asyncRequest.id,
        },
        deps.clock(),
      );
      result.push({ analysis, asyncRequest });
    }
    return result;
  });
  deps.taskWakeup.notify();
  return created;
}

interface JobGroup {
  provider: ResolvedProvider | null;
  jobs: RequestedJob[];
}

/** The analysis order of jobs: by file, then part of the file, then workflow level. */
function analysisOrder(a: RequestedJob, b: RequestedJob): number {
  return (
    a.innerId - b.innerId || (a.beginIndex ?? 0) - (b.beginIndex ?? 0) || a.workflowLevel - b.workflowLevel || Number(a.id) - Number(b.id)
  );
}

async function groupJobs(
  deps: AppDeps,
  access: ProjectAccess,
  jobs: RequestedJob[],
  mode: CreateMode,
  provider: ResolvedProvider | null,
): Promise<JobGroup[]> {
  const sorted = [...jobs].sort(analysisOrder);
  if (mode === 'single') return [{ provider, jobs: sorted }];
  if (mode === 'byLanguages') {
    const langs = [...new Set(sorted.map((j) => j.targetLang))].sort();
    return langs.map((lang) => ({ provider, jobs: sorted.filter((j) => j.targetLang === lang) }));
  }
  // byProviders: one analysis per provider of the jobs; jobs without one go together.
  const groups = new Map<string, JobGroup>();
  for (const job of sorted) {
    const providers = await currentProviders(deps.database.db, job.id);
    const keys = providers.length ? providers : [null];
    for (const p of keys) {
      const key = p === null ? '' : p.userId !== null ? `u${p.userId}` : `v${p.vendorId}`;
      const group = groups.get(key) ?? { provider: p, jobs: [] };
      group.jobs.push(job);
      groups.set(key, group);
    }
  }
  void access;
  return [...groups.values()];
}

/** One language part per target language (in the order first met), its jobs in analysis order. */
async function insertParts(trx: Db, analysisId: Id, sourceLang: string, jobs: RequestedJob[]): Promise<void> {
  const langs = [...new Set(jobs.map((j) => j.targetLang))];
  for (const [position, lang] of langs.entries()) {
    const part = await insertLanguagePart(trx, { analysisId, position, sourceLang, targetLang: lang, tallies: null });
    await insertAnalysisJobs(
      trx,
      jobs
        .filter((j) => j.targetLang === lang)
        .map((j, i) => ({
          analysisId,
          languagePartId: part.id,
          jobId: j.id,
          jobUid: j.uid,
          filename: j.filename,
          innerId: String(j.innerId),
          position: i,
          tallies: null,
        })),
    );
  }
}

/** An analysis the caller may read: 404 unless its project is visible to them. */
export async function requireAnalysis(
  deps: AppDeps,
  caller: Caller,
  key: string,
  need: 'view' | 'edit' = 'view',
): Promise<{ analysis: AnalysisRow; access: ProjectAccess }> {
  const db = deps.database.db;
  const analysis = await findAnalysis(db, caller.organizationId, key);
  if (!analysis) throw errors.ResourceNotFound({ what: 'Analysis' });
  const project = await db.selectFrom('projects').select('uid').where('id', '=', analysis.projectId).executeTakeFirst();
  if (!project) throw errors.ResourceNotFound({ what: 'Analysis' });
  try {
    const access = await requireProject(db, caller, project.uid, need);
    return { analysis, access };
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error as { status: number }).status === 404)
      throw errors.ResourceNotFound({ what: 'Analysis' });
    throw error;
  }
}

/** Starts a recalculation: a new async request and task; the results stay until the new ones replace them in one step. */
export async function recalculate(
  deps: AppDeps,
  caller: Caller,
  keys: readonly string[],
  callbackUrl: string | null,
): Promise<CreatedAnalysis[]> {
  const analyses: AnalysisRow[] = [];
  for (const key of keys) analyses.push((await requireAnalysis(deps, caller, key, 'edit')).analysis);
  const created = await deps.database.db.transaction().execute(async (trx) => {
    const result: CreatedAnalysis[] = [];
    for (const analysis of analyses) {
      const settings = JSON.parse(analysis.settings) as AnalysisSettings;
      const project = await trx
        .selectFrom('projects')
        .select(['uid', 'name'])
        .where('id', '=', analysis.projectId)
        .executeTakeFirstOrThrow();
      const asyncRequest = await createAsyncRequest(deps, trx, {
        organizationId: caller.organizationId,
        createdById: caller.userId,
        action: ACTIONS[settings.type],
        project,
        callbackUrl,
      });
      const updated = await trx
        .updateTable('analyses')
        .set({ asyncRequestId: asyncRequest.id })
        .where('id', '=', analysis.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await enqueue(
        trx,
        {
          kind: ANALYSIS_TASK,
          payload: { analysisId: analysis.id, asyncRequestId: asyncRequest.id },
          organizationId: caller.organizationId,
          asyncRequestId: asyncRequest.id,
        },
        deps.clock(),
      );
      result.push({ analysis: updated, asyncRequest });
    }
    return result;
  });
  deps.taskWakeup.notify();
  return created;
}

/** Deletes analyses: marked deleted, or with `purge` removed with their results. */
export async function deleteAnalyses(deps: AppDeps, caller: Caller, keys: readonly string[], purge: boolean): Promise<void> {
  const ids: Id[] = [];
  for (const key of keys) ids.push((await requireAnalysis(deps, caller, key, 'edit')).analysis.id);
  await deps.database.db.transaction().execute(async (trx) => {
    if (purge) await trx.deleteFrom('analyses').where('id', 'in', ids).execute();
    else await trx.updateTable('analyses').set({ deletedAt: deps.clock().toISOString() }).where('id', 'in', ids).execute();
  });
}

/**
 * Edits analyses (v2 edit and bulk edit): name, provider, net rate scheme. `netRateScheme: null`
 * removes the scheme; left out, the bulk edit takes the provider's scheme when the new provider
 * has one, otherwise the scheme stays (description, "Analyses").
 */
export async function editAnalyses(
  deps: AppDeps,
  caller: Caller,
  keys: readonly string[],
  body: { name?: string | null; provider?: Static<typeof CreateAnalyseV2Body>['provider']; netRateScheme?: { uid: string } | null },
  bulk: boolean,
): Promise<AnalysisRow[]> {
  const db = deps.database.db;
  const rows: AnalysisRow[] = [];
  for (const key of keys) rows.push((await requireAnalysis(deps, caller, key, 'edit')).analysis);
  const provider = body.provider
    ? (await resolveProviders(db, caller.organizationId, 'provider', [body.provider]))[0]!
    : body.provider === null
      ? null
      : undefined;
  let schemeId: Id | null | undefined;
  if (body.netRateScheme === null) schemeId = null;
  else if (body.netRateScheme)
    schemeId = await resolvePricingReference(db, caller.organizationId, 'netRateScheme', 'netRateScheme', body.netRateScheme);
  else if (bulk && provider) schemeId = (await providerNetRateScheme(db, provider)) ?? undefined;
  const name = body.name?.trim();
  return db.transaction().execute(async (trx) => {
    const result: AnalysisRow[] = [];
    const changes = {
      ...(name ? { name } : {}),
      ...(provider !== undefined ? { providerUserId: provider?.userId ?? null, providerVendorId: provider?.vendorId ?? null } : {}),
      ...(schemeId !== undefined ? { netRateSchemeId: schemeId } : {}),
    };
    for (const row of rows) {
      if (Object.keys(changes).length === 0) {
        result.push(row);
        continue;
      }
      result.push(await trx.updateTable('analyses').set(changes).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow());
    }
    return result;
  });
}

/** A provider's own net rate scheme: a vendor's (as the buyer set it) or a linguist's role setting. */
async function providerNetRateScheme(db: Db, provider: ResolvedProvider): Promise<Id | null> {
  if (provider.vendorId !== null) {
    const row = await db.selectFrom('vendors').select('netRateSchemeId').where('id', '=', provider.vendorId).executeTakeFirst();
    return row?.netRateSchemeId ?? null;
  }
  const user = await db
    .selectFrom('users')
    .select(['organizationId', 'roleSettings'])
    .where('id', '=', provider.userId!)
    .executeTakeFirst();
  const uid = user
    ? ((JSON.parse(user.roleSettings ?? '{}') as { references?: Record<string, string | null> }).references?.['netRateScheme'] ?? null)
    : null;
  if (!uid || !user) return null;
  const scheme = await db
    .selectFrom('netRateSchemes')
    .select('id')
    .where('organizationId', '=', user.organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
  return scheme?.id ?? null;
}

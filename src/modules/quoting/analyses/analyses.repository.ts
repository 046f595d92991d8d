import type { Insertable, Kysely, Selectable } from 'kysely';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { AnalysesTable, AnalysisJobsTable, AnalysisLanguagePartsTable } from '../../../db/tables/analyses.js';
import type { Db } from '../../../queue/types.js';

export type AnalysisRow = Selectable<AnalysesTable>;
export type LanguagePartRow = Selectable<AnalysisLanguagePartsTable>;
export type AnalysisJobRow = Selectable<AnalysisJobsTable>;

/** A job as an analysis request names it, with what its file says. */
export interface RequestedJob {
  id: Id;
  uid: string;
  projectId: Id;
  targetLang: string;
  workflowLevel: number;
  projectWorkflowStepId: Id | null;
  jobSourceId: Id;
  beginIndex: number | null;
  endIndex: number | null;
  filename: string;
  innerId: number;
  segmentCount: number;
  importStatus: string;
}

/** The jobs of the organization with these uids (any order; unknown uids are left out). */
export async function jobsByUids(db: Kysely<DB>, organizationId: Id, uids: readonly string[]): Promise<RequestedJob[]> {
  const rows: RequestedJob[] = [];
  for (let from = 0; from < uids.length; from += 500) {
    const chunk = await db
      .selectFrom('jobs')
      .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
      .select([
        'jobs.id',
        'jobs.uid',
        'jobs.projectId',
        'jobs.targetLang',
        'jobs.workflowLevel',
        'jobs.projectWorkflowStepId',
        'jobs.jobSourceId',
        'jobs.beginIndex',
        'jobs.endIndex',
        'jobSources.filename',
        'jobSources.innerId',
        'jobSources.segmentCount',
        'jobSources.importStatus',
      ])
      .where('jobs.organizationId', '=', organizationId)
      .where('jobs.uid', 'in', uids.slice(from, from + 500))
      .execute();
    for (const r of chunk) {
      rows.push({
        ...r,
        workflowLevel: Number(r.workflowLevel),
        innerId: Number(r.innerId),
        segmentCount: Number(r.segmentCount),
        beginIndex: r.beginIndex === null ? null : Number(r.beginIndex),
        endIndex: r.endIndex === null ? null : Number(r.endIndex),
      });
    }
  }
  return rows;
}

/** The segments a job covers: its split part, or its whole file. */
export function segmentsOf(job: Pick<RequestedJob, 'beginIndex' | 'endIndex' | 'segmentCount'>): number {
  if (job.beginIndex !== null && job.endIndex !== null) return Math.max(0, job.endIndex - job.beginIndex + 1);
  return job.segmentCount;
}

/** Reserves `count` analysis numbers of the project; returns the first. */
export async function reserveInnerIds(trx: Db, projectId: Id, count: number): Promise<number> {
  const row = await trx
    .updateTable('projects')
    .set((eb) => ({ lastAnalysisInnerId: eb('lastAnalysisInnerId', '+', count) }))
    .where('id', '=', projectId)
    .returning('lastAnalysisInnerId')
    .executeTakeFirstOrThrow();
  return Number(row.lastAnalysisInnerId) - count + 1;
}

export function insertAnalysis(trx: Db, values: Omit<Insertable<AnalysesTable>, 'uid'>): Promise<AnalysisRow> {
  return trx
    .insertInto('analyses')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertLanguagePart(trx: Db, values: Insertable<AnalysisLanguagePartsTable>): Promise<LanguagePartRow> {
  return trx.insertInto('analysisLanguageParts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertAnalysisJobs(trx: Db, rows: Insertable<AnalysisJobsTable>[]): Promise<void> {
  for (let from = 0; from < rows.length; from += 200)
    await trx
      .insertInto('analysisJobs')
      .values(rows.slice(from, from + 200))
      .execute();
}

/** An analysis of the organization by uid (or numeric id), unless deleted. */
export function findAnalysis(db: Db, organizationId: Id, key: string): Promise<AnalysisRow | undefined> {
  const numeric = /^\d{1,18}$/.test(key);
  return db
    .selectFrom('analyses')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', key), ...(numeric ? [eb('id', '=', key)] : [])]))
    .where('deletedAt', 'is', null)
    .executeTakeFirst();
}

export function findAnalysisById(db: Db, id: Id): Promise<AnalysisRow | undefined> {
  return db.selectFrom('analyses').selectAll().where('id', '=', id).executeTakeFirst();
}

export function languagePartsOf(db: Db, analysisIds: readonly Id[]): Promise<LanguagePartRow[]> {
  if (analysisIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('analysisLanguageParts')
    .selectAll()
    .where('analysisId', 'in', [...analysisIds])
    .orderBy('analysisId')
    .orderBy('position')
    .execute();
}

export function jobsOfParts(db: Db, partIds: readonly Id[]): Promise<AnalysisJobRow[]> {
  if (partIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('analysisJobs')
    .selectAll()
    .where('languagePartId', 'in', [...partIds])
    .orderBy('languagePartId')
    .orderBy('position')
    .execute();
}

/** Writes every result of an analysis and marks it OK, in the caller's transaction (one step). */
export async function writeResults(
  trx: Db,
  analysisId: Id,
  parts: readonly { id: Id; tallies: string; transMemories: string }[],
  jobs: readonly { id: Id; tallies: string }[],
): Promise<void> {
  for (const part of parts)
    await trx
      .updateTable('analysisLanguageParts')
      .set({ tallies: part.tallies, transMemories: part.transMemories })
      .where('id', '=', part.id)
      .execute();
  for (const job of jobs) await trx.updateTable('analysisJobs').set({ tallies: job.tallies }).where('id', '=', job.id).execute();
  await trx.updateTable('analyses').set({ status: 'OK', errorMessage: null, outdated: false }).where('id', '=', analysisId).execute();
}

/** The analyses of a project the list shows (not deleted), newest first by default. */
export interface AnalysisFilter {
  organizationId: Id;
  projectId?: Id;
  jobUid?: string;
  name?: string | undefined;
  uid?: string | undefined;
}

export async function listAnalyses(
  db: Kysely<DB>,
  filter: AnalysisFilter,
  order: { sort: 'NAME' | 'DATE_CREATED'; descending: boolean },
  window: { offset: number; limit: number },
): Promise<{ rows: AnalysisRow[]; total: number }> {
  let query = db
    .selectFrom('analyses')
    .where('analyses.organizationId', '=', filter.organizationId)
    .where('analyses.deletedAt', 'is', null);
  if (filter.projectId) query = query.where('analyses.projectId', '=', filter.projectId);
  if (filter.uid) query = query.where('analyses.uid', '=', filter.uid);
  if (filter.name) query = query.where('analyses.name', '=', filter.name);
  if (filter.jobUid) {
    const jobUid = filter.jobUid;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('analysisJobs')
          .select('analysisJobs.id')
          .whereRef('analysisJobs.analysisId', '=', 'analyses.id')
          .where('analysisJobs.jobUid', '=', jobUid),
      ),
    );
  }
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const direction = order.descending ? 'desc' : 'asc';
  const rows = await query
    .selectAll('analyses')
    .orderBy(order.sort === 'NAME' ? 'analyses.name' : 'analyses.createdAt', direction)
    .orderBy('analyses.id', direction)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(total) };
}

export interface JobSegment {
  idx: number;
  key: string | null;
  source: string;
  importedTarget: string | null;
  target: string | null;
  confirmed: boolean;
  /** The source of the file's next segment (null at the end of the file). */
  nextSource: string | null;
}

/** The segments of a job in order, in pages, with what the job holds for each (its translation, whether confirmed). */
export async function* jobSegmentPages(
  db: Kysely<DB>,
  job: { id: Id; jobSourceId: Id; beginIndex: number | null; endIndex: number | null },
  pageSize: number,
): AsyncGenerator<JobSegment[]> {
  let from = job.beginIndex ?? 0;
  const last = job.endIndex ?? Number.MAX_SAFE_INTEGER;
  for (;;) {
    // One row more than the page: the next source of the page's last segment.
    const rows = await db
      .selectFrom('sourceSegments')
      .leftJoin('jobSegments', (join) => join.onRef('jobSegments.idx', '=', 'sourceSegments.idx').on('jobSegments.jobId', '=', job.id))
      .select([
        'sourceSegments.idx',
        'sourceSegments.key',
        'sourceSegments.source',
        'sourceSegments.importedTarget',
        'jobSegments.target',
        'jobSegments.confirmed',
      ])
      .where('sourceSegments.jobSourceId', '=', job.jobSourceId)
      .where('sourceSegments.idx', '>=', from)
      .orderBy('sourceSegments.idx')
      .limit(pageSize + 1)
      .execute();
    const page: JobSegment[] = [];
    for (let i = 0; i < rows.length && i < pageSize; i++) {
      const r = rows[i]!;
      if (Number(r.idx) > last) break;
      page.push({
        idx: Number(r.idx),
        key: r.key,
        source: r.source,
        importedTarget: r.importedTarget,
        target: r.target,
        confirmed: r.confirmed === null ? false : bool(r.confirmed),
        nextSource: rows[i + 1]?.source ?? null,
      });
    }
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize || rows.length <= pageSize) return;
    from = page[page.length - 1]!.idx + 1;
  }
}

/** The indexes of a job's confirmed segments. */
export async function confirmedIndexes(db: Kysely<DB>, jobId: Id): Promise<Set<number>> {
  const rows = await db.selectFrom('jobSegments').select('idx').where('jobId', '=', jobId).where('confirmed', '=', true).execute();
  return new Set(rows.map((r) => Number(r.idx)));
}

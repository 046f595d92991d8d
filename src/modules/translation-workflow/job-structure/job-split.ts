import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { jobEventSummaries } from '../kernel/index.js';
import type { JobRow } from '../kernel/index.js';
import { assertJobCapacity } from '../jobs/index.js';
import type { JobSourceRow } from '../kernel/index.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { splitRanges } from './split-plan.js';
import type { IndexRange, SplitRequest } from './split-plan.js';

/**
 * Splitting a job (docs/split-compare-and-workflow-changes.md, "Split"). A part is a job of the
 * same file with `beginIndex`/`endIndex` set. Phrase splits a job across its workflow: every job
 * of the same file and target language that covers the same range, at every workflow level, is
 * cut at the same places. Each of them keeps its uid as the first part; the other parts are new
 * jobs that take over its status, due date, providers, notification settings, history and the
 * translations of their segments.
 */

/** The file's segments a job covers: its split part, or the whole file. */
export function jobRange(job: JobRow, source: JobSourceRow): IndexRange {
  return { first: job.beginIndex ?? 0, last: job.endIndex ?? Number(source.segmentCount) - 1 };
}

async function segmentWords(db: Kysely<DB>, source: JobSourceRow, range: IndexRange): Promise<number[]> {
  const rows = await db
    .selectFrom('sourceSegments')
    .select('words')
    .where('jobSourceId', '=', source.id)
    .where('idx', '>=', range.first)
    .where('idx', '<=', range.last)
    .orderBy('idx')
    .execute();
  return rows.map((r) => Number(r.words));
}

/** The jobs split together with `job`: same file, target language and range, every workflow level. */
async function jobsAcrossWorkflow(db: Kysely<DB>, job: JobRow): Promise<JobRow[]> {
  let query = db.selectFrom('jobs').selectAll().where('jobSourceId', '=', job.jobSourceId).where('targetLang', '=', job.targetLang);
  query = job.beginIndex === null ? query.where('beginIndex', 'is', null) : query.where('beginIndex', '=', job.beginIndex);
  query = job.endIndex === null ? query.where('endIndex', 'is', null) : query.where('endIndex', '=', job.endIndex);
  return query.orderBy('workflowLevel').orderBy('id').execute();
}

interface SplitContext {
  trx: Kysely<DB>;
  now: string;
  callerId: string;
}

/** Narrows `job` to the first part; refuses (409) when someone changed its range meanwhile. */
async function narrowToFirstPart(ctx: SplitContext, job: JobRow, first: IndexRange): Promise<JobRow> {
  let update = ctx.trx
    .updateTable('jobs')
    .set({ beginIndex: first.first, endIndex: first.last, lastModifiedAt: ctx.now, lastModifiedById: ctx.callerId })
    .where('id', '=', job.id);
  update = job.beginIndex === null ? update.where('beginIndex', 'is', null) : update.where('beginIndex', '=', job.beginIndex);
  update = job.endIndex === null ? update.where('endIndex', 'is', null) : update.where('endIndex', '=', job.endIndex);
  const row = await update.returningAll().executeTakeFirst();
  if (!row) throw errors.JobChanged({ jobUid: job.uid });
  return row;
}

/** A new job for `part` of `job`, with its providers, history and the translations of its segments. */
async function insertPart(ctx: SplitContext, job: JobRow, part: IndexRange): Promise<JobRow> {
  const { trx } = ctx;
  const created = await trx
    .insertInto('jobs')
    .values({
      uid: newUid(),
      organizationId: job.organizationId,
      projectId: job.projectId,
      jobSourceId: job.jobSourceId,
      projectWorkflowStepId: job.projectWorkflowStepId === null ? null : job.projectWorkflowStepId,
      workflowLevel: Number(job.workflowLevel),
      targetLang: job.targetLang,
      status: job.status,
      dateDue: job.dateDue,
      notifyProvider: job.notifyProvider,
      beginIndex: part.first,
      endIndex: part.last,
      createdAt: ctx.now,
      createdById: ctx.callerId,
      lastModifiedAt: ctx.now,
      lastModifiedById: ctx.callerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const newId = created.id;
  const providers = await trx.selectFrom('jobProviders').select(['userId', 'vendorId']).where('jobId', '=', job.id).orderBy('id').execute();
  if (providers.length)
    await trx
      .insertInto('jobProviders')
      .values(providers.map((p) => ({ jobId: newId, userId: p.userId, vendorId: p.vendorId })))
      .execute();
  const history = await trx
    .selectFrom('jobStatusChanges')
    .select(['status', 'changedAt', 'changedById'])
    .where('jobId', '=', job.id)
    .orderBy('id')
    .execute();
  if (history.length)
    await trx
      .insertInto('jobStatusChanges')
      .values(history.map((h) => ({ jobId: newId, status: h.status, changedAt: h.changedAt, changedById: h.changedById })))
      .execute();
  await trx
    .updateTable('jobSegments')
    .set({ jobId: newId })
    .where('jobId', '=', job.id)
    .where('idx', '>=', part.first)
    .where('idx', '<=', part.last)
    .execute();
  return created;
}

/**
 * Splits `job` (and the jobs of the other workflow levels covering the same segments) as
 * `request` says. Returns the parts at the job's own workflow level, in file order.
 */
export async function splitJob(deps: AppDeps, caller: Caller, job: JobRow, request: SplitRequest): Promise<JobRow[]> {
  const db = deps.database.db;
  const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  if (source.importStatus !== 'OK') throw errors.JobNotImported();
  const range = jobRange(job, source);
  const words = request.wordCount ? await segmentWords(db, source, range) : [];
  const parts = splitRanges(range, request, words);
  const siblings = await jobsAcrossWorkflow(db, job);
  await assertJobCapacity(deps, db, job.projectId, siblings.length * (parts.length - 1));

  const result = await db.transaction().execute(async (trx) => {
    const ctx: SplitContext = { trx, now: deps.clock().toISOString(), callerId: caller.userId };
    const narrowed: JobRow[] = [];
    const created: JobRow[] = [];
    let ownParts: JobRow[] = [];
    for (const sibling of siblings) {
      const partsOfSibling = [await narrowToFirstPart(ctx, sibling, parts[0]!)];
      for (const part of parts.slice(1)) partsOfSibling.push(await insertPart(ctx, sibling, part));
      narrowed.push(partsOfSibling[0]!);
      created.push(...partsOfSibling.slice(1));
      if (sibling.id === job.id) ownParts = partsOfSibling;
    }
    const user = await eventUser(trx, caller);
    const organizationId = job.organizationId;
    await emitEvent(deps, trx, { organizationId, event: 'JOB_CREATED', records: await jobEventSummaries(trx, created), user });
    await emitEvent(deps, trx, { organizationId, event: 'JOB_UPDATED', records: await jobEventSummaries(trx, narrowed), user });
    return ownParts;
  });
  return result;
}

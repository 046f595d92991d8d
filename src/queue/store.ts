import { sql } from 'kysely';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';

/**
 * The queries of the task queue. Every change to a claimed task is guarded by its claim
 * (`id`, `locked_by`, `attempts`): a worker that lost its lease (another took the task over) can
 * never mark the task, so a task is never half-marked by two workers.
 */

export interface ClaimedTask {
  readonly id: string;
  readonly kind: string;
  /** The stored JSON text. */
  readonly payload: string;
  readonly organizationId: string | null;
  readonly lane: string;
  /** Including this claim: 1 on the first run. */
  readonly attempts: number;
  /**
   * Earlier runs cut short without an outcome, including the one this claim took over (a claim of
   * a running task whose lease expired counts one: its worker died or lost the lease).
   */
  readonly interruptions: number;
  readonly maxAttempts: number | null;
  readonly asyncRequestId: string | null;
  readonly lockedBy: string;
  readonly leaseUntil: string;
}

/** Identifies one claim of one task. */
export interface Claim {
  readonly id: string;
  readonly lockedBy: string;
  readonly attempts: number;
}

type Row = {
  id: string | number;
  kind: string;
  payload: string;
  organizationId: string | number | null;
  lane: string | number;
  attempts: number;
  interruptions: number;
  maxAttempts: number | null;
  asyncRequestId: string | number | null;
  lockedBy: string | null;
  leaseUntil: string | null;
};

const RETURNED = [
  'id',
  'kind',
  'payload',
  'organizationId',
  'lane',
  'attempts',
  'interruptions',
  'maxAttempts',
  'asyncRequestId',
  'lockedBy',
  'leaseUntil',
] as const;

function toClaimed(row: Row): ClaimedTask {
  return {
    id: String(row.id),
    kind: row.kind,
    payload: row.payload,
    organizationId: row.organizationId === null ? null : String(row.organizationId),
    lane: String(row.lane),
    attempts: Number(row.attempts),
    interruptions: Number(row.interruptions),
    maxAttempts: row.maxAttempts === null ? null : Number(row.maxAttempts),
    asyncRequestId: row.asyncRequestId === null ? null : String(row.asyncRequestId),
    lockedBy: row.lockedBy ?? '',
    leaseUntil: row.leaseUntil ?? '',
  };
}

/**
 * The lanes (organizations) that have a due queued task, the one served longest ago first.
 *
 * The lanes are walked through `tasks_queued_idx` with a recursive query (a "loose index scan":
 * one index probe per lane with queued work, however many tasks each has), and for each lane the
 * oldest queued task is one more probe. So a claim costs O(lanes with queued work), not
 * O(queued tasks): 100,000 tasks in 100 organizations are 200 probes.
 *
 * The order the callers sort `due` by: the lane's last turn (never served = 0 comes first), then
 * its oldest due task, then the lane id, so that ties are broken the same way every time.
 *
 * Returns the WITH clause that defines `due(lane, head, turn)`; the caller completes the query.
 */
function dueLanes(now: string): RawBuilder<unknown> {
  return sql`
    with recursive lanes(lane) as (
      select (select lane from tasks where status = 'queued' order by lane limit 1)
      union all
      select (select t.lane from tasks t where t.status = 'queued' and t.lane > lanes.lane order by t.lane limit 1)
      from lanes where lanes.lane is not null
    ),
    heads as (
      select lanes.lane as lane,
        (select t.run_at from tasks t where t.status = 'queued' and t.lane = lanes.lane order by t.run_at limit 1) as head,
        coalesce((select tt.turn from task_turns tt where tt.lane = lanes.lane), 0) as turn
      from lanes where lanes.lane is not null
    ),
    due as (select lane, head, turn from heads where head <= ${now})`;
}

/**
 * Taking over a running task (its lease expired) counts an interruption: the worker that ran it
 * died or lost the lease. `status` in the SET clause is the row's value before the update.
 */
const COUNT_TAKEOVER = sql<number>`interruptions + (case when status = 'running' then 1 else 0 end)`;

function claimUpdate(trx: Transaction<DB>, target: RawBuilder<unknown>, workerId: string, now: string, leaseUntil: string) {
  return trx
    .updateTable('tasks')
    .set({ status: 'running', attempts: sql`attempts + 1`, interruptions: COUNT_TAKEOVER, lockedBy: workerId, leaseUntil, startedAt: now })
    .where('id', '=', target as RawBuilder<string>)
    .returning(RETURNED)
    .executeTakeFirst() as Promise<Row | undefined>;
}

/** Records that the lane was served now: its turn becomes the largest turn + 1. */
async function takeTurn(trx: Transaction<DB>, lane: string): Promise<void> {
  await sql`
    insert into task_turns (lane, turn) values (${lane}, (select coalesce(max(turn), 0) + 1 from task_turns))
    on conflict (lane) do update set turn = excluded.turn`.execute(trx);
}

/**
 * Claims one due task for `workerId` until `now + leaseMs`, or returns null: first a running task
 * whose lease expired (its worker died), else the oldest due queued task of the lane served
 * longest ago.
 */
export async function claimNext(database: Database, workerId: string, now: Date, leaseMs: number): Promise<ClaimedTask | null> {
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  return database.dialect === 'postgres'
    ? claimPostgres(database.db, workerId, at, leaseUntil)
    : claimSqlite(database.db, workerId, at, leaseUntil);
}

/**
 * SQLite serialises writers, and a statement that writes takes the write lock before it reads,
 * so `UPDATE … WHERE id = (SELECT …) RETURNING` claims atomically, also against other processes
 * on the same file. The claim, the takeover check before it and the lane's turn after it are one
 * transaction that starts with that write.
 */
async function claimSqlite(db: Kysely<DB>, workerId: string, now: string, leaseUntil: string): Promise<ClaimedTask | null> {
  return db.transaction().execute(async (trx) => {
    let row = await claimUpdate(
      trx,
      sql`(select id from tasks where status = 'running' and lease_until < ${now} order by lease_until limit 1)`,
      workerId,
      now,
      leaseUntil,
    );
    row ??= await claimUpdate(
      trx,
      sql`(
        select (
          select t.id from tasks t where t.status = 'queued' and t.lane = next.lane and t.run_at <= ${now}
          order by t.run_at, t.id limit 1
        )
        from (${dueLanes(now)} select lane from due order by turn, head, lane limit 1) next
      )`,
      workerId,
      now,
      leaseUntil,
    );
    if (row) await takeTurn(trx, String(row.lane));
    return row ? toClaimed(row) : null;
  });
}

/**
 * PostgreSQL: one statement (so one short transaction) that locks the chosen row with
 * `FOR UPDATE SKIP LOCKED`, so that workers in any number of processes never take the same task.
 * The lanes are visited in order through a LATERAL subquery under `LIMIT 1`: PostgreSQL runs it
 * lane by lane until one yields a task it could lock, so a worker that finds a lane's due tasks
 * locked by other workers takes the next lane's, and no other row is locked.
 * NOTE: a row another worker claimed after this statement's snapshot is re-checked when locked
 * (READ COMMITTED): its status is no longer 'queued', so it is skipped.
 */
async function claimPostgres(db: Kysely<DB>, workerId: string, now: string, leaseUntil: string): Promise<ClaimedTask | null> {
  const { rows } = await sql<Row>`
    ${dueLanes(now)},
    claimed as (
      update tasks set status = 'running', attempts = attempts + 1, interruptions = ${COUNT_TAKEOVER}, locked_by = ${workerId}, lease_until = ${leaseUntil}, started_at = ${now}
      where id = coalesce(
        (select id from tasks where status = 'running' and lease_until < ${now} order by lease_until limit 1 for update skip locked),
        (select t.id from (select lane, head, turn from due order by turn, head, lane) l
          cross join lateral (
            select id from tasks where status = 'queued' and lane = l.lane and run_at <= ${now}
            order by run_at, id limit 1 for update skip locked
          ) t
          limit 1)
      )
      returning id, kind, payload, organization_id, lane, attempts, interruptions, max_attempts, async_request_id, locked_by, lease_until
    ),
    turn as (
      insert into task_turns (lane, turn) select lane, (select coalesce(max(turn), 0) + 1 from task_turns) from claimed
      on conflict (lane) do update set turn = excluded.turn
    )
    select * from claimed`.execute(db);
  return rows[0] ? toClaimed(rows[0]) : null;
}

/** Extends the lease; false when the task is no longer this claim's (taken over, or gone). */
export async function renewLease(db: Kysely<DB>, claim: Claim, leaseUntil: Date): Promise<boolean> {
  const result = await db
    .updateTable('tasks')
    .set({ leaseUntil: leaseUntil.toISOString() })
    .where('id', '=', claim.id)
    .where('status', '=', 'running')
    .where('lockedBy', '=', claim.lockedBy)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `interrupted`: the run ended without an outcome of the handler's (its thread crashed); counts an interruption. */
type Finish =
  | { status: 'done'; now: Date }
  | { status: 'failed'; now: Date; error: string; interrupted?: boolean }
  | { status: 'retry'; runAt: Date; error: string; interrupted?: boolean }
  /** Back to the queue without using up the attempt (the worker stopped while it ran). */
  | { status: 'release'; now: Date };

/** Marks a claimed task; false when the claim no longer holds it (nothing was changed). */
export async function finishTask(db: Kysely<DB>, claim: Claim, finish: Finish): Promise<boolean> {
  const released = { lockedBy: null, leaseUntil: null };
  const interrupted = 'interrupted' in finish && finish.interrupted ? { interruptions: sql<number>`interruptions + 1` } : {};
  const values =
    finish.status === 'done'
      ? { ...released, status: 'done' as const, finishedAt: finish.now.toISOString() }
      : finish.status === 'failed'
        ? { ...released, ...interrupted, status: 'failed' as const, finishedAt: finish.now.toISOString(), lastError: finish.error }
        : finish.status === 'retry'
          ? { ...released, ...interrupted, status: 'queued' as const, runAt: finish.runAt.toISOString(), lastError: finish.error }
          : { ...released, status: 'queued' as const, runAt: finish.now.toISOString(), attempts: sql<number>`attempts - 1` };
  const result = await db
    .updateTable('tasks')
    .set(values)
    .where('id', '=', claim.id)
    .where('status', '=', 'running')
    .where('lockedBy', '=', claim.lockedBy)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes up to `limit` done tasks finished before `before`; returns how many. Small batches keep
 * each statement short (on SQLite it holds the one write lock).
 */
export async function deleteDoneTasks(database: Database, before: Date, limit: number): Promise<number> {
  const cutoff = before.toISOString();
  // NOTE: PostgreSQL skips rows another worker's cleanup is deleting instead of waiting for them.
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql`
    delete from tasks where id in (
      select id from tasks where status = 'done' and finished_at < ${cutoff} order by finished_at limit ${limit} ${lock}
    )`.execute(database.db);
  return Number(result.numAffectedRows ?? 0);
}

import { sql } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { AnyTaskHandler, Db, TaskRegistry, TaskSpec } from './types.js';

/** The PostgreSQL channel enqueue notifies and workers LISTEN on; the payload is the schema. */
export const TASK_CHANNEL = 'opentms_tasks';

/** Attempts of a task whose handler and spec say nothing. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Runs cut short without an outcome (the worker died or lost the lease, the thread crashed) after
 * which a task fails for good instead of running again, whatever its attempts allow: a task that
 * takes its worker down must not take every worker down in turn.
 */
export const MAX_INTERRUPTIONS = 3;

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 5 * 60_000;

/**
 * Milliseconds before attempt `attempt + 1` after `attempt` failed: 1 s, 2 s, 4 s … capped at
 * 5 minutes, then ±20% jitter (so that tasks that failed together do not retry together, also at
 * the cap).
 */
export function defaultBackoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Writes a task with the given database handle, normally the caller's open transaction: the task
 * exists if and only if the change that needs it commits. On PostgreSQL it also notifies
 * `opentms_tasks`, which PostgreSQL delivers at commit to the workers of every process; on SQLite
 * (and for a worker in this process) call `deps.taskWakeup.notify()` after the commit.
 *
 * Returns the task's id.
 */
export async function enqueue(db: Db, spec: TaskSpec, now: Date): Promise<string> {
  if (!spec.kind) throw new Error('enqueue: a task needs a kind');
  if (spec.maxAttempts !== undefined && !(Number.isInteger(spec.maxAttempts) && spec.maxAttempts >= 1)) {
    throw new Error(`enqueue: maxAttempts must be a whole number from 1, got ${spec.maxAttempts}`);
  }
  const payload = JSON.stringify(spec.payload ?? null);
  const at = now.toISOString();
  const values = {
    kind: spec.kind,
    payload,
    organizationId: spec.organizationId,
    lane: spec.organizationId ?? '0',
    status: 'queued' as const,
    maxAttempts: spec.maxAttempts ?? null,
    runAt: (spec.runAt ?? now).toISOString(),
    asyncRequestId: spec.asyncRequestId ?? null,
    createdAt: at,
    lockedBy: null,
    leaseUntil: null,
    lastError: null,
    startedAt: null,
    finishedAt: null,
  };
  if (!isPostgres(db)) {
    const row = await db.insertInto('tasks').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }
  // One round trip. The notification is sent at commit (and dropped on rollback); its payload,
  // the schema, lets the workers of other installations sharing the database (tests: a schema
  // per file) ignore it.
  const row = await db
    .with('inserted', (qb) => qb.insertInto('tasks').values(values).returning('id'))
    .selectFrom('inserted')
    .select(['inserted.id', sql<string>`pg_notify(${TASK_CHANNEL}, current_schema())`.as('notified')])
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The handlers a worker runs; two handlers for one kind are a programming error. */
export function createTaskRegistry<D>(handlers: readonly AnyTaskHandler<D>[]): TaskRegistry<D> {
  const byKind = new Map<string, AnyTaskHandler<D>>();
  for (const handler of handlers) {
    if (byKind.has(handler.kind)) throw new Error(`two task handlers for kind "${handler.kind}"`);
    byKind.set(handler.kind, handler);
  }
  return { get: (kind) => byKind.get(kind), handlers: [...handlers] };
}

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// The durable task queue (docs/async-and-webhooks.md, "Task queue"): one row per task, claimed by
// a worker with a lease; and one row per lane (organization) recording when it was last served,
// so that the next task is taken from the organization served longest ago.

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('tasks'))
    .addColumn('kind', 'varchar(100)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('organization_id', refType(db), (c) => c.references('organizations.id').onDelete('cascade'))
    // The fairness lane: the organization's id, or 0 for the installation's own work. Not null, so
    // that the lanes can be walked through an index in order (NULL compares to nothing).
    .addColumn('lane', refType(db), (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status in ('queued', 'running', 'done', 'failed')`))
    // Claims so far: 1 while the first attempt runs.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Null: the handler's own maximum (resolved when the task is claimed).
    .addColumn('max_attempts', 'integer')
    .addColumn('run_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(128)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('last_error', 'text')
    // The async request this task completes. No foreign key: that table has its own migration.
    .addColumn('async_request_id', refType(db))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    .execute();

  // Partial indexes, so that each serves one question and stays as small as its answer:
  // - queued: walk the lanes that have queued work, the oldest task of each, the next due one;
  // - running: leases that expired (their worker died);
  // - done: finished tasks old enough to delete.
  // NOTE: the claim queries spell the predicates literally (`status = 'queued'`): PostgreSQL and
  // SQLite only use a partial index when the query implies its predicate, which a bound
  // parameter does not.
  await db.schema
    .createIndex('tasks_queued_idx')
    .on('tasks')
    .columns(['lane', 'run_at', 'id'])
    .where(sql<boolean>`status = 'queued'`)
    .execute();
  await db.schema
    .createIndex('tasks_running_idx')
    .on('tasks')
    .column('lease_until')
    .where(sql<boolean>`status = 'running'`)
    .execute();
  await db.schema
    .createIndex('tasks_done_idx')
    .on('tasks')
    .column('finished_at')
    .where(sql<boolean>`status = 'done'`)
    .execute();

  // `turn` grows by one with every claim (the largest turn + 1): the lane with the smallest turn
  // was served longest ago; a lane without a row was never served. A counter rather than a
  // timestamp, so that claims in the same millisecond (or under a test clock) still take turns.
  await db.schema
    .createTable('task_turns')
    .addColumn('lane', refType(db), (c) => c.primaryKey())
    .addColumn('turn', refType(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_turns_turn_idx').on('task_turns').column('turn').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('task_turns').execute();
  await db.schema.dropTable('tasks').execute();
}

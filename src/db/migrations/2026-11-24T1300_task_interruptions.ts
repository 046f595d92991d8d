import type { Kysely } from 'kysely';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Tasks whose run was cut short (docs/async-and-webhooks.md, "Task queue"): `interruptions`
// counts the times a task's worker stopped running it without recording an outcome (the process
// died or the worker lost the lease, seen when another claim takes the task over) or the thread
// running it crashed. At 3 the task fails instead of running again, whatever its attempts allow.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('interruptions', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('interruptions').execute();
}

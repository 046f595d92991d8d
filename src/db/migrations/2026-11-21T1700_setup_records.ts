import type { Kysely } from 'kysely';

// Frozen: this file must never change once released. Add a new dated migration instead.

export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}

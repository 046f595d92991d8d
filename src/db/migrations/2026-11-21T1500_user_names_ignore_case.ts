import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen: this file must never change once released. Add a new dated migration instead.

// People type their user name in any case: "Anna" and "anna" must not be two accounts, and the
// login looks names up by lower(user_name), which this index also serves.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_user_name_lower_unique')
    .on('users')
    .expression(sql`lower(user_name)`)
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_user_name_lower_unique').execute();
}

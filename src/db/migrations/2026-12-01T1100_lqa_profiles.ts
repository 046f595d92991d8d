import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 19: LQA profiles of an organization (docs/lqa-profiles.md).
// - `lqa_profiles`: one row per profile: `name`, `is_default` (at most one per organization: the
//   partial unique index below; the service keeps exactly one once a profile exists), and
//   `definition`, a JSON document with the profile's `errorCategories`, `penaltyPoints` and
//   `passFailThreshold` as the spec's LqaProfileDetailDto shapes them.
// Projects and templates name a profile in their workflow steps' `settings` JSON
// (`lqaProfile: {uid}`), as the steps' other settings; no column here.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);

  await withId(db, db.schema.createTable('lqa_profiles'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_default', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('lqa_profiles_organization_idx').on('lqa_profiles').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('lqa_profiles_created_by_id_idx').on('lqa_profiles').column('created_by_id').execute();
  // At most one default profile per organization.
  await db.schema
    .createIndex('lqa_profiles_default_unique')
    .on('lqa_profiles')
    .column('organization_id')
    .unique()
    .where(sql.ref('is_default'), '=', boolDefault(db, true))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lqa_profiles').execute();
}

import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 18, point 3: segmentation rules, the organization's SRX files (docs/segmentation-rules.md).
// - `segmentation_rules`: one row per uploaded SRX file, with its metadata (`name`, `locale`,
//   `primary`, `filename`) and the file itself (`srx`, the text as uploaded, at most a few MiB;
//   exportSegmentationRule answers it unchanged). `is_primary`: at most one per locale of an
//   organization (kept by the service, in the transaction that sets it); a job imported without a
//   rule named in its import settings is segmented with the primary rule of its source language.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await withId(db, db.schema.createTable('segmentation_rules'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('locale', 'varchar(32)', (c) => c.notNull())
    .addColumn('is_primary', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('srx', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('segmentation_rules_organization_idx')
    .on('segmentation_rules')
    .columns(['organization_id', 'locale'])
    .execute();
  await db.schema.createIndex('segmentation_rules_created_by_id_idx').on('segmentation_rules').column('created_by_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('segmentation_rules').execute();
}

import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 16, point 7: glossaries, the (source term, target term) lists machine translation applies
// (docs/terminology.md, "Glossaries (built)").
// - `glossaries`: the records; `langs` a JSON array whose first language is the glossary's source
//   language (languages are only ever appended); `active` at most one per language pair of an
//   organization (kept by the service, in the transaction that activates); `version` bumped by
//   every write transaction on the glossary's entries (so that a process's cache of them knows it
//   is stale).
// - `glossary_entries`: one row per source term and target language. `source_key` is the SHA-256
//   (hex) of the source text: the unique key of an entry (a full text can be longer than a
//   PostgreSQL index row allows).

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await db.schema
    .alterTable('organizations')
    .addColumn('last_glossary_internal_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('glossaries'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('internal_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('langs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('active', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('owner_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('glossaries_internal_id_unique', ['organization_id', 'internal_id'])
    .execute();
  await db.schema.createIndex('glossaries_organization_idx').on('glossaries').columns(['organization_id', 'id']).execute();
  for (const column of ['created_by_id', 'owner_id']) {
    await db.schema.createIndex(`glossaries_${column}_idx`).on('glossaries').column(column).execute();
  }

  await withId(db, db.schema.createTable('glossary_entries'))
    .addColumn('glossary_id', ref, (c) => c.notNull().references('glossaries.id').onDelete('cascade'))
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('source_text', 'text', (c) => c.notNull())
    .addColumn('source_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('glossary_entries_pair_idx')
    .unique()
    .on('glossary_entries')
    .columns(['glossary_id', 'source_lang', 'target_lang', 'source_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('glossary_entries').execute();
  await db.schema.dropTable('glossaries').execute();
  await db.schema.alterTable('organizations').dropColumn('last_glossary_internal_id').execute();
}

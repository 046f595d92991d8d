import type { Kysely } from 'kysely';
import { refType } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 14, step 3: the files of translation-memory imports and exports
// (docs/translation-memory.md, "Import and export"), one row per async request:
// - `upload_sha256`: the uploaded file of an import, held (stored_files foreign key) until the
//   import has finished, then released;
// - `sha256`: the file an export wrote (TMX, or the ZIP of a cleaned export), for its download;
// - `langs`: the export's source and target languages (JSON), for the XLSX the download converts to;
// - `units`: how many units the task has written or read so far (its progress, per batch).

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await db.schema
    .createTable('tm_transfers')
    .addColumn('async_request_id', ref, (c) => c.primaryKey().references('async_requests.id').onDelete('cascade'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('trans_memory_id', ref, (c) => c.references('trans_memories.id').onDelete('set null'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)')
    .addColumn('upload_sha256', 'varchar(64)', (c) => c.references('stored_files.sha256'))
    .addColumn('sha256', 'varchar(64)', (c) => c.references('stored_files.sha256'))
    .addColumn('langs', 'text')
    .addColumn('units', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tm_transfers_organization_idx').on('tm_transfers').column('organization_id').execute();
  await db.schema.createIndex('tm_transfers_trans_memory_idx').on('tm_transfers').column('trans_memory_id').execute();
  await db.schema.createIndex('tm_transfers_upload_sha256_idx').on('tm_transfers').column('upload_sha256').execute();
  await db.schema.createIndex('tm_transfers_sha256_idx').on('tm_transfers').column('sha256').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tm_transfers').execute();
}

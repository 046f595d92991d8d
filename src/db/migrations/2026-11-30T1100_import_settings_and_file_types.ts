import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 18: the organization's import settings and custom file types
// (docs/import-settings-and-file-types.md).
// - `import_settings`: named FileImportSettings documents (`settings`, JSON as stored: the
//   FileImportSettingsCreateDto sent, segmentation rule ids included). The organization's default
//   is one row of the same table whose `default_for_organization_id` is the organization (unique,
//   null on every named row, so at most one default per organization). `has_xml_rules`: the
//   document has an `xml` section with rules; such named rows are the organization's XML
//   assistant profiles (listXmlAssistantProfiles).
// - `custom_file_types`: a file-name glob (`filename_pattern`), the Phrase file type it picks
//   (`type`: html, json, xml, multiling_xml, txt) and its own import settings document.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await withId(db, db.schema.createTable('import_settings'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('default_for_organization_id', ref, (c) => c.unique().references('organizations.id').onDelete('cascade'))
    .addColumn('has_xml_rules', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('import_settings_organization_idx').on('import_settings').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('import_settings_created_by_id_idx').on('import_settings').column('created_by_id').execute();
  await db.schema.createIndex('import_settings_updated_by_id_idx').on('import_settings').column('updated_by_id').execute();

  await withId(db, db.schema.createTable('custom_file_types'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('filename_pattern', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('custom_file_types_organization_idx').on('custom_file_types').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('custom_file_types_created_by_id_idx').on('custom_file_types').column('created_by_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_file_types').execute();
  await db.schema.dropTable('import_settings').execute();
}

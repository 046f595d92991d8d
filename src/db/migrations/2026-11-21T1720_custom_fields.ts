import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Custom fields of the organization and the options of select fields. Deleting a field deletes
// its options (FK cascade); the tables of values stored on records (issue 6) reference fields and
// options with ON DELETE CASCADE too, so a delete takes the values with it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('custom_fields'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    // JSON array of entity names (PROJECT).
    .addColumn('allowed_entities', 'varchar(255)', (c) => c.notNull())
    .addColumn('required', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('required_from', 'varchar(32)')
    .addColumn('description', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('custom_fields_organization_idx').on('custom_fields').columns(['organization_id', 'id']).execute();
  await db.schema
    .createIndex('custom_fields_organization_name_unique')
    .on('custom_fields')
    .expression(sql`organization_id, lower(name)`)
    .unique()
    .execute();

  await withId(db, db.schema.createTable('custom_field_options'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('field_id', refType(db), (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'varchar(255)', (c) => c.notNull())
    .addColumn('deprecated', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_field_options_field_idx').on('custom_field_options').columns(['field_id', 'id']).execute();
  await db.schema
    .createIndex('custom_field_options_field_value_unique')
    .on('custom_field_options')
    .expression(sql`field_id, lower(value)`)
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_field_options').execute();
  await db.schema.dropTable('custom_fields').execute();
}

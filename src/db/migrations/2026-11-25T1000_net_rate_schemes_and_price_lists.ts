import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 15: the organization's net rate schemes and price lists (docs/analysis.md).
// - A net rate scheme holds its rates (the spec's DiscountSettingsDto, JSON: band -> percent as a
//   decimal string) and, optionally, rates of its own per workflow step.
// - A price list has a currency and a billing unit; a price set per language pair holds a minimum
//   price and a price per workflow step. Money and rates are decimal strings (never binary floats).
// References to schemes and lists from clients, vendors, services and projects are plain ids
// (columns of earlier migrations); deleting a scheme or a list clears them in the same transaction.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await withId(db, db.schema.createTable('net_rate_schemes'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('rates', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('net_rate_schemes_organization_idx').on('net_rate_schemes').column('organization_id').execute();
  await db.schema.createIndex('net_rate_schemes_created_by_idx').on('net_rate_schemes').column('created_by_id').execute();

  await withId(db, db.schema.createTable('net_rate_scheme_steps'))
    .addColumn('net_rate_scheme_id', ref, (c) => c.notNull().references('net_rate_schemes.id').onDelete('cascade'))
    .addColumn('workflow_step_id', ref, (c) => c.notNull().references('workflow_steps.id').onDelete('cascade'))
    .addColumn('rates', 'text', (c) => c.notNull())
    .addUniqueConstraint('net_rate_scheme_steps_step_key', ['net_rate_scheme_id', 'workflow_step_id'])
    .execute();
  await db.schema.createIndex('net_rate_scheme_steps_workflow_step_idx').on('net_rate_scheme_steps').column('workflow_step_id').execute();

  await withId(db, db.schema.createTable('price_lists'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('currency_code', 'varchar(3)', (c) => c.notNull())
    .addColumn('billing_unit', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('price_lists_organization_idx').on('price_lists').column('organization_id').execute();
  await db.schema.createIndex('price_lists_created_by_idx').on('price_lists').column('created_by_id').execute();

  await withId(db, db.schema.createTable('price_sets'))
    .addColumn('price_list_id', ref, (c) => c.notNull().references('price_lists.id').onDelete('cascade'))
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('minimum_price', 'varchar(40)', (c) => c.notNull().defaultTo('0'))
    .addUniqueConstraint('price_sets_pair_key', ['price_list_id', 'source_lang', 'target_lang'])
    .execute();

  await db.schema
    .createTable('price_set_prices')
    .addColumn('price_set_id', ref, (c) => c.notNull().references('price_sets.id').onDelete('cascade'))
    .addColumn('workflow_step_id', ref, (c) => c.notNull().references('workflow_steps.id').onDelete('cascade'))
    .addColumn('price', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('price_set_prices_pkey', ['price_set_id', 'workflow_step_id'])
    .execute();
  await db.schema.createIndex('price_set_prices_workflow_step_idx').on('price_set_prices').column('workflow_step_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['price_set_prices', 'price_sets', 'price_lists', 'net_rate_scheme_steps', 'net_rate_schemes']) {
    await db.schema.dropTable(table).execute();
  }
}

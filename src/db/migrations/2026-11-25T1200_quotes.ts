import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 15: quotes (docs/analysis.md, "Quotes"). A quote prices one finished analysis with a price
// list: it keeps its inputs (analysis, price list, net rate scheme, provider, workflow step ids,
// the hours a request gave for an Hour price list, the additional steps by id and name) and its
// result (`total_price`, a decimal string in the currency's minor units, and `breakdown`: JSON of
// each language part's units, prices and amounts per workflow step, decimal strings), so that a
// quote reads back as it was computed and can be computed again. Money is never a binary float.
// References are kept when the record they name goes (set null); the project's delete removes them.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await withId(db, db.schema.createTable('quotes'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('analysis_id', ref, (c) => c.references('analyses.id').onDelete('set null'))
    .addColumn('price_list_id', ref, (c) => c.references('price_lists.id').onDelete('set null'))
    .addColumn('net_rate_scheme_id', ref, (c) => c.references('net_rate_schemes.id').onDelete('set null'))
    .addColumn('provider_user_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('provider_vendor_id', ref, (c) => c.references('vendors.id').onDelete('set null'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('billing_unit', 'varchar(16)', (c) => c.notNull())
    .addColumn('total_price', 'varchar(40)', (c) => c.notNull())
    .addColumn('workflow_steps', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('units', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('additional_steps', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('breakdown', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  for (const column of [
    'organization_id',
    'project_id',
    'analysis_id',
    'price_list_id',
    'net_rate_scheme_id',
    'provider_user_id',
    'provider_vendor_id',
    'created_by_id',
  ]) {
    await db.schema
      .createIndex(`quotes_${column.replace(/_id$/, '')}_idx`)
      .on('quotes')
      .column(column)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quotes').execute();
}

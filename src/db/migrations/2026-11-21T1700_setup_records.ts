import { sql } from 'kysely';
import type { CreateTableBuilder, Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.

// The organization's named setup records (clients with their contacts, business units, cost
// centers, domains, subdomains) and the first columns of project templates, which point at them.
// References from records that outlive the referenced one are ON DELETE SET NULL, so a delete
// clears them in the same statement; records owned by a client (contacts, business units) go
// with it.

/** Names unique in the organization, ignoring case (description, "Behaviour of other operations" 2). */
async function uniqueName(db: Kysely<unknown>, table: string, options: { live?: boolean } = {}) {
  let index = db.schema
    .createIndex(`${table}_organization_name_unique`)
    .on(table)
    .expression(sql`organization_id, lower(name)`)
    .unique();
  if (options.live) index = index.where(sql.ref('deleted_at'), 'is', null);
  await index.execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TableBuilder = CreateTableBuilder<any, any>;

async function namedRecord(db: Kysely<unknown>, table: string, extra: (t: TableBuilder) => TableBuilder = (t) => t) {
  const base = withId(db, db.schema.createTable(table))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'));
  await extra(base).execute();
  await db.schema.createIndex(`${table}_organization_idx`).on(table).columns(['organization_id', 'id']).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('business_units_enabled', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .execute();

  // Clients: the remaining fields of ClientDto. Price lists and net rate schemes arrive later;
  // their columns get foreign keys then.
  for (const [column, type] of [
    ['note', 'text'],
    ['price_list_id', refType(db)],
    ['net_rate_scheme_id', refType(db)],
  ] as const) {
    await db.schema.alterTable('clients').addColumn(column, type).execute();
  }
  await db.schema
    .alterTable('clients')
    .addColumn('display_note_in_project', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await db.schema.dropIndex('clients_organization_name_unique').execute();
  await uniqueName(db, 'clients');

  await withId(db, db.schema.createTable('client_contacts'))
    .addColumn('client_id', refType(db), (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)')
    .addColumn('phone', 'varchar(64)')
    .execute();
  await db.schema.createIndex('client_contacts_client_idx').on('client_contacts').columns(['client_id', 'position']).execute();

  await namedRecord(db, 'business_units', (t) =>
    t.addColumn('client_id', refType(db), (c) => c.references('clients.id').onDelete('cascade')),
  );
  await uniqueName(db, 'business_units');
  await db.schema.createIndex('business_units_client_idx').on('business_units').column('client_id').execute();

  await namedRecord(db, 'cost_centers', (t) => t.addColumn('deleted_at', 'varchar(32)'));
  await uniqueName(db, 'cost_centers', { live: true });

  await namedRecord(db, 'domains');
  await namedRecord(db, 'sub_domains');
  await uniqueName(db, 'sub_domains');

  await withId(db, db.schema.createTable('project_templates'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_id', refType(db), (c) => c.references('clients.id').onDelete('set null'))
    .addColumn('business_unit_id', refType(db), (c) => c.references('business_units.id').onDelete('set null'))
    .addColumn('cost_center_id', refType(db), (c) => c.references('cost_centers.id').onDelete('set null'))
    .addColumn('domain_id', refType(db), (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('sub_domain_id', refType(db), (c) => c.references('sub_domains.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('project_templates_organization_idx').on('project_templates').columns(['organization_id', 'id']).execute();
  // Foreign keys are checked on delete of the referenced row: index the referencing columns.
  for (const column of ['client_id', 'business_unit_id', 'cost_center_id', 'domain_id', 'sub_domain_id']) {
    await db.schema.createIndex(`project_templates_${column}_idx`).on('project_templates').column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_templates').execute();
  for (const table of ['sub_domains', 'domains', 'cost_centers', 'business_units', 'client_contacts']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('clients_organization_name_unique').execute();
  for (const column of ['note', 'price_list_id', 'net_rate_scheme_id', 'display_note_in_project']) {
    await db.schema.alterTable('clients').dropColumn(column).execute();
  }
  await db.schema.createIndex('clients_organization_name_unique').on('clients').columns(['organization_id', 'name']).unique().execute();
  await db.schema.alterTable('organizations').dropColumn('business_units_enabled').execute();
}

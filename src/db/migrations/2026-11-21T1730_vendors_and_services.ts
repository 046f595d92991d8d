import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Vendors and services (issue 5).
// - Every organization has a vendor token (created when an ADMIN first reads it); a buyer
//   organization links a vendor organization by that token. The link is one row of `vendors`:
//   the buyer's settings (locales, price list, net rate scheme) and the vendor's own settings
//   (active, buyerOwner, timezone). Its clients, domains, subdomains and workflow steps are the
//   buyer's records, in join tables whose rows go with the referenced record (ON DELETE CASCADE).
// - Services: named bundles of workflow steps (names unique in the organization, ignoring case).
// Price lists and net rate schemes do not exist yet: their columns get foreign keys when they do.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_vendor_tokens')
    .addColumn('organization_id', refType(db), (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('vendors'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('buyer_organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('vendor_organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // The token the buyer presented when linking (the vendor may regenerate its token since).
    .addColumn('vendor_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('price_list_id', refType(db))
    .addColumn('net_rate_scheme_id', refType(db))
    // JSON arrays of canonical language codes.
    .addColumn('source_locales', 'text', (c) => c.notNull())
    .addColumn('target_locales', 'text', (c) => c.notNull())
    // Vendor-side settings, edited through updateBuyer.
    .addColumn('active', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .addColumn('buyer_owner_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addUniqueConstraint('vendors_buyer_vendor_unique', ['buyer_organization_id', 'vendor_organization_id'])
    .execute();
  await db.schema.createIndex('vendors_vendor_organization_idx').on('vendors').columns(['vendor_organization_id', 'id']).execute();
  await db.schema.createIndex('vendors_buyer_owner_idx').on('vendors').column('buyer_owner_id').execute();

  // References of a link to the buyer's records: deleting the record removes it from the link.
  for (const [table, column, referenced] of [
    ['vendor_clients', 'client_id', 'clients'],
    ['vendor_domains', 'domain_id', 'domains'],
    ['vendor_sub_domains', 'sub_domain_id', 'sub_domains'],
    ['vendor_workflow_steps', 'workflow_step_id', 'workflow_steps'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('vendor_id', refType(db), (c) => c.notNull().references('vendors.id').onDelete('cascade'))
      .addColumn(column, refType(db), (c) => c.notNull().references(`${referenced}.id`).onDelete('cascade'))
      .addPrimaryKeyConstraint(`${table}_pk`, ['vendor_id', column])
      .execute();
    // Foreign keys are checked on delete of the referenced row: index the referencing column.
    await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
  }

  await withId(db, db.schema.createTable('services'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('active', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, true)))
    .addColumn('price_list_id', refType(db))
    .addColumn('project_template_id', refType(db), (c) => c.references('project_templates.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', refType(db), (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('services_organization_name_unique')
    .on('services')
    .expression(sql`organization_id, lower(name)`)
    .unique()
    .execute();
  await db.schema.createIndex('services_organization_idx').on('services').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('services_project_template_idx').on('services').column('project_template_id').execute();

  await db.schema
    .createTable('service_workflow_steps')
    .addColumn('service_id', refType(db), (c) => c.notNull().references('services.id').onDelete('cascade'))
    .addColumn('workflow_step_id', refType(db), (c) => c.notNull().references('workflow_steps.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('service_workflow_steps_pk', ['service_id', 'workflow_step_id'])
    .execute();
  await db.schema
    .createIndex('service_workflow_steps_workflow_step_id_idx')
    .on('service_workflow_steps')
    .column('workflow_step_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'service_workflow_steps',
    'services',
    'vendor_workflow_steps',
    'vendor_sub_domains',
    'vendor_domains',
    'vendor_clients',
    'vendors',
    'organization_vendor_tokens',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

import type { Kysely } from 'kysely';
import { boolDefault, boolType, refType, withId } from './dialect.js';

/**
 * Issue 6: project templates (the rest of them), projects, jobs and their files, segments,
 * reference files and custom field values. Plan: docs/translation-workflow.md.
 *
 * Stored files are content-addressed blobs (src/storage/blob-store.ts): `stored_files` has one row
 * per blob, and every record holding a file references it, so that a blob is removed once no
 * row points at it. Settings documents that the service only stores and returns (access,
 * import, QA, file naming, … settings) are JSON text in a `settings` column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  const bool = boolType(db);

  await db.schema
    .alterTable('organizations')
    .addColumn('last_project_internal_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // ---- project templates: the rest of ProjectTemplate
  const templates = () => db.schema.alterTable('project_templates');
  await templates().addColumn('project_name', 'varchar(255)').execute();
  await templates().addColumn('source_lang', 'varchar(32)').execute();
  await templates()
    .addColumn('target_langs', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await templates().addColumn('note', 'text').execute();
  await templates()
    .addColumn('use_dynamic_title', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await templates().addColumn('dynamic_title', 'varchar(255)').execute();
  await templates()
    .addColumn('owner_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await templates()
    .addColumn('vendor_id', ref, (c) => c.references('vendors.id').onDelete('set null'))
    .execute();
  await templates()
    .addColumn('file_handover', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .execute();
  await templates()
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await templates().addColumn('last_modified_at', 'varchar(32)').execute();
  await templates()
    .addColumn('last_modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('project_templates_owner_id_idx').on('project_templates').column('owner_id').execute();
  await db.schema.createIndex('project_templates_vendor_id_idx').on('project_templates').column('vendor_id').execute();

  // A template's workflow steps, in order (workflow_level 1, 2, …), with per-step settings JSON
  // (notifyProvider, lqaProfile). Deleting a workflow step a template uses is refused (NO ACTION).
  await withId(db, db.schema.createTable('template_workflow_steps'))
    .addColumn('template_id', ref, (c) => c.notNull().references('project_templates.id').onDelete('cascade'))
    .addColumn('workflow_step_id', ref, (c) => c.notNull().references('workflow_steps.id'))
    .addColumn('workflow_level', 'integer', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('template_workflow_steps_level_unique', ['template_id', 'workflow_level'])
    .execute();
  await db.schema.createIndex('template_workflow_steps_step_idx').on('template_workflow_steps').column('workflow_step_id').execute();

  // Providers a template names per target language (null = every language) and step (null = a
  // template without workflow steps). Exactly one of user_id and vendor_id is set.
  await withId(db, db.schema.createTable('template_assignments'))
    .addColumn('template_id', ref, (c) => c.notNull().references('project_templates.id').onDelete('cascade'))
    .addColumn('template_workflow_step_id', ref, (c) => c.references('template_workflow_steps.id').onDelete('cascade'))
    .addColumn('target_lang', 'varchar(32)')
    .addColumn('user_id', ref, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('vendor_id', ref, (c) => c.references('vendors.id').onDelete('cascade'))
    .execute();
  for (const column of ['template_id', 'template_workflow_step_id', 'user_id', 'vendor_id']) {
    await db.schema.createIndex(`template_assignments_${column}_idx`).on('template_assignments').column(column).execute();
  }

  // ---- projects
  await withId(db, db.schema.createTable('projects'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('internal_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('NEW'))
    .addColumn('source_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('owner_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_id', ref, (c) => c.references('clients.id').onDelete('set null'))
    .addColumn('business_unit_id', ref, (c) => c.references('business_units.id').onDelete('set null'))
    .addColumn('cost_center_id', ref, (c) => c.references('cost_centers.id').onDelete('set null'))
    .addColumn('domain_id', ref, (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('sub_domain_id', ref, (c) => c.references('sub_domains.id').onDelete('set null'))
    .addColumn('vendor_id', ref, (c) => c.references('vendors.id').onDelete('set null'))
    .addColumn('template_id', ref, (c) => c.references('project_templates.id').onDelete('set null'))
    .addColumn('purchase_order', 'varchar(255)')
    .addColumn('date_due', 'varchar(32)')
    .addColumn('note', 'text')
    .addColumn('file_handover', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('archived', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('last_job_inner_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('projects_internal_id_unique', ['organization_id', 'internal_id'])
    .execute();
  await db.schema.createIndex('projects_organization_idx').on('projects').columns(['organization_id', 'id']).execute();
  for (const column of [
    'owner_id',
    'created_by_id',
    'last_modified_by_id',
    'client_id',
    'business_unit_id',
    'cost_center_id',
    'domain_id',
    'sub_domain_id',
    'vendor_id',
    'template_id',
  ]) {
    await db.schema.createIndex(`projects_${column}_idx`).on('projects').column(column).execute();
  }

  await db.schema
    .createTable('project_target_languages')
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_target_languages_pk', ['project_id', 'target_lang'])
    .execute();
  await db.schema.createIndex('project_target_languages_lang_idx').on('project_target_languages').column('target_lang').execute();

  // Each global workflow step instantiates into a project-specific step with an id of its own
  // (description of getProject); jobs and assignments point at these rows.
  await withId(db, db.schema.createTable('project_workflow_steps'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('workflow_step_id', ref, (c) => c.notNull().references('workflow_steps.id'))
    .addColumn('workflow_level', 'integer', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('project_workflow_steps_level_unique', ['project_id', 'workflow_level'])
    .execute();
  await db.schema.createIndex('project_workflow_steps_step_idx').on('project_workflow_steps').column('workflow_step_id').execute();

  // ---- stored files (content-addressed blobs) and what points at them
  await db.schema
    .createTable('stored_files')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // One uploaded file of a project: the jobs made from it (one per target language and workflow
  // step) share its original, its import and its source segments.
  await withId(db, db.schema.createTable('job_sources'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('inner_id', 'integer', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('directory', 'varchar(1024)')
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('stored_files.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('import_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('import_status', 'varchar(16)', (c) => c.notNull().defaultTo('RUNNING'))
    .addColumn('import_error', 'text')
    .addColumn('format', 'varchar(32)')
    .addColumn('segment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addUniqueConstraint('job_sources_inner_id_unique', ['project_id', 'inner_id'])
    .execute();
  await db.schema.createIndex('job_sources_sha256_idx').on('job_sources').column('sha256').execute();
  await db.schema.createIndex('job_sources_created_by_idx').on('job_sources').column('created_by_id').execute();

  // The source segments of an uploaded file, in order. `unit_locator` names the file's unit
  // (filter locator) the segment came from; gap_before / gap_after hold the text between the
  // unit's segments, so that a unit's target is rebuilt exactly (joinSegments).
  await db.schema
    .createTable('source_segments')
    .addColumn('job_source_id', ref, (c) => c.notNull().references('job_sources.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('unit_locator', 'text', (c) => c.notNull())
    .addColumn('unit_index', 'integer', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('gap_before', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gap_after', 'text')
    .addColumn('imported_target', 'text')
    .addColumn('note', 'text')
    .addColumn('words', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('source_segments_pk', ['job_source_id', 'idx'])
    .execute();

  await withId(db, db.schema.createTable('jobs'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('job_source_id', ref, (c) => c.notNull().references('job_sources.id').onDelete('cascade'))
    .addColumn('project_workflow_step_id', ref, (c) => c.references('project_workflow_steps.id'))
    .addColumn('workflow_level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('target_lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('NEW'))
    .addColumn('date_due', 'varchar(32)')
    .addColumn('notify_provider', 'text')
    .addColumn('begin_index', 'integer')
    .addColumn('end_index', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('jobs_project_idx').on('jobs').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('jobs_organization_idx').on('jobs').columns(['organization_id', 'id']).execute();
  for (const column of ['job_source_id', 'project_workflow_step_id', 'created_by_id', 'last_modified_by_id']) {
    await db.schema.createIndex(`jobs_${column}_idx`).on('jobs').column(column).execute();
  }

  // Translations of a job's segments; a row exists once a segment has a target.
  await db.schema
    .createTable('job_segments')
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('confirmed', bool, (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('job_segments_pk', ['job_id', 'idx'])
    .execute();
  await db.schema.createIndex('job_segments_modified_by_idx').on('job_segments').column('modified_by_id').execute();

  // A job's providers: exactly one of user_id and vendor_id is set.
  await withId(db, db.schema.createTable('job_providers'))
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('user_id', ref, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('vendor_id', ref, (c) => c.references('vendors.id').onDelete('cascade'))
    .execute();
  for (const column of ['job_id', 'user_id', 'vendor_id']) {
    await db.schema.createIndex(`job_providers_${column}_idx`).on('job_providers').column(column).execute();
  }

  await withId(db, db.schema.createTable('job_status_changes'))
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('changed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('changed_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('job_status_changes_job_idx').on('job_status_changes').columns(['job_id', 'id']).execute();
  await db.schema.createIndex('job_status_changes_changed_by_idx').on('job_status_changes').column('changed_by_id').execute();

  // Target files made by `PUT …/targetFile`, downloadable once with the async request's id.
  await db.schema
    .createTable('job_target_files')
    .addColumn('async_request_id', ref, (c) => c.primaryKey().references('async_requests.id').onDelete('cascade'))
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.references('stored_files.sha256'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('downloaded_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('job_target_files_job_idx').on('job_target_files').column('job_id').execute();
  await db.schema.createIndex('job_target_files_sha256_idx').on('job_target_files').column('sha256').execute();

  // ---- reference files of projects and of templates (exactly one of the two is set)
  await withId(db, db.schema.createTable('reference_files'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('template_id', ref, (c) => c.references('project_templates.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('stored_files.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  for (const column of ['project_id', 'template_id', 'sha256', 'created_by_id']) {
    await db.schema.createIndex(`reference_files_${column}_idx`).on('reference_files').column(column).execute();
  }

  // ---- files of the Files API (/api2/v1/files)
  await withId(db, db.schema.createTable('uploaded_files'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('stored_files.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  for (const column of ['organization_id', 'sha256', 'created_by_id']) {
    await db.schema.createIndex(`uploaded_files_${column}_idx`).on('uploaded_files').column(column).execute();
  }

  // ---- custom field values on projects, templates and jobs (exactly one owner is set)
  await withId(db, db.schema.createTable('custom_field_values'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('custom_field_id', ref, (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('template_id', ref, (c) => c.references('project_templates.id').onDelete('cascade'))
    .addColumn('job_id', ref, (c) => c.references('jobs.id').onDelete('cascade'))
    .addColumn('value', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_modified_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // One value per field and record; NULL owners are distinct, so each index covers one owner kind.
  await db.schema
    .createIndex('custom_field_values_project_unique')
    .on('custom_field_values')
    .columns(['project_id', 'custom_field_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('custom_field_values_template_unique')
    .on('custom_field_values')
    .columns(['template_id', 'custom_field_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('custom_field_values_job_unique')
    .on('custom_field_values')
    .columns(['job_id', 'custom_field_id'])
    .unique()
    .execute();
  for (const column of ['custom_field_id', 'created_by_id', 'last_modified_by_id']) {
    await db.schema.createIndex(`custom_field_values_${column}_idx`).on('custom_field_values').column(column).execute();
  }
  await db.schema
    .createTable('custom_field_value_options')
    .addColumn('value_id', ref, (c) => c.notNull().references('custom_field_values.id').onDelete('cascade'))
    .addColumn('option_id', ref, (c) => c.notNull().references('custom_field_options.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('custom_field_value_options_pk', ['value_id', 'option_id'])
    .execute();
  await db.schema.createIndex('custom_field_value_options_option_idx').on('custom_field_value_options').column('option_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'custom_field_value_options',
    'custom_field_values',
    'uploaded_files',
    'reference_files',
    'job_target_files',
    'job_status_changes',
    'job_providers',
    'job_segments',
    'jobs',
    'source_segments',
    'job_sources',
    'stored_files',
    'project_workflow_steps',
    'project_target_languages',
    'projects',
    'template_assignments',
    'template_workflow_steps',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('project_templates_owner_id_idx').execute();
  await db.schema.dropIndex('project_templates_vendor_id_idx').execute();
  for (const column of [
    'last_modified_by_id',
    'last_modified_at',
    'settings',
    'file_handover',
    'vendor_id',
    'owner_id',
    'dynamic_title',
    'use_dynamic_title',
    'note',
    'target_langs',
    'source_lang',
    'project_name',
  ]) {
    await db.schema.alterTable('project_templates').dropColumn(column).execute();
  }
  await db.schema.alterTable('organizations').dropColumn('last_project_internal_id').execute();
}

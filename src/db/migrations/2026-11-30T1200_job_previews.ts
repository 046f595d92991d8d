import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 18, point 5: job preview packages (docs/previews.md).
// - `job_preview_packages`: one row per ZIP uploaded with uploadJobPreviewPackage to a project
//   (its name, size and number of entries); removed with the project.
// - `job_preview_assets`: one row per file entry of a package, each entry stored as a blob of its
//   own (`stored_files`), named by a random `uid` (getAsset's assetFileUid) and its `path` inside
//   the package (checked when the package was read: no `..`, no absolute path); `content_type`
//   by the path's extension. Files are served by uid only, never by a path a client sends.
// - `job_preview_package_jobs`: the jobs a package was uploaded for (the `json` part's `jobs`);
//   a package without any serves every job of its project.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);

  await withId(db, db.schema.createTable('job_preview_packages'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', ref, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('job_preview_packages_project_idx').on('job_preview_packages').column('project_id').execute();
  await db.schema.createIndex('job_preview_packages_created_by_id_idx').on('job_preview_packages').column('created_by_id').execute();

  await withId(db, db.schema.createTable('job_preview_assets'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('package_id', ref, (c) => c.notNull().references('job_preview_packages.id').onDelete('cascade'))
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('stored_files.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_preview_assets_package_idx').on('job_preview_assets').column('package_id').execute();
  await db.schema.createIndex('job_preview_assets_sha256_idx').on('job_preview_assets').column('sha256').execute();

  await db.schema
    .createTable('job_preview_package_jobs')
    .addColumn('package_id', ref, (c) => c.notNull().references('job_preview_packages.id').onDelete('cascade'))
    .addColumn('job_id', ref, (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('job_preview_package_jobs_pk', ['package_id', 'job_id'])
    .execute();
  await db.schema.createIndex('job_preview_package_jobs_job_idx').on('job_preview_package_jobs').column('job_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_preview_package_jobs').execute();
  await db.schema.dropTable('job_preview_assets').execute();
  await db.schema.dropTable('job_preview_packages').execute();
}

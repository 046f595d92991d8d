import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { assertSegmentationRuleIds } from '../../organization-setup/segmentation-rules/index.js';
import type { JobRow } from '../kernel/index.js';
import { importSettingsView } from '../kernel/index.js';
import { jobSourceImportSettings, writeJobSourceImportSettings } from './job-content.repository.js';

/**
 * The import settings of a job's file (`job_sources.import_settings`, shared by all jobs of the
 * file), as FileImportSettingsDto: the stored document over the defaults, like the project's,
 * with the segmentation rules it names as `segRule` / `targetSegRule`.
 * Editing replaces the document (fields left out take their defaults, as for projects) and does
 * NOT re-import the file: the segments stay as they were imported (updateSource imports the new
 * file with them, segmentation rule included).
 */
export async function jobImportSettings(db: Kysely<DB>, job: JobRow): Promise<Record<string, unknown>> {
  return importSettingsView(db, job.organizationId, parseDocument(await jobSourceImportSettings(db, job)));
}

export async function replaceJobImportSettings(
  db: Kysely<DB>,
  job: JobRow,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  // Segmentation rules named must be rules of the organization (400 ReferenceNotFound).
  await assertSegmentationRuleIds(db, job.organizationId, body);
  await writeJobSourceImportSettings(db, job, body);
  return importSettingsView(db, job.organizationId, body);
}

function parseDocument(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

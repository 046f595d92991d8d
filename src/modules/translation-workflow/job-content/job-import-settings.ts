import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import type { JobRow } from '../kernel/index.js';
import { importSettingsOf } from '../kernel/index.js';
import { jobSourceImportSettings, writeJobSourceImportSettings } from './job-content.repository.js';

/**
 * The import settings of a job's file (`job_sources.import_settings`, shared by all jobs of the
 * file), as FileImportSettingsDto: the stored document over the defaults, like the project's.
 * Editing replaces the document (fields left out take their defaults, as for projects) and does
 * NOT re-import the file: the segments stay as they were imported.
 */
export async function jobImportSettings(db: Kysely<DB>, job: JobRow): Promise<Record<string, unknown>> {
  return importSettingsOf({ importSettings: parseDocument(await jobSourceImportSettings(db, job)) });
}

export async function replaceJobImportSettings(
  db: Kysely<DB>,
  job: JobRow,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  for (const field of ['segmentationRuleId', 'targetSegmentationRuleId']) {
    // Segmentation rules are records of a later issue; none exists yet.
    if (body[field] !== undefined && body[field] !== null)
      throw errors.ReferenceNotFound({ what: 'segmentation rule', key: String(body[field]), keyName: 'id', field });
  }
  const { segmentationRuleId: _s, targetSegmentationRuleId: _t, ...document } = body;
  await writeJobSourceImportSettings(db, job, document);
  return importSettingsOf({ importSettings: document });
}

function parseDocument(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

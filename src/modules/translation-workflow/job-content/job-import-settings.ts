import type { AppDeps } from '../../../deps.js';
import type { Caller } from '../../../http/access.js';
import { ApiError } from '../../../errors/index.js';
import { requireJob } from '../kernel/index.js';
import { importSettingsOf } from '../kernel/index.js';

/**
 * The import settings of a job's file (`job_sources.import_settings`, shared by all jobs of the
 * file), as FileImportSettingsDto: the stored document over the defaults, like the project's.
 * Editing replaces the document (fields left out take their defaults, as for projects) and does
 * NOT re-import the file: the segments stay as they were imported.
 */
export async function jobImportSettings(
  deps: AppDeps,
  caller: Caller,
  projectUid: string,
  jobUid: string,
): Promise<Record<string, unknown>> {
  const { job } = await requireJob(deps.database.db, caller, projectUid, jobUid, 'view');
  const source = await deps.database.db
    .selectFrom('jobSources')
    .select('importSettings')
    .where('id', '=', job.jobSourceId)
    .executeTakeFirstOrThrow();
  return importSettingsOf({ importSettings: parseDocument(source.importSettings) });
}

export async function replaceJobImportSettings(
  deps: AppDeps,
  caller: Caller,
  projectUid: string,
  jobUid: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { job } = await requireJob(deps.database.db, caller, projectUid, jobUid, 'edit');
  for (const field of ['segmentationRuleId', 'targetSegmentationRuleId']) {
    // Segmentation rules are records of a later issue; none exists yet.
    if (body[field] !== undefined && body[field] !== null)
      throw new ApiError('invalid', 'ReferenceNotFound', `No segmentation rule with id ${String(body[field])} exists.`, {
        details: [{ field, message: 'not found' }],
      });
  }
  const { segmentationRuleId: _s, targetSegmentationRuleId: _t, ...document } = body;
  await deps.database.db
    .updateTable('jobSources')
    .set({ importSettings: JSON.stringify(document) })
    .where('id', '=', job.jobSourceId)
    .execute();
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

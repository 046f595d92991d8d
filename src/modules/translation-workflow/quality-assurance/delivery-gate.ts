import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import type { ApiError } from '../../../errors/index.js';
import type { JobRow, JobStatusGuard } from '../kernel/index.js';
import { jobRange } from '../job-structure/index.js';
import { qaSettingsOf, unresolvedWarnings } from './qa-runs.service.js';

/**
 * The delivery gate (docs/qa-runs-and-warnings.md, "Delivery gate"): when the project's QA
 * settings have `strictJobStatus` on, a job moves to COMPLETED or DELIVERED only when a fresh QA
 * run of it (every check of the settings, in the thread pool, not stored) finds no warning that
 * is not ignored. Registered as the kernel's job status guard by the composition root.
 */

const GATED = new Set(['COMPLETED', 'DELIVERED']);

export const qaDeliveryGate: JobStatusGuard = async (
  deps: AppDeps,
  db: Kysely<DB>,
  job: JobRow,
  status: string,
): Promise<ApiError | null> => {
  if (!GATED.has(status)) return null;
  const project = await db.selectFrom('projects').selectAll().where('id', '=', job.projectId).executeTakeFirst();
  if (!project) return null;
  const settings = await qaSettingsOf(db, project);
  if (!settings.checks.strictJobStatus.enabled) return null;
  const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirst();
  // A job without segments (its import failed or runs) has nothing to check.
  if (!source || source.importStatus !== 'OK') return null;
  const range = jobRange(job, source);
  if (range.last < range.first) return null;
  const unresolved = await unresolvedWarnings(deps, db, { project, job, source }, settings);
  if (unresolved.length === 0) return null;
  return errors.QaWarningsUnresolved({ jobUid: job.uid, status, count: unresolved.length, warnings: unresolved.slice(0, 50) });
};

import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import type { ApiError } from '../../../errors/index.js';
import type { JobRow } from './access/job-access.js';

/**
 * The guard every move of a job's status asks before it is made (docs/qa-runs-and-warnings.md,
 * "Delivery gate"): the modules that change statuses (jobs: setStatus, edit, patch, batch edit;
 * job-operations: bulk edit v3; pre-translation: completing a fully confirmed job; bilingual files
 * through setStatus) call `jobStatusRefusal`, and the composition root registers what answers it
 * (quality assurance's delivery gate) with `setJobStatusGuard`. The kernel knows no module above
 * it, so no import cycle: a module that must refuse a status move plugs in here.
 *
 * `db` is the connection or transaction the caller is working in (reads go through it).
 */
export type JobStatusGuard = (deps: AppDeps, db: Kysely<DB>, job: JobRow, status: string) => Promise<ApiError | null>;

let guard: JobStatusGuard | null = null;

/** Registers the guard (the composition root does, once per process; a second call replaces it). */
export function setJobStatusGuard(next: JobStatusGuard | null): void {
  guard = next;
}

/** Why `job` may not move to `status`, or null when it may (or no guard is registered). */
export async function jobStatusRefusal(deps: AppDeps, db: Kysely<DB>, job: JobRow, status: string): Promise<ApiError | null> {
  if (!guard || job.status === status) return null;
  return guard(deps, db, job, status);
}

/**
 * Job statuses and who may move a job from one to another (issue 6; documented in
 * docs/translation-workflow.md). The statuses are the spec's (`JobStatusChangeActionDto`):
 *
 * | Status | Meaning |
 * |---|---|
 * | NEW | created; waiting for its provider |
 * | EMAILED | the job was sent to its provider by e-mail; like NEW for the provider |
 * | ACCEPTED | the provider took the job |
 * | DECLINED | the provider said no before starting |
 * | REJECTED | the provider gave the job back (needs the linguist's `mayRejectJobs` right) |
 * | DELIVERED | the provider finished ("completed by linguist") |
 * | COMPLETED | the project manager accepted the work |
 * | CANCELLED | the project manager stopped the job |
 *
 * Managers (ADMIN, and project managers who may edit the project) may set any status: they fix
 * mistakes, reopen work and override providers. Providers (the linguist assigned to the job's
 * step) move only along their part of the life cycle, listed in PROVIDER_MOVES. Nobody else
 * changes a job's status.
 */
export const JOB_STATUSES = ['NEW', 'ACCEPTED', 'DECLINED', 'REJECTED', 'DELIVERED', 'EMAILED', 'COMPLETED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type JobActor = 'MANAGER' | 'PROVIDER' | 'OTHER';

/** Moves a provider may make, from -> allowed targets. */
export const PROVIDER_MOVES: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  NEW: ['ACCEPTED', 'DECLINED'],
  EMAILED: ['ACCEPTED', 'DECLINED'],
  ACCEPTED: ['DELIVERED', 'REJECTED'],
  DECLINED: [],
  REJECTED: [],
  // A provider may take back a delivery the manager has not accepted yet.
  DELIVERED: ['ACCEPTED'],
  COMPLETED: [],
  CANCELLED: [],
};

export type StatusMoveRefusal = 'NOT_ALLOWED' | 'REJECT_RIGHT_MISSING' | 'UNCHANGED';

/**
 * Whether `actor` may move a job from `from` to `to`; null when allowed, otherwise why not.
 * Setting the status a job already has is refused as UNCHANGED for providers and allowed (a
 * no-op that is still recorded) for managers.
 */
export function statusMoveRefusal(
  actor: JobActor,
  from: JobStatus,
  to: JobStatus,
  options: { mayRejectJobs?: boolean } = {},
): StatusMoveRefusal | null {
  if (actor === 'MANAGER') return null;
  if (actor === 'OTHER') return 'NOT_ALLOWED';
  if (from === to) return 'UNCHANGED';
  if (!PROVIDER_MOVES[from].includes(to)) return 'NOT_ALLOWED';
  if (to === 'REJECTED' && !options.mayRejectJobs) return 'REJECT_RIGHT_MISSING';
  return null;
}

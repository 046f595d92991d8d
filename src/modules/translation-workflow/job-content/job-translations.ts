import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { pseudoTranslate } from '../../../domain/pseudo-translation/pseudo-translate.js';
import type { PseudoTranslateSettings } from '../../../domain/pseudo-translation/pseudo-translate.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { requireProjectPermission } from '../kernel/index.js';
import { jobSourceUid, projectJobsAtLevel } from './job-content.repository.js';
import { changeTargets, contentJobs, fillUntranslated, jobSourceSegments, removeTranslations, tagTokensOf } from './job-content.service.js';
import type { DeleteTranslationFilter, JobPartReadyDeleteTranslation, PseudoTranslateInput } from './job-content.schemas.js';

/**
 * Copy source to target, delete translations and pseudo-translation (docs/job-content-and-handovers.md).
 * Each runs over all its jobs in one transaction; bad input changes nothing. The jobs come checked
 * (contentJobs, or the route's own job): the caller may change them and their files are imported.
 */

/** Copies each segment's source (tags included) into its target where the job has no translation. */
export async function copySourceToTarget(deps: AppDeps, caller: Caller, jobs: readonly JobRow[]): Promise<void> {
  await changeTargets(deps, caller, jobs, async (trx, job, now) => {
    const segments = await jobSourceSegments(trx, job);
    return fillUntranslated(trx, job, new Map(segments.map((s) => [s.idx, s.source])), caller.userId, now);
  });
}

/** Pseudo-translates each segment without a translation (src/domain/pseudo-translation/). */
export async function pseudoTranslateJobs(
  deps: AppDeps,
  caller: Caller,
  jobs: readonly JobRow[],
  input: PseudoTranslateInput,
): Promise<void> {
  const settings = pseudoSettings(input);
  await changeTargets(deps, caller, jobs, async (trx, job, now) => {
    const sourceUid = await jobSourceUid(trx, job);
    const segments = await jobSourceSegments(trx, job);
    const targets = segments.map(
      (s) =>
        [
          s.idx,
          pseudoTranslate({ text: s.source, tagTokens: tagTokensOf(s.tags), key: s.key ?? `${sourceUid}:${s.idx}` }, settings),
        ] as const,
    );
    return fillUntranslated(trx, job, new Map(targets), caller.userId, now);
  });
}

function pseudoSettings(input: PseudoTranslateInput): PseudoTranslateSettings {
  const settings: PseudoTranslateSettings = {};
  if (input.prefix != null) settings.prefix = input.prefix;
  if (input.suffix != null) settings.suffix = input.suffix;
  if (input.replacement != null) settings.replacement = input.replacement;
  if (input.substitution != null) settings.substitution = input.substitution;
  if (input.length != null) settings.length = input.length;
  if (input.keyHashPrefixLen != null) settings.keyHashPrefixLen = input.keyHashPrefixLen;
  return settings;
}

/** v1: removes every translation of the listed jobs. */
export async function deleteAllTranslations(deps: AppDeps, caller: Caller, jobs: readonly JobRow[]): Promise<void> {
  await changeTargets(deps, caller, jobs, (trx, job) => removeTranslations(trx, job, { confirmed: null }));
}

/**
 * v2: the listed jobs, or with `forAllJobs` every job of the project at `workflowLevel` (default 1)
 * that `filter` keeps; `deleteSettings` chooses confirmed / unconfirmed translations. Nothing is
 * locked in OpenTMS, so `locked: true` (only locked segments) removes nothing.
 */
export async function deleteSpecificTranslations(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  body: JobPartReadyDeleteTranslation,
): Promise<void> {
  const db = deps.database.db;
  const jobs = body.forAllJobs ? await filteredProjectJobs(deps, caller, project, body) : await listedJobs(db, caller, project, body);
  if (body.deleteSettings?.locked === true) return;
  const confirmed = body.deleteSettings?.confirmed ?? null;
  await changeTargets(deps, caller, jobs, (trx, job) => removeTranslations(trx, job, { confirmed }));
}

async function listedJobs(db: Kysely<DB>, caller: Caller, project: ProjectAccess, body: JobPartReadyDeleteTranslation): Promise<JobRow[]> {
  if (!body.jobs?.length)
    throw errors.InvalidArguments({
      reason: 'Name the jobs, or set forAllJobs with a workflowLevel.',
      details: [{ field: 'jobs', message: 'is required unless forAllJobs is true' }],
    });
  for (const field of ['workflowLevel', 'filter'] as const) {
    if (body[field] != null)
      throw errors.InvalidArguments({
        reason: `${field} applies to forAllJobs only; the listed jobs are taken as they are.`,
        details: [{ field, message: 'only with forAllJobs' }],
      });
  }
  return contentJobs(
    db,
    caller,
    project,
    body.jobs.map((j) => j.uid),
    'translate',
  );
}

async function filteredProjectJobs(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  body: JobPartReadyDeleteTranslation,
): Promise<JobRow[]> {
  if (body.jobs?.length)
    throw errors.InvalidArguments({
      reason: 'Give either jobs or forAllJobs, not both.',
      details: [{ field: 'jobs', message: 'not allowed with forAllJobs' }],
    });
  const db = deps.database.db;
  // Every job of the project: edit rights on it (the route itself needs only to work on its jobs).
  const { project } = requireProjectPermission(access, 'edit');
  const jobs = await projectJobsAtLevel(db, project.id, body.workflowLevel ?? 1);
  const keep = await jobFilter(db, project.ownerId ?? '', body.filter ?? null, deps.clock());
  const kept: JobRow[] = [];
  for (const { filename, importStatus, ...job } of jobs) {
    if (importStatus === 'OK' && (await keep(job, filename))) kept.push(job);
  }
  return kept;
}

const normLang = (lang: string) => lang.toLowerCase().replace(/-/g, '_');

/** The filter of JobPartReadyDeleteTranslationFilterDto as a predicate over a job and its file name. */
async function jobFilter(
  db: Kysely<DB>,
  projectOwnerId: string,
  filter: DeleteTranslationFilter | null,
  now: Date,
): Promise<(job: JobRow, filename: string) => Promise<boolean>> {
  if (!filter) return async () => true;
  const ownerMatches = filter.owner
    ? (await db.selectFrom('users').select('id').where('uid', '=', filter.owner.uid).executeTakeFirst())?.id === projectOwnerId &&
      projectOwnerId !== ''
    : true;
  const statuses = filter.statuses?.map((s) => s.toUpperCase()) ?? null;
  const dueBy = filter.dateDue ? new Date(filter.dateDue).getTime() : null;
  const dueWithin = filter.dueInHours != null ? now.getTime() + filter.dueInHours * 3_600_000 : null;
  const providerJobIds = filter.provider ? await jobsOfProvider(db, filter.provider) : null;
  return async (job, filename) => {
    const due = job.dateDue === null ? null : new Date(job.dateDue).getTime();
    if (!ownerMatches) return false;
    if (statuses && !statuses.includes(job.status)) return false;
    if (filter.targetLang && normLang(filter.targetLang) !== normLang(job.targetLang)) return false;
    if (filter.filename && !filename.toLowerCase().includes(filter.filename.toLowerCase())) return false;
    if (dueBy !== null && (due === null || due > dueBy)) return false;
    if (dueWithin !== null && (due === null || due > dueWithin)) return false;
    if (filter.overdue != null && (due !== null && due < now.getTime()) !== filter.overdue) return false;
    if (providerJobIds && !providerJobIds.has(job.id)) return false;
    return true;
  };
}

/** Ids of the jobs a provider (user or vendor, by id or uid) is assigned to. */
async function jobsOfProvider(db: Kysely<DB>, provider: NonNullable<DeleteTranslationFilter['provider']>): Promise<Set<string>> {
  const key = provider.uid ?? (provider.id == null ? null : String(provider.id));
  if (key === null)
    throw errors.InvalidArguments({
      reason: 'filter.provider needs an id or a uid.',
      details: [{ field: 'filter.provider', message: 'id or uid is required' }],
    });
  const byId = /^[0-9]{1,18}$/.test(key);
  const rows =
    provider.type === 'USER'
      ? await db
          .selectFrom('jobProviders')
          .innerJoin('users', 'users.id', 'jobProviders.userId')
          .select('jobProviders.jobId')
          .where(byId && provider.uid == null ? 'users.id' : 'users.uid', '=', key)
          .execute()
      : await db
          .selectFrom('jobProviders')
          .innerJoin('vendors', 'vendors.id', 'jobProviders.vendorId')
          .select('jobProviders.jobId')
          .where(byId && provider.uid == null ? 'vendors.id' : 'vendors.uid', '=', key)
          .execute();
  return new Set(rows.map((r) => r.jobId));
}

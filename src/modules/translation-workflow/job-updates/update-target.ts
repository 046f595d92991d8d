import type { Kysely } from 'kysely';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { FORMAT_FILTERS, FormatError } from '../../../formats/index.js';
import type { FormatFilter } from '../../../formats/index.js';
import { filterOptionsFromImportSettings } from '../../../formats/import-settings.js';
import type { Caller } from '../../../http/access.js';
import { asyncFailure, errors } from '../../../errors/index.js';
import { enqueue } from '../../../queue/queue.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { recordStoredFile, releaseStoredFiles } from '../../../storage/stored-files.js';
import { completeAsyncRequest, createAsyncRequest } from '../../integration/async-requests/index.js';
import { assertImported } from '../job-content/index.js';
import { requireJobOf } from '../kernel/index.js';
import type { JobRow, ProjectAccess } from '../kernel/index.js';
import { jobEventRecords } from '../kernel/index.js';
import type { JobSourceRow } from '../kernel/index.js';
import { segmentUnit } from '../jobs/index.js';
import { writeConfirmedToTransMemories } from '../job-trans-memories/index.js';
import type { ProjectRow } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { JobPartUpdateSource, JobUpdateTargetRequest } from './job-updates.schemas.js';
import { isTrue } from './job-updates.schemas.js';
import { refuseZip, updateSourceDtos } from './update-source.js';
import { assertOptionalOutboundUrl } from '../../../outbound/url-policy.js';
import type { OutboundPolicy } from '../../../outbound/url-policy.js';
import { alignTranslatedUnits, extensionOf, targetWrites, UPDATE_TARGET_REFUSED_EXTENSIONS } from './update-rules.js';
import type { CurrentTranslation, TranslatedUnit } from './update-rules.js';

/**
 * updateTarget (docs/job-updates.md): a translated copy of the job's file, read with the job's own
 * filter and import settings, cut into segments with the job's TARGET language and aligned to the
 * job's segments unit by unit; changed segments are written into the job's translations.
 * 202 at once with an UPDATE_TARGET async request; the `job.updateTarget` task does the work.
 */

export const UPDATE_TARGET_TASK = 'job.updateTarget';

export interface UpdateTargetPayload {
  asyncRequestId: string;
  jobId: string;
  userId: string;
  sha256: string;
  unconfirmChangedSegments: boolean;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'job.updateTarget': UpdateTargetPayload;
  }
}

export interface PlannedTargetUpdate {
  project: ProjectRow;
  job: JobRow;
  callbackUrl: string | null;
  unconfirmChangedSegments: boolean;
}

/** Checks the request, the job and the uploaded file's name (the description's restrictions); stores nothing. */
export async function planTargetUpdate(
  db: Kysely<DB>,
  caller: Caller,
  project: ProjectAccess,
  request: JobUpdateTargetRequest,
  filename: string,
  policy: OutboundPolicy,
): Promise<PlannedTargetUpdate> {
  if (request.targetSegmentationRule != null) {
    throw errors.NotSupportedYet({ option: 'targetSegmentationRule' });
  }
  const callbackUrl = assertOptionalOutboundUrl(request.callbackUrl, policy, 'callbackUrl');
  const { job } = await requireJobOf(db, caller, project, request.jobs[0]!.uid, 'edit');
  if (job.beginIndex !== null || job.endIndex !== null) throw errors.JobIsSplit({ file: 'translated', jobUids: [job.uid] });
  await assertImported(db, job);
  const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  assertTargetFileFits(source, filename);
  return { project: project.project, job, callbackUrl, unconfirmChangedSegments: isTrue(request.unconfirmChangedSegments) };
}

/** The uploaded file must have the original's extension, not be a zip, and not be of a bilingual format. */
function assertTargetFileFits(source: JobSourceRow, filename: string): void {
  refuseZip(filename);
  const original = extensionOf(source.filename);
  if (UPDATE_TARGET_REFUSED_EXTENSIONS.has(original) || source.format === 'xliff12') {
    throw errors.UpdateTargetNotAllowed({ extension: original || (source.format ?? '') });
  }
  if (extensionOf(filename) !== original) {
    throw errors.FileExtensionMismatch({ expected: original, got: extensionOf(filename) });
  }
}

export interface StartedTargetUpdate {
  asyncRequest: { id: string; dateCreated: string; action: string };
  jobs: JobPartUpdateSource[];
}

export async function startTargetUpdate(
  deps: AppDeps,
  caller: Caller,
  plan: PlannedTargetUpdate,
  blob: StoredBlob,
): Promise<StartedTargetUpdate> {
  const asyncRequest = await deps.database.db.transaction().execute(async (trx) => {
    await recordStoredFile(deps, trx, blob);
    const request = await createAsyncRequest(deps, trx, {
      organizationId: plan.project.organizationId,
      createdById: caller.userId,
      action: 'UPDATE_TARGET',
      project: { uid: plan.project.uid, name: plan.project.name },
      callbackUrl: plan.callbackUrl,
    });
    const payload: UpdateTargetPayload = {
      asyncRequestId: request.id,
      jobId: plan.job.id,
      userId: caller.userId,
      sha256: blob.sha256,
      unconfirmChangedSegments: plan.unconfirmChangedSegments,
    };
    await enqueue(
      trx,
      { kind: UPDATE_TARGET_TASK, payload, organizationId: plan.project.organizationId, asyncRequestId: request.id },
      deps.clock(),
    );
    return { id: request.id, dateCreated: request.createdAt, action: request.action };
  });
  deps.taskWakeup.notify();
  return { asyncRequest, jobs: await updateSourceDtos(deps.database.db, [plan.job], null) };
}

// ---- the task

/** The translated file's units, cut into segments with the target language. */
async function translatedUnits(
  deps: AppDeps,
  filter: FormatFilter,
  sha256: string,
  importSettings: string,
  targetLang: string,
): Promise<Map<string, TranslatedUnit>> {
  const units = new Map<string, TranslatedUnit>();
  const stream = await deps.blobs.open(sha256);
  try {
    for await (const unit of filter.parse(stream, filterOptionsFromImportSettings(filter.name, importSettings))) {
      if (!unit.translatable) continue;
      // The uploaded file's text is the translation: cut it as a source in the target language.
      const segments = segmentUnit({ ...unit, target: null }, targetLang).map((s) => s.source);
      units.set(unit.locator, { locator: unit.locator, segments, text: unit.source.trim() });
    }
  } finally {
    stream.destroy();
  }
  return units;
}

async function userReference(db: Kysely<DB>, userId: string) {
  return (
    (await db.selectFrom('users').select(['uid', 'userName', 'firstName', 'lastName']).where('id', '=', userId).executeTakeFirst()) ?? null
  );
}

/** Reads the file, aligns it and writes the changed translations with JOB_TARGET_UPDATED; returns how many segments changed. */
async function applyTargetFile(deps: AppDeps, payload: UpdateTargetPayload, job: JobRow): Promise<number> {
  const db = deps.database.db;
  const source = await db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
  const filter = FORMAT_FILTERS.find((f) => f.name === source.format);
  if (!filter) throw new FormatError(`The job's file (${source.filename}) was not imported, so its format is unknown.`);
  const units = await translatedUnits(deps, filter, payload.sha256, source.importSettings, job.targetLang);
  const segments = await db
    .selectFrom('sourceSegments')
    .select(['idx', 'unitLocator', 'source'])
    .where('jobSourceId', '=', source.id)
    .orderBy('idx')
    .execute();
  const aligned = alignTranslatedUnits(
    segments.map((s) => ({ idx: Number(s.idx), unitLocator: s.unitLocator, source: s.source })),
    units,
  );
  const now = deps.clock().toISOString();
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('jobSegments').select(['idx', 'target', 'confirmed']).where('jobId', '=', job.id).execute();
    const current = new Map<number, CurrentTranslation>(
      rows.map((r) => [Number(r.idx), { target: r.target, confirmed: bool(r.confirmed) }]),
    );
    const writes = targetWrites(
      aligned,
      new Map(segments.map((s) => [Number(s.idx), s.source])),
      current,
      payload.unconfirmChangedSegments,
    );
    if (writes.length === 0) return 0;
    const idxs = writes.map((w) => w.idx);
    for (let i = 0; i < idxs.length; i += 500)
      await trx
        .deleteFrom('jobSegments')
        .where('jobId', '=', job.id)
        .where('idx', 'in', idxs.slice(i, i + 500))
        .execute();
    for (let i = 0; i < writes.length; i += 500) {
      await trx
        .insertInto('jobSegments')
        .values(
          writes.slice(i, i + 500).map((w) => ({
            jobId: job.id,
            idx: w.idx,
            target: w.target,
            confirmed: w.confirmed,
            modifiedAt: now,
            modifiedById: payload.userId,
          })),
        )
        .execute();
    }
    // Write-back: the confirmed translations go into the project's write TMs, in this transaction.
    const confirmed = writes.filter((w) => w.confirmed);
    await writeConfirmedToTransMemories(trx, job, confirmed, payload.userId, now);
    await trx.updateTable('jobs').set({ lastModifiedAt: now, lastModifiedById: payload.userId }).where('id', '=', job.id).execute();
    const updated = await trx.selectFrom('jobs').selectAll().where('id', '=', job.id).execute();
    await emitEvent(deps, trx, {
      organizationId: job.organizationId,
      event: 'JOB_TARGET_UPDATED',
      records: await jobEventRecords(trx, updated),
      user: await userReference(trx, payload.userId),
    });
    return writes.length;
  });
}

export async function runTargetUpdate(deps: AppDeps, payload: UpdateTargetPayload): Promise<void> {
  const db = deps.database.db;
  const job = await db.selectFrom('jobs').selectAll().where('id', '=', payload.jobId).executeTakeFirst();
  if (!job) {
    await completeAsyncRequest(deps, db, payload.asyncRequestId, asyncFailure('JobDeleted', {}));
  } else {
    try {
      await applyTargetFile(deps, payload, job);
      await completeAsyncRequest(deps, db, payload.asyncRequestId);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      await completeAsyncRequest(deps, db, payload.asyncRequestId, asyncFailure('UpdateTargetFailed', { reason: error.message }));
    }
  }
  // The uploaded file was only needed for this: it goes unless something else holds the same bytes.
  await releaseStoredFiles(deps, [payload.sha256]);
}

export const updateTargetTask: AppTaskHandler<typeof UPDATE_TARGET_TASK> = {
  kind: UPDATE_TARGET_TASK,
  maxAttempts: 3,
  run(context, payload) {
    return runTargetUpdate(context.deps, payload);
  },
  async onFinalFailure(context, payload) {
    await releaseStoredFiles(context.deps, [payload.sha256]);
  },
};

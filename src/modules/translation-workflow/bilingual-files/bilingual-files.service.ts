import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import { FormatError } from '../../../formats/index.js';
import { mxliffStream, readMxliff, xliff2Stream } from '../../../formats/mxliff.js';
import type { BilingualFlavour, BilingualJob, ReadBilingualJob } from '../../../formats/mxliff.js';
import { writeTmx } from '../../../formats/tmx.js';
import { bilingualDocxStream, readBilingualDocxPackage } from '../../../formats/bilingual-docx.js';
import { looksLikeZip, withZipPackage } from '../../../formats/zip-package.js';
import type { TmxUnit } from '../../../formats/tmx.js';
import type { Caller } from '../../../http/access.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import { writeConfirmedToTransMemories } from '../job-trans-memories/index.js';
import { eventUser, findVisibleJob, findVisibleProject, jobEventRecords, jobReferenceDtos, requireJobOf } from '../kernel/index.js';
import type { JobAccess, JobRow, JobSourceRow, ProjectAccess } from '../kernel/index.js';
import { setJobStatus } from '../jobs/index.js';
import { bilingualSegmentPages, heldSegments, jobRange } from './bilingual-segments.repository.js';
import { planUpload } from './upload-plan.js';
import type { RefusedSegment, SegmentWrite } from './upload-plan.js';

/**
 * Bilingual files (docs/bilingual-files.md): a project's jobs downloaded as MXLIFF, uploaded back
 * segment by segment, compared with the jobs, converted and previewed.
 */

export type SaveToTransMemory = 'All' | 'Confirmed' | 'None';

async function jobSource(db: Kysely<DB>, job: JobRow): Promise<JobSourceRow> {
  return db.selectFrom('jobSources').selectAll().where('id', '=', job.jobSourceId).executeTakeFirstOrThrow();
}

function assertImportedSource(job: JobRow, source: JobSourceRow): void {
  if (source.importStatus === 'ERROR') throw errors.JobImportFailed({ jobUid: job.uid });
  if (source.importStatus !== 'OK') throw errors.JobImportNotFinished({ jobUid: job.uid });
}

/** The jobs of `jobUids` in `project` that the caller may see (404 for one they cannot), imported. */
export async function jobsForDownload(
  deps: AppDeps,
  caller: Caller,
  project: ProjectAccess,
  jobUids: readonly string[],
): Promise<{ job: JobRow; source: JobSourceRow }[]> {
  const db = deps.database.db;
  const result: { job: JobRow; source: JobSourceRow }[] = [];
  for (const uid of new Set(jobUids)) {
    const { job } = await requireJobOf(db, caller, project, uid, 'view');
    const source = await jobSource(db, job);
    assertImportedSource(job, source);
    result.push({ job, source });
  }
  return result;
}

type DownloadJob = { job: JobRow; source: JobSourceRow };

function headerOf(project: ProjectAccess, { job, source }: DownloadJob): BilingualJob {
  return {
    jobUid: job.uid,
    filename: source.filename,
    sourceLang: project.project.sourceLang,
    targetLang: job.targetLang,
    workflowLevel: Number(job.workflowLevel),
  };
}

/** The bilingual DOCX of the jobs, streamed. */
export function docxOfJobs(deps: AppDeps, project: ProjectAccess, jobs: readonly DownloadJob[]): Readable {
  const db = deps.database.db;
  async function* entries() {
    for (const entry of jobs) yield { job: headerOf(project, entry), segments: bilingualSegmentPages(db, entry.job, entry.source) };
  }
  return bilingualDocxStream(entries());
}

/** The MXLIFF (or plain XLIFF 1.2) of the jobs, streamed. */
export function mxliffOfJobs(deps: AppDeps, project: ProjectAccess, jobs: readonly DownloadJob[], flavour: BilingualFlavour): Readable {
  const db = deps.database.db;
  async function* entries() {
    for (const entry of jobs) yield { job: headerOf(project, entry), segments: bilingualSegmentPages(db, entry.job, entry.source) };
  }
  return mxliffStream(entries(), flavour);
}

/** The translated segments of the jobs as TMX 1.4 (one `<tu>` per segment with a target, tuid `<job uid>:<index>`), streamed. */
export function tmxOfJobs(deps: AppDeps, project: ProjectAccess, jobs: readonly DownloadJob[]): Readable {
  const db = deps.database.db;
  const output = new PassThrough();
  async function* units(): AsyncGenerator<TmxUnit[]> {
    for (const { job, source } of jobs) {
      for await (const page of bilingualSegmentPages(db, job, source)) {
        yield page
          .filter((segment) => segment.target !== '')
          .map((segment) => ({
            tuid: `${job.uid}:${segment.index}`,
            sourceLang: project.project.sourceLang,
            variants: [
              { lang: project.project.sourceLang, text: segment.source, tags: [...segment.tags] },
              { lang: job.targetLang, text: segment.target, tags: [...segment.tags] },
            ],
          }));
      }
    }
  }
  writeTmx(units(), output, {
    srcLang: project.project.sourceLang,
    creationTool: 'OpenTMS',
    segType: 'sentence',
    dataType: 'plaintext',
  }).catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/** The name of a bilingual download: the file's name with the format's extension, or the project's for several jobs. */
export function bilingualFilename(project: ProjectAccess, jobs: readonly DownloadJob[], extension: string): string {
  if (jobs.length === 1) {
    const { job, source } = jobs[0]!;
    return `${source.filename}-${job.targetLang}.${extension}`;
  }
  return `${project.project.name}.${extension}`;
}

/** Most bilingual files one request may carry, ZIP entries counted (the description's limit). */
export const MAX_BILINGUAL_FILES = 50;

/** The first chunk of a byte stream, and the whole stream again. */
async function peeked(input: AsyncIterable<unknown>): Promise<{ head: Buffer; bytes: AsyncIterable<unknown> }> {
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Uint8Array);
  async function* again() {
    if (!first.done) yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, bytes: again() };
}

const BILINGUAL_ENTRY = /\.(mxliff|mxlf|xlf|xliff|docx)$/i;

/**
 * Reads an uploaded bilingual file: MXLIFF, a bilingual DOCX, or a ZIP of those (expanded one
 * level; at most MAX_BILINGUAL_FILES files in all, counted in `budget`). A FormatError becomes the
 * API's 400.
 */
export async function readBilingualFile(
  deps: AppDeps,
  input: AsyncIterable<unknown>,
  budget: { files: number } = { files: 0 },
): Promise<ReadBilingualJob[]> {
  const options = { maxDepth: deps.config.importLimits.maxDepth, limitBytes: deps.config.uploadLimitBytes };
  const count = () => {
    budget.files += 1;
    if (budget.files > MAX_BILINGUAL_FILES) throw errors.TooManyFiles({ max: MAX_BILINGUAL_FILES });
  };
  try {
    const { head, bytes } = await peeked(input);
    if (!looksLikeZip(head)) {
      count();
      return await readMxliff(bytes, options);
    }
    return await withZipPackage(bytes, {}, async (zip) => {
      if (zip.entry('word/document.xml')) {
        count();
        return readBilingualDocxPackage(zip);
      }
      const files = zip.entries.filter((entry) => !entry.isDirectory && !entry.name.startsWith('__MACOSX/'));
      // Counted before any is read: the limit is about the request, whatever the files hold.
      for (const entry of files) {
        if (!BILINGUAL_ENTRY.test(entry.name)) {
          throw new FormatError(`${entry.name} in the ZIP archive is not a bilingual file (.mxliff or .docx)`);
        }
        count();
      }
      const jobs: ReadBilingualJob[] = [];
      for (const entry of files) {
        if (/\.docx$/i.test(entry.name)) jobs.push(...(await withZipPackage(zip.read(entry), {}, readBilingualDocxPackage)));
        else jobs.push(...(await readMxliff(zip.read(entry), options)));
      }
      return jobs;
    });
  } catch (error) {
    if (error instanceof FormatError) throw errors.BilingualFileUnreadable({ reason: error.message });
    throw error;
  }
}

/** A read bilingual file as pages for the writers (conversion). */
function asEntries(jobs: readonly ReadBilingualJob[]) {
  async function* entries() {
    for (const job of jobs) {
      yield {
        job,
        segments: (async function* () {
          yield job.segments;
        })(),
      };
    }
  }
  return entries();
}

/**
 * convertBilingualFile: MXLIFF to bilingual DOCX and back (the same segments, ids and states), or
 * to XLIFF 2.0 (an OpenTMS extension; one language pair per document, else 400).
 */
export async function convertBilingualFile(deps: AppDeps, input: AsyncIterable<unknown>, to: 'MXLF' | 'DOCX' | 'XLIFF2'): Promise<Buffer> {
  const jobs = await readBilingualFile(deps, input);
  const stream =
    to === 'DOCX'
      ? bilingualDocxStream(asEntries(jobs))
      : to === 'XLIFF2'
        ? xliff2Stream(asEntries(jobs))
        : mxliffStream(asEntries(jobs), 'mxliff');
  // Converted whole (an upload's size), so that a file that cannot be converted is a 400, not a broken download.
  const parts: Buffer[] = [];
  try {
    for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  } catch (error) {
    if (error instanceof FormatError) throw errors.BilingualFileUnreadable({ reason: error.message });
    throw error;
  }
  return Buffer.concat(parts);
}

/** A job named by a bilingual file, as the caller reaches it (by uid across the organization's projects), or a 400. */
export async function jobOfBilingualFile(db: Kysely<DB>, caller: Caller, file: ReadBilingualJob): Promise<JobAccess> {
  const mismatch = (reason: string) => errors.BilingualFileMismatch({ reason });
  if (file.jobUid === '') throw mismatch('a <file> of the bilingual file names no job (m:task-id)');
  const row = await db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select(['projects.uid as projectUid'])
    .where('jobs.uid', '=', file.jobUid)
    .where('jobs.organizationId', '=', caller.organizationId)
    .executeTakeFirst();
  const project = row ? await findVisibleProject(db, caller, row.projectUid) : null;
  const access = project ? await findVisibleJob(db, caller, project, file.jobUid) : null;
  if (!access) throw mismatch(`the file names job ${file.jobUid}, which is not a job you can see`);
  if (file.targetLang !== '' && file.targetLang.toLowerCase() !== access.job.targetLang.toLowerCase()) {
    throw mismatch(`the file's target language ${file.targetLang} is not job ${file.jobUid}'s (${access.job.targetLang})`);
  }
  return access;
}

interface PlannedJob {
  access: JobAccess;
  writes: SegmentWrite[];
  unchanged: number;
  refused: RefusedSegment[];
}

async function planJob(db: Kysely<DB>, caller: Caller, file: ReadBilingualJob): Promise<PlannedJob> {
  const access = await jobOfBilingualFile(db, caller, file);
  if (!access.permissions.has('translate') && !access.permissions.has('edit')) {
    throw errors.AccessDenied({ reason: `You may not translate job ${access.job.uid}.` });
  }
  const source = await jobSource(db, access.job);
  assertImportedSource(access.job, source);
  const held = await heldSegments(
    db,
    access.job,
    file.segments.map((s) => s.index),
  );
  const plan = planUpload(access.job.uid, jobRange(access.job, source), file.segments, held, access.permissions.has('edit'));
  if ('mismatch' in plan) throw errors.BilingualFileMismatch({ reason: plan.mismatch });
  return { access, ...plan };
}

export interface UploadOutcome {
  project: ProjectAccess;
  jobs: JobRow[];
  changed: number;
  unchanged: number;
  refused: { jobUid: string; segment: string; reason: RefusedSegment['reason'] }[];
}

/**
 * Applies bilingual files to their jobs: every file is read and checked first (one mismatch
 * refuses the whole upload), then the changes of all jobs are written in one transaction with
 * their TM write-back and JOB_TARGET_UPDATED; `setCompleted` then moves each job to COMPLETED
 * where the caller may.
 */
export async function applyBilingualFiles(
  deps: AppDeps,
  caller: Caller,
  files: readonly ReadBilingualJob[],
  options: { saveToTransMemory: SaveToTransMemory; setCompleted: boolean },
): Promise<UploadOutcome> {
  const db = deps.database.db;
  if (files.length === 0) throw errors.BilingualFileUnreadable({ reason: 'the upload holds no job (<file> element)' });
  const planned = new Map<string, PlannedJob>();
  for (const file of files) {
    if (planned.has(file.jobUid)) throw errors.BilingualFileMismatch({ reason: `job ${file.jobUid} occurs in more than one file` });
    planned.set(file.jobUid, await planJob(db, caller, file));
  }
  const plans = [...planned.values()];
  const now = deps.clock().toISOString();
  await db.transaction().execute(async (trx) => {
    const touched: JobRow[] = [];
    for (const { access, writes } of plans) {
      if (writes.length === 0) continue;
      const job = access.job;
      await writeSegments(trx, job, writes, caller.userId, now);
      const toMemory =
        options.saveToTransMemory === 'None'
          ? []
          : writes.filter((w) => (options.saveToTransMemory === 'All' ? w.target !== '' : w.confirmed));
      await writeConfirmedToTransMemories(trx, job, toMemory, caller.userId, now);
      await trx.updateTable('jobs').set({ lastModifiedAt: now, lastModifiedById: caller.userId }).where('id', '=', job.id).execute();
      touched.push(job);
    }
    if (touched.length > 0) {
      const updated = await trx
        .selectFrom('jobs')
        .selectAll()
        .where(
          'id',
          'in',
          touched.map((j) => j.id),
        )
        .execute();
      await emitEvent(deps, trx, {
        organizationId: caller.organizationId,
        event: 'JOB_TARGET_UPDATED',
        records: await jobEventRecords(trx, updated),
        user: await eventUser(trx, caller),
      });
    }
  });
  deps.taskWakeup.notify();
  if (options.setCompleted) {
    for (const { access } of plans) {
      if (access.job.status === 'COMPLETED') continue;
      try {
        await setJobStatus(deps, caller, access, 'COMPLETED');
      } catch {
        // Moving the job is the caller's right or not; the segments are saved either way.
      }
    }
  }
  const jobs = await db
    .selectFrom('jobs')
    .selectAll()
    .where(
      'id',
      'in',
      plans.map((p) => p.access.job.id),
    )
    .execute();
  return {
    project: plans[0]!.access.project,
    jobs,
    changed: plans.reduce((sum, p) => sum + p.writes.length, 0),
    unchanged: plans.reduce((sum, p) => sum + p.unchanged, 0),
    refused: plans.flatMap((p) =>
      p.refused.map((r) => ({ jobUid: p.access.job.uid, segment: `${p.access.job.uid}:${r.idx}`, reason: r.reason })),
    ),
  };
}

async function writeSegments(trx: Kysely<DB>, job: JobRow, writes: readonly SegmentWrite[], userId: string, now: string): Promise<void> {
  const existing = new Set<number>();
  const idxs = writes.map((w) => w.idx);
  for (let i = 0; i < idxs.length; i += 500) {
    const rows = await trx
      .selectFrom('jobSegments')
      .select('idx')
      .where('jobId', '=', job.id)
      .where('idx', 'in', idxs.slice(i, i + 500))
      .execute();
    for (const row of rows) existing.add(Number(row.idx));
  }
  const inserts = [];
  for (const write of writes) {
    if (!existing.has(write.idx)) {
      inserts.push({
        jobId: job.id,
        idx: write.idx,
        target: write.target,
        confirmed: write.confirmed,
        locked: write.locked,
        modifiedAt: now,
        modifiedById: userId,
      });
      continue;
    }
    const changes = write.targetChanged
      ? {
          target: write.target,
          confirmed: write.confirmed,
          locked: write.locked,
          origin: null,
          originScore: null,
          originResource: null,
          mtWarnings: null,
        }
      : { confirmed: write.confirmed, locked: write.locked };
    await trx
      .updateTable('jobSegments')
      .set({ ...changes, modifiedAt: now, modifiedById: userId })
      .where('jobId', '=', job.id)
      .where('idx', '=', write.idx)
      .execute();
  }
  for (let i = 0; i < inserts.length; i += 500)
    await trx
      .insertInto('jobSegments')
      .values(inserts.slice(i, i + 500))
      .execute();
}

/** The answer to uploadBilingualFileV2: ProjectJobPartsDto with the segment counts (an OpenTMS extension). */
export async function uploadOutcomeDto(db: Kysely<DB>, outcome: UploadOutcome) {
  return {
    jobs: await jobReferenceDtos(db, outcome.jobs, 'v1'),
    project: { name: outcome.project.project.name, uid: outcome.project.project.uid },
    segments: {
      changed: outcome.changed,
      unchanged: outcome.unchanged,
      refused: outcome.refused.length,
      refusedSegments: outcome.refused.slice(0, 1000),
    },
  };
}

/**
 * compareBilingualFile: the segments of the file that differ from what their job holds now
 * (`Diff`: target, confirmation or lock), and those the job does not have (`Miss`: not a segment
 * of the job, or its source is another now).
 */
export async function compareBilingualFile(deps: AppDeps, caller: Caller, files: readonly ReadBilingualJob[]) {
  const db = deps.database.db;
  const segments: { uid: string; state: 'Miss' | 'Diff' }[] = [];
  for (const file of files) {
    const access = await jobOfBilingualFile(db, caller, file);
    const source = await jobSource(db, access.job);
    assertImportedSource(access.job, source);
    const range = jobRange(access.job, source);
    const held = await heldSegments(
      db,
      access.job,
      file.segments.map((s) => s.index),
    );
    for (const segment of file.segments) {
      const uid = `${file.jobUid}:${segment.index}`;
      const current = segment.index >= range.first && segment.index <= range.last ? held.get(segment.index) : undefined;
      if (!current || current.source !== segment.source) segments.push({ uid, state: 'Miss' });
      else if (current.target !== segment.target || current.confirmed !== segment.confirmedLevel > 0 || current.locked !== segment.locked) {
        segments.push({ uid, state: 'Diff' });
      }
    }
  }
  return { segments };
}

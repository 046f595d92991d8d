import { newUid } from '../../src/db/ids.js';
import type { Id } from '../../src/db/schema.js';
import { countText } from '../../src/domain/counting/word-count.js';
import type { ProjectRow } from '../../src/modules/translation-workflow/kernel/index.js';
import { insertProject } from '../../src/modules/translation-workflow/projects/projects.repository.js';
import { nextJobInnerId } from '../../src/modules/translation-workflow/kernel/index.js';
import { recordStoredFile } from '../../src/storage/stored-files.js';
import type { TestApp } from '../harness.js';

/**
 * Projects and jobs written straight to the database, for tests of modules that need them
 * before (or without) going through the project and job APIs. They write the same rows the API
 * writes (insertProject is the API's own insert).
 */

export interface ProjectOptions {
  name?: string;
  sourceLang?: string;
  targetLangs?: string[];
  /** Global workflow step uids, in order; default: the organization's first step only. [] = no workflow. */
  workflowStepUids?: string[];
  createdById?: Id | null;
  ownerId?: Id | null;
  clientId?: Id | null;
}

export async function makeProject(t: TestApp, organizationId: Id, options: ProjectOptions = {}): Promise<ProjectRow> {
  const db = t.database.db;
  let stepIds: Id[];
  if (options.workflowStepUids === undefined) {
    const first = await db
      .selectFrom('workflowSteps')
      .select('id')
      .where('organizationId', '=', organizationId)
      .orderBy('orderIndex')
      .executeTakeFirst();
    stepIds = first ? [first.id] : [];
  } else {
    const rows = await db
      .selectFrom('workflowSteps')
      .select(['id', 'uid'])
      .where('organizationId', '=', organizationId)
      .where('uid', 'in', options.workflowStepUids.length ? options.workflowStepUids : ['-'])
      .execute();
    stepIds = options.workflowStepUids.map((uid) => rows.find((r) => r.uid === uid)!.id);
  }
  return db.transaction().execute((trx) =>
    insertProject(trx, {
      organizationId,
      name: options.name ?? `Project ${newUid().slice(0, 6)}`,
      sourceLang: options.sourceLang ?? 'en',
      targetLangs: options.targetLangs ?? ['de', 'fr'],
      workflowStepIds: stepIds,
      ownerId: options.ownerId ?? options.createdById ?? null,
      createdById: options.createdById ?? null,
      now: t.clock().toISOString(),
      fields: options.clientId == null ? {} : { clientId: options.clientId },
    }),
  );
}

export interface JobsOptions {
  filename?: string;
  /** The uploaded file's bytes; default: the segments joined by newlines. */
  content?: string | Buffer;
  /** Source segments (one per line of a plain-text file by default). */
  segments?: string[];
  /** Default: every target language of the project. */
  targetLangs?: string[];
  createdById?: Id | null;
  /** Users made providers of every job made. */
  providerUserIds?: Id[];
}

export interface MadeJobs {
  sourceId: string;
  sourceUid: string;
  jobs: { id: string; uid: string; targetLang: string; workflowLevel: number }[];
}

/**
 * One uploaded file of `project`, already imported: its blob, source segments and one job per
 * target language and workflow step (as job creation makes them).
 */
export async function makeJobs(t: TestApp, project: ProjectRow, options: JobsOptions = {}): Promise<MadeJobs> {
  const db = t.database.db;
  const segments = options.segments ?? ['Hello world.', 'Second line.'];
  const content = options.content ?? segments.join('\n');
  const blob = await t.deps.blobs.put(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  const now = t.clock().toISOString();
  const targetLangs =
    options.targetLangs ??
    (
      await db.selectFrom('projectTargetLanguages').select('targetLang').where('projectId', '=', project.id).orderBy('position').execute()
    ).map((r) => r.targetLang);
  const steps = await db
    .selectFrom('projectWorkflowSteps')
    .select(['id', 'workflowLevel'])
    .where('projectId', '=', project.id)
    .orderBy('workflowLevel')
    .execute();
  return db.transaction().execute(async (trx) => {
    await recordStoredFile(t.deps, trx, blob);
    const innerId = await nextJobInnerId(trx, project.id);
    const words = segments.map((s) => countText(s, project.sourceLang).words);
    const source = await trx
      .insertInto('jobSources')
      .values({
        uid: newUid(),
        organizationId: project.organizationId,
        projectId: project.id,
        innerId,
        filename: options.filename ?? 'source.txt',
        directory: null,
        sha256: blob.sha256,
        size: blob.size,
        contentType: 'text/plain',
        importStatus: 'OK',
        importError: null,
        format: 'plain-text',
        segmentCount: segments.length,
        wordCount: words.reduce((a, b) => a + b, 0),
        createdAt: now,
        createdById: options.createdById == null ? null : options.createdById,
      })
      .returning(['id', 'uid'])
      .executeTakeFirstOrThrow();
    // In chunks: one statement of thousands of rows would pass SQLite's limit of variables.
    for (let from = 0; from < segments.length; from += 1000) {
      await trx
        .insertInto('sourceSegments')
        .values(
          segments
            .slice(from, from + 1000)
            .map((text, i) => ({ text, idx: from + i }))
            .map(({ text, idx }) => ({
              jobSourceId: source.id,
              idx,
              unitLocator: String(idx + 1),
              unitIndex: idx,
              key: null,
              source: text,
              gapBefore: '',
              gapAfter: '',
              importedTarget: null,
              note: null,
              words: words[idx]!,
            })),
        )
        .execute();
    }
    const jobs: MadeJobs['jobs'] = [];
    const levels = steps.length ? steps : [{ id: null, workflowLevel: 1 }];
    for (const targetLang of targetLangs) {
      for (const step of levels) {
        const job = await trx
          .insertInto('jobs')
          .values({
            uid: newUid(),
            organizationId: project.organizationId,
            projectId: project.id,
            jobSourceId: source.id,
            projectWorkflowStepId: step.id === null ? null : step.id,
            workflowLevel: step.workflowLevel,
            targetLang,
            dateDue: null,
            notifyProvider: null,
            beginIndex: null,
            endIndex: null,
            createdAt: now,
            createdById: options.createdById == null ? null : options.createdById,
            lastModifiedAt: now,
            lastModifiedById: null,
          })
          .returning(['id', 'uid'])
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('jobStatusChanges')
          .values({
            jobId: job.id,
            status: 'NEW',
            changedAt: now,
            changedById: options.createdById == null ? null : options.createdById,
          })
          .execute();
        for (const userId of options.providerUserIds ?? []) {
          await trx.insertInto('jobProviders').values({ jobId: job.id, userId: userId, vendorId: null }).execute();
        }
        jobs.push({ id: job.id, uid: job.uid, targetLang, workflowLevel: step.workflowLevel });
      }
    }
    return { sourceId: source.id, sourceUid: source.uid, jobs };
  });
}

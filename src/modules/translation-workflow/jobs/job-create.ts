import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { sanitizeDirectory } from '../../../http/uploads.js';
import { enqueue } from '../../../queue/queue.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { recordStoredFile } from '../../../storage/stored-files.js';
import { createAsyncRequest } from '../../integration/async-requests/index.js';
import { assertOptionalOutboundUrl } from '../../../outbound/url-policy.js';
import type { OutboundPolicy } from '../../../outbound/url-policy.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import type { ProjectAccess, ProjectRow } from '../kernel/index.js';
import { nextJobInnerId, projectTargetLanguages } from '../kernel/index.js';
import { jobSourceImportSettings, parseSettings } from '../kernel/index.js';
import { eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { JobRow } from '../kernel/index.js';
import { IMPORT_JOB_TASK } from './job-import.task.js';
import { customFileTypeFor } from '../../organization-setup/custom-file-types/index.js';
import { FILE_IMPORT_SETTINGS_DEFAULTS, referencedImportSettings } from '../../organization-setup/import-settings/index.js';
import type { ImportSettingsDocument } from '../../organization-setup/import-settings/index.js';
import { filterNamed } from '../../../formats/index.js';
import type { ImportJobPayload } from './job-import.task.js';
import { replaceJobProviders, resolveNotifyProvider, resolveProviders } from '../kernel/index.js';
import type { ResolvedProvider } from '../kernel/index.js';
import { jobEventRecords } from '../kernel/index.js';
import type { JobCreateRequest } from './jobs.schemas.js';

/**
 * Job creation (createJob, docs/jobs.md): the request is checked completely before any byte is
 * stored; then, in one transaction, each uploaded file becomes a job source (its `innerId` from
 * the project's counter) with one job per target language and project workflow step, their
 * providers, due dates and first status-change row, an IMPORT_JOB async request and the import
 * task, and the JOB_CREATED event.
 */

/** One job to make for each uploaded file. */
export interface PlannedJob {
  targetLang: string;
  projectWorkflowStepId: string | null;
  workflowLevel: number;
  dateDue: string | null;
  notifyProvider: string | null;
  providers: ResolvedProvider[];
}

export interface JobPlan {
  jobs: PlannedJob[];
  directory: string | null;
  callbackUrl: string | null;
  /** Pre-translate the jobs once imported (docs/machine-translation.md, "Pre-translation on job creation"). */
  preTranslate: boolean;
  /** The named import settings the request chose (`importSettings: {uid}`), over the project's and any custom file type's. */
  importSettings?: ImportSettingsDocument | null;
  /** The XML rules of the XML assistant profile the request chose (`xmlAssistantProfile: {uid}`), over the `xml` section. */
  xmlRules?: unknown;
}

export interface UploadedSource {
  blob: StoredBlob;
  filename: string;
  contentType: string | null;
}

/** A date-time of a request as the ISO string stored. */
export const isoOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();

const truthy = (value: boolean | string | null | undefined) => value === true || value === 'true';

/** Options that name capabilities OpenTMS does not have yet: 400 rather than silently ignored. */
function refuseLaterCapabilities(request: JobCreateRequest): void {
  const later: Array<[string, boolean]> = [
    ['semanticMarkup', truthy(request.semanticMarkup)],
    ['remoteFile', request.remoteFile != null],
  ];
  const used = later.filter(([, set]) => set).map(([field]) => field);
  if (used.length) {
    throw errors.NotSupportedYet({ fields: used });
  }
}

/** The request's target languages: canonical, and each one a target language of the project. */
async function targetLanguages(db: Kysely<DB>, project: ProjectRow, requested: readonly string[]): Promise<string[]> {
  const langs = assertLanguages('targetLangs', requested);
  const projectLangs = new Set(await projectTargetLanguages(db, project.id));
  const foreign = langs.filter((lang) => !projectLangs.has(lang));
  if (foreign.length) {
    throw errors.InvalidTargetLanguage({ langs: foreign });
  }
  return langs;
}

type Assignments = NonNullable<JobCreateRequest['assignments']>;

/** Providers per target language of one assignment list; each language must be one of the request's. */
async function providersByLanguage(
  db: Kysely<DB>,
  organizationId: string,
  field: string,
  assignments: Assignments | null | undefined,
  langs: readonly string[],
): Promise<Map<string, ResolvedProvider[]>> {
  const result = new Map<string, ResolvedProvider[]>();
  for (const [i, assignment] of (assignments ?? []).entries()) {
    const [lang] = assertLanguages(`${field}[${i}].targetLang`, [assignment.targetLang]);
    if (!langs.includes(lang!)) {
      throw errors.InvalidArguments({
        reason: `${field}[${i}].targetLang "${assignment.targetLang}" is not one of targetLangs.`,
        details: [{ field: `${field}[${i}].targetLang`, message: 'must be one of targetLangs' }],
      });
    }
    const providers = await resolveProviders(db, organizationId, `${field}[${i}].providers`, assignment.providers);
    result.set(lang!, [...(result.get(lang!) ?? []), ...providers]);
  }
  return result;
}

/**
 * What jobs a request makes for each file: one per target language and project workflow step
 * (one per language, level 1, when the project has no workflow), with the request's due dates,
 * providers and notification settings. Every reference is checked here, before any file is stored.
 */
export async function planJobs(db: Kysely<DB>, policy: OutboundPolicy, project: ProjectRow, request: JobCreateRequest): Promise<JobPlan> {
  refuseLaterCapabilities(request);
  const organizationId = project.organizationId;
  const langs = await targetLanguages(db, project, request.targetLangs);
  const references = await referencedSettings(db, organizationId, request);
  const steps = await db
    .selectFrom('projectWorkflowSteps')
    .select(['id', 'workflowLevel'])
    .where('projectId', '=', project.id)
    .orderBy('workflowLevel')
    .execute();
  const settings = request.workflowSettings ?? [];
  const notify = await resolveNotifyProvider(db, organizationId, 'notifyProvider', request.notifyProvider);
  const due = isoOrNull(request.due);
  const jobs: PlannedJob[] = [];

  if (steps.length === 0) {
    if (settings.length)
      throw errors.InvalidArguments({
        reason: 'The project has no workflow steps: use assignments and due, not workflowSettings.',
        details: [{ field: 'workflowSettings', message: 'the project has no workflow' }],
      });
    const providers = await providersByLanguage(db, organizationId, 'assignments', request.assignments, langs);
    for (const targetLang of langs)
      jobs.push({
        targetLang,
        projectWorkflowStepId: null,
        workflowLevel: 1,
        dateDue: due,
        notifyProvider: notify,
        providers: providers.get(targetLang) ?? [],
      });
    return {
      jobs,
      directory: sanitizeDirectory(request.path),
      callbackUrl: assertOptionalOutboundUrl(request.callbackUrl, policy, 'callbackUrl'),
      preTranslate: truthy(request.preTranslate),
      ...references,
    };
  }

  if (request.assignments?.length)
    throw errors.InvalidArguments({
      reason: 'The project has workflow steps: give providers per step in workflowSettings.',
      details: [{ field: 'assignments', message: 'the project has a workflow' }],
    });
  const stepIds = new Set(steps.map((s) => s.id));
  const perStep = new Map<string, { due: string | null; notify: string | null; providers: Map<string, ResolvedProvider[]> }>();
  for (const [i, setting] of settings.entries()) {
    const id = String(setting.id);
    if (!stepIds.has(id))
      throw errors.InvalidArguments({
        reason: `workflowSettings[${i}].id ${id} is not a workflow step of this project.`,
        details: [{ field: `workflowSettings[${i}].id`, message: 'unknown project workflow step' }],
      });
    if (perStep.has(id))
      throw errors.InvalidArguments({
        reason: `workflowSettings names step ${id} twice.`,
        details: [{ field: `workflowSettings[${i}].id`, message: 'repeated' }],
      });
    perStep.set(id, {
      due: isoOrNull(setting.due),
      notify: await resolveNotifyProvider(db, organizationId, `workflowSettings[${i}].notifyProvider`, setting.notifyProvider),
      providers: await providersByLanguage(db, organizationId, `workflowSettings[${i}].assignments`, setting.assignments, langs),
    });
  }
  for (const targetLang of langs) {
    for (const step of steps) {
      const own = perStep.get(step.id);
      jobs.push({
        targetLang,
        projectWorkflowStepId: step.id,
        workflowLevel: Number(step.workflowLevel),
        dateDue: own?.due ?? due,
        notifyProvider: own?.notify ?? notify,
        providers: own?.providers.get(targetLang) ?? [],
      });
    }
  }
  return {
    jobs,
    directory: sanitizeDirectory(request.path),
    callbackUrl: assertOptionalOutboundUrl(request.callbackUrl, policy, 'callbackUrl'),
    preTranslate: truthy(request.preTranslate),
    ...references,
  };
}

/** The named import settings and XML assistant profile a createJob request names, as documents. */
async function referencedSettings(db: Kysely<DB>, organizationId: string, request: JobCreateRequest) {
  const references: Pick<JobPlan, 'importSettings' | 'xmlRules'> = {};
  if (request.importSettings != null) {
    references.importSettings = await referencedImportSettings(
      db,
      organizationId,
      request.importSettings as Record<string, unknown>,
      'importSettings',
    );
  }
  if (request.xmlAssistantProfile != null) {
    const profile = await referencedImportSettings(
      db,
      organizationId,
      request.xmlAssistantProfile as Record<string, unknown>,
      'xmlAssistantProfile',
    );
    references.xmlRules = (profile as Record<string, unknown>)['xml'] ?? {};
  }
  return references;
}

/** 400 when `adding` more jobs would take the project past the configured job limit. */
export async function assertJobCapacity(deps: AppDeps, db: Kysely<DB>, projectId: string, adding: number): Promise<void> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('projectId', '=', projectId)
    .executeTakeFirstOrThrow();
  const existing = Number(row.n);
  const limit = deps.config.projectJobLimit;
  if (existing + adding > limit) {
    throw errors.JobLimitExceeded({ existing, adding, limit });
  }
}

async function insertSource(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  project: ProjectRow,
  plan: JobPlan,
  upload: UploadedSource,
  now: string,
): Promise<string> {
  await recordStoredFile(deps, trx, upload.blob);
  // A custom file type whose pattern names the file decides its format and import settings
  // (docs/import-settings-and-file-types.md); the filter it names is recorded before the import.
  // Named import settings the request chose come first, and an XML assistant profile's rules last.
  const custom = await customFileTypeFor(trx, project.organizationId, upload.filename);
  const customFormat = custom && filterNamed(custom.fileFormat) ? custom.fileFormat : null;
  const chosen: Record<string, unknown> = plan.importSettings
    ? { ...FILE_IMPORT_SETTINGS_DEFAULTS, ...plan.importSettings }
    : custom
      ? custom.importSettings
      : jobSourceImportSettings(parseSettings(project.settings));
  const importSettings = plan.xmlRules === undefined ? chosen : { ...chosen, xml: plan.xmlRules };
  const row = await trx
    .insertInto('jobSources')
    .values({
      uid: newUid(),
      organizationId: project.organizationId,
      projectId: project.id,
      innerId: await nextJobInnerId(trx, project.id),
      filename: upload.filename,
      directory: plan.directory,
      sha256: upload.blob.sha256,
      size: upload.blob.size,
      contentType: upload.contentType,
      // The file keeps the project's import settings of today (segmentation rule included): later
      // edits of the project's settings do not change how an uploaded file was read (docs/jobs.md).
      importSettings: JSON.stringify(importSettings),
      importError: null,
      format: customFormat,
      createdAt: now,
      createdById: caller.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertJob(
  trx: Kysely<DB>,
  caller: Caller,
  project: ProjectRow,
  jobSourceId: string,
  planned: PlannedJob,
  now: string,
): Promise<JobRow> {
  const job = await trx
    .insertInto('jobs')
    .values({
      uid: newUid(),
      organizationId: project.organizationId,
      projectId: project.id,
      jobSourceId,
      projectWorkflowStepId: planned.projectWorkflowStepId,
      workflowLevel: planned.workflowLevel,
      targetLang: planned.targetLang,
      status: 'NEW',
      dateDue: planned.dateDue,
      notifyProvider: planned.notifyProvider,
      beginIndex: null,
      endIndex: null,
      createdAt: now,
      createdById: caller.userId,
      lastModifiedAt: now,
      lastModifiedById: caller.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await replaceJobProviders(trx, job.id, planned.providers);
  await trx.insertInto('jobStatusChanges').values({ jobId: job.id, status: 'NEW', changedAt: now, changedById: caller.userId }).execute();
  return job;
}

export interface CreatedJobs {
  jobs: JobRow[];
  asyncRequest: { id: string; dateCreated: string; action: string };
}

/** Writes the sources, jobs, async request, import task and event of one createJob request. */
export async function createJobs(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  plan: JobPlan,
  uploads: readonly UploadedSource[],
): Promise<CreatedJobs> {
  const project = access.project;
  const now = deps.clock().toISOString();
  const result = await deps.database.db.transaction().execute(async (trx) => {
    await assertJobCapacity(deps, trx, project.id, plan.jobs.length * uploads.length);
    const jobs: JobRow[] = [];
    const jobSourceIds: string[] = [];
    for (const upload of uploads) {
      const jobSourceId = await insertSource(deps, trx, caller, project, plan, upload, now);
      jobSourceIds.push(jobSourceId);
      for (const planned of plan.jobs) jobs.push(await insertJob(trx, caller, project, jobSourceId, planned, now));
    }
    const request = await createAsyncRequest(deps, trx, {
      organizationId: project.organizationId,
      createdById: caller.userId,
      action: 'IMPORT_JOB',
      project: { uid: project.uid, name: project.name },
      callbackUrl: plan.callbackUrl,
    });
    const payload: ImportJobPayload = { jobSourceIds, asyncRequestId: request.id, preTranslate: plan.preTranslate };
    await enqueue(
      trx,
      { kind: IMPORT_JOB_TASK, payload, organizationId: project.organizationId, asyncRequestId: request.id },
      deps.clock(),
    );
    await emitEvent(deps, trx, {
      organizationId: project.organizationId,
      event: 'JOB_CREATED',
      records: await jobEventRecords(trx, jobs),
      user: await eventUser(trx, caller),
    });
    return { jobs, asyncRequest: { id: request.id, dateCreated: request.createdAt, action: request.action } };
  });
  deps.taskWakeup.notify();
  return result;
}

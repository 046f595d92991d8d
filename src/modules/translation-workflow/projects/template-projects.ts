import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { templateTargetLangs } from '../kernel/index.js';
import type { TemplateRow } from '../kernel/index.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { assertLanguage } from '../../../domain/languages/language-validation.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { resolveReference, resolveWorkflowSteps } from '../kernel/index.js';
import type { ProjectReferenceKind } from '../kernel/index.js';
import { SETTINGS_KEYS, parseSettings } from '../kernel/index.js';
import { insertProject, jobsByIds, jobsOfProject } from './projects.repository.js';
import { copyCustomFieldValues } from '../custom-field-instances/index.js';
import { assertRequiredValuesSet } from '../custom-field-instances/index.js';
import { IdReference } from './projects.schemas.js';
import { assertTargetLangs, normalizeDate } from './projects.service.js';
import { emitProjectEvents, eventUser } from '../kernel/index.js';
import { copyTemplateSettings, projectSettingsOwner, templateSettingsOwner } from '../job-trans-memories/index.js';
import { copyTemplateTermBases } from '../job-term-bases/index.js';
import { copyTemplateMtSettings } from '../project-mt-settings/index.js';
import { lqaProfileUidOf } from '../../organization-setup/lqa-profiles/index.js';

/**
 * Projects made from templates (applyTemplate v2, sync and async) and the template's providers
 * assigned to a project's jobs on request (assignProviders). The template tables belong to the
 * templates module; this file reads them. Providers the template names are NOT assigned when
 * the project is created (description, "Other operations": assign them separately).
 */

/** Spec `CreateProjectFromTemplateV2Dto` (the async variant adds `callbackUrl`). */
export const CreateFromTemplateBody = Type.Object({
  name: Type.String({ maxLength: 255 }),
  sourceLang: Type.Optional(Type.String({ maxLength: 32 })),
  targetLangs: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 500 })),
  workflowSteps: Type.Optional(Type.Array(IdReference, { maxItems: 100 })),
  dateDue: Type.Optional(Type.String({ format: 'date-time' })),
  note: Type.Optional(Type.String({ maxLength: 4096 })),
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  costCenter: Type.Optional(IdReference),
});
export type CreateFromTemplateBody = Static<typeof CreateFromTemplateBody>;
export const CreateFromTemplateAsyncBody = Type.Object({
  ...CreateFromTemplateBody.properties,
  callbackUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
});

/**
 * A list of the body that falls back to the template's when not given: an empty list counts as
 * not given (docs/api-conventions.md, "Empty lists"), as generated clients send `[]` for unset lists.
 */
const given = <T>(list: readonly T[] | null | undefined): readonly T[] | undefined => (list && list.length > 0 ? list : undefined);

/** Languages of the new project: the body's, else the template's (checked before anything is written). */
export function projectLanguages(template: TemplateRow, body: CreateFromTemplateBody): { sourceLang: string; targetLangs: string[] } {
  const source = body.sourceLang ?? template.sourceLang;
  if (!source)
    throw errors.InvalidArguments({
      reason: 'sourceLang is required: the template has no source language.',
      details: [{ field: 'sourceLang', message: 'required' }],
    });
  const sourceLang = assertLanguage('sourceLang', source);
  return { sourceLang, targetLangs: assertTargetLangs(sourceLang, [...(given(body.targetLangs) ?? templateTargetLangs(template))]) };
}

const REFERENCE_FIELDS = {
  client: 'clientId',
  businessUnit: 'businessUnitId',
  domain: 'domainId',
  subDomain: 'subDomainId',
  costCenter: 'costCenterId',
} as const;

/** The template's owner when still an active ADMIN or PM, else the caller when they may own projects, else none. */
async function ownerFor(trx: Kysely<DB>, template: TemplateRow, caller: Caller): Promise<string | null> {
  if (template.ownerId !== null) {
    const owner = await trx
      .selectFrom('users')
      .select(['id', 'role', 'isBot', 'active'])
      .where('id', '=', template.ownerId)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
    if (owner && (owner.role === 'ADMIN' || owner.role === 'PROJECT_MANAGER') && !bool(owner.isBot) && bool(owner.active)) return owner.id;
  }
  return (caller.role === 'ADMIN' || caller.role === 'PROJECT_MANAGER') && !caller.isBot ? caller.userId : null;
}

/** Only the project's own settings keys are copied from a template's settings document. */
function projectSettingsFrom(template: TemplateRow): string {
  const settings = parseSettings(template.settings);
  return JSON.stringify(Object.fromEntries(SETTINGS_KEYS.filter((k) => settings[k] !== undefined).map((k) => [k, settings[k]])));
}

/**
 * Creates the project in the caller's transaction: the template supplies the defaults, the body
 * overrides them, the body's `name` is the project's name. Emits PROJECT_CREATED (and
 * SHARED_PROJECT_ASSIGNED when the template names a vendor).
 */
export async function createProjectFromTemplate(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  template: TemplateRow,
  body: CreateFromTemplateBody,
): Promise<ProjectRow> {
  if (body.name.trim() === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  const { sourceLang, targetLangs } = projectLanguages(template, body);
  const fields: Record<string, string | null> = {};
  for (const [field, column] of Object.entries(REFERENCE_FIELDS) as [
    keyof typeof REFERENCE_FIELDS,
    (typeof REFERENCE_FIELDS)[keyof typeof REFERENCE_FIELDS],
  ][]) {
    const ref = body[field];
    fields[column] = ref
      ? await resolveReference(trx, caller.organizationId, field as ProjectReferenceKind, field, ref)
      : template[column] === null
        ? null
        : template[column];
  }
  const workflowSteps = given(body.workflowSteps);
  const stepIds = workflowSteps
    ? await resolveWorkflowSteps(trx, caller.organizationId, 'workflowSteps', [...workflowSteps])
    : (
        await trx
          .selectFrom('templateWorkflowSteps')
          .select('workflowStepId')
          .where('templateId', '=', template.id)
          .orderBy('workflowLevel')
          .execute()
      ).map((s) => s.workflowStepId);
  const project = await insertProject(trx, {
    organizationId: caller.organizationId,
    name: body.name,
    sourceLang,
    targetLangs,
    workflowStepIds: stepIds,
    ownerId: await ownerFor(trx, template, caller),
    createdById: caller.userId,
    now: deps.clock().toISOString(),
    fields: {
      ...fields,
      vendorId: template.vendorId === null ? null : template.vendorId,
      templateId: template.id,
      dateDue: body.dateDue ? normalizeDate(body.dateDue) : null,
      note: body.note ?? template.note,
      fileHandover: bool(template.fileHandover),
      settings: projectSettingsFrom(template),
    },
  });
  // The template's custom field values become the project's; a required field the template
  // leaves empty then fails the request like create v3 does.
  const owner = { kind: 'project' as const, id: project.id, createdAt: project.createdAt };
  await copyCustomFieldValues(
    trx,
    { kind: 'template', id: template.id, createdAt: template.createdAt },
    owner,
    project.createdAt,
    caller.userId,
  );
  await assertRequiredValuesSet(trx, caller.organizationId, owner);
  // The template's TM settings become the project's (those that fit its languages and steps).
  await copyTemplateSettings(trx, template, project);
  // And its term-base settings.
  await copyTemplateTermBases(trx, await templateSettingsOwner(trx, template), await projectSettingsOwner(trx, project));
  // And its MT settings (per-language ones for the project's target languages) and pre-translate settings.
  await copyTemplateMtSettings(trx, template.id, project.id);
  // And the LQA profiles of its steps, onto the project's steps of the same workflow step.
  await copyTemplateLqaProfiles(trx, template.id, project.id);
  const events: WebhookEvent[] = ['PROJECT_CREATED'];
  if (project.vendorId !== null) events.push('SHARED_PROJECT_ASSIGNED');
  await emitProjectEvents(deps, trx, caller, project.id, events);
  return project;
}

/**
 * The LQA profile each template step names (`settings.lqaProfile`) becomes that of the project's
 * steps of the same global workflow step (docs/lqa-profiles.md, "Assigning profiles").
 */
async function copyTemplateLqaProfiles(trx: Kysely<DB>, templateId: string, projectId: string): Promise<void> {
  const templateSteps = await trx
    .selectFrom('templateWorkflowSteps')
    .select(['workflowStepId', 'settings'])
    .where('templateId', '=', templateId)
    .execute();
  const profiles = new Map<string, string>();
  for (const step of templateSteps) {
    const uid = lqaProfileUidOf(step.settings);
    if (uid !== null && !profiles.has(step.workflowStepId)) profiles.set(step.workflowStepId, uid);
  }
  if (profiles.size === 0) return;
  const projectSteps = await trx
    .selectFrom('projectWorkflowSteps')
    .select(['id', 'workflowStepId', 'settings'])
    .where('projectId', '=', projectId)
    .execute();
  for (const step of projectSteps) {
    const uid = profiles.get(step.workflowStepId);
    if (uid === undefined) continue;
    const settings = { ...parseSettings(step.settings), lqaProfile: { uid } };
    await trx
      .updateTable('projectWorkflowSteps')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', step.id)
      .execute();
  }
}

/** createProjectFromTemplate in a transaction of its own (the synchronous applyTemplate). */
export async function makeProjectFromTemplate(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  body: CreateFromTemplateBody,
): Promise<ProjectRow> {
  const project = await deps.database.db.transaction().execute((trx) => createProjectFromTemplate(deps, trx, caller, template, body));
  deps.taskWakeup.notify();
  return project;
}

// ---- providers from the template

interface JobToAssign {
  id: string;
  uid: string;
  targetLang: string;
  workflowLevel: number;
}

/**
 * Assigns the template's providers to `jobs`: for each job, the template's assignments whose
 * language is the job's (or every language) and whose step is the template step at the job's
 * workflow level (or none, for a template without steps) become the job's providers, added to
 * those it has. Emits JOB_ASSIGNED for the jobs that got a new provider. Returns the jobs' ids.
 */
export async function assignTemplateProviders(
  deps: AppDeps,
  trx: Kysely<DB>,
  caller: Caller,
  template: TemplateRow,
  jobs: JobToAssign[],
): Promise<string[]> {
  const steps = await trx
    .selectFrom('templateWorkflowSteps')
    .select(['id', 'workflowLevel'])
    .where('templateId', '=', template.id)
    .execute();
  const assignments = await trx.selectFrom('templateAssignments').selectAll().where('templateId', '=', template.id).execute();
  const assigned: JobToAssign[] = [];
  for (const job of jobs) {
    const step = steps.find((s) => s.workflowLevel === job.workflowLevel);
    const matching = assignments.filter(
      (a) =>
        (a.targetLang === null || a.targetLang === job.targetLang) &&
        (a.templateWorkflowStepId === null ? steps.length === 0 : step !== undefined && a.templateWorkflowStepId === step.id),
    );
    const existing = await trx.selectFrom('jobProviders').select(['userId', 'vendorId']).where('jobId', '=', job.id).execute();
    const fresh = matching.filter(
      (a) => !existing.some((e) => (e.userId ?? '') === (a.userId ?? '') && (e.vendorId ?? '') === (a.vendorId ?? '')),
    );
    const unique = fresh.filter(
      (a, i) => fresh.findIndex((b) => (b.userId ?? '') === (a.userId ?? '') && (b.vendorId ?? '') === (a.vendorId ?? '')) === i,
    );
    if (unique.length === 0) continue;
    await trx
      .insertInto('jobProviders')
      .values(
        unique.map((a) => ({
          jobId: job.id,
          userId: a.userId === null ? null : a.userId,
          vendorId: a.vendorId === null ? null : a.vendorId,
        })),
      )
      .execute();
    assigned.push(job);
  }
  if (assigned.length) {
    const records = assigned.map((j) => ({ uid: j.uid, targetLang: j.targetLang, workflowLevel: j.workflowLevel }));
    await emitEvent(deps, trx, {
      organizationId: caller.organizationId,
      event: 'JOB_ASSIGNED',
      records,
      user: await eventUser(trx, caller),
    });
  }
  return jobs.map((j) => j.id);
}

/**
 * assignProviders: the template's providers assigned to the project's jobs (only those of
 * `jobUids` when given; 404 naming one that is not the project's), in one transaction. Answers
 * the jobs as they are afterwards, by id.
 */
export async function assignProvidersFromTemplate(
  deps: AppDeps,
  caller: Caller,
  project: ProjectRow,
  template: TemplateRow,
  jobUids: readonly string[] | null,
): Promise<JobRow[]> {
  const db = deps.database.db;
  const jobs = await jobsOfProject(db, project.id, jobUids);
  const missing = jobUids?.find((uid) => !jobs.some((j) => j.uid === uid));
  if (missing) throw errors.ResourceNotFound({ what: 'Job', uids: [missing], field: 'jobs' });
  await db.transaction().execute((trx) =>
    assignTemplateProviders(
      deps,
      trx,
      caller,
      template,
      jobs.map((j) => ({ id: j.id, uid: j.uid, targetLang: j.targetLang, workflowLevel: j.workflowLevel })),
    ),
  );
  deps.taskWakeup.notify();
  return jobsByIds(
    db,
    jobs.map((j) => j.id),
  );
}

import type { Kysely, Updateable } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import type { ProjectTemplatesTable } from '../../../db/tables/setup-records.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { releaseStoredFiles } from '../../../storage/stored-files.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { requireProject } from '../kernel/index.js';
import { resolveOwner, resolveReference, resolveVendor, resolveWorkflowSteps, projectReferenceNotFound } from '../kernel/index.js';
import { parseSettings } from '../kernel/index.js';
import { projectTargetLanguages } from '../kernel/index.js';
import { findProvider } from '../kernel/index.js';
import { deleteTemplateRow, insertTemplate, referenceFileHashes, replaceTemplateWorkflow } from './project-templates.repository.js';
import { copyCustomFieldValues } from '../custom-field-instances/index.js';
import { assertLqaProfileExists } from '../../organization-setup/lqa-profiles/index.js';
import type { TemplateAssignmentInput, TemplateStepInput } from './project-templates.repository.js';
import type { AssignedToInput, CreateTemplateBody, EditTemplateBody, NotifyProvider, ProviderInput } from './project-templates.schemas.js';
import type { TemplateRow } from '../kernel/index.js';
import { templateTargetLangs } from '../kernel/index.js';
import { emitTemplateEvent, emitTemplateRowEvent } from '../kernel/index.js';
import { parseTemplateSettings, templateSettingsFromProject, writeTemplateSetting } from './template-settings.js';
import type { TemplateSettings, TemplateSettingsKey } from './template-settings.js';

/** Template use cases: create from a project, edit (PUT v1 partial, PUT v2 whole), delete (docs/project-templates.md). */

function assertNotBlank(value: string, field: string): string {
  if (value.trim() === '')
    throw errors.InvalidArguments({ reason: `${field} must not be blank.`, details: [{ field, message: 'must not be blank' }] });
  return value;
}

/** Import settings records are a later capability: naming one is a reference to nothing. */
function assertNoLaterReference(ref: { uid: string } | null | undefined, field: string, what: string): void {
  if (ref) throw errors.ReferenceNotFound({ what, key: ref.uid, field });
}

// ---- create

/**
 * Makes a template from an existing project the caller may see (404 otherwise, as Phrase): its
 * languages, workflow steps, setup references, note, owner, vendor, file handover, settings
 * documents and custom field values are copied; the project's name becomes the template's
 * project name pattern (`name`), the body's `name` the template's own (`templateName`).
 */
export async function createTemplate(deps: AppDeps, caller: Caller, body: CreateTemplateBody): Promise<TemplateRow> {
  const db = deps.database.db;
  assertNotBlank(body.name, 'name');
  assertNoLaterReference(body.importSettings, 'importSettings', 'import settings');
  const { project } = await requireProject(db, caller, body.project.uid, 'view');
  const now = deps.clock().toISOString();
  const template = await db.transaction().execute(async (trx) => {
    const steps = await trx
      .selectFrom('projectWorkflowSteps')
      .select(['workflowStepId', 'settings'])
      .where('projectId', '=', project.id)
      .orderBy('workflowLevel')
      .execute();
    const row = await insertTemplate(trx, {
      uid: newUid(),
      organizationId: caller.organizationId,
      name: body.name,
      createdAt: now,
      createdById: caller.userId,
      clientId: project.clientId,
      businessUnitId: project.businessUnitId,
      costCenterId: project.costCenterId,
      domainId: project.domainId,
      subDomainId: project.subDomainId,
      projectName: project.name,
      sourceLang: project.sourceLang,
      targetLangs: JSON.stringify(await projectTargetLanguages(trx, project.id)),
      note: project.note,
      useDynamicTitle: body.useDynamicTitle ?? false,
      dynamicTitle: body.dynamicTitle ?? null,
      ownerId: project.ownerId,
      vendorId: project.vendorId,
      fileHandover: bool(project.fileHandover),
      settings: JSON.stringify(templateSettingsFromProject(parseSettings(project.settings) as Record<string, unknown>)),
      lastModifiedAt: now,
      lastModifiedById: caller.userId,
    });
    const stepInputs = steps.map((s) => ({
      workflowStepId: s.workflowStepId,
      settings: JSON.parse(s.settings) as Record<string, unknown>,
    }));
    await replaceTemplateWorkflow(trx, row.id, stepInputs, []);
    await copyCustomFieldValues(
      trx,
      { kind: 'project', id: project.id, createdAt: project.createdAt },
      { kind: 'template', id: row.id, createdAt: now },
      now,
      caller.userId,
    );
    await emitTemplateRowEvent(deps, trx, caller, row, 'PROJECT_TEMPLATE_CREATED');
    return row;
  });
  deps.taskWakeup.notify();
  return template;
}

// ---- edit

/** `partial` (PUT v1): fields left out keep their values. `whole` (PUT v2): the body is the whole template; fields left out are cleared. */
export type EditMode = 'partial' | 'whole';

const SETUP_FIELDS = {
  client: 'clientId',
  businessUnit: 'businessUnitId',
  domain: 'domainId',
  subDomain: 'subDomainId',
  costCenter: 'costCenterId',
} as const;

async function referenceColumns(
  trx: Kysely<DB>,
  caller: Caller,
  body: EditTemplateBody,
  mode: EditMode,
): Promise<Updateable<ProjectTemplatesTable>> {
  const columns: Updateable<ProjectTemplatesTable> = {};
  for (const [field, column] of Object.entries(SETUP_FIELDS) as [
    keyof typeof SETUP_FIELDS,
    (typeof SETUP_FIELDS)[keyof typeof SETUP_FIELDS],
  ][]) {
    const ref = body[field];
    if (ref === undefined && mode === 'partial') continue;
    columns[column] = ref ? await resolveReference(trx, caller.organizationId, field, field, ref) : null;
  }
  if (body.vendor !== undefined || mode === 'whole')
    columns.vendorId = body.vendor ? await resolveVendor(trx, caller.organizationId, 'vendor', body.vendor) : null;
  if (body.owner !== undefined || mode === 'whole')
    columns.ownerId = body.owner ? await resolveOwner(trx, caller.organizationId, 'owner', body.owner) : null;
  return columns;
}

/** An email template of the organization, by id or uid; stored as `{id}`. */
async function checkedNotifyProvider(
  trx: Kysely<DB>,
  organizationId: string,
  notify: NotifyProvider | null | undefined,
  field: string,
): Promise<NotifyProvider | null> {
  if (!notify) return null;
  const key = notify.organizationEmailTemplate.id;
  const row = await trx
    .selectFrom('emailTemplates')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', key), ...(/^\d{1,18}$/.test(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
  if (!row) throw projectReferenceNotFound(`${field}.organizationEmailTemplate`, 'email template', key);
  return { organizationEmailTemplate: { id: row.id }, notificationIntervalInMinutes: notify.notificationIntervalInMinutes ?? 0 };
}

/** A provider the template names: a user of the organization who can take jobs, or one of its vendors (findProvider). */
async function resolveProvider(
  trx: Kysely<DB>,
  organizationId: string,
  provider: ProviderInput,
  field: string,
): Promise<{ userId: string | null; vendorId: string | null }> {
  const key = provider.id ?? provider.uid;
  if (!key)
    throw errors.InvalidArguments({
      reason: `${field}: a provider needs an id or a uid.`,
      details: [{ field, message: 'id or uid required' }],
    });
  const found = await findProvider(trx, organizationId, provider);
  if (!found) throw projectReferenceNotFound(field, provider.type === 'USER' ? 'user who can take jobs' : 'vendor', key);
  return found;
}

/** The providers of one `assignedTo` list, for a step (index) or the template without workflow (null). */
async function assignmentsFrom(
  trx: Kysely<DB>,
  organizationId: string,
  lists: readonly AssignedToInput[],
  stepIndex: number | null,
  targetLangs: readonly string[],
  path: string,
): Promise<TemplateAssignmentInput[]> {
  const result: TemplateAssignmentInput[] = [];
  for (const [i, entry] of lists.entries()) {
    const targetLang = entry.targetLang ? assertLanguage(`${path}[${i}].targetLang`, entry.targetLang) : null;
    if (targetLang !== null && !targetLangs.includes(targetLang)) {
      throw errors.InvalidArguments({
        reason: `${path}[${i}].targetLang: ${targetLang} is not a target language of the template.`,
        details: [{ field: `${path}[${i}].targetLang`, message: 'not a target language of the template' }],
      });
    }
    for (const [j, provider] of entry.providers.entries()) {
      const resolved = await resolveProvider(trx, organizationId, provider, `${path}[${i}].providers[${j}]`);
      const duplicate = result.some((a) => a.targetLang === targetLang && a.userId === resolved.userId && a.vendorId === resolved.vendorId);
      if (!duplicate) result.push({ stepIndex, targetLang, ...resolved });
    }
  }
  return result;
}

/** Steps and providers of an edit body, in the organization's workflow order. */
async function workflowFrom(trx: Kysely<DB>, caller: Caller, body: EditTemplateBody, targetLangs: readonly string[]) {
  const settings = body.workFlowSettings ?? [];
  const stepIds = await resolveWorkflowSteps(
    trx,
    caller.organizationId,
    'workFlowSettings',
    settings.map((s) => s.workflowStep),
  );
  if (stepIds.length !== settings.length)
    throw errors.InvalidArguments({
      reason: 'workFlowSettings names a workflow step twice.',
      details: [{ field: 'workFlowSettings', message: 'duplicate workflow step' }],
    });
  const steps: TemplateStepInput[] = [];
  const assignments: TemplateAssignmentInput[] = [];
  for (const [index, stepId] of stepIds.entries()) {
    const position = await stepPosition(trx, caller.organizationId, settings, stepId);
    const input = settings[position]!;
    const path = `workFlowSettings[${position}]`;
    const notifyProvider = await checkedNotifyProvider(trx, caller.organizationId, input.notifyProvider, `${path}.notifyProvider`);
    // The step's LQA profile: one of the organization's (400 ReferenceNotFound otherwise); none when left out or null.
    const lqaProfile = input.lqaProfile
      ? { uid: await assertLqaProfileExists(trx, caller.organizationId, input.lqaProfile.uid, `${path}.lqaProfile`) }
      : undefined;
    steps.push({ workflowStepId: stepId, settings: { notifyProvider, ...(lqaProfile ? { lqaProfile } : {}) } });
    assignments.push(
      ...(await assignmentsFrom(trx, caller.organizationId, input.assignedTo ?? [], index, targetLangs, `${path}.assignedTo`)),
    );
  }
  if (body.assignedTo?.length && steps.length) {
    throw errors.InvalidArguments({
      reason: 'assignedTo is for templates without workflow steps; give the providers in workFlowSettings.',
      details: [{ field: 'assignedTo', message: 'template has workflow steps' }],
    });
  }
  assignments.push(...(await assignmentsFrom(trx, caller.organizationId, body.assignedTo ?? [], null, targetLangs, 'assignedTo')));
  return { steps, assignments };
}

/** v1 with `assignedTo` but no `workFlowSettings`: the providers of a template without workflow steps. */
async function replaceStepLessProviders(
  trx: Kysely<DB>,
  caller: Caller,
  template: TemplateRow,
  lists: readonly AssignedToInput[],
  targetLangs: readonly string[],
): Promise<void> {
  const steps = await trx.selectFrom('templateWorkflowSteps').select('id').where('templateId', '=', template.id).execute();
  if (steps.length && lists.length) {
    throw errors.InvalidArguments({
      reason: 'assignedTo is for templates without workflow steps; give the providers in workFlowSettings.',
      details: [{ field: 'assignedTo', message: 'template has workflow steps' }],
    });
  }
  const assignments = await assignmentsFrom(trx, caller.organizationId, lists, null, targetLangs, 'assignedTo');
  await trx.deleteFrom('templateAssignments').where('templateId', '=', template.id).where('templateWorkflowStepId', 'is', null).execute();
  if (assignments.length) {
    await trx
      .insertInto('templateAssignments')
      .values(
        assignments.map((a) => ({
          templateId: template.id,
          templateWorkflowStepId: null,
          targetLang: a.targetLang,
          userId: a.userId,
          vendorId: a.vendorId,
        })),
      )
      .execute();
  }
}

/** Where in the body the step `stepId` (resolved from an id or a uid) was given. */
async function stepPosition(
  trx: Kysely<DB>,
  organizationId: string,
  settings: EditTemplateBody['workFlowSettings'] & object,
  stepId: string,
): Promise<number> {
  const step = await trx
    .selectFrom('workflowSteps')
    .select(['id', 'uid'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', stepId)
    .executeTakeFirstOrThrow();
  return settings.findIndex((s) => s.workflowStep.id === step.uid || s.workflowStep.id === step.id);
}

function languagesFrom(
  body: EditTemplateBody,
  existing: TemplateRow,
  mode: EditMode,
): { sourceLang: string | null; targetLangs: string[] } {
  const keep = mode === 'partial';
  const sourceLang = body.sourceLang
    ? assertLanguage('sourceLang', body.sourceLang)
    : body.sourceLang === undefined && keep
      ? existing.sourceLang
      : null;
  const targetLangs =
    body.targetLangs !== undefined ? assertLanguages('targetLangs', body.targetLangs) : keep ? templateTargetLangs(existing) : [];
  if (sourceLang !== null && targetLangs.includes(sourceLang))
    throw errors.InvalidArguments({
      reason: 'targetLangs must not contain the source language.',
      details: [{ field: 'targetLangs', message: 'contains the source language' }],
    });
  return { sourceLang, targetLangs };
}

/** A field of the body, or what it becomes when left out: kept (partial) or `cleared` (whole). */
function pick<T>(value: T | undefined, existing: T, cleared: T, mode: EditMode): T {
  if (value !== undefined) return value;
  return mode === 'partial' ? existing : cleared;
}

/** Edits a template the caller may edit (PUT v1 / v2), all or nothing, and announces PROJECT_TEMPLATE_UPDATED. */
export async function editTemplate(
  deps: AppDeps,
  caller: Caller,
  existing: TemplateRow,
  body: EditTemplateBody,
  mode: EditMode,
): Promise<TemplateRow> {
  const db = deps.database.db;
  assertNotBlank(body.templateName, 'templateName');
  assertNoLaterReference(body.importSettings, 'importSettings', 'import settings');
  const { sourceLang, targetLangs } = languagesFrom(body, existing, mode);
  const now = deps.clock().toISOString();
  const row = await db.transaction().execute(async (trx) => {
    const settings = parseTemplateSettings(existing.settings);
    const notify =
      body.notifyProvider !== undefined || mode === 'whole'
        ? await checkedNotifyProvider(trx, caller.organizationId, body.notifyProvider, 'notifyProvider')
        : undefined;
    if (notify !== undefined) settings.notifyProviders = notify ?? undefined;
    if (body.projectWorkflowSettings !== undefined || mode === 'whole')
      settings.projectWorkflowSettings = body.projectWorkflowSettings ?? undefined;
    const changes: Updateable<ProjectTemplatesTable> = {
      ...(await referenceColumns(trx, caller, body, mode)),
      name: body.templateName,
      projectName: pick(body.name, existing.projectName, null, mode),
      sourceLang,
      targetLangs: JSON.stringify(targetLangs),
      useDynamicTitle: pick(body.useDynamicTitle, bool(existing.useDynamicTitle), false, mode),
      dynamicTitle: pick(body.dynamicTitle, existing.dynamicTitle, null, mode),
      note: pick(body.note, existing.note, null, mode),
      fileHandover: pick(body.fileHandover, bool(existing.fileHandover), false, mode),
      settings: JSON.stringify(settings),
      lastModifiedAt: now,
      lastModifiedById: caller.userId,
    };
    if (body.workFlowSettings !== undefined || mode === 'whole') {
      const { steps, assignments } = await workflowFrom(trx, caller, body, targetLangs);
      await replaceTemplateWorkflow(trx, existing.id, steps, assignments);
    } else if (body.assignedTo !== undefined) {
      await replaceStepLessProviders(trx, caller, existing, body.assignedTo, targetLangs);
    } else if (body.targetLangs !== undefined) {
      // Providers named for a language the template no longer has go with it.
      await trx
        .deleteFrom('templateAssignments')
        .where('templateId', '=', existing.id)
        .where('targetLang', 'is not', null)
        .where('targetLang', 'not in', targetLangs.length ? targetLangs : ['-'])
        .execute();
    }
    const updated = await trx
      .updateTable('projectTemplates')
      .set(changes)
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitTemplateEvent(deps, trx, caller, existing.id, 'PROJECT_TEMPLATE_UPDATED');
    return updated;
  });
  deps.taskWakeup.notify();
  return row;
}

// ---- delete

/**
 * Deletes a template the caller may delete; projects made from it stay (their reference clears),
 * its reference files go (blobs released after the commit).
 */
export async function deleteTemplate(deps: AppDeps, caller: Caller, template: TemplateRow): Promise<void> {
  const files = await deps.database.db.transaction().execute(async (trx) => {
    const sha256s = await referenceFileHashes(trx, template.id);
    await emitTemplateRowEvent(deps, trx, caller, template, 'PROJECT_TEMPLATE_DELETED');
    await deleteTemplateRow(trx, template.id);
    return sha256s;
  });
  await releaseStoredFiles(deps, files);
  deps.taskWakeup.notify();
}

// ---- settings documents

/** Replaces one settings document of a template the caller may edit, in one transaction announcing PROJECT_TEMPLATE_UPDATED. */
export async function replaceTemplateSetting(
  deps: AppDeps,
  caller: Caller,
  template: TemplateRow,
  key: TemplateSettingsKey,
  value: unknown,
): Promise<TemplateSettings> {
  const settings = await deps.database.db.transaction().execute(async (trx) => {
    const written = await writeTemplateSetting(trx, template.id, key, value, deps.clock().toISOString(), caller.userId);
    await emitTemplateEvent(deps, trx, caller, template.id, 'PROJECT_TEMPLATE_UPDATED');
    return written;
  });
  deps.taskWakeup.notify();
  return settings;
}

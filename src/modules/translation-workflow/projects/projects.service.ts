import type { Kysely, Updateable } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { ProjectStatus, ProjectsTable } from '../../../db/tables/projects.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { releaseStoredFiles } from '../../../storage/stored-files.js';
import { jobFileHashes } from '../jobs/index.js';
import { assertLanguage, assertLanguages } from '../../../domain/languages/language-validation.js';
import { assertRequiredValuesSet, writeCustomFieldValues } from '../custom-field-instances/index.js';
import type { CustomFieldInstanceInput } from '../custom-field-instances/index.js';
import type { ProjectAccess, ProjectRow } from '../kernel/index.js';
import { resolveOwner, resolveReference, resolveWorkflowSteps } from '../kernel/index.js';
import type { ProjectReferenceKind } from '../kernel/index.js';
import { emitProjectEvents, parseSettings } from '../kernel/index.js';
import { insertProject, workflowStepIdsOf } from './projects.repository.js';
import { projectTargetLanguages } from '../kernel/index.js';
import { applyMtSettingsUpdate, projectMtOwner, resolveMtSettingsChange } from '../project-mt-settings/index.js';
import { assertLqaProfileExists, lqaProfileUidOf } from '../../organization-setup/lqa-profiles/index.js';
import type { CreateProjectV3Body, EditProjectV2Body, IdReference, PatchProjectBody } from './projects.schemas.js';

/**
 * Project use cases: create, edit (PUT v2/v3 and PATCH v1), status, delete / purge / restore,
 * clone. Each validates everything before it writes, writes in one transaction, and emits its
 * webhook events in that transaction (docs/projects.md).
 */

// ---- shared rules

/** Statuses only the vendor a project is shared with sets (docs/projects.md). */
const VENDOR_STATUSES: readonly ProjectStatus[] = ['ACCEPTED_BY_VENDOR', 'DECLINED_BY_VENDOR', 'COMPLETED_BY_VENDOR'];

/**
 * Whether `access` may move the project to `status`: those who may edit it set the buyer
 * statuses, the vendor it is shared with (`setVendorStatus`) the vendor ones.
 */
export function assertStatusAllowed(access: ProjectAccess, status: ProjectStatus): void {
  const may = access.permissions;
  if (VENDOR_STATUSES.includes(status)) {
    if (may.has('setVendorStatus')) return;
    if (!may.has('edit')) throw errors.AccessDenied({ reason: 'You may see this project but not change it.' });
    throw errors.InvalidArguments({
      reason: `${status} is set by the vendor the project is shared with.`,
      details: [{ field: 'status', message: 'set by the vendor' }],
    });
  }
  if (may.has('edit')) return;
  if (may.has('setVendorStatus')) throw errors.AccessDenied({ reason: `A vendor sets only the statuses ${VENDOR_STATUSES.join(', ')}.` });
  throw errors.AccessDenied({ reason: 'You may see this project but not change it.' });
}

function assertName(name: string, field = 'name'): string {
  if (name.trim() === '')
    throw errors.InvalidArguments({ reason: `${field} must not be blank.`, details: [{ field, message: 'must not be blank' }] });
  return name;
}

type LqaProfileEntry = { workflowStep?: IdReference | undefined; lqaProfile?: { uid: string } | undefined };

/**
 * The LQA profiles `lqaProfiles` assigns, by global workflow step id (docs/lqa-profiles.md,
 * "Assigning profiles"): each entry names one of the project's workflow steps (the global step's id
 * or uid; 400 otherwise, and when a step is named twice) and a profile of the organization (400
 * ReferenceNotFound otherwise). An entry without `lqaProfile` takes the step's profile away.
 */
async function resolveLqaProfiles(
  trx: Kysely<DB>,
  organizationId: string,
  entries: readonly LqaProfileEntry[],
  projectStepIds: readonly string[],
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  for (const [index, entry] of entries.entries()) {
    const field = `lqaProfiles[${index}].workflowStep`;
    const invalid = (message: string) => errors.InvalidArguments({ reason: `${field}: ${message}.`, details: [{ field, message }] });
    if (!entry.workflowStep) throw invalid('is required');
    const [stepId] = await resolveWorkflowSteps(trx, organizationId, field, [entry.workflowStep]);
    if (stepId === undefined || !projectStepIds.includes(stepId)) throw invalid('not a workflow step of the project');
    if (result.has(stepId)) throw invalid('names a workflow step already named');
    result.set(
      stepId,
      entry.lqaProfile ? await assertLqaProfileExists(trx, organizationId, entry.lqaProfile.uid, `lqaProfiles[${index}].lqaProfile`) : null,
    );
  }
  return result;
}

/** Writes `lqaProfile: {uid}` (or removes it) in the settings of the project's steps; whether anything changed. */
async function writeLqaProfiles(trx: Kysely<DB>, projectId: string, profiles: ReadonlyMap<string, string | null>): Promise<boolean> {
  if (profiles.size === 0) return false;
  const steps = await trx
    .selectFrom('projectWorkflowSteps')
    .select(['id', 'workflowStepId', 'settings'])
    .where('projectId', '=', projectId)
    .execute();
  let changed = false;
  for (const step of steps) {
    const uid = profiles.get(step.workflowStepId);
    if (uid === undefined || lqaProfileUidOf(step.settings) === uid) continue;
    const settings = parseSettings(step.settings) as Record<string, unknown>;
    if (uid === null) delete settings.lqaProfile;
    else settings.lqaProfile = { uid };
    await trx
      .updateTable('projectWorkflowSteps')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', step.id)
      .execute();
    changed = true;
  }
  return changed;
}

/** Checks the body's `lqaProfiles` against the project's steps and writes them; whether anything changed. */
async function assignLqaProfiles(
  trx: Kysely<DB>,
  organizationId: string,
  projectId: string,
  entries: readonly LqaProfileEntry[] | undefined,
): Promise<boolean> {
  if (!entries?.length) return false;
  const steps = await trx.selectFrom('projectWorkflowSteps').select('workflowStepId').where('projectId', '=', projectId).execute();
  const profiles = await resolveLqaProfiles(
    trx,
    organizationId,
    entries,
    steps.map((s) => s.workflowStepId),
  );
  return writeLqaProfiles(trx, projectId, profiles);
}

const SETUP_FIELDS = {
  client: 'clientId',
  businessUnit: 'businessUnitId',
  domain: 'domainId',
  subDomain: 'subDomainId',
  costCenter: 'costCenterId',
} as const;
type SetupField = keyof typeof SETUP_FIELDS;

/**
 * The setup-record columns a body sets: a reference resolves to its id, null (or, with
 * `clearMissing`, a field left out) clears it, a field left out otherwise keeps its value.
 */
async function setupReferenceColumns(
  trx: Kysely<DB>,
  organizationId: string,
  body: Partial<Record<SetupField, IdReference | null | undefined>>,
  clearMissing: boolean,
): Promise<Updateable<ProjectsTable>> {
  const columns: Updateable<ProjectsTable> = {};
  for (const [field, column] of Object.entries(SETUP_FIELDS) as [SetupField, (typeof SETUP_FIELDS)[SetupField]][]) {
    const ref = body[field];
    if (ref === undefined && !clearMissing) continue;
    columns[column] = ref ? await resolveReference(trx, organizationId, field as ProjectReferenceKind, field, ref) : null;
  }
  return columns;
}

// ---- create

export async function createProjectV3(deps: AppDeps, caller: Caller, body: CreateProjectV3Body): Promise<ProjectRow> {
  const db = deps.database.db;
  assertName(body.name);
  const sourceLang = assertLanguage('sourceLang', body.sourceLang);
  const targetLangs = assertTargetLangs(sourceLang, body.targetLangs);
  const now = deps.clock().toISOString();
  const project = await db.transaction().execute(async (trx) => {
    const references = await setupReferenceColumns(trx, caller.organizationId, body, false);
    const stepIds = await resolveWorkflowSteps(trx, caller.organizationId, 'workflowSteps', body.workflowSteps ?? []);
    const settings = {
      projectWorkflowSettings: {
        propagateTranslationsToLowerWfDuringUpdateSource: body.propagateTranslationsToLowerWfDuringUpdateSource ?? false,
      },
    };
    const row = await insertProject(trx, {
      organizationId: caller.organizationId,
      name: body.name,
      sourceLang,
      targetLangs,
      workflowStepIds: stepIds,
      // Bots cannot be project owners (description, "Service accounts"): their projects have none.
      ownerId: caller.isBot ? null : caller.userId,
      createdById: caller.userId,
      now,
      fields: {
        ...(references as object),
        purchaseOrder: body.purchaseOrder ?? null,
        dateDue: body.dateDue ? normalizeDate(body.dateDue) : null,
        note: body.note ?? null,
        fileHandover: body.fileHandover ?? false,
        settings: JSON.stringify(settings),
      },
    });
    await assignLqaProfiles(trx, caller.organizationId, row.id, body.lqaProfiles);
    const owner = { kind: 'project' as const, id: row.id, createdAt: row.createdAt };
    await writeCustomFieldValues(deps, trx, caller, owner, body.customFields ?? [], 'add');
    await assertRequiredValuesSet(trx, caller.organizationId, owner);
    await emitProjectEvents(deps, trx, caller, row.id, ['PROJECT_CREATED']);
    return row;
  });
  deps.taskWakeup.notify();
  return project;
}

/** Target languages: supported codes, at least one, none equal to the source language. */
export function assertTargetLangs(sourceLang: string, codes: readonly string[], field = 'targetLangs'): string[] {
  const targets = assertLanguages(field, codes);
  if (targets.length === 0)
    throw errors.InvalidArguments({
      reason: `${field} must name at least one language.`,
      details: [{ field, message: 'must not be empty' }],
    });
  if (targets.includes(sourceLang))
    throw errors.InvalidArguments({
      reason: `${field} must not contain the source language ${sourceLang}.`,
      details: [{ field, message: `contains the source language "${sourceLang}"` }],
    });
  return targets;
}

/** ISO 8601 UTC, as every timestamp on the wire. */
export const normalizeDate = (value: string) => new Date(value).toISOString();

// ---- edit

type EditInput = {
  name?: string | undefined;
  status?: ProjectStatus | undefined;
  owner?: IdReference | undefined;
  purchaseOrder?: string | null | undefined;
  dateDue?: string | null | undefined;
  note?: string | null | undefined;
  fileHandover?: boolean | undefined;
  archived?: boolean | undefined;
  propagate?: boolean | undefined;
  /** PUT only: when given, the project's custom field values become these. */
  customFields?: readonly CustomFieldInstanceInput[] | undefined;
} & Partial<Record<SetupField, IdReference | null | undefined>>;

/** PUT v2 / v3 of a project the caller may edit: the body replaces its editable fields (docs/projects.md, "Edit"). */
export function editProject(deps: AppDeps, caller: Caller, access: ProjectAccess, body: EditProjectV2Body): Promise<ProjectRow> {
  const { lqaProfiles } = body;
  return applyEdit(
    deps,
    caller,
    access,
    {
      ...body,
      purchaseOrder: body.purchaseOrder ?? null,
      dateDue: body.dateDue ?? null,
      note: body.note ?? null,
      fileHandover: body.fileHandover ?? false,
      archived: body.archived ?? false,
      propagate: body.propagateTranslationsToLowerWfDuringUpdateSource ?? false,
    },
    true,
    lqaProfiles?.length ? (trx) => assignLqaProfiles(trx, caller.organizationId, access.project.id, lqaProfiles) : undefined,
  );
}

/**
 * PATCH v1 of a project the caller may edit: fields left out keep their values; null clears.
 * `machineTranslateSettings` / `machineTranslateSettingsPerLangs` change the project's MT settings
 * by the rules of the v3 template operation (project-mt-settings: per-language values win, only
 * the listed languages change), checked before anything is written and written in the same
 * transaction.
 */
export async function patchProject(deps: AppDeps, caller: Caller, access: ProjectAccess, body: PatchProjectBody): Promise<ProjectRow> {
  const { machineTranslateSettings, machineTranslateSettingsPerLangs, ...fields } = body;
  if (machineTranslateSettings === undefined && !machineTranslateSettingsPerLangs?.length)
    return applyEdit(deps, caller, access, fields, false);
  const db = deps.database.db;
  const owner = await projectMtOwner(db, access.project);
  const update = await resolveMtSettingsChange(db, owner, { machineTranslateSettings, machineTranslateSettingsPerLangs });
  return applyEdit(deps, caller, access, fields, false, (trx) => applyMtSettingsUpdate(trx, owner, update));
}

const METADATA_COLUMNS = [
  'name',
  'clientId',
  'businessUnitId',
  'domainId',
  'subDomainId',
  'costCenterId',
  'ownerId',
  'purchaseOrder',
  'note',
  'fileHandover',
  'archived',
  'settings',
] as const;

/** Which events an edit causes, comparing the row before and after. */
export function editEvents(before: ProjectRow, after: ProjectRow): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  if (before.status !== after.status) events.push('PROJECT_STATUS_CHANGED');
  if (before.dateDue !== after.dateDue) events.push('PROJECT_DUE_DATE_CHANGED');
  const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');
  if (METADATA_COLUMNS.some((c) => !same(before[c], after[c]))) events.push('PROJECT_METADATA_UPDATED');
  return events;
}

/** `alsoWrite` writes what lives outside the project row in the edit's transaction and answers whether it changed anything. */
async function applyEdit(
  deps: AppDeps,
  caller: Caller,
  access: ProjectAccess,
  input: EditInput,
  replace: boolean,
  alsoWrite?: (trx: Kysely<DB>) => Promise<boolean>,
): Promise<ProjectRow> {
  const db = deps.database.db;
  if (input.name !== undefined) assertName(input.name);
  const before = access.project;
  if (input.status !== undefined && input.status !== before.status) assertStatusAllowed(access, input.status);
  const now = deps.clock().toISOString();
  const after = await db.transaction().execute(async (trx) => {
    const changes: Updateable<ProjectsTable> = {
      ...(await setupReferenceColumns(trx, caller.organizationId, input, replace)),
      lastModifiedAt: now,
      lastModifiedById: caller.userId,
    };
    if (input.name !== undefined) changes.name = input.name;
    if (input.status !== undefined) changes.status = input.status;
    if (input.owner !== undefined) changes.ownerId = await resolveOwner(trx, caller.organizationId, 'owner', input.owner);
    if (input.purchaseOrder !== undefined) changes.purchaseOrder = input.purchaseOrder;
    if (input.dateDue !== undefined) changes.dateDue = input.dateDue === null ? null : normalizeDate(input.dateDue);
    if (input.note !== undefined) changes.note = input.note;
    if (input.fileHandover !== undefined) changes.fileHandover = input.fileHandover;
    if (input.archived !== undefined) changes.archived = input.archived;
    if (input.propagate !== undefined) {
      const settings = parseSettings(before.settings);
      settings.projectWorkflowSettings = { propagateTranslationsToLowerWfDuringUpdateSource: input.propagate };
      changes.settings = JSON.stringify(settings);
    }
    const row = await trx.updateTable('projects').set(changes).where('id', '=', before.id).returningAll().executeTakeFirstOrThrow();
    if (input.customFields !== undefined)
      await writeCustomFieldValues(
        deps,
        trx,
        caller,
        { kind: 'project', id: row.id, createdAt: row.createdAt },
        input.customFields,
        'replace',
      );
    const events = editEvents(before, row);
    const changedElsewhere = alsoWrite ? await alsoWrite(trx) : false;
    if ((input.customFields !== undefined || changedElsewhere) && !events.includes('PROJECT_METADATA_UPDATED'))
      events.push('PROJECT_METADATA_UPDATED');
    await emitProjectEvents(deps, trx, caller, row.id, events);
    return row;
  });
  deps.taskWakeup.notify();
  return after;
}

// ---- status

/** Moves a project the caller sees to `status`, when assertStatusAllowed lets them. */
export async function setProjectStatus(deps: AppDeps, caller: Caller, access: ProjectAccess, status: ProjectStatus): Promise<void> {
  const db = deps.database.db;
  assertStatusAllowed(access, status);
  if (access.project.status === status) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('projects')
      .set({ status, lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
      .where('id', '=', access.project.id)
      .execute();
    await emitProjectEvents(deps, trx, caller, access.project.id, ['PROJECT_STATUS_CHANGED']);
  });
  deps.taskWakeup.notify();
}

// ---- delete, purge, restore

/**
 * Soft delete (the project goes to the recycle bin) or, with `purge`, removal of the project and
 * its files for good, also from the recycle bin (the route reaches deleted projects too: a project
 * already in the bin is found only to purge it).
 */
export async function deleteProject(deps: AppDeps, caller: Caller, access: ProjectAccess, purge: boolean): Promise<void> {
  const db = deps.database.db;
  const project = access.project;
  if (!purge && project.deletedAt !== null) throw errors.ResourceNotFound({ what: 'Project' });
  const projectId = project.id;
  const sha256s = await db.transaction().execute(async (trx) => {
    if (project.deletedAt === null) await emitProjectEvents(deps, trx, caller, projectId, ['PROJECT_DELETED']);
    if (!purge) {
      await trx
        .updateTable('projects')
        .set({ deletedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
        .where('id', '=', projectId)
        .execute();
      return [];
    }
    const files = await projectFileHashes(trx, projectId);
    await trx.deleteFrom('jobs').where('projectId', '=', projectId).execute();
    await trx.deleteFrom('projects').where('id', '=', projectId).execute();
    return files;
  });
  deps.taskWakeup.notify();
  await releaseStoredFiles(deps, sha256s);
}

/** Every stored file the project's records hold: job sources, the jobs' own files (target, handover), reference files, preview packages. */
async function projectFileHashes(trx: Kysely<DB>, projectId: string): Promise<string[]> {
  const sources = await trx.selectFrom('jobSources').select('sha256').where('projectId', '=', projectId).execute();
  const jobs = await trx.selectFrom('jobs').select('id').where('projectId', '=', projectId).execute();
  const jobFiles = await jobFileHashes(
    trx,
    jobs.map((j) => j.id),
  );
  const references = await trx.selectFrom('referenceFiles').select('sha256').where('projectId', '=', projectId).execute();
  const previewAssets = await trx
    .selectFrom('jobPreviewAssets')
    .innerJoin('jobPreviewPackages', 'jobPreviewPackages.id', 'jobPreviewAssets.packageId')
    .select('jobPreviewAssets.sha256')
    .where('jobPreviewPackages.projectId', '=', projectId)
    .execute();
  return [...sources.map((r) => r.sha256), ...jobFiles, ...references.map((r) => r.sha256), ...previewAssets.map((r) => r.sha256)];
}

/** Brings a project back from the recycle bin and out of the archive (docs/projects.md). */
export async function restoreProject(deps: AppDeps, caller: Caller, access: ProjectAccess): Promise<ProjectRow> {
  const db = deps.database.db;
  const project = access.project;
  if (project.deletedAt === null && !bool(project.archived)) return project;
  const row = await db.transaction().execute(async (trx) => {
    const restored = await trx
      .updateTable('projects')
      .set({ deletedAt: null, archived: false, lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitProjectEvents(deps, trx, caller, project.id, ['PROJECT_METADATA_UPDATED']);
    return restored;
  });
  deps.taskWakeup.notify();
  return row;
}

// ---- clone

/**
 * A new project with the languages, workflow steps, setup references and settings of a project
 * the caller sees, owned by the caller, status NEW; jobs, reference files, providers and the
 * vendor are not copied (the table's `clone`: a vendor's users do not clone the buyer's projects).
 */
export async function cloneProject(deps: AppDeps, caller: Caller, access: ProjectAccess, name: string): Promise<ProjectRow> {
  const db = deps.database.db;
  assertName(name);
  const source = access.project;
  const now = deps.clock().toISOString();
  const clone = await db.transaction().execute(async (trx) => {
    const row = await insertProject(trx, {
      organizationId: caller.organizationId,
      name,
      sourceLang: source.sourceLang,
      targetLangs: await projectTargetLanguages(trx, source.id),
      workflowStepIds: await workflowStepIdsOf(trx, source.id),
      ownerId: caller.isBot ? null : caller.userId,
      createdById: caller.userId,
      now,
      fields: {
        clientId: source.clientId,
        businessUnitId: source.businessUnitId,
        costCenterId: source.costCenterId,
        domainId: source.domainId,
        subDomainId: source.subDomainId,
        templateId: source.templateId,
        purchaseOrder: source.purchaseOrder,
        dateDue: source.dateDue,
        note: source.note,
        fileHandover: source.fileHandover,
        settings: source.settings,
      },
    });
    await emitProjectEvents(deps, trx, caller, row.id, ['PROJECT_CREATED']);
    return row;
  });
  deps.taskWakeup.notify();
  return clone;
}

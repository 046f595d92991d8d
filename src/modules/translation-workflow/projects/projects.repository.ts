import { sql } from 'kysely';
import type { Insertable, Kysely } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ProjectsTable } from '../../../db/tables/projects.js';
import { containsText } from '../../../db/text-match.js';
import type { Caller } from '../../../http/access.js';
import type { JobRow, ProjectRow, TemplateRow } from '../kernel/index.js';
import { visibleTemplates } from '../kernel/index.js';
import { organizationDefaultImportSettings } from '../../organization-setup/import-settings/index.js';

/**
 * Projects' rows: the one insert every way of making a project goes through (create v3, clone,
 * apply template, test factories), and the queries of the project operations on a project the
 * caller already reached through the kernel. Validation of what goes in is the caller's job; this
 * only reads and writes rows, writes in the caller's transaction.
 */

export interface NewProject {
  organizationId: Id;
  name: string;
  sourceLang: string;
  /** Canonical codes, in order, without repeats. */
  targetLangs: readonly string[];
  /** Global workflow step ids, in workflow order (level 1, 2, …). */
  workflowStepIds: readonly Id[];
  ownerId: Id | null;
  createdById: Id | null;
  now: string;
  fields?: Partial<
    Pick<
      Insertable<ProjectsTable>,
      | 'status'
      | 'clientId'
      | 'businessUnitId'
      | 'costCenterId'
      | 'domainId'
      | 'subDomainId'
      | 'vendorId'
      | 'templateId'
      | 'purchaseOrder'
      | 'dateDue'
      | 'note'
      | 'fileHandover'
      | 'settings'
    >
  >;
}

/** The organization's next project `internalId` (1, 2, …), taken in the caller's transaction. */
export async function nextProjectInternalId(trx: Kysely<DB>, organizationId: Id): Promise<number> {
  const row = await trx
    .updateTable('organizations')
    .set({ lastProjectInternalId: sql<number>`last_project_internal_id + 1` })
    .where('id', '=', organizationId)
    .returning('lastProjectInternalId')
    .executeTakeFirstOrThrow();
  return Number(row.lastProjectInternalId);
}

/** Inserts a project with its target languages and project-specific workflow steps. */
export async function insertProject(trx: Kysely<DB>, input: NewProject): Promise<ProjectRow> {
  const internalId = await nextProjectInternalId(trx, input.organizationId);
  const settings = await withDefaultImportSettings(trx, input.organizationId, input.fields?.settings);
  const project = await trx
    .insertInto('projects')
    .values({
      uid: newUid(),
      organizationId: input.organizationId,
      internalId,
      name: input.name,
      sourceLang: input.sourceLang,
      ownerId: input.ownerId === null ? null : input.ownerId,
      createdAt: input.now,
      createdById: input.createdById === null ? null : input.createdById,
      lastModifiedAt: input.now,
      lastModifiedById: input.createdById === null ? null : input.createdById,
      clientId: null,
      businessUnitId: null,
      costCenterId: null,
      domainId: null,
      subDomainId: null,
      vendorId: null,
      templateId: null,
      purchaseOrder: null,
      dateDue: null,
      note: null,
      deletedAt: null,
      ...input.fields,
      ...(settings === undefined ? {} : { settings }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await replaceTargetLanguages(trx, project.id, input.targetLangs);
  await appendWorkflowSteps(trx, project.id, input.workflowStepIds);
  return project;
}

/**
 * The settings a new project is stored with: those given, with the organization's default import
 * settings as `importSettings` when they give none and the organization has stored a default
 * (docs/import-settings-and-file-types.md); unchanged otherwise (the system defaults apply).
 */
async function withDefaultImportSettings(trx: Kysely<DB>, organizationId: Id, given: string | undefined): Promise<string | undefined> {
  let settings: Record<string, unknown> = {};
  if (given !== undefined) {
    try {
      const parsed: unknown = JSON.parse(given);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return given;
      settings = parsed as Record<string, unknown>;
    } catch {
      return given;
    }
  }
  if (settings.importSettings !== undefined) return given;
  const document = await organizationDefaultImportSettings(trx, organizationId);
  return document === null ? given : JSON.stringify({ ...settings, importSettings: document });
}

/** Sets the project's target languages to `langs`, in that order. */
export async function replaceTargetLanguages(trx: Kysely<DB>, projectId: Id, langs: readonly string[]): Promise<void> {
  await trx.deleteFrom('projectTargetLanguages').where('projectId', '=', projectId).execute();
  if (langs.length === 0) return;
  await trx
    .insertInto('projectTargetLanguages')
    .values(langs.map((targetLang, position) => ({ projectId: projectId, targetLang, position })))
    .execute();
}

/** Adds global workflow steps after the project's last one; returns the new project step ids. */
export async function appendWorkflowSteps(trx: Kysely<DB>, projectId: Id, workflowStepIds: readonly Id[]): Promise<string[]> {
  if (workflowStepIds.length === 0) return [];
  const last = await trx
    .selectFrom('projectWorkflowSteps')
    .select((eb) => eb.fn.max('workflowLevel').as('level'))
    .where('projectId', '=', projectId)
    .executeTakeFirst();
  const start = Number(last?.level ?? 0);
  const rows = await trx
    .insertInto('projectWorkflowSteps')
    .values(
      workflowStepIds.map((workflowStepId, i) => ({
        projectId: projectId,
        workflowStepId: workflowStepId,
        workflowLevel: start + i + 1,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The project's global workflow step ids, by workflow level. */
export async function workflowStepIdsOf(db: Kysely<DB>, projectId: Id): Promise<string[]> {
  const rows = await db
    .selectFrom('projectWorkflowSteps')
    .select('workflowStepId')
    .where('projectId', '=', projectId)
    .orderBy('workflowLevel')
    .execute();
  return rows.map((r) => r.workflowStepId);
}

/**
 * The project's workflow steps with their global steps, by workflow level; with
 * `assignedToUserId`, only the steps with a job that user is a provider of.
 */
export function projectWorkflowStepRows(db: Kysely<DB>, projectId: Id, assignedToUserId?: Id) {
  let query = db
    .selectFrom('projectWorkflowSteps as pws')
    .innerJoin('workflowSteps as ws', 'ws.id', 'pws.workflowStepId')
    .select(['pws.id', 'pws.workflowLevel', 'ws.id as stepId', 'ws.uid', 'ws.name', 'ws.abbr', 'ws.orderIndex', 'ws.lqaEnabled'])
    .where('pws.projectId', '=', projectId)
    .orderBy('pws.workflowLevel');
  if (assignedToUserId !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('jobs')
          .innerJoin('jobProviders', 'jobProviders.jobId', 'jobs.id')
          .select('jobs.id')
          .whereRef('jobs.projectWorkflowStepId', '=', 'pws.id')
          .where('jobProviders.userId', '=', assignedToUserId),
      ),
    );
  }
  return query.execute();
}

export interface ProviderRow {
  type: 'USER' | 'VENDOR';
  id: string;
  uid: string;
  name: string;
}

/** The distinct providers (users and vendors) of the project's jobs, by name. */
export async function projectProviders(db: Kysely<DB>, projectId: Id, providerName: string | undefined): Promise<ProviderRow[]> {
  let users = db
    .selectFrom('jobProviders')
    .innerJoin('jobs', 'jobs.id', 'jobProviders.jobId')
    .innerJoin('users', 'users.id', 'jobProviders.userId')
    .select(['users.id', 'users.uid', 'users.userName', 'users.firstName', 'users.lastName'])
    .where('jobs.projectId', '=', projectId)
    .distinct();
  let vendors = db
    .selectFrom('jobProviders')
    .innerJoin('jobs', 'jobs.id', 'jobProviders.jobId')
    .innerJoin('vendors', 'vendors.id', 'jobProviders.vendorId')
    .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select(['vendors.id', 'vendors.uid', 'organizations.name'])
    .where('jobs.projectId', '=', projectId)
    .distinct();
  if (providerName) {
    users = users.where((eb) =>
      eb.or([
        containsText('users.userName', providerName),
        containsText('users.firstName', providerName),
        containsText('users.lastName', providerName),
      ]),
    );
    vendors = vendors.where(containsText('organizations.name', providerName));
  }
  const rows: ProviderRow[] = [
    ...(await users.execute()).map((u) => ({
      type: 'USER' as const,
      id: u.id,
      uid: u.uid,
      name: `${u.firstName} ${u.lastName}`.trim() || u.userName,
    })),
    ...(await vendors.execute()).map((v) => ({ type: 'VENDOR' as const, id: v.id, uid: v.uid, name: v.name })),
  ];
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type) || Number(a.id) - Number(b.id));
}

/** Records who changed the project and when. */
export async function touchProject(trx: Kysely<DB>, projectId: Id, now: string, userId: Id): Promise<void> {
  await trx.updateTable('projects').set({ lastModifiedAt: now, lastModifiedById: userId }).where('id', '=', projectId).execute();
}

/** Shares the project with the vendor (null: with none) and, when `dateDue` is given, sets its due date. */
export async function setProjectVendor(trx: Kysely<DB>, projectId: Id, vendorId: Id | null, dateDue: string | undefined): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ vendorId, ...(dateDue !== undefined ? { dateDue } : {}) })
    .where('id', '=', projectId)
    .execute();
}

/** Which of `uids` are vendors of the organization. */
export async function vendorUidsAmong(db: Kysely<DB>, organizationId: Id, uids: readonly string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const rows = await db
    .selectFrom('vendors')
    .select('uid')
    .where('buyerOrganizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
  return new Set(rows.map((r) => r.uid));
}

/**
 * The templates a project of `sourceLang` may take, by name: those whose source language is the
 * project's or that have none, among the templates the caller may use (all of them for submitters).
 */
export function assignableTemplateRows(db: Kysely<DB>, caller: Caller, sourceLang: string): Promise<TemplateRow[]> {
  return db
    .selectFrom('projectTemplates')
    .selectAll()
    .where('organizationId', '=', caller.organizationId)
    .where((eb) => eb.or([eb('sourceLang', 'is', null), eb('sourceLang', '=', sourceLang)]))
    .$if(caller.role !== 'SUBMITTER', (query) => query.where((eb) => visibleTemplates(eb, caller)))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The project's jobs (only those of `uids`, when given), by id. */
export function jobsOfProject(db: Kysely<DB>, projectId: Id, uids: readonly string[] | null): Promise<JobRow[]> {
  let query = db.selectFrom('jobs').selectAll().where('projectId', '=', projectId).orderBy('id');
  if (uids) query = query.where('uid', 'in', [...uids]);
  return query.execute();
}

/** The jobs with these ids, by id. */
export function jobsByIds(db: Kysely<DB>, ids: readonly Id[]): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', 'in', ids.length ? [...ids] : ['0'])
    .orderBy('id')
    .execute();
}

import { sql } from 'kysely';
import type { Insertable, Kysely } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ProjectsTable } from '../../../db/tables/projects.js';
import type { ProjectRow } from '../kernel/index.js';

/**
 * Writing projects: the one insert every way of making a project goes through (create v3, clone,
 * apply template, test factories). Validation of what goes in is the caller's job; this only
 * writes rows, in the caller's transaction.
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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await replaceTargetLanguages(trx, project.id, input.targetLangs);
  await appendWorkflowSteps(trx, project.id, input.workflowStepIds);
  return project;
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

import { sql } from 'kysely';
import type { Insertable, Kysely } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ProjectTemplatesTable } from '../../../db/tables/setup-records.js';
import { containsText } from '../../../db/text-match.js';
import type { Caller } from '../../../http/access.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { TemplateRow } from '../kernel/index.js';
import { visibleTemplates } from '../kernel/index.js';
import type { TemplateListQuery } from './project-templates.schemas.js';

/** Storage of project templates, their workflow steps and the providers they name. */

/** A template's step as written: the global step, and its per-step settings (notifyProvider, lqaProfile). */
export interface TemplateStepInput {
  workflowStepId: string;
  settings: Record<string, unknown>;
}

/** A provider the template names: for a step (index into the steps; null without workflow) and a language (null = all). */
export interface TemplateAssignmentInput {
  stepIndex: number | null;
  targetLang: string | null;
  userId: string | null;
  vendorId: string | null;
}

/** The stored files of the template's reference files (released after the template goes). */
export async function referenceFileHashes(db: Kysely<DB>, templateId: Id): Promise<string[]> {
  const rows = await db.selectFrom('referenceFiles').select('sha256').where('templateId', '=', templateId).execute();
  return rows.map((r) => r.sha256);
}

/** Deletes the template row; what depends on it follows the schema's foreign keys (cascade, or set null for projects). */
export async function deleteTemplateRow(trx: Kysely<DB>, templateId: Id): Promise<void> {
  await trx.deleteFrom('projectTemplates').where('id', '=', templateId).execute();
}

export async function insertTemplate(trx: Kysely<DB>, values: Insertable<ProjectTemplatesTable>): Promise<TemplateRow> {
  return trx.insertInto('projectTemplates').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Replaces the template's workflow steps (levels 1, 2, … in the given order) and the providers it names. */
export async function replaceTemplateWorkflow(
  trx: Kysely<DB>,
  templateId: Id,
  steps: readonly TemplateStepInput[],
  assignments: readonly TemplateAssignmentInput[],
): Promise<void> {
  await trx.deleteFrom('templateAssignments').where('templateId', '=', templateId).execute();
  await trx.deleteFrom('templateWorkflowSteps').where('templateId', '=', templateId).execute();
  const stepIds: string[] = [];
  for (const [index, step] of steps.entries()) {
    const row = await trx
      .insertInto('templateWorkflowSteps')
      .values({
        templateId: templateId,
        workflowStepId: step.workflowStepId,
        workflowLevel: index + 1,
        settings: JSON.stringify(step.settings),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    stepIds.push(row.id);
  }
  if (assignments.length === 0) return;
  await trx
    .insertInto('templateAssignments')
    .values(
      assignments.map((a) => ({
        templateId: templateId,
        templateWorkflowStepId: a.stepIndex === null ? null : stepIds[a.stepIndex]!,
        targetLang: a.targetLang,
        userId: a.userId,
        vendorId: a.vendorId,
      })),
    )
    .execute();
}

/** Templates whose named setup record matches `name` (part of it, ignoring case). */
function namedIn(table: 'clients' | 'domains' | 'subDomains' | 'costCenters' | 'businessUnits', name: string) {
  return (db: Kysely<DB>) =>
    db
      .selectFrom(table)
      .select(`${table}.id` as 'clients.id')
      .where(containsText(`${table}.name`, name));
}

/** The templates `caller` sees that match the list filters of getProjectTemplates, one page. */
export async function listTemplates(
  db: Kysely<DB>,
  caller: Caller,
  query: TemplateListQuery,
  page: PageRequest,
): Promise<{ rows: TemplateRow[]; total: number }> {
  let q = db.selectFrom('projectTemplates').where((eb) => visibleTemplates(eb, caller));
  if (query.name) q = q.where(containsText('projectTemplates.name', query.name));
  if (query.clientId !== undefined) q = q.where('projectTemplates.clientId', '=', String(query.clientId));
  if (query.costCenterId !== undefined) q = q.where('projectTemplates.costCenterId', '=', String(query.costCenterId));
  if (query.ownerUid)
    q = q.where('projectTemplates.ownerId', 'in', db.selectFrom('users').select('users.id').where('users.uid', '=', query.ownerUid));
  const byName = [
    ['clientName', 'clients', 'clientId'],
    ['domainName', 'domains', 'domainId'],
    ['subDomainName', 'subDomains', 'subDomainId'],
    ['costCenterName', 'costCenters', 'costCenterId'],
    ['businessUnitName', 'businessUnits', 'businessUnitId'],
  ] as const;
  for (const [param, table, column] of byName) {
    const name = query[param];
    if (name) q = q.where(`projectTemplates.${column}`, 'in', namedIn(table, name)(db));
  }
  const { total } = await q.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const sorted =
    query.sort === 'templateName'
      ? q.orderBy(sql`lower(project_templates.name)`, query.direction)
      : q.orderBy('projectTemplates.createdAt', query.direction);
  const rows = await sorted
    .orderBy('projectTemplates.id', query.direction)
    .selectAll('projectTemplates')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: num(total) };
}

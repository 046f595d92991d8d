import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import { bool, num } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { ServicesTable } from '../../../db/tables/vendors.js';
import { containsText } from '../../../db/text-match.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import { userReferenceLookup } from '../../identity/users/index.js';
import { inWorkflowOrder, priceListReferences, workflowStepReferences } from '../setup-records/index.js';
import type { ServiceSchema } from './services.schemas.js';

export type ServiceRow = Selectable<ServicesTable>;

export function findService(db: Kysely<DB>, organizationId: string, uid: string): Promise<ServiceRow | undefined> {
  return db.selectFrom('services').selectAll().where('organizationId', '=', organizationId).where('uid', '=', uid).executeTakeFirst();
}

export function findServicesByUids(db: Kysely<DB>, organizationId: string, uids: string[]): Promise<ServiceRow[]> {
  return db.selectFrom('services').selectAll().where('organizationId', '=', organizationId).where('uid', 'in', uids).execute();
}

/** Whether another service of the organization has this name, ignoring case. */
export async function serviceNameTaken(db: Kysely<DB>, organizationId: string, name: string, exceptId?: Id): Promise<boolean> {
  let query = db
    .selectFrom('services')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function listServices(
  db: Kysely<DB>,
  organizationId: string,
  filter: { name?: string | undefined; active?: boolean | undefined },
  page: PageRequest,
): Promise<{ rows: ServiceRow[]; total: number }> {
  let query = db.selectFrom('services').where('organizationId', '=', organizationId);
  if (filter.name) query = query.where(containsText('name', filter.name));
  if (filter.active !== undefined) query = query.where('active', '=', filter.active);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}

/** Replaces the service's workflow steps (ids already checked to be the organization's). */
export async function replaceServiceWorkflowSteps(db: Kysely<DB>, serviceId: Id, workflowStepIds: string[]): Promise<void> {
  await db.deleteFrom('serviceWorkflowSteps').where('serviceId', '=', serviceId).execute();
  if (workflowStepIds.length) {
    await db
      .insertInto('serviceWorkflowSteps')
      .values(workflowStepIds.map((workflowStepId) => ({ serviceId, workflowStepId })))
      .execute();
  }
}

/** The project template `uid` of the organization, or undefined. */
export function findProjectTemplate(db: Kysely<DB>, organizationId: string, uid: string) {
  return db
    .selectFrom('projectTemplates')
    .select(['id', 'uid', 'name'])
    .where('organizationId', '=', organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

export async function toServiceDtos(db: Kysely<DB>, organizationId: string, rows: ServiceRow[]): Promise<Static<typeof ServiceSchema>[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length ? await db.selectFrom('serviceWorkflowSteps').selectAll().where('serviceId', 'in', ids).execute() : [];
  const templateIds = [
    ...new Set(
      rows
        .map((r) => r.projectTemplateId)
        .filter((id): id is Id => id !== null)
        .map(String),
    ),
  ];
  const [users, steps, templates, priceLists] = await Promise.all([
    userReferenceLookup(
      db,
      organizationId,
      rows.flatMap((r) => [r.createdById, r.lastModifiedById]),
    ),
    workflowStepReferences(
      db,
      links.map((l) => l.workflowStepId),
    ),
    templateIds.length
      ? db.selectFrom('projectTemplates').select(['id', 'uid', 'name']).where('id', 'in', templateIds).execute()
      : Promise.resolve([]),
    priceListReferences(
      db,
      organizationId,
      rows.map((r) => r.priceListId),
    ),
  ]);
  const templateById = new Map(templates.map((t) => [t.id, { id: t.id, uid: t.uid, name: t.name }]));
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.name,
    description: row.description,
    active: bool(row.active),
    workflowSteps: inWorkflowOrder(
      links
        .filter((l) => l.serviceId === row.id)
        .map((l) => steps.get(l.workflowStepId))
        .filter((s) => s !== undefined),
    ),
    priceList: row.priceListId === null ? null : (priceLists.get(String(row.priceListId)) ?? null),
    projectTemplate: row.projectTemplateId === null ? null : (templateById.get(row.projectTemplateId) ?? null),
    createdBy: users(row.createdById),
    dateCreated: row.createdAt,
    lastModifiedBy: users(row.lastModifiedById),
    dateModified: row.lastModifiedAt,
  }));
}

export function insertService(db: Kysely<DB>, values: Omit<Insertable<ServicesTable>, 'uid'>): Promise<ServiceRow> {
  return db
    .insertInto('services')
    .values({ uid: newUid(), ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateService(db: Kysely<DB>, id: Id, changes: Updateable<ServicesTable>): Promise<ServiceRow> {
  return db.updateTable('services').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteServicesByIds(db: Kysely<DB>, ids: Id[]): Promise<void> {
  await db.deleteFrom('services').where('id', 'in', ids).execute();
}

import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB, Id } from '../../../db/schema.js';
import type { TransMemoriesTable } from '../../../db/tables/translation-memories.js';
import { holdsRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';

/** Translation memory records (docs/translation-memory.md, "Records" and "Access"). */

export type TransMemoryRow = Selectable<TransMemoriesTable>;

/**
 * The caller's client and business unit lists that narrow a project manager's view (the same
 * lists as for projects: `projectClients`, `projectBusinessUnits`; empty = no narrowing).
 */
function managerLists(caller: Caller) {
  const lists = caller.role === 'PROJECT_MANAGER' ? (caller.settings?.referenceLists ?? {}) : {};
  return { clientUids: lists['projectClients'] ?? [], businessUnitUids: lists['projectBusinessUnits'] ?? [] };
}

/**
 * The TMs the caller sees, in SQL: the organization's; a project manager without
 * `transMemoryViewOther` only the TMs they created or own, and with client or business unit lists
 * only the TMs of those (and their own); a guest the TMs of the guest's client.
 */
export function visibleTo(eb: ExpressionBuilder<DB, 'transMemories'>, caller: Caller) {
  const conditions = [eb('transMemories.organizationId', '=', caller.organizationId), eb('transMemories.deletedAt', 'is', null)];
  if (caller.role === 'GUEST') {
    conditions.push(
      eb('transMemories.clientId', 'in', eb.selectFrom('users').select('users.guestClientId').where('users.id', '=', caller.userId)),
    );
  }
  const own = eb.or([eb('transMemories.createdById', '=', caller.userId), eb('transMemories.ownerId', '=', caller.userId)]);
  if (!holdsRight(caller.role, caller.settings, 'transMemoryViewOther')) conditions.push(own);
  const { clientUids, businessUnitUids } = managerLists(caller);
  const narrowed = [];
  if (clientUids.length) {
    narrowed.push(eb('transMemories.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', clientUids)));
  }
  if (businessUnitUids.length) {
    narrowed.push(
      eb(
        'transMemories.businessUnitId',
        'in',
        eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', businessUnitUids),
      ),
    );
  }
  if (narrowed.length) {
    conditions.push(eb.or([eb.and(narrowed), own]));
  }
  return eb.and(conditions);
}

/** A TM the caller sees, by uid; undefined otherwise (another organization's is simply not there). */
export async function findVisibleTransMemory(db: Kysely<DB>, caller: Caller, uid: string): Promise<TransMemoryRow | undefined> {
  return db
    .selectFrom('transMemories')
    .selectAll()
    .where('uid', '=', uid)
    .where((eb) => visibleTo(eb, caller))
    .executeTakeFirst();
}

/** TMs of an organization by uid (not deleted), for the settings of projects and templates. */
export async function transMemoriesByUids(db: Kysely<DB>, organizationId: Id, uids: readonly string[]): Promise<TransMemoryRow[]> {
  if (uids.length === 0) return [];
  return db
    .selectFrom('transMemories')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where('uid', 'in', [...new Set(uids)])
    .execute();
}

export async function transMemoriesByIds(db: Kysely<DB>, ids: readonly Id[]): Promise<TransMemoryRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('transMemories')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where('deletedAt', 'is', null)
    .execute();
}

export interface TransMemoryFilter {
  name?: string | undefined;
  sourceLang?: string | undefined;
  targetLang?: string | undefined;
  clientId?: Id | undefined;
  domainId?: Id | undefined;
  subDomainId?: Id | undefined;
  businessUnitId?: Id | undefined;
  /** Only TMs whose target languages include one of these (relevant TMs of a project). */
  anyTargetLang?: readonly string[] | undefined;
}

/** One page of the TMs the caller sees, by name then id, with the total. */
export async function listVisibleTransMemories(
  db: Kysely<DB>,
  caller: Caller,
  filter: TransMemoryFilter,
  page: PageRequest,
): Promise<{ rows: TransMemoryRow[]; total: number }> {
  let query = db.selectFrom('transMemories').where((eb) => visibleTo(eb, caller));
  if (filter.name) query = query.where('transMemories.name', 'like', `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filter.sourceLang) query = query.where('transMemories.sourceLang', '=', filter.sourceLang);
  if (filter.targetLang) query = query.where('transMemories.targetLangs', 'like', `%"${filter.targetLang}"%`);
  if (filter.clientId) query = query.where('transMemories.clientId', '=', filter.clientId);
  if (filter.domainId) query = query.where('transMemories.domainId', '=', filter.domainId);
  if (filter.subDomainId) query = query.where('transMemories.subDomainId', '=', filter.subDomainId);
  if (filter.businessUnitId) query = query.where('transMemories.businessUnitId', '=', filter.businessUnitId);
  if (filter.anyTargetLang?.length) {
    query = query.where((eb) => eb.or(filter.anyTargetLang!.map((lang) => eb('transMemories.targetLangs', 'like', `%"${lang}"%`))));
  }
  const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query
    .selectAll('transMemories')
    .orderBy('transMemories.name')
    .orderBy('transMemories.id')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows, total: Number(count) };
}

export interface NewTransMemory {
  organizationId: Id;
  name: string;
  sourceLang: string;
  targetLangs: string[];
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  note: string | null;
  createdById: Id;
  now: string;
}

export async function insertTransMemory(trx: Kysely<DB>, record: NewTransMemory): Promise<TransMemoryRow> {
  const { lastTransMemoryInternalId } = await trx
    .updateTable('organizations')
    .set((eb) => ({ lastTransMemoryInternalId: eb('lastTransMemoryInternalId', '+', 1) }))
    .where('id', '=', record.organizationId)
    .returning('lastTransMemoryInternalId')
    .executeTakeFirstOrThrow();
  return trx
    .insertInto('transMemories')
    .values({
      uid: newUid(),
      organizationId: record.organizationId,
      internalId: lastTransMemoryInternalId,
      name: record.name,
      sourceLang: record.sourceLang,
      targetLangs: JSON.stringify(record.targetLangs),
      clientId: record.clientId,
      businessUnitId: record.businessUnitId,
      domainId: record.domainId,
      subDomainId: record.subDomainId,
      note: record.note,
      createdAt: record.now,
      createdById: record.createdById,
      ownerId: record.createdById,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type TransMemoryChanges = Partial<
  Pick<TransMemoryRow, 'name' | 'clientId' | 'businessUnitId' | 'domainId' | 'subDomainId' | 'ownerId' | 'note' | 'lastAsyncRequestId'>
> & { targetLangs?: string[] };

export async function updateTransMemory(trx: Kysely<DB>, id: Id, changes: TransMemoryChanges): Promise<TransMemoryRow> {
  const { targetLangs, ...rest } = changes;
  return trx
    .updateTable('transMemories')
    .set({ ...rest, ...(targetLangs ? { targetLangs: JSON.stringify(targetLangs) } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a TM with its units and its places in projects and templates (foreign keys cascade). */
export async function deleteTransMemoryRows(trx: Kysely<DB>, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('tmUnits')
    .where('tmId', 'in', [...ids])
    .execute();
  await trx
    .deleteFrom('transMemories')
    .where('id', 'in', [...ids])
    .execute();
}

export function targetLangsOf(row: Pick<TransMemoryRow, 'targetLangs'>): string[] {
  try {
    const parsed = JSON.parse(row.targetLangs) as unknown;
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** The `*Other` rights on TMs: what a project manager (or guest) needs on a TM someone else created and owns. */
export type TransMemoryRight = 'transMemoryEditOther' | 'transMemoryDeleteOther' | 'transMemoryExportOther' | 'transMemoryImportOther';

/** Whether the caller may do what `right` covers on `tm` (its own TMs always; others' with the right). */
export function mayOnTransMemory(caller: Caller, tm: Pick<TransMemoryRow, 'createdById' | 'ownerId'>, right: TransMemoryRight): boolean {
  if (tm.createdById === caller.userId || tm.ownerId === caller.userId) return true;
  return holdsRight(caller.role, caller.settings, right);
}

import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { newUid } from '../../../db/ids.js';
import { containsText } from '../../../db/text-match.js';
import type { DB, Id } from '../../../db/schema.js';
import type { TermBasesTable } from '../../../db/tables/term-bases.js';
import { holdsRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import type { PageRequest } from '../../../http/paging.js';
import { pageWindow } from '../../../http/paging.js';

/** Term base records (docs/terminology.md, "Records" and "Access"). */

export type TermBaseRow = Selectable<TermBasesTable>;

/**
 * The caller's client and business unit lists that narrow a project manager's view of term bases
 * (`termBaseClients`, `termBaseBusinessUnits`; empty = no narrowing).
 */
function managerLists(caller: Caller) {
  const lists = caller.role === 'PROJECT_MANAGER' ? (caller.settings?.referenceLists ?? {}) : {};
  return { clientUids: lists['termBaseClients'] ?? [], businessUnitUids: lists['termBaseBusinessUnits'] ?? [] };
}

/**
 * The term bases the caller sees, in SQL: the organization's; a project manager without
 * `termBaseViewOther` only those they created or own, and with client or business unit lists only
 * those of the lists (and their own); a guest those of the guest's client.
 */
export function visibleTo(eb: ExpressionBuilder<DB, 'termBases'>, caller: Caller) {
  const conditions = [eb('termBases.organizationId', '=', caller.organizationId), eb('termBases.deletedAt', 'is', null)];
  if (caller.role === 'GUEST') {
    conditions.push(
      eb('termBases.clientId', 'in', eb.selectFrom('users').select('users.guestClientId').where('users.id', '=', caller.userId)),
    );
  }
  const own = eb.or([eb('termBases.createdById', '=', caller.userId), eb('termBases.ownerId', '=', caller.userId)]);
  if (!holdsRight(caller.role, caller.settings, 'termBaseViewOther')) conditions.push(own);
  const { clientUids, businessUnitUids } = managerLists(caller);
  const narrowed = [];
  if (clientUids.length) {
    narrowed.push(eb('termBases.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', clientUids)));
  }
  if (businessUnitUids.length) {
    narrowed.push(
      eb(
        'termBases.businessUnitId',
        'in',
        eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', businessUnitUids),
      ),
    );
  }
  if (narrowed.length) conditions.push(eb.or([eb.and(narrowed), own]));
  return eb.and(conditions);
}

/** A term base the caller sees, by uid; undefined otherwise (another organization's is simply not there). */
export async function findVisibleTermBase(db: Kysely<DB>, caller: Caller, uid: string): Promise<TermBaseRow | undefined> {
  return db
    .selectFrom('termBases')
    .selectAll()
    .where('uid', '=', uid)
    .where((eb) => visibleTo(eb, caller))
    .executeTakeFirst();
}

export interface TermBaseFilter {
  name?: string | undefined;
  /** Term bases that have every one of these languages. */
  langs?: readonly string[] | undefined;
  clientId?: Id | undefined;
  domainId?: Id | undefined;
  subDomainId?: Id | undefined;
}

/** One page of the term bases the caller sees, by name then id, with the total. */
export async function listVisibleTermBases(
  db: Kysely<DB>,
  caller: Caller,
  filter: TermBaseFilter,
  page: PageRequest,
): Promise<{ rows: TermBaseRow[]; total: number }> {
  let query = db.selectFrom('termBases').where((eb) => visibleTo(eb, caller));
  // containsText escapes `%` and `_` (a language code such as fr_fr holds one) for both dialects.
  if (filter.name) query = query.where(containsText('termBases.name', filter.name));
  for (const lang of filter.langs ?? []) query = query.where(containsText('termBases.langs', `"${lang}"`));
  if (filter.clientId) query = query.where('termBases.clientId', '=', filter.clientId);
  if (filter.domainId) query = query.where('termBases.domainId', '=', filter.domainId);
  if (filter.subDomainId) query = query.where('termBases.subDomainId', '=', filter.subDomainId);
  const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  const { offset, limit } = pageWindow(page);
  const rows = await query.selectAll('termBases').orderBy('termBases.name').orderBy('termBases.id').offset(offset).limit(limit).execute();
  return { rows, total: Number(count) };
}

export interface NewTermBase {
  organizationId: Id;
  name: string;
  langs: string[];
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  ownerId: Id;
  note: string | null;
  createdById: Id;
  now: string;
}

export async function insertTermBase(trx: Kysely<DB>, record: NewTermBase): Promise<TermBaseRow> {
  const { lastTermBaseInternalId } = await trx
    .updateTable('organizations')
    .set((eb) => ({ lastTermBaseInternalId: eb('lastTermBaseInternalId', '+', 1) }))
    .where('id', '=', record.organizationId)
    .returning('lastTermBaseInternalId')
    .executeTakeFirstOrThrow();
  return trx
    .insertInto('termBases')
    .values({
      uid: newUid(),
      organizationId: record.organizationId,
      internalId: lastTermBaseInternalId,
      name: record.name,
      langs: JSON.stringify(record.langs),
      clientId: record.clientId,
      businessUnitId: record.businessUnitId,
      domainId: record.domainId,
      subDomainId: record.subDomainId,
      note: record.note,
      createdAt: record.now,
      createdById: record.createdById,
      ownerId: record.ownerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type TermBaseChanges = Partial<
  Pick<TermBaseRow, 'name' | 'clientId' | 'businessUnitId' | 'domainId' | 'subDomainId' | 'ownerId' | 'note' | 'lastAsyncRequestId'>
> & { langs?: string[] };

export async function updateTermBase(trx: Kysely<DB>, id: Id, changes: TermBaseChanges): Promise<TermBaseRow> {
  const { langs, ...rest } = changes;
  return trx
    .updateTable('termBases')
    .set({ ...rest, ...(langs ? { langs: JSON.stringify(langs) } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes term bases (their concepts, terms and places in projects and templates follow by foreign keys). */
export async function deleteTermBaseRows(trx: Kysely<DB>, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('termBases')
    .where('id', 'in', [...ids])
    .execute();
}

export function langsOf(row: Pick<TermBaseRow, 'langs'>): string[] {
  try {
    const parsed = JSON.parse(row.langs) as unknown;
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** The `*Other` rights on term bases: what a project manager needs on a term base someone else created and owns. */
export type TermBaseRight =
  'termBaseEditOther' | 'termBaseDeleteOther' | 'termBaseExportOther' | 'termBaseImportOther' | 'termBaseApproveOther';

/** Whether the caller may do what `right` covers on `termBase` (its own always; others' with the right). */
export function mayOnTermBase(caller: Caller, termBase: Pick<TermBaseRow, 'createdById' | 'ownerId'>, right: TermBaseRight): boolean {
  if (termBase.createdById === caller.userId || termBase.ownerId === caller.userId) return true;
  return holdsRight(caller.role, caller.settings, right);
}

/** Live term bases by id, in no particular order. */
export async function termBasesByIds(db: Kysely<DB>, ids: readonly Id[]): Promise<TermBaseRow[]> {
  const wanted = [...new Set(ids.map(String))];
  if (wanted.length === 0) return [];
  return db.selectFrom('termBases').selectAll().where('id', 'in', wanted).where('deletedAt', 'is', null).execute();
}

/** Live term bases of an organization named by numeric id or uid (what IdReference bodies send). */
export async function termBasesByKeys(db: Kysely<DB>, organizationId: Id, keys: readonly string[]): Promise<TermBaseRow[]> {
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return [];
  const ids = wanted.filter((key) => /^\d{1,18}$/.test(key));
  return db
    .selectFrom('termBases')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('uid', 'in', wanted), ...(ids.length ? [eb('id', 'in', ids)] : [])]))
    .execute();
}

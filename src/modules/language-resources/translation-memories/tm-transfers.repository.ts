import type { Kysely, Selectable } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { TmTransfersTable } from '../../../db/tables/translation-memories.js';
import type { Db } from '../../../queue/types.js';

/** The files of TM imports and exports, one row per async request (docs/translation-memory.md, "Import and export"). */

export type TmTransferRow = Selectable<TmTransfersTable>;
export type TmTransferKind = 'IMPORT' | 'EXPORT' | 'CLEANED';

export async function insertTransfer(
  trx: Db,
  row: {
    asyncRequestId: Id;
    organizationId: Id;
    transMemoryId: Id | null;
    kind: TmTransferKind;
    filename: string | null;
    uploadSha256?: string | null;
    langs?: { sourceLang: string; targetLangs: string[] } | null;
    now: string;
  },
): Promise<void> {
  await trx
    .insertInto('tmTransfers')
    .values({
      asyncRequestId: row.asyncRequestId,
      organizationId: row.organizationId,
      transMemoryId: row.transMemoryId,
      kind: row.kind,
      filename: row.filename,
      uploadSha256: row.uploadSha256 ?? null,
      sha256: null,
      langs: row.langs ? JSON.stringify(row.langs) : null,
      createdAt: row.now,
    })
    .execute();
}

export function findTransfer(db: Db, asyncRequestId: Id): Promise<TmTransferRow | undefined> {
  return db.selectFrom('tmTransfers').selectAll().where('asyncRequestId', '=', asyncRequestId).executeTakeFirst();
}

/** A transfer of the organization with its async request's state, by the async request's id. */
export async function findTransferWithRequest(db: Kysely<DB>, organizationId: Id, asyncRequestId: string) {
  if (!/^\d{1,18}$/.test(asyncRequestId)) return undefined;
  return db
    .selectFrom('tmTransfers')
    .innerJoin('asyncRequests', 'asyncRequests.id', 'tmTransfers.asyncRequestId')
    .selectAll('tmTransfers')
    .select(['asyncRequests.finishedAt', 'asyncRequests.response', 'asyncRequests.createdById', 'asyncRequests.action'])
    .where('tmTransfers.organizationId', '=', organizationId)
    .where('tmTransfers.asyncRequestId', '=', asyncRequestId)
    .executeTakeFirst();
}

/** Progress: units done so far (in the transaction of the batch that did them). */
export async function addTransferUnits(trx: Db, asyncRequestId: Id, units: number): Promise<void> {
  await trx
    .updateTable('tmTransfers')
    .set((eb) => ({ units: eb('units', '+', units) }))
    .where('asyncRequestId', '=', asyncRequestId)
    .execute();
}

/** A rerun starts its count over. */
export async function resetTransferUnits(db: Db, asyncRequestId: Id): Promise<void> {
  await db.updateTable('tmTransfers').set({ units: 0 }).where('asyncRequestId', '=', asyncRequestId).execute();
}

export async function setTransferFile(
  trx: Db,
  asyncRequestId: Id,
  file: { sha256: string; filename: string; units: number },
): Promise<void> {
  await trx
    .updateTable('tmTransfers')
    .set({ sha256: file.sha256, filename: file.filename, units: file.units })
    .where('asyncRequestId', '=', asyncRequestId)
    .execute();
}

/** Lets go of an import's upload (the caller then releases the stored file). */
export async function clearTransferUpload(db: Db, asyncRequestId: Id): Promise<void> {
  await db.updateTable('tmTransfers').set({ uploadSha256: null }).where('asyncRequestId', '=', asyncRequestId).execute();
}

export async function setLastAsyncRequest(trx: Db, tmIds: readonly Id[], asyncRequestId: Id): Promise<void> {
  if (tmIds.length === 0) return;
  await trx
    .updateTable('transMemories')
    .set({ lastAsyncRequestId: asyncRequestId })
    .where('id', 'in', [...tmIds])
    .execute();
}

/** A live TM by id (tasks work on the TM the request named; a deleted one is gone). */
export function liveTransMemory(db: Db, id: Id) {
  return db.selectFrom('transMemories').selectAll().where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
}

/** User names by id (the creationid/changeid of an export). */
export async function userNames(db: Db, ids: readonly (Id | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null).map(String))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'userName']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [String(r.id), r.userName]));
}

/** A user of the organization by numeric id or uid. */
export async function findUserId(db: Db, organizationId: Id, key: string): Promise<Id | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', key), ...(/^\d{1,18}$/.test(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
  return row ? row.id : null;
}

/** A project of the organization by uid. */
export async function findProjectId(db: Db, organizationId: Id, uid: string): Promise<Id | null> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('uid', '=', uid)
    .executeTakeFirst();
  return row ? row.id : null;
}

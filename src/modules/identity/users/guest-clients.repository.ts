import type { Kysely, Selectable } from 'kysely';
import type { ClientsTable, DB } from '../../../db/schema.js';

export type ClientRow = Selectable<ClientsTable>;

/** The organization's clients among `uids` (unknown uids and other organizations' are left out). */
export function findClientsByUids(db: Kysely<DB>, organizationId: string, uids: string[]): Promise<ClientRow[]> {
  if (uids.length === 0) return Promise.resolve([]);
  return db.selectFrom('clients').selectAll().where('organizationId', '=', organizationId).where('uid', 'in', uids).execute();
}

export function findClientsByIds(db: Kysely<DB>, organizationId: string, ids: string[]): Promise<ClientRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('clients').selectAll().where('organizationId', '=', organizationId).where('id', 'in', ids).execute();
}

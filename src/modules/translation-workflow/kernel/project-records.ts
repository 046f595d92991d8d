import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';

/** Parts of a project that the modules of its jobs read and take. */

/** The project's next `innerId` for an uploaded file (1, 2, …), taken in the caller's transaction. */
export async function nextJobInnerId(trx: Kysely<DB>, projectId: Id): Promise<number> {
  const row = await trx
    .updateTable('projects')
    .set((eb) => ({ lastJobInnerId: eb('lastJobInnerId', '+', 1) }))
    .where('id', '=', projectId)
    .returning('lastJobInnerId')
    .executeTakeFirstOrThrow();
  return Number(row.lastJobInnerId);
}

/** The project's target languages in order. */
export async function projectTargetLanguages(db: Kysely<DB>, projectId: Id): Promise<string[]> {
  const rows = await db
    .selectFrom('projectTargetLanguages')
    .select('targetLang')
    .where('projectId', '=', projectId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.targetLang);
}

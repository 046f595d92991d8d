import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';

/**
 * MT usage (docs/machine-translation.md, "Cache and usage"): characters sent to each engine, per
 * organization, UTC month and settings. Only what reaches an engine counts (cache hits do not),
 * and it is counted in the transaction that stores the engine's answers in the cache.
 * `getConsumedMtus` answers the organization's total for the current month (1 MTU = 1 character,
 * as Phrase counts machine translation units).
 */

export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** Characters as people count them: Unicode code points. */
export function charactersOf(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}

export async function countUsage(
  trx: Kysely<DB>,
  usage: { organizationId: Id; mtSettingsUid: string; month: string; characters: number; requests: number },
): Promise<void> {
  await trx
    .insertInto('mtUsage')
    .values({
      organizationId: usage.organizationId,
      month: usage.month,
      mtSettingsUid: usage.mtSettingsUid,
      characters: usage.characters,
      requests: usage.requests,
    })
    .onConflict((oc) =>
      oc.columns(['organizationId', 'month', 'mtSettingsUid']).doUpdateSet((eb) => ({
        characters: eb('mtUsage.characters', '+', eb.ref('excluded.characters')),
        requests: eb('mtUsage.requests', '+', eb.ref('excluded.requests')),
      })),
    )
    .execute();
}

/** Characters the organization sent in the month, every engine together, or one settings' only. */
export async function usageOfMonth(db: Kysely<DB>, organizationId: Id, month: string, mtSettingsUid?: string): Promise<number> {
  let query = db.selectFrom('mtUsage').where('organizationId', '=', organizationId).where('month', '=', month);
  if (mtSettingsUid !== undefined) query = query.where('mtSettingsUid', '=', mtSettingsUid);
  const row = await query.select((eb) => eb.fn.sum<number | string | null>('characters').as('total')).executeTakeFirst();
  return Number(row?.total ?? 0);
}

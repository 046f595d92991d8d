import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';

/** Words an organization's dictionary keeps per language at most when it is read (docs/spelling.md). */
export const MAX_ORGANIZATION_WORDS = 100_000;

/** Adds `word` for `lang` unless the organization has it already (then nothing changes). */
export async function insertWord(
  db: Kysely<DB>,
  row: { organizationId: Id; lang: string; word: string; createdAt: string; createdById: Id | null },
): Promise<void> {
  await db
    .insertInto('spellingWords')
    .values(row)
    .onConflict((oc) => oc.columns(['organizationId', 'lang', 'word']).doNothing())
    .execute();
}

/** The organization's words for any of `langs`, oldest first, at most MAX_ORGANIZATION_WORDS. */
export async function wordsFor(db: Kysely<DB>, organizationId: Id, langs: readonly string[]): Promise<string[]> {
  if (langs.length === 0) return [];
  const rows = await db
    .selectFrom('spellingWords')
    .select('word')
    .where('organizationId', '=', organizationId)
    .where('lang', 'in', [...langs])
    .orderBy('id')
    .limit(MAX_ORGANIZATION_WORDS)
    .execute();
  return rows.map((r) => r.word);
}

import type { Kysely } from 'kysely';
import { refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Issue 19, point 3: the organization's spelling dictionary (docs/spelling.md, "The organization's
// dictionary"). `spelling_words`: one row per word an organization added for a language
// (addWord), never flagged by spell checks and QA runs of that language. `lang` is the supported
// language code as normalized (`de`, `de_at`); `word` as given (trimmed, at most 100 characters).
// Adding the same word again changes nothing (unique organization, language and word).

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = refType(db);
  await withId(db, db.schema.createTable('spelling_words'))
    .addColumn('organization_id', ref, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('lang', 'varchar(32)', (c) => c.notNull())
    .addColumn('word', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', ref, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('spelling_words_organization_lang_word_idx')
    .on('spelling_words')
    .columns(['organization_id', 'lang', 'word'])
    .unique()
    .execute();
  await db.schema.createIndex('spelling_words_created_by_id_idx').on('spelling_words').column('created_by_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('spelling_words').execute();
}

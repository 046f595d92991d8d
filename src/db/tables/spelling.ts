import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-12-01T1000_spelling_dictionaries (docs/spelling.md). */
export interface SpellingWordsTable {
  id: Generated<Id>;
  organizationId: Id;
  /** The supported language code the word was added for, normalized (`de`, `de_at`). */
  lang: string;
  /** The word as added (trimmed). */
  word: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface SpellingTables {
  spellingWords: SpellingWordsTable;
}

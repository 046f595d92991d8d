import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-29T1100_glossaries (docs/terminology.md, "Glossaries (built)"). */
export interface GlossariesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  internalId: number;
  name: string;
  /** JSON array of language codes: the source language first, then the target languages in the order added. */
  langs: Generated<string>;
  /** At most one active glossary per language pair of the organization. */
  active: Generated<SqlBool>;
  createdAt: Timestamp;
  createdById: Id | null;
  ownerId: Id | null;
  /** Bumped by every write transaction on the glossary's entries. */
  version: Generated<number | string>;
}

/** One entry: a source term and its target term in one target language. */
export interface GlossaryEntriesTable {
  id: Generated<Id>;
  glossaryId: Id;
  sourceLang: string;
  targetLang: string;
  sourceText: string;
  /** SHA-256 (hex) of `sourceText`: with the glossary and the languages, the entry's unique key. */
  sourceKey: string;
  targetText: string;
  createdAt: Timestamp;
  modifiedAt: Timestamp;
}

export interface GlossaryTables {
  glossaries: GlossariesTable;
  glossaryEntries: GlossaryEntriesTable;
}

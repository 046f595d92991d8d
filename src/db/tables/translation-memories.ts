import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-24T1400_translation_memories (docs/translation-memory.md, "Records"). */
export interface TransMemoriesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  internalId: number;
  name: string;
  sourceLang: string;
  /** JSON array of language codes, in the order given. */
  targetLangs: Generated<string>;
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  note: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  ownerId: Id | null;
  deletedAt: Timestamp | null;
  /** Bumped by every write transaction on the TM's units; rows carry the version that wrote them. */
  version: Generated<number | string>;
  /** The version of the last clear-all: an index older than it starts over. */
  resetVersion: Generated<number | string>;
  /** The TM's last background task (import, export, clear), for lastBackgroundTask. */
  lastAsyncRequestId: Id | null;
}

/** One source and one translation of it in one target language. */
export interface TmUnitsTable {
  id: Generated<Id>;
  tmId: Id;
  targetLang: string;
  /** SHA-1 (hex) of the source / target text as stored (display tokens for tags). */
  sourceHash: string;
  targetHash: string;
  source: string;
  target: string;
  /** JSON `InlineTag[]` of the text's tags, null when it has none. */
  sourceTags: string | null;
  targetTags: string | null;
  previousSource: string | null;
  nextSource: string | null;
  contextKey: string | null;
  targetNote: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  modifiedAt: Timestamp;
  modifiedById: Id | null;
  projectId: Id | null;
  jobUid: string | null;
  filename: string | null;
  version: number | string;
  /** A tombstone: kept so that the indexes of other processes learn of the deletion. */
  deleted: Generated<SqlBool>;
}

/** Columns shared by the TM settings of projects and templates. */
interface TransMemorySettingColumns {
  id: Generated<Id>;
  transMemoryId: Id;
  /** null: every target language. */
  targetLang: string | null;
  readMode: Generated<SqlBool>;
  writeMode: Generated<SqlBool>;
  penalty: Generated<number>;
  applyPenaltyTo101Only: Generated<SqlBool>;
  /** Order within its context (target language and step), from 0. */
  position: number;
  orderEnabled: Generated<SqlBool>;
}

export interface ProjectTransMemoriesTable extends TransMemorySettingColumns {
  projectId: Id;
  /** null: every workflow step. */
  projectWorkflowStepId: Id | null;
}

export interface TemplateTransMemoriesTable extends TransMemorySettingColumns {
  templateId: Id;
  templateWorkflowStepId: Id | null;
}

/**
 * Migration 2026-11-24T1410_tm_transfers: the files of one TM import or export (its async request),
 * docs/translation-memory.md, "Import and export".
 */
export interface TmTransfersTable {
  asyncRequestId: Id;
  organizationId: Id;
  /** null once the TM was deleted, and for a cleaned export (several TMs). */
  transMemoryId: Id | null;
  /** IMPORT, EXPORT (also by query), CLEANED. */
  kind: string;
  filename: string | null;
  /** The uploaded file of an import, until the import has finished. */
  uploadSha256: string | null;
  /** The file an export wrote, once it has. */
  sha256: string | null;
  /** JSON `{ sourceLang, targetLangs }` of an export. */
  langs: string | null;
  /** Units written (import) or read (export) so far. */
  units: Generated<number | string>;
  createdAt: Timestamp;
}

export interface TranslationMemoryTables {
  transMemories: TransMemoriesTable;
  tmTransfers: TmTransfersTable;
  tmUnits: TmUnitsTable;
  projectTransMemories: ProjectTransMemoriesTable;
  templateTransMemories: TemplateTransMemoriesTable;
}

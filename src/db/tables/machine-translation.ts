import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-29T1200_machine_translation (docs/machine-translation.md). */
export interface MtSettingsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** The engine type (`Apertium`, …): one of the types the engine registry knows. */
  type: string;
  isDefault: Generated<SqlBool>;
  includeTags: Generated<SqlBool>;
  /** JSON object of the engine's non-secret arguments (string values). */
  args: Generated<string>;
  /** The engine's secrets, sealed (src/modules/language-resources/machine-translation/credential-seal.ts); null = none. */
  credentials: string | null;
  /** JSON `{sourceLang, targetLangs}` for engines customised to one pair; null = every pair the engine has. */
  langs: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  modifiedAt: Timestamp;
}

/** The MT settings of a project or a template (exactly one of projectId and templateId is set). */
export interface MtSettingsAssignmentsTable {
  id: Generated<Id>;
  projectId: Id | null;
  templateId: Id | null;
  /** Null: every target language (the project-wide setting). */
  targetLang: string | null;
  mtSettingsId: Id;
}

export interface MtCacheTable {
  id: Generated<Id>;
  mtSettingsId: Id;
  sourceLang: string;
  targetLang: string;
  /** SHA-256 (hex) of the text sent to the engine. */
  textKey: string;
  translation: string;
  createdAt: Timestamp;
  usedAt: Timestamp;
}

export interface MtUsageTable {
  id: Generated<Id>;
  organizationId: Id;
  /** `YYYY-MM` (UTC). */
  month: string;
  mtSettingsUid: string;
  characters: Generated<number | string>;
  requests: Generated<number | string>;
}

export interface PreTranslationsTable {
  asyncRequestId: Id;
  organizationId: Id;
  projectId: Id;
  /** JSON: the effective pre-translate settings of the request. */
  settings: string;
  /** JSON array of job ids, in the order they are worked on. */
  jobIds: string;
  /** JSON array of segment filters (`LOCKED`, `NOT_LOCKED`). */
  segmentFilters: Generated<string>;
  /** Index in `jobIds` of the job being worked on. */
  jobPosition: Generated<number>;
  /** Last segment index committed in that job (-1: none yet). */
  nextIdx: Generated<number>;
  totalSegments: Generated<number>;
  doneSegments: Generated<number>;
  /** JSON object of counts (tm, mt, nonTranslatable, failed, skipped…). */
  counts: Generated<string>;
  createdById: Id | null;
}

export interface MachineTranslationTables {
  mtSettings: MtSettingsTable;
  mtSettingsAssignments: MtSettingsAssignmentsTable;
  mtCache: MtCacheTable;
  mtUsage: MtUsageTable;
  preTranslations: PreTranslationsTable;
}

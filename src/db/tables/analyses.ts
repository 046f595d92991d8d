import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Table types of analyses (migration 2026-11-25T1100_analyses; docs/analysis.md). */

export const ANALYSIS_STATUSES = ['RUNNING', 'OK', 'ERROR'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

export interface AnalysesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  projectId: Id;
  /** The analysis's number in its project (1, 2, …). */
  innerId: number;
  /** PreAnalyse, PostAnalyse, Compare, PreAnalyseProvider (an analysis by provider). */
  type: string;
  name: string;
  providerUserId: Id | null;
  providerVendorId: Id | null;
  netRateSchemeId: Id | null;
  /** JSON AnalysisSettings (src/domain/analysis/settings.ts). */
  settings: string;
  status: AnalysisStatus;
  errorMessage: string | null;
  /** The async request of the latest (re)calculation. */
  asyncRequestId: Id | null;
  outdated: Generated<SqlBool>;
  createdAt: Timestamp;
  createdById: Id | null;
  /** Set by a delete without purge. */
  deletedAt: Timestamp | null;
}

export interface AnalysisLanguagePartsTable {
  id: Generated<Id>;
  analysisId: Id;
  position: number;
  sourceLang: string;
  targetLang: string;
  /** JSON array of the ids of the TMs the part was analysed against, in the project's order. */
  transMemories: Generated<string>;
  /** JSON Tallies (src/domain/analysis/bands.ts); null until the analysis finished. */
  tallies: string | null;
}

export interface AnalysisJobsTable {
  id: Generated<Id>;
  analysisId: Id;
  languagePartId: Id;
  /** Null once the job is deleted; the uid, file name and inner id stay. */
  jobId: Id | null;
  jobUid: string;
  filename: string;
  innerId: string;
  position: number;
  tallies: string | null;
}

export interface AnalysisTables {
  analyses: AnalysesTable;
  analysisLanguageParts: AnalysisLanguagePartsTable;
  analysisJobs: AnalysisJobsTable;
}

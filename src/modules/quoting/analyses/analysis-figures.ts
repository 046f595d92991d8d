import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import type { Tallies } from '../../../domain/analysis/bands.js';
import { findAnalysis, languagePartsOf } from './analyses.repository.js';
import type { AnalysisRow } from './analyses.repository.js';

/** What other modules (quotes) read of an analysis: the record and each language part's tallies (null while it runs). */
export interface AnalysisFigures {
  analysis: AnalysisRow;
  parts: { id: Id; sourceLang: string; targetLang: string; tallies: Tallies | null }[];
}

/** The analysis `key` (uid or id) of the organization with its parts' figures, or null (unknown or deleted). */
export async function analysisFigures(db: Kysely<DB>, organizationId: Id, key: string): Promise<AnalysisFigures | null> {
  const analysis = await findAnalysis(db, organizationId, key);
  if (!analysis) return null;
  const parts = await languagePartsOf(db, [analysis.id]);
  return {
    analysis,
    parts: parts.map((p) => ({
      id: p.id,
      sourceLang: p.sourceLang,
      targetLang: p.targetLang,
      tallies: p.tallies === null ? null : (JSON.parse(p.tallies) as Tallies),
    })),
  };
}

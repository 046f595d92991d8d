import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import { findAnalysis, languagePartsOf } from './analyses.repository.js';
import type { AnalysisRow } from './analyses.repository.js';
import { requireAnalysis } from './analyses.service.js';

/**
 * Who may download an analysis (description, "Access rules": DOWNLOAD for internal or linguist
 * users): ADMIN and PROJECT_MANAGER who see its project (the kernel's rules, as GET v3), and a
 * LINGUIST who is the analysis's provider or provides one of its jobs. Anyone else: 404, the
 * analysis does not exist for them.
 */
export async function requireDownloadableAnalysis(deps: AppDeps, caller: Caller, key: string): Promise<AnalysisRow> {
  if (caller.role !== 'LINGUIST') return (await requireAnalysis(deps, caller, key)).analysis;
  const db = deps.database.db;
  const analysis = await findAnalysis(db, caller.organizationId, key);
  if (!analysis) throw errors.ResourceNotFound({ what: 'Analysis' });
  if (analysis.providerUserId === caller.userId) return analysis;
  const provided = await db
    .selectFrom('analysisJobs')
    .innerJoin('jobProviders', 'jobProviders.jobId', 'analysisJobs.jobId')
    .select('analysisJobs.id')
    .where('analysisJobs.analysisId', '=', analysis.id)
    .where('jobProviders.userId', '=', caller.userId)
    .limit(1)
    .executeTakeFirst();
  if (!provided) throw errors.ResourceNotFound({ what: 'Analysis' });
  return analysis;
}

/**
 * 409 unless every language part of the analysis has its figures: while it is computed for the
 * first time they are not there yet, and a failed first computation leaves none. (A
 * recalculation keeps the previous figures until the new ones replace them, so those download.)
 */
export async function assertAnalysisFinished(deps: AppDeps, analysis: AnalysisRow): Promise<void> {
  const parts = await languagePartsOf(deps.database.db, [analysis.id]);
  const complete = parts.every((p) => p.tallies !== null);
  if (complete && analysis.status !== 'RUNNING') return;
  if (analysis.status === 'ERROR') throw errors.AnalysisNotReady({ failed: true, reason: analysis.errorMessage });
  throw errors.AnalysisNotReady();
}

import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import type { QaForbiddenTermHit, QaTermHit } from '../../../domain/quality-assurance/types.js';
import { conceptTermsIn, termRecognizer } from '../../language-resources/term-bases/index.js';
import type { TermBaseRow, TermRow } from '../../language-resources/term-bases/index.js';
import type { JobRow, ProjectRow } from '../kernel/index.js';
import { contextTermBases, termBaseLangsFor } from './tb-settings.js';

/**
 * The terms QA checks a job's segments against (docs/qa-runs-and-warnings.md, "Terminology"): the
 * term bases the project marks for quality assurance in the job's context (target language and
 * workflow step). For each segment, the non-forbidden source terms found in its source with the
 * target-language terms of the same concept (which the target should use), and the target-language
 * terms found in its target that are forbidden or Rejected. Matching is the term recognizer's
 * (inflection, case, exact match). Segments are matched in slices with the event loop served in
 * between, so a long job does not hold up other requests.
 */

const SLICE = 200;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const isForbidden = (term: Pick<TermRow, 'forbidden' | 'status'>) => bool(term.forbidden as number) || term.status === 'Rejected';

function langsFor(termBases: readonly TermBaseRow[], lang: string): string[] {
  return [...new Set(termBases.flatMap((tb) => termBaseLangsFor(tb, lang)))];
}

export interface QaTermsOfSegment {
  terms: QaTermHit[];
  forbiddenTerms: QaForbiddenTermHit[];
}

/** The QA term bases of the job's context (empty: no terminology checks). */
export async function qaTermBases(db: Kysely<DB>, project: ProjectRow, job: JobRow): Promise<TermBaseRow[]> {
  return contextTermBases(db, { kind: 'project', id: project.id }, job.targetLang, job.projectWorkflowStepId, 'qa');
}

/** Every target-language term of the job's QA term bases (spelling never flags them), at most `limit`. */
export async function qaTargetTermTexts(db: Kysely<DB>, project: ProjectRow, job: JobRow, limit = 100_000): Promise<string[]> {
  const termBases = await qaTermBases(db, project, job);
  const langs = langsFor(termBases, job.targetLang);
  if (termBases.length === 0 || langs.length === 0) return [];
  const rows = await db
    .selectFrom('tbTerms')
    .select('text')
    .where(
      'termBaseId',
      'in',
      termBases.map((tb) => tb.id),
    )
    .where('lang', 'in', langs)
    .limit(limit)
    .execute();
  return rows.map((r) => r.text);
}

/** Term hits of each segment (by position in `segments`); null when the job has no QA term base. */
export async function qaTermHits(
  db: Kysely<DB>,
  project: ProjectRow,
  job: JobRow,
  segments: readonly { source: string; target: string }[],
): Promise<QaTermsOfSegment[] | null> {
  const termBases = await qaTermBases(db, project, job);
  if (termBases.length === 0) return null;
  const sourceLangs = langsFor(termBases, project.sourceLang);
  const targetLangs = langsFor(termBases, job.targetLang);
  const sourceMatcher = sourceLangs.length ? await termRecognizer(db, termBases, sourceLangs, project.sourceLang) : null;
  const targetMatcher = targetLangs.length ? await termRecognizer(db, termBases, targetLangs, job.targetLang) : null;

  const found: {
    source: { conceptId: string; text: string }[];
    forbidden: { conceptId: string; text: string; begin: number; end: number; termForbidden: boolean; termId: string }[];
  }[] = [];
  const concepts = new Set<string>();
  for (let at = 0; at < segments.length; at += SLICE) {
    for (const segment of segments.slice(at, at + SLICE)) {
      const source = (sourceMatcher?.find(segment.source) ?? [])
        .filter((o) => !o.term.forbidden)
        .map((o) => ({ conceptId: String(o.term.conceptId), text: segment.source.slice(o.begin, o.end) }));
      const forbidden = segment.target
        ? (targetMatcher?.find(segment.target) ?? []).map((o) => ({
            conceptId: String(o.term.conceptId),
            text: segment.target.slice(o.begin, o.end),
            begin: o.begin,
            end: o.end,
            termForbidden: o.term.forbidden,
            termId: String(o.term.id),
          }))
        : [];
      for (const hit of source) concepts.add(hit.conceptId);
      for (const hit of forbidden) concepts.add(hit.conceptId);
      found.push({ source, forbidden });
    }
    await yieldToEventLoop();
  }
  const targetTerms = concepts.size ? await conceptTermsIn(db, [...concepts], targetLangs) : new Map<string, TermRow[]>();
  const sourceTerms = concepts.size ? await conceptTermsIn(db, [...concepts], sourceLangs) : new Map<string, TermRow[]>();

  return found.map(({ source, forbidden }) => ({
    terms: source.map((hit) => ({
      sourceTerm: hit.text,
      targetTerms: (targetTerms.get(hit.conceptId) ?? [])
        .filter((t) => !isForbidden(t))
        .map((t) => ({ text: t.text, preferred: bool(t.preferred as number), approved: t.status === 'Approved' })),
    })),
    forbiddenTerms: forbidden
      .filter((hit) => isForbiddenMatch(targetTerms, hit))
      .map((hit) => ({
        term: hit.text,
        beginIndex: hit.begin,
        endIndex: hit.end,
        sourceTerms: (sourceTerms.get(hit.conceptId) ?? [])
          .filter((t) => !isForbidden(t))
          .map((t) => ({ text: t.text, preferred: bool(t.preferred as number) })),
      })),
  }));
}

/** The matched target term itself is forbidden or Rejected (matched by its inflected form). */
function isForbiddenMatch(
  targetTerms: ReadonlyMap<string, TermRow[]>,
  hit: { conceptId: string; termId: string; termForbidden: boolean },
): boolean {
  if (hit.termForbidden) return true;
  const term = (targetTerms.get(hit.conceptId) ?? []).find((t) => String(t.id) === hit.termId);
  return term !== undefined && isForbidden(term);
}

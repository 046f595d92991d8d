/**
 * Terminology (docs/quality-assurance.md), from the term hits the caller found with the job's term
 * bases (QaSegment.terms, QaSegment.forbiddenTerms):
 * - nonConformingTerms -> NonConformingTerm: a source term none of whose target terms is in the target;
 * - forbiddenTerms -> ForbiddenTerm: a forbidden target term in the target.
 */
import type { QaText } from '../text.js';
import { occurrences, position, warning } from '../text.js';
import type { QaForbiddenTermHit, QaPosition, QaTermHit, QaWarning } from '../types.js';

/**
 * The target terms that count are all of the concept's target-language terms, or only the approved
 * ones when `approvedOnly` (ignoreNotApprovedTerms); a hit without any is skipped (nothing to ask for).
 * A target term is present when the target contains it case-insensitively, also inside a longer word
 * (German compounds: `Datei` in `Dateiname`). One warning per source term (key: the term in lower
 * case); positions are the term's occurrences in the source; suggestedTargetTerms the target terms.
 */
export function checkNonConformingTerms(
  source: QaText,
  target: QaText,
  hits: readonly QaTermHit[] | undefined,
  approvedOnly: boolean,
  out: QaWarning[],
  ignorable: boolean,
): void {
  if (!hits || hits.length === 0) return;
  let lowerTarget: string | null = null;
  const reported = new Set<string>();
  for (const hit of hits) {
    const candidates = approvedOnly ? hit.targetTerms.filter((term) => term.approved) : hit.targetTerms;
    if (candidates.length === 0) continue;
    lowerTarget ??= target.text.toLowerCase();
    let present = false;
    for (const candidate of candidates) {
      if (candidate.text !== '' && lowerTarget.includes(candidate.text.toLowerCase())) {
        present = true;
        break;
      }
    }
    const key = hit.sourceTerm.toLowerCase();
    if (present || reported.has(key)) continue;
    reported.add(key);
    out.push(
      warning('NonConformingTerm', key, ignorable, {
        term: hit.sourceTerm,
        positions: occurrences(source.text, hit.sourceTerm, true),
        suggestedTargetTerms: candidates.map((term) => ({ text: term.text, preferred: term.preferred })),
      }),
    );
  }
}

/** One warning per forbidden term (key: the term in lower case) with every position the caller found. */
export function checkForbiddenTerms(hits: readonly QaForbiddenTermHit[] | undefined, out: QaWarning[], ignorable: boolean): void {
  if (!hits || hits.length === 0) return;
  const byTerm = new Map<string, { hit: QaForbiddenTermHit; positions: QaPosition[] }>();
  for (const hit of hits) {
    const key = hit.term.toLowerCase();
    const entry = byTerm.get(key);
    if (entry) entry.positions.push(position(hit.beginIndex, hit.endIndex));
    else byTerm.set(key, { hit, positions: [position(hit.beginIndex, hit.endIndex)] });
  }
  for (const [key, { hit, positions }] of byTerm)
    out.push(
      warning('ForbiddenTerm', key, ignorable, {
        term: hit.term,
        positions,
        sourceTerms: hit.sourceTerms.map((t) => ({ text: t.text, preferred: t.preferred })),
      }),
    );
}

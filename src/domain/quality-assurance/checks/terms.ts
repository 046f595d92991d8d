/**
 * Terminology (docs/quality-assurance.md), from the term hits the caller found with the job's term
 * bases (QaSegment.terms, QaSegment.forbiddenTerms):
 * - nonConformingTerms -> NonConformingTerm: a source term none of whose target terms is in the target;
 * - forbiddenTerms -> ForbiddenTerm: a forbidden target term in the target.
 */
import type { QaText } from '../text.js';
import { occurrences, position, warning } from '../text.js';
import type { QaForbiddenTermHit, QaPosition, QaTermHit, QaWarning } from '../types.js';

/** Distinct source terms of one segment that nonConformingTerms looks at (in the order found); more are not checked. */
export const MAX_TERMS_PER_SEGMENT = 100;

/**
 * The target terms that count are all of the concept's target-language terms, or only the approved
 * ones when `approvedOnly` (ignoreNotApprovedTerms); a hit without any is skipped (nothing to ask for).
 * A target term is present when the target contains it case-insensitively, also inside a longer word
 * (German compounds: `Datei` in `Dateiname`). One warning per source term (key: the term in lower
 * case); positions are the term's occurrences in the source; suggestedTargetTerms the target terms.
 * At most MAX_TERMS_PER_SEGMENT distinct source terms of a segment are looked at.
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
  // The hits by source term (a homonym's concepts together: any of their target terms will do),
  // at most MAX_TERMS_PER_SEGMENT terms: each costs scans of the target and the source, and the cap
  // keeps a run linear in the text.
  const byTerm = new Map<string, { term: string; candidates: QaTermHit['targetTerms']; texts: Set<string> }>();
  for (const hit of hits) {
    const key = hit.sourceTerm.toLowerCase();
    let entry = byTerm.get(key);
    if (entry === undefined) {
      if (byTerm.size >= MAX_TERMS_PER_SEGMENT) continue;
      byTerm.set(key, (entry = { term: hit.sourceTerm, candidates: [], texts: new Set() }));
    }
    for (const candidate of hit.targetTerms) {
      if ((approvedOnly && !candidate.approved) || entry.texts.has(candidate.text)) continue;
      entry.texts.add(candidate.text);
      entry.candidates.push(candidate);
    }
  }
  let lowerTarget: string | null = null;
  const presence = new Map<string, boolean>();
  for (const [key, { term, candidates }] of byTerm) {
    if (candidates.length === 0) continue;
    lowerTarget ??= target.text.toLowerCase();
    let present = false;
    for (const candidate of candidates) {
      if (candidate.text === '') continue;
      const lower = candidate.text.toLowerCase();
      let found = presence.get(lower);
      if (found === undefined) presence.set(lower, (found = lowerTarget.includes(lower)));
      if (found) {
        present = true;
        break;
      }
    }
    if (present) continue;
    out.push(
      warning('NonConformingTerm', key, ignorable, {
        term,
        positions: occurrences(source.text, term, true),
        suggestedTargetTerms: candidates.map((candidate) => ({ text: candidate.text, preferred: candidate.preferred })),
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

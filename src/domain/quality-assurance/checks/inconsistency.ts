/**
 * inconsistentTranslation (docs/quality-assurance.md): across the run's segments and the context's
 * other segments (the rest of the job, or of the project's jobs of the target language),
 * - InconsistentTranslationSourceTarget: the same source translated differently;
 * - InconsistentTranslationTargetSource: the same target for different sources.
 * Texts are compared after collapsing whitespace runs to one space and trimming; case and tags
 * count. Segments whose target has no content take no part. One warning per other distinct text
 * (segmentId: the first segment that has it; key: that id), at most MAX_INCONSISTENCIES per
 * segment and direction, so the work stays linear however many variants there are.
 */
import { isWhitespace, warning } from '../text.js';
import type { QaWarning } from '../types.js';

export const MAX_INCONSISTENCIES = 5;

export interface InconsistencyInput {
  id: string;
  source: string;
  target: string;
}

const WHITESPACE_RUN = /\s+/g;

/** Whitespace runs collapsed to one space, trimmed; the text itself when there is nothing to do. */
export function normalizeForConsistency(text: string): string {
  const length = text.length;
  let clean = length === 0 || (text.charCodeAt(0) !== 32 && text.charCodeAt(length - 1) !== 32);
  for (let i = 0; clean && i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) clean = text.charCodeAt(i + 1) !== 32;
    else if (c <= 13 ? c >= 9 : c >= 0x85 && isWhitespace(c)) clean = false;
  }
  return clean ? text : text.replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * For each text of one side, the distinct texts of the other side with the first segment id of
 * each, in order; kept only for texts that have more than one (the rare, inconsistent ones), so
 * that a consistent job costs one map entry per distinct text.
 */
class Variants {
  /** key -> slot of its first (other text, id) */
  private readonly first = new Map<string, number>();
  private readonly firstOther: string[] = [];
  private readonly firstId: string[] = [];
  private readonly more = new Map<string, Map<string, string>>();

  add(key: string, other: string, id: string): void {
    const slot = this.first.get(key);
    if (slot === undefined) {
      this.first.set(key, this.firstOther.length);
      this.firstOther.push(other);
      this.firstId.push(id);
      return;
    }
    const first = this.firstOther[slot]!;
    if (first === other) return;
    let variants = this.more.get(key);
    if (!variants) {
      variants = new Map([[first, this.firstId[slot]!]]);
      this.more.set(key, variants);
    }
    if (!variants.has(other)) variants.set(other, id);
  }

  report(
    key: string,
    own: string,
    type: 'InconsistentTranslationSourceTarget' | 'InconsistentTranslationTargetSource',
    ignorable: boolean,
    out: QaWarning[],
  ): void {
    const variants = this.more.get(key);
    if (!variants) return;
    let count = 0;
    for (const [other, id] of variants) {
      if (other === own) continue;
      out.push(warning(type, id, ignorable, { segmentId: id }));
      if (++count >= MAX_INCONSISTENCIES) return;
    }
  }
}

/**
 * An index of the texts, built once per run (linear), and a function that reports the
 * inconsistencies of the run's segment at `index`. `hasContent(target)` tells whether a target
 * takes part.
 */
export function inconsistencyIndex(
  segments: readonly InconsistencyInput[],
  others: readonly InconsistencyInput[] | undefined,
  hasContent: (target: string) => boolean,
): (index: number, out: QaWarning[], ignorable: boolean) => void {
  const bySource = new Variants();
  const byTarget = new Variants();
  const sources: (string | null)[] = new Array<string | null>(segments.length).fill(null);
  const targets: (string | null)[] = new Array<string | null>(segments.length).fill(null);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (!hasContent(segment.target)) continue;
    const source = normalizeForConsistency(segment.source);
    const target = normalizeForConsistency(segment.target);
    sources[i] = source;
    targets[i] = target;
    bySource.add(source, target, segment.id);
    byTarget.add(target, source, segment.id);
  }
  if (others && others.length > 0) {
    const runIds = new Set<string>();
    for (const segment of segments) runIds.add(segment.id);
    for (const segment of others) {
      if (runIds.has(segment.id) || !hasContent(segment.target)) continue;
      const source = normalizeForConsistency(segment.source);
      const target = normalizeForConsistency(segment.target);
      bySource.add(source, target, segment.id);
      byTarget.add(target, source, segment.id);
    }
  }
  return (index, out, ignorable) => {
    const source = sources[index];
    const target = targets[index];
    if (source === null || source === undefined || target === null || target === undefined) return;
    bySource.report(source, target, 'InconsistentTranslationSourceTarget', ignorable, out);
    byTarget.report(target, source, 'InconsistentTranslationTargetSource', ignorable, out);
  };
}

/**
 * Sentence segmentation of one text unit (a paragraph, a translation unit's source) with
 * SRX-like rules (rules.ts; docs/segmentation-and-counting.md).
 *
 * Output: the segments with their offsets (UTF-16 code units, `text.slice(start, end)`).
 * Whitespace between segments (and before the first / after the last) belongs to no segment;
 * `segmentGaps` returns it, and gap 0 + segment 0 + gap 1 + ... + gap n reproduces the input
 * exactly, which write-back relies on. Gaps hold whitespace only.
 *
 * Inline tags: the caller replaces every inline tag by ONE placeholder character from the
 * Unicode private-use area U+E000..U+F8FF. Placeholders are transparent to the rules (the rules
 * see the text without them, so "Dr.<b> Smith" is still an abbreviation) and are never part of
 * a gap. Where the rules split between two characters that have placeholders between them, the
 * split goes before the first OPENING tag placeholder of that run, or after the whole run when
 * it holds none: closing and standalone tags stay with the sentence they follow, opening tags
 * move to the sentence they open, and no segment ends right after an opening tag. The kind of a
 * placeholder comes from `options.tagKind`; by default the private-use area is divided as
 * DEFAULT_TAG_RANGES says (opening, closing, standalone). A segment never consists of tag
 * placeholders alone: such a piece joins the segment before it (or after it, at the start).
 *
 * Cost: one pass of a combined regular expression over the text finds the positions where some
 * break rule matches; only there are the rules evaluated in order, as groups of consecutive rules
 * with the same outcome (one sticky regular expression per group). Linear in the text length for
 * the default rules (see bench/segmentation.bench.ts).
 */
import { DEFAULT_RULE_SET, rulesForLanguage } from './rules.js';
import type { RuleSet, SegmentationRule } from './rules.js';

export interface Segmented {
  text: string;
  /** Offset of the first character in the input (UTF-16 code units). */
  start: number;
  /** Offset after the last character. */
  end: number;
}

export type TagKind = 'opening' | 'closing' | 'standalone';

/** The default division of the private-use area among tag kinds. */
export const DEFAULT_TAG_RANGES = {
  opening: { first: 0xe000, last: 0xe7ff },
  closing: { first: 0xe800, last: 0xefff },
  standalone: { first: 0xf000, last: 0xf8ff },
} as const;

export const TAG_PLACEHOLDER_FIRST = 0xe000;
export const TAG_PLACEHOLDER_LAST = 0xf8ff;

export function isTagPlaceholder(codeUnit: number): boolean {
  return codeUnit >= TAG_PLACEHOLDER_FIRST && codeUnit <= TAG_PLACEHOLDER_LAST;
}

export function defaultTagKind(codeUnit: number): TagKind {
  if (codeUnit <= DEFAULT_TAG_RANGES.opening.last) return 'opening';
  if (codeUnit <= DEFAULT_TAG_RANGES.closing.last) return 'closing';
  return 'standalone';
}

export interface SegmentOptions {
  /** The kind of a tag placeholder (a code unit in U+E000..U+F8FF). */
  tagKind?: (codeUnit: number) => TagKind;
}

export class SegmentationRuleError extends Error {
  constructor(
    readonly ruleIndex: number,
    readonly rule: SegmentationRule,
    cause: string,
  ) {
    super(`Segmentation rule ${ruleIndex + 1} (before /${rule.before}/, after /${rule.after}/) cannot be used: ${cause}`);
    this.name = 'SegmentationRuleError';
  }
}

interface RuleGroup {
  break: boolean;
  /** Sticky: tested at exactly one position. */
  matcher: RegExp;
}

export interface CompiledRules {
  groups: readonly RuleGroup[];
  /** Global: every position where some break rule matches. */
  candidates: readonly RegExp[];
}

function assertion(rule: SegmentationRule): string {
  const before = rule.before === '' ? '' : `(?<=${rule.before})`;
  const after = rule.after === '' ? '' : `(?=${rule.after})`;
  return `(?:${before}${after})`;
}

/** Rules using back-references or named groups are compiled alone (numbering would clash). */
function standsAlone(rule: SegmentationRule): boolean {
  const source = rule.before + rule.after;
  return /\\[1-9]|\\k<|\(\?<[A-Za-z]/.test(source);
}

function flagsOf(rule: SegmentationRule, extra: string): string {
  return (rule.ignoreCase ? 'iu' : 'u') + extra;
}

/** Groups consecutive rules that can share one regular expression (same outcome, same flags). */
function groupRules(
  rules: readonly SegmentationRule[],
  sameGroup: (a: SegmentationRule, b: SegmentationRule) => boolean,
): SegmentationRule[][] {
  const groups: SegmentationRule[][] = [];
  for (const rule of rules) {
    const last = groups[groups.length - 1];
    const previous = last?.[last.length - 1];
    if (last && previous && !standsAlone(rule) && !standsAlone(previous) && sameGroup(previous, rule)) last.push(rule);
    else groups.push([rule]);
  }
  return groups;
}

/** Validates and compiles an ordered rule list; throws SegmentationRuleError naming the bad rule. */
export function compileRules(rules: readonly SegmentationRule[]): CompiledRules {
  rules.forEach((rule, index) => {
    if (/\\[1-9]|\\k</.test(rule.before)) {
      // A lookbehind matches right to left: a back-reference there sees its group not yet captured.
      throw new SegmentationRuleError(index, rule, 'back-references are not supported in `before` (they are in `after`)');
    }
    try {
      new RegExp(assertion(rule), flagsOf(rule, ''));
    } catch (error) {
      throw new SegmentationRuleError(index, rule, error instanceof Error ? error.message : String(error));
    }
  });
  const groups = groupRules(rules, (a, b) => a.break === b.break && !!a.ignoreCase === !!b.ignoreCase).map((group) => ({
    break: group[0]!.break,
    matcher: new RegExp(group.map(assertion).join('|'), flagsOf(group[0]!, 'y')),
  }));
  const breakRules = rules.filter((rule) => rule.break);
  const candidates = groupRules(breakRules, (a, b) => !!a.ignoreCase === !!b.ignoreCase).map(
    (group) => new RegExp(group.map(assertion).join('|'), flagsOf(group[0]!, 'g')),
  );
  return { groups, candidates };
}

const compiledByRuleSet = new WeakMap<RuleSet, Map<string, CompiledRules>>();

/** The compiled rules for a language, cached per rule set object. */
export function compiledRulesFor(ruleSet: RuleSet, language: string): CompiledRules {
  let byLanguage = compiledByRuleSet.get(ruleSet);
  if (!byLanguage) {
    byLanguage = new Map();
    compiledByRuleSet.set(ruleSet, byLanguage);
  }
  // Looked up by the code as given first (one lookup per segmented text), then as normalized.
  let compiled = byLanguage.get(language);
  if (compiled) return compiled;
  const key = language.trim().toLowerCase();
  compiled = byLanguage.get(key);
  if (!compiled) {
    compiled = compileRules(rulesForLanguage(ruleSet, language));
    byLanguage.set(key, compiled);
  }
  byLanguage.set(language, compiled);
  return compiled;
}

/** Positions (in `text`) where the rules split it, ascending, excluding 0 and text.length. */
export function breakPositions(text: string, compiled: CompiledRules): number[] {
  // A text of one code unit has no position strictly inside it.
  if (text.length < 2) return [];
  // One finder finds each position once, in ascending order; several need merging.
  const single = compiled.candidates.length === 1;
  const found: number[] = [];
  const candidates = new Set<number>();
  for (const finder of compiled.candidates) {
    finder.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = finder.exec(text)) !== null) {
      const at = match.index;
      if (at > 0 && at < text.length) {
        if (single) found.push(at);
        else candidates.add(at);
      }
      const code = text.charCodeAt(at);
      finder.lastIndex = at + (code >= 0xd800 && code <= 0xdbff ? 2 : 1);
      if (finder.lastIndex > text.length) break;
    }
  }
  const ordered = single ? found : [...candidates].sort((a, b) => a - b);
  const breaks: number[] = [];
  for (const at of ordered) {
    for (const group of compiled.groups) {
      group.matcher.lastIndex = at;
      if (group.matcher.test(text)) {
        if (group.break) breaks.push(at);
        break;
      }
    }
  }
  return breaks;
}

const PLACEHOLDERS = /[\uE000-\uF8FF]/;
const WHITESPACE = /\s/;

function isWhitespace(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  // ASCII: tab, line feed, vertical tab, form feed, carriage return, space (what \s matches there).
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE.test(text[at]!);
}

/** Break positions in a text with tag placeholders: rules run on the text without them. */
function breakPositionsAroundTags(text: string, compiled: CompiledRules, tagKind: (codeUnit: number) => TagKind): number[] {
  let plain = '';
  const originalOf: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (isTagPlaceholder(text.charCodeAt(i))) continue;
    originalOf.push(i);
  }
  plain = originalOf.map((i) => text[i]).join('');
  originalOf.push(text.length);
  return breakPositions(plain, compiled).map((at) => {
    const runStart = originalOf[at - 1]! + 1;
    const runEnd = originalOf[at]!;
    for (let i = runStart; i < runEnd; i++) if (tagKind(text.charCodeAt(i)) === 'opening') return i;
    return runEnd;
  });
}

/**
 * Splits `text` into sentences with the rules `rules` selects for `language` (our defaults when
 * omitted). Whitespace-only input gives no segments.
 */
export function segmentText(text: string, language: string, rules: RuleSet = DEFAULT_RULE_SET, options: SegmentOptions = {}): Segmented[] {
  const compiled = compiledRulesFor(rules, language);
  const cuts = PLACEHOLDERS.test(text)
    ? breakPositionsAroundTags(text, compiled, options.tagKind ?? defaultTagKind)
    : breakPositions(text, compiled);
  cuts.push(text.length);
  const segments: Segmented[] = [];
  let pieceStart = 0;
  let orphanTagsStart = -1; // a leading piece of tags only, waiting for the next segment
  for (const cut of cuts) {
    let start = pieceStart;
    let end = cut;
    pieceStart = cut;
    while (start < end && isWhitespace(text, start)) start++;
    while (end > start && isWhitespace(text, end - 1)) end--;
    if (start === end) continue;
    let content = false;
    for (let i = start; i < end && !content; i++) content = !isTagPlaceholder(text.charCodeAt(i)) && !isWhitespace(text, i);
    const previous = segments[segments.length - 1];
    if (!content) {
      if (previous) {
        previous.end = end;
        previous.text = text.slice(previous.start, end);
      } else if (orphanTagsStart < 0) orphanTagsStart = start;
      continue;
    }
    if (orphanTagsStart >= 0) {
      start = orphanTagsStart;
      orphanTagsStart = -1;
    }
    segments.push({ text: text.slice(start, end), start, end });
  }
  if (orphanTagsStart >= 0) {
    // Only tags and whitespace in the whole text: one segment, trimmed.
    let end = text.length;
    while (end > orphanTagsStart && isWhitespace(text, end - 1)) end--;
    segments.push({ text: text.slice(orphanTagsStart, end), start: orphanTagsStart, end });
  }
  return segments;
}

/**
 * The text around the segments: `segments.length + 1` strings (before the first, between each
 * two, after the last), so that interleaving gaps and segments reproduces `text`.
 */
export function segmentGaps(text: string, segments: readonly Segmented[]): string[] {
  const gaps: string[] = [];
  let previousEnd = 0;
  for (const segment of segments) {
    gaps.push(text.slice(previousEnd, segment.start));
    previousEnd = segment.end;
  }
  gaps.push(text.slice(previousEnd));
  return gaps;
}

/** Interleaves gaps and segment texts back into one string (the write-back join). */
export function joinSegments(gaps: readonly string[], segmentTexts: readonly string[]): string {
  let joined = gaps[0] ?? '';
  segmentTexts.forEach((segment, index) => {
    joined += segment + (gaps[index + 1] ?? '');
  });
  return joined;
}

/**
 * forbiddenStringsEnabled -> ForbiddenString and regexp -> SourceOrTargetRegexp
 * (docs/quality-assurance.md). Both compile once per run (compileForbiddenStrings,
 * compileQaRegexpRule) and test each segment with the compiled expressions.
 */
import { UnsupportedJavaRegexError, javaRegexToJs } from '../../segmentation/java-regex.js';
import type { QaText } from '../text.js';
import { escapeRegExp, position, warning } from '../text.js';
import type { QaPosition, QaRegexpRule, QaWarning } from '../types.js';

export interface ForbiddenString {
  text: string;
  pattern: RegExp;
}

/**
 * The forbidden strings of the setting's value: comma-separated, each trimmed, empty ones dropped,
 * duplicates (case-insensitively) once. Matched case-insensitively (Unicode case folding) anywhere
 * in the target, also inside words.
 */
export function compileForbiddenStrings(value: string | number | null | undefined): ForbiddenString[] {
  if (typeof value !== 'string') return [];
  const seen = new Set<string>();
  const out: ForbiddenString[] = [];
  for (const part of value.split(',')) {
    const text = part.trim();
    if (text === '' || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push({ text, pattern: new RegExp(escapeRegExp(text), 'giu') });
  }
  return out;
}

/** One warning per forbidden string found (key: the string in lower case), with every position in the target. */
export function checkForbiddenStrings(target: QaText, strings: readonly ForbiddenString[], out: QaWarning[], ignorable: boolean): void {
  const text = target.text;
  for (const forbidden of strings) {
    const pattern = forbidden.pattern;
    pattern.lastIndex = 0;
    let positions: QaPosition[] | null = null;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      (positions ??= []).push(position(match.index, match.index + match[0].length));
    }
    if (positions)
      out.push(warning('ForbiddenString', forbidden.text.toLowerCase(), ignorable, { forbiddenString: forbidden.text, positions }));
  }
}

/** A regexp rule whose expression on one side does not compile; the settings operations answer 400 naming it. */
export class QaRegexpError extends Error {
  constructor(
    readonly ruleId: string,
    readonly side: 'sourceRegexp' | 'targetRegexp',
    readonly expression: string,
    readonly reason: string,
  ) {
    super(`The ${side} of the QA regexp rule ${ruleId} does not compile: ${reason}`);
    this.name = 'QaRegexpError';
  }
}

export interface CompiledQaRegexpRule {
  id: string;
  description: string;
  ignorable: boolean;
  source: RegExp | null;
  target: RegExp | null;
}

/** The longest expression a rule may have (characters). */
export const MAX_QA_REGEXP_LENGTH = 1000;

function compileSide(rule: QaRegexpRule, side: 'sourceRegexp' | 'targetRegexp'): RegExp | null {
  const java = rule[side];
  if (java === null || java === undefined || java === '') return null;
  if (java.length > MAX_QA_REGEXP_LENGTH) throw new QaRegexpError(rule.id, side, java, `longer than ${MAX_QA_REGEXP_LENGTH} characters`);
  let translated;
  try {
    translated = javaRegexToJs(java);
  } catch (error) {
    if (error instanceof UnsupportedJavaRegexError) throw new QaRegexpError(rule.id, side, java, error.message);
    throw error;
  }
  const nested = nestedQuantifier(translated.source);
  if (nested >= 0)
    throw new QaRegexpError(
      rule.id,
      side,
      java,
      `a repeated group that itself repeats (at ${nested}) can take exponential time; rewrite it without the nesting`,
    );
  try {
    return new RegExp(translated.source, translated.ignoreCase ? 'iu' : 'u');
  } catch (error) {
    throw new QaRegexpError(rule.id, side, java, (error as Error).message);
  }
}

/** Whether `source` at `at` starts a quantifier that repeats more than once (`*`, `+`, `{n,}`, `{n,m}` with m > 1). */
function repeats(source: string, at: number): boolean {
  const c = source[at];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 24));
  if (!match) return false;
  if (match[2] === undefined) return Number(match[1]) > 1;
  return match[3] === '' || Number(match[3]) > 1;
}

/**
 * The offset of a group that repeats and holds a repeating part (`(a+)+`, `(\w+\s?)*`): the shape
 * that makes a backtracking engine take exponential time on a near miss. -1 when there is none.
 * Such rules are refused, so that a run stays linear in the text (docs/quality-assurance.md).
 */
export function nestedQuantifier(source: string): number {
  const stack: { start: number; inner: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      if (!inClass && repeats(source, i + 1) && stack.length > 0) stack[stack.length - 1]!.inner = true;
      continue;
    }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        if (repeats(source, i + 1) && stack.length > 0) stack[stack.length - 1]!.inner = true;
      }
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ start: i, inner: false });
    else if (c === ')') {
      const group = stack.pop();
      if (!group) continue;
      const repeated = repeats(source, i + 1);
      if (repeated && group.inner) return group.start;
      if ((repeated || group.inner) && stack.length > 0) stack[stack.length - 1]!.inner = true;
    } else if (repeats(source, i + 1) && stack.length > 0) stack[stack.length - 1]!.inner = true;
  }
  return -1;
}

/**
 * Compiles a rule's Java regular expressions (src/domain/segmentation/java-regex.ts) with the `u`
 * flag; throws QaRegexpError naming the rule and the side when one does not compile.
 */
export function compileQaRegexpRule(rule: QaRegexpRule): CompiledQaRegexpRule {
  return {
    id: rule.id,
    description: rule.description,
    ignorable: rule.ignorable,
    source: compileSide(rule, 'sourceRegexp'),
    target: compileSide(rule, 'targetRegexp'),
  };
}

/**
 * regexp -> SourceOrTargetRegexp (key: the rule id, details: the rule's description). The rule fires
 * - with both expressions: when the source matches sourceRegexp and the target does not match targetRegexp;
 * - with targetRegexp only: when the target matches it (a pattern the target must not have);
 * - with sourceRegexp only: when the source matches it (a pattern to look at in every translation);
 * - with neither: never.
 * Expressions search (they need not match the whole text); the texts include the tag tokens.
 */
export function checkRegexpRule(source: QaText, target: QaText, rule: CompiledQaRegexpRule, out: QaWarning[]): void {
  let fires: boolean;
  if (rule.source && rule.target) fires = rule.source.test(source.text) && !rule.target.test(target.text);
  else if (rule.target) fires = rule.target.test(target.text);
  else if (rule.source) fires = rule.source.test(source.text);
  else fires = false;
  if (fires) out.push(warning('SourceOrTargetRegexp', rule.id, rule.ignorable, { description: rule.description }));
}

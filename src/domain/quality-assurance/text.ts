/**
 * What the checks read from a text (docs/quality-assurance.md): the inline tag tokens (`{1>`,
 * `<1}`, `{1}`, src/formats/types.ts InlineTag), the placeholders of programming formats (printf,
 * `{0,number}`, `{name}`, `${x}`, `%(name)s`, `{{x}}`), and the spans both cover, which the number,
 * word and bracket checks skip. A `QaText` computes each of these once, on first use, so a check
 * that does not need them costs nothing and two checks that do share one scan.
 */
import type { QaPosition, QaWarning, WarningType } from './types.js';

export const TAG_OPEN = 0;
export const TAG_CLOSE = 1;
export const TAG_STANDALONE = 2;
export type TagKind = typeof TAG_OPEN | typeof TAG_CLOSE | typeof TAG_STANDALONE;

/** One inline tag token of a text: `{1>` (open), `<1}` (close) or `{1}` (standalone). */
export interface TagToken {
  id: number;
  kind: TagKind;
  start: number;
  end: number;
}

export interface Placeholder {
  text: string;
  start: number;
  end: number;
}

const NO_TAGS: readonly TagToken[] = Object.freeze([]);
const NO_PLACEHOLDERS: readonly Placeholder[] = Object.freeze([]);
const NO_SPANS: readonly number[] = Object.freeze([]);

/** Inline tag tokens of `text`, in order. Ids of up to 6 digits; anything else is text. */
export function parseTags(text: string): readonly TagToken[] {
  let at = text.indexOf('{');
  const close = text.indexOf('<');
  if (at < 0 || (close >= 0 && close < at)) at = close;
  if (at < 0) return NO_TAGS;
  let out: TagToken[] | null = null;
  const length = text.length;
  for (let i = at; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 123 && c !== 60) continue; // `{` `<`
    let j = i + 1;
    let id = 0;
    while (j < length && j - i <= 6) {
      const d = text.charCodeAt(j);
      if (d < 48 || d > 57) break;
      id = id * 10 + (d - 48);
      j++;
    }
    if (j === i + 1 || j >= length) continue;
    const e = text.charCodeAt(j);
    let kind: TagKind;
    if (c === 123 && e === 62) kind = TAG_OPEN;
    else if (c === 123 && e === 125) kind = TAG_STANDALONE;
    else if (c === 60 && e === 125) kind = TAG_CLOSE;
    else continue;
    (out ??= []).push({ id, kind, start: i, end: j + 1 });
    i = j;
  }
  return out ?? NO_TAGS;
}

/** The display form of a tag token. */
export function tagDisplay(token: { id: number; kind: TagKind }): string {
  return token.kind === TAG_OPEN ? `{${token.id}>` : token.kind === TAG_CLOSE ? `<${token.id}}` : `{${token.id}}`;
}

/**
 * Placeholders of programming formats. `%%` is matched first (an escaped percent sign, dropped);
 * printf directives without the space flag (so that "100% sicher" is no directive); `{N}` alone is
 * a tag token, not a placeholder, but `{0,number}` is one.
 */
const PLACEHOLDER =
  /%%|%(?:\d+\$)?[-+0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|I64|I32|[hlLqjzZtR])?[diouxXeEfFgGaAcspn@]|%\([A-Za-z_]\w*\)[-+ 0#]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\$\{[^{}\s]+\}|\{\{[^{}]+\}\}|\{[A-Za-z_][\w.-]*\}|\{\d+,[^{}]*\}/g;

export function parsePlaceholders(text: string): readonly Placeholder[] {
  if (text.indexOf('%') < 0 && text.indexOf('{') < 0) return NO_PLACEHOLDERS;
  let out: Placeholder[] | null = null;
  PLACEHOLDER.lastIndex = 0;
  for (let match = PLACEHOLDER.exec(text); match; match = PLACEHOLDER.exec(text)) {
    const value = match[0];
    if (value === '%%') continue;
    (out ??= []).push({ text: value, start: match.index, end: match.index + value.length });
  }
  return out ?? NO_PLACEHOLDERS;
}

/** A text and, computed on first use, its tags, placeholders and protected spans. */
export class QaText {
  private tagsCache: readonly TagToken[] | undefined;
  private placeholdersCache: readonly Placeholder[] | undefined;
  private spansCache: readonly number[] | undefined;
  private visibleLengthCache = -1;

  constructor(
    readonly text: string,
    readonly lang: string,
  ) {}

  get tags(): readonly TagToken[] {
    return (this.tagsCache ??= parseTags(this.text));
  }

  get placeholders(): readonly Placeholder[] {
    return (this.placeholdersCache ??= parsePlaceholders(this.text));
  }

  /**
   * Tag tokens and placeholders as a flat sorted list [start0, end0, start1, end1, ...] of
   * non-overlapping spans; the number, word and bracket checks skip what they cover.
   */
  get spans(): readonly number[] {
    if (this.spansCache) return this.spansCache;
    const tags = this.tags;
    const placeholders = this.placeholders;
    if (tags.length === 0 && placeholders.length === 0) return (this.spansCache = NO_SPANS);
    const spans: number[] = [];
    let t = 0;
    let p = 0;
    while (t < tags.length || p < placeholders.length) {
      const tag = tags[t];
      const placeholder = placeholders[p];
      const next = !placeholder || (tag && tag.start <= placeholder.start) ? tags[t++]! : placeholders[p++]!;
      const last = spans.length - 1;
      if (last > 0 && next.start < spans[last]!) spans[last] = Math.max(spans[last]!, next.end);
      else spans.push(next.start, next.end);
    }
    return (this.spansCache = spans);
  }

  /** Length in code points, tag tokens not counted (the length checks' measure). */
  get visibleLength(): number {
    if (this.visibleLengthCache >= 0) return this.visibleLengthCache;
    const text = this.text;
    let length = text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
        const h = text.charCodeAt(i - 1);
        if (h >= 0xd800 && h <= 0xdbff) length--;
      }
    }
    for (const tag of this.tags) length -= tag.end - tag.start;
    return (this.visibleLengthCache = length);
  }

  /** True when the text has something besides whitespace and tag tokens. */
  get hasContent(): boolean {
    const text = this.text;
    const tags = this.tags;
    let t = 0;
    for (let i = 0; i < text.length; i++) {
      while (t < tags.length && tags[t]!.end <= i) t++;
      const tag = tags[t];
      if (tag && tag.start <= i) {
        i = tag.end - 1;
        continue;
      }
      if (!isWhitespace(text.charCodeAt(i))) return true;
    }
    return false;
  }
}

const NON_SPACE = /\S/;

/** QaText.hasContent without keeping the text: something besides whitespace and tag tokens. */
export function textHasContent(text: string): boolean {
  if (text.indexOf('{') < 0 && text.indexOf('<') < 0) return NON_SPACE.test(text);
  return new QaText(text, '').hasContent;
}

/** Unicode White_Space (the characters `\s` matches). */
export function isWhitespace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0x85 ||
    c === 0xfeff
  );
}

/** Horizontal spaces (no tab, no line break): what MultipleSpaces looks at. */
export function isHorizontalSpace(c: number): boolean {
  return c === 32 || c === 0xa0 || c === 0x202f || c === 0x3000 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x205f;
}

/** The primary language subtag, lower case: `de_CH` -> `de`. */
export function primaryLanguage(lang: string): string {
  const cut = lang.search(/[-_]/);
  return (cut < 0 ? lang : lang.slice(0, cut)).toLowerCase();
}

/** The region subtag, upper case, or '' (`de_ch` -> `CH`). */
export function regionOf(lang: string): string {
  const parts = lang.split(/[-_]/);
  for (let i = 1; i < parts.length; i++) if (parts[i]!.length === 2) return parts[i]!.toUpperCase();
  return '';
}

export function position(beginIndex: number, endIndex: number): QaPosition {
  return { beginIndex, endIndex };
}

export function warning(type: WarningType, key: string, ignorable: boolean, details: Record<string, unknown> = {}): QaWarning {
  return { type, key, ignorable, details };
}

/** Positions of every case-insensitive occurrence of `needle` in `haystack` (no overlaps). */
export function occurrences(haystack: string, needle: string, ignoreCase: boolean): QaPosition[] {
  const out: QaPosition[] = [];
  if (needle === '') return out;
  if (!ignoreCase) {
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length))
      out.push(position(at, at + needle.length));
    return out;
  }
  const pattern = new RegExp(escapeRegExp(needle), 'giu');
  for (let match = pattern.exec(haystack); match; match = pattern.exec(haystack)) {
    out.push(position(match.index, match.index + match[0].length));
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return out;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

import { FormatError } from './types.js';
import type { InlineTag, InlineTagKind } from './types.js';

/**
 * Phrase TMS display tokens for inline tags: `{1>` opens a pair, `<1}` closes it, `{1}` stands
 * alone. Numbers start at 1 in each unit, in order of first appearance.
 */
export function displayToken(kind: InlineTagKind, id: number): string {
  if (kind === 'open') return `{${id}>`;
  if (kind === 'close') return `<${id}}`;
  return `{${id}}`;
}

export function inlineTag(id: number, kind: InlineTagKind, original: string): InlineTag {
  return { id, kind, original, display: displayToken(kind, id) };
}

export type Piece = { text: string } | { tag: InlineTag };

const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const LESS_THAN = 0x3c; // <
const GREATER_THAN = 0x3e; // >
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** Token kinds, as indexes of the per-kind arrays. */
const OPEN = 0;
const CLOSE = 1;
const STANDALONE = 2;

/** Set by `tokenAt`: the kind of the token found, and its number (-1 when written with a leading zero or above the limit). */
let tokenKind = OPEN;
let tokenNumber = -1;

/**
 * Length of the token (`{n>`, `<n}` or `{n}`, n in ASCII digits) starting at `at`, 0 when none
 * starts there; sets `tokenKind` and `tokenNumber`. A token's digits cannot start another token,
 * so a scan may go on after it.
 */
function tokenAt(text: string, at: number, limit: number): number {
  const first = text.charCodeAt(at);
  if (first !== OPEN_BRACE && first !== LESS_THAN) return 0;
  const digitsStart = at + 1;
  let i = digitsStart;
  let n = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    if (n <= limit) n = n * 10 + (c - DIGIT_0);
  }
  if (i === digitsStart || i >= text.length) return 0;
  const last = text.charCodeAt(i);
  if (first === OPEN_BRACE) {
    if (last === GREATER_THAN) tokenKind = OPEN;
    else if (last === CLOSE_BRACE) tokenKind = STANDALONE;
    else return 0;
  } else if (last === CLOSE_BRACE) tokenKind = CLOSE;
  else return 0;
  tokenNumber = n > limit || (i - digitsStart > 1 && text.charCodeAt(digitsStart) === DIGIT_0) ? -1 : n;
  return i + 1 - at;
}

/**
 * The tag tokens of a text, in order: only a token equal to the `display` of one of `tags` is a
 * tag (the last of the tags wins when two share a display); anything else that looks like a token
 * stays text. One pass over the text without a regular expression, tags looked up by number in
 * arrays (a unit may hold hundreds of thousands); a tag whose display is no token written the
 * canonical way, or whose number is far above the tag count, is looked up by its display text.
 */
export class TagTokens {
  /** The current token: its offsets in the text and its tag (after `next()` returned true). */
  start = 0;
  end = 0;
  tag!: InlineTag;
  /** Whether some tag was found more than once so far (its token occurs twice in the text). */
  repeated = false;
  private at = 0;
  private readonly limit: number;
  private readonly byNumber: (InlineTag | undefined)[][] = [[], [], []];
  private byDisplay: Map<string, InlineTag> | null = null;
  /** Per kind, whether the tag of each number was found; the tags found by display. */
  private readonly found: Uint8Array[] = [];
  private foundByDisplay: Set<InlineTag> | null = null;

  constructor(
    private readonly text: string,
    tags: readonly InlineTag[],
  ) {
    this.limit = 2 * tags.length + 1024;
    const highest = [-1, -1, -1];
    const kinds = new Int8Array(tags.length);
    const numbers = new Int32Array(tags.length);
    for (let t = 0; t < tags.length; t++) {
      const display = tags[t]!.display;
      if (display.length > 0 && tokenAt(display, 0, this.limit) === display.length && tokenNumber >= 0) {
        kinds[t] = tokenKind;
        numbers[t] = tokenNumber;
        if (tokenNumber > highest[tokenKind]!) highest[tokenKind] = tokenNumber;
      } else numbers[t] = -1;
    }
    for (let kind = OPEN; kind <= STANDALONE; kind++) {
      if (highest[kind]! >= 0) this.byNumber[kind] = new Array<InlineTag | undefined>(highest[kind]! + 1).fill(undefined);
      this.found.push(new Uint8Array(highest[kind]! + 1));
    }
    for (let t = 0; t < tags.length; t++) {
      const tag = tags[t]!;
      if (numbers[t]! >= 0) this.byNumber[kinds[t]!]![numbers[t]!] = tag;
      else (this.byDisplay ??= new Map()).set(tag.display, tag);
    }
  }

  /** Moves to the next tag token; false when there is none left. */
  next(): boolean {
    const text = this.text;
    for (let i = this.at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== OPEN_BRACE && c !== LESS_THAN) continue;
      const length = tokenAt(text, i, this.limit);
      if (length === 0) continue;
      let tag: InlineTag | undefined;
      if (tokenNumber >= 0) {
        tag = this.byNumber[tokenKind]![tokenNumber];
        if (tag !== undefined) {
          const found = this.found[tokenKind]!;
          if (found[tokenNumber] === 1) this.repeated = true;
          else found[tokenNumber] = 1;
        }
      } else {
        tag = this.byDisplay?.get(text.slice(i, i + length));
        if (tag !== undefined) {
          this.foundByDisplay ??= new Set();
          if (this.foundByDisplay.has(tag)) this.repeated = true;
          else this.foundByDisplay.add(tag);
        }
      }
      if (tag === undefined) {
        i += length - 1;
        continue;
      }
      this.start = i;
      this.end = i + length;
      this.tag = tag;
      this.at = this.end;
      return true;
    }
    this.at = text.length;
    return false;
  }
}

/**
 * Splits a translation into text and tags. Only tokens naming a tag of the unit (same number and
 * kind) are tags; anything else that looks like a token stays literal text.
 */
export function splitTokens(text: string, tags: readonly InlineTag[]): Piece[] {
  const pieces: Piece[] = [];
  const tokens = new TagTokens(text, tags);
  let last = 0;
  while (tokens.next()) {
    if (tokens.start > last) pieces.push({ text: text.slice(last, tokens.start) });
    pieces.push({ tag: tokens.tag });
    last = tokens.end;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

/** A translation with its tags put back: text through `escape`, tags as their original markup. */
export function restoreTags(text: string, tags: readonly InlineTag[], escape: (text: string) => string = (t) => t): string {
  let out = '';
  for (const piece of splitTokens(text, tags)) out += 'tag' in piece ? piece.tag.original : escape(piece.text);
  return out;
}

/** Compiles Phrase's `tagRegexp` setting; a bad expression is the file settings' fault, reported as such. */
export function compileTagRegexp(tagRegexp: string | undefined): RegExp | null {
  if (tagRegexp === undefined || tagRegexp === '') return null;
  try {
    return new RegExp(tagRegexp, 'gu');
  } catch {
    throw new FormatError(`tagRegexp is not a valid regular expression: ${tagRegexp}`);
  }
}

/** Text with every match of `pattern` turned into a standalone tag (empty matches are ignored). */
export function tagsByPattern(text: string, pattern: RegExp | null): { source: string; tags: InlineTag[] } {
  if (!pattern) return { source: text, tags: [] };
  const tags: InlineTag[] = [];
  let source = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0] === '') continue;
    const tag = inlineTag(tags.length + 1, 'standalone', match[0]);
    tags.push(tag);
    source += text.slice(last, match.index) + tag.display;
    last = match.index + match[0].length;
  }
  return { source: source + text.slice(last), tags };
}

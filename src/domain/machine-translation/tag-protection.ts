/**
 * Inline tags through a machine-translation engine (issue 17). Segment texts carry inline tags as
 * Phrase display tokens (`{1>` opens pair 1, `<1}` closes it, `{1}` stands alone). The engine
 * (Apertium through apertium-apy) translates plain text and passes XML-like tags through as
 * "superblanks", at word boundaries, moving them with the words when it reorders ("the <b>blue</b>
 * house" → "La <b>casa</b> azul"). Pure and linear in the length of the segment and the output.
 *
 * The rules:
 * 1. **Ends.** Leading tags (the tags and white space before the first other character) and
 *    trailing tags (the same after the last) are taken off before the engine and put back exactly
 *    at the same ends of its output, with the white space that was between them and the text (the
 *    output's own white space at its ends is dropped). A segment of nothing but tags and white space
 *    never goes to the engine: `engineText` is '' and restore returns the segment unchanged.
 * 2. **Markup mode.** Each inner tag becomes a marker the engine keeps: `{n>` → `<gn>`, `<n}` →
 *    `</gn>`, `{n}` → `<xn/>`, exactly where the tag was (`a{1}b` goes as `a<x1/>b`: no white
 *    space is added or taken away, so words are never merged). Literal `<` and `>` of the text are
 *    sent as they are, except that a literal sequence that reads as a marker (`<g1>`, `</G2 >`,
 *    `<x3/>`) has its `<` replaced by a private-use character absent from the text, and put back
 *    after: restore never takes text for a tag.
 * 3. **Markup restore.** Markers are read back into display tokens (case-insensitive, white space
 *    allowed before `>` and `/>`); a marker of no inner tag of the segment is dropped.
 *    - A tag found more than once: the first is kept, the rest are dropped.
 *    - A closing marker before its opening one: the two are swapped (`TAG_ORDER_REPAIRED`).
 *    - A tag missing from the output is re-inserted (`TAG_REINSERTED`, one per tag): a standalone
 *      tag at the relative position (by characters) it had in the source, moved to the nearest
 *      white-space boundary (of the same kind when the tag stood at a word start or a word end
 *      in the source, rule 5); a lost pair around the corresponding range, widened to whole words
 *      (the opening tag at the nearest word start, the closing one at the nearest word end after
 *      it); the missing half of a pair whose other half came back goes right before (opening) or
 *      right after (closing) that other half; a half whose other half is a leading or trailing tag
 *      goes by position (an opening tag to a word start, a closing tag to a word end).
 *    - Pair check: for a pair listed in `pairContents` whose engine translation is given in
 *      `pairTranslations` and whose two markers both came back, the text the pair encloses in the
 *      output and that translation are compared case-insensitively, white space folded and
 *      surrounding punctuation trimmed; a difference gives `TAG_POSSIBLY_MISPLACED`.
 *    Crossing pairs (`<g1>a<g2>b</g1>c</g2>`) are left as the engine made them.
 * 4. **Text mode** (an engine that cannot keep markup): inner tags are removed, and where a tag
 *    stood between two white-space characters one of them goes too (`a {1} b` → `a b`; `a{1}b` →
 *    `ab`). Every inner tag is then put back into the output by rule 3's re-insertion (relative
 *    position, nearest white-space boundary, pairs opening before closing), each with
 *    `TAG_REINSERTED`. `pairContents` is empty in this mode.
 * 5. **Boundaries.** A white-space boundary is a text end or the edge of a white-space run; in
 *    scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) every character edge is
 *    one too. A word start is a boundary followed by a non-space, a word end one preceded by a
 *    non-space; a surrogate pair is never split. A standalone tag with white space (or the text's
 *    start) before it and a non-space after stood at a word start; the reverse, at a word end
 *    (adjacent tags are looked across). Tags put back at one position keep the source's order, a
 *    re-inserted closing tag coming before and an opening or standalone one after any tag the
 *    engine kept there.
 *
 * Each display token is assumed to occur at most once in a segment (Phrase numbers its tags).
 * `ProtectedText` is plain JSON (it may be stored between the engine's request and its answer).
 */

/** Something a machine translation could not keep and the service repaired or reports. */
export type MtWarning =
  /** The engine lost the tag; it was put back by rule. */
  | { kind: 'TAG_REINSERTED'; tag: string }
  /** A closing tag came back before its opening one; the two were swapped. */
  | { kind: 'TAG_ORDER_REPAIRED'; tag: string }
  /** The pair's content is not what the engine made of it alone. */
  | { kind: 'TAG_POSSIBLY_MISPLACED'; tag: string }
  /** A glossary term's token did not come back from the engine; the target term is not in the output. */
  | { kind: 'GLOSSARY_TERM_LOST'; source: string; target: string };

/** `markup`: the engine keeps XML-like tags (Apertium); `text`: it keeps nothing but text. */
export type TagMode = 'markup' | 'text';

/** What `restoreTags` needs of the source; callers pass it along untouched. */
export interface TagRestoreData {
  readonly mode: TagMode;
  /** The segment as given. */
  readonly original: string;
  /** The segment had nothing to translate: restore returns `original`. */
  readonly passthrough: boolean;
  /** Leading tags and white space, put back before the output. */
  readonly prefix: string;
  /** Trailing tags and white space, put back after the output. */
  readonly suffix: string;
  /** The private-use character that stands for the `<` of literal marker-like text ('' when none). */
  readonly escape: string;
  /** The length of the text sent, tags left out (what tag positions are relative to). */
  readonly sourceLength: number;
  /** The inner tags in source order, each at its offset in the text sent, tags left out. */
  readonly tags: ReadonlyArray<{
    readonly token: string;
    readonly type: 'open' | 'close' | 'standalone';
    readonly n: number;
    readonly pos: number;
    /** Where a standalone tag stood in the source: at a word start, a word end, or neither. */
    readonly at: WordEdge;
  }>;
}

/** A segment made ready for the engine. */
export interface ProtectedText {
  /** What to send to the engine. */
  engineText: string;
  /**
   * For each inner tag pair whose content is plain text (no other tags, some letter): that
   * content, to be translated alone in the same batch so that restoreTags can check the pair.
   */
  pairContents: Array<{ tag: number; text: string }>;
  /** For restoreTags (opaque to callers). */
  restoreData: TagRestoreData;
}

type TagType = 'open' | 'close' | 'standalone';
type WordEdge = 'start' | 'end' | 'other';

const DISPLAY_TOKENS = /\{(\d{1,9})>|<(\d{1,9})\}|\{(\d{1,9})\}/g;
/** Markers as read back (and literal text that reads as one). */
const MARKERS = /<(\/?)g(\d{1,9})\s*>|<x(\d{1,9})\s*\/>/gi;
const SPACE = /\s/;
const LETTER = /\p{L}/u;
const PUNCTUATION_OR_SPACE = /[\p{P}\s]/u;
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

function isSpace(c: string | undefined): boolean {
  return c !== undefined && SPACE.test(c);
}

function openToken(digits: string): string {
  return `{${digits}>`;
}
function closeToken(digits: string): string {
  return `<${digits}}`;
}

function markerOf(type: TagType, digits: string): string {
  return type === 'open' ? `<g${digits}>` : type === 'close' ? `</g${digits}>` : `<x${digits}/>`;
}

/** A private-use character that does not occur in `text`. */
function absentPrivateUseChar(text: string): string {
  const used = new Set<number>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xe000 && c <= 0xf8ff) used.add(c);
  }
  let c = 0xe000;
  while (used.has(c)) c++;
  return String.fromCharCode(c);
}

/** Cuts a segment into its leading tags, inner part and trailing tags, and sends the inner part. */
export function protectTags(segment: string, mode: TagMode): ProtectedText {
  const matches = [...segment.matchAll(DISPLAY_TOKENS)];
  let start = 0;
  let first = 0;
  while (start < segment.length) {
    const m = matches[first];
    if (m !== undefined && m.index === start) {
      start += m[0].length;
      first++;
    } else if (isSpace(segment[start])) start++;
    else break;
  }
  if (start >= segment.length) {
    const restoreData: TagRestoreData = {
      mode,
      original: segment,
      passthrough: true,
      prefix: segment,
      suffix: '',
      escape: '',
      sourceLength: 0,
      tags: [],
    };
    return { engineText: '', pairContents: [], restoreData };
  }
  let end = segment.length;
  let last = matches.length - 1;
  while (end > start) {
    const m = matches[last];
    if (m !== undefined && m.index + m[0].length === end) {
      end = m.index;
      last--;
    } else if (isSpace(segment[end - 1])) end--;
    else break;
  }

  // White space (or an end of the segment) before and after each tag, across runs of adjacent tags.
  const spaceBefore: boolean[] = [];
  const spaceAfter: boolean[] = [];
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!;
    const previous = matches[i - 1];
    const adjacent = previous !== undefined && previous.index + previous[0].length === m.index;
    spaceBefore[i] = adjacent ? spaceBefore[i - 1]! : m.index === 0 || isSpace(segment[m.index - 1]);
  }
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i]!;
    const next = matches[i + 1];
    const after = m.index + m[0].length;
    spaceAfter[i] = next !== undefined && next.index === after ? spaceAfter[i + 1]! : after >= segment.length || isSpace(segment[after]);
  }

  const literals: string[] = [];
  const tags: Array<{ token: string; type: TagType; n: number; pos: number; digits: string; at: WordEdge }> = [];
  let at = start;
  for (let i = first; i <= last; i++) {
    const m = matches[i]!;
    literals.push(segment.slice(at, m.index));
    const [token, open, close, standalone] = m;
    const type: TagType = open !== undefined ? 'open' : close !== undefined ? 'close' : 'standalone';
    const digits = (open ?? close ?? standalone)!;
    const edge: WordEdge = spaceBefore[i] && !spaceAfter[i] ? 'start' : spaceAfter[i] && !spaceBefore[i] ? 'end' : 'other';
    tags.push({ token, type, n: Number(digits), pos: 0, digits, at: edge });
    at = m.index + token.length;
  }
  literals.push(segment.slice(at, end));

  const engine: string[] = [];
  let sent = 0;
  let escape = '';
  if (mode === 'markup') {
    const core = segment.slice(start, end);
    for (let i = 0; i < literals.length; i++) {
      let literal = literals[i]!;
      if (MARKERS.test(literal)) {
        if (escape === '') escape = absentPrivateUseChar(core);
        literal = literal.replace(MARKERS, (marker) => escape + marker.slice(1));
      }
      MARKERS.lastIndex = 0;
      engine.push(literal);
      sent += literal.length;
      const tag = tags[i];
      if (tag !== undefined) {
        tag.pos = sent;
        engine.push(markerOf(tag.type, tag.digits));
      }
    }
  } else {
    let endsWithSpace = false;
    for (let i = 0; i < literals.length; i++) {
      let literal = literals[i]!;
      if (i > 0 && endsWithSpace) literal = literal.replace(/^\s+/, '');
      if (literal !== '') {
        engine.push(literal);
        sent += literal.length;
        endsWithSpace = isSpace(literal[literal.length - 1]);
      }
      const tag = tags[i];
      if (tag !== undefined) tag.pos = sent;
    }
  }

  const pairContents: Array<{ tag: number; text: string }> = [];
  if (mode === 'markup') {
    for (let i = 0; i + 1 < tags.length; i++) {
      const open = tags[i]!;
      const close = tags[i + 1]!;
      if (open.type !== 'open' || close.type !== 'close' || open.n !== close.n) continue;
      const content = literals[i + 1]!;
      if (LETTER.test(content)) pairContents.push({ tag: open.n, text: content.trim() });
    }
  }

  const restoreData: TagRestoreData = {
    mode,
    original: segment,
    passthrough: false,
    prefix: segment.slice(0, start),
    suffix: segment.slice(end),
    escape,
    sourceLength: sent,
    tags: tags.map(({ token, type, n, pos, at }) => ({ token, type, n, pos, at })),
  };
  return { engineText: engine.join(''), pairContents, restoreData };
}

/** Where tags may go in a text: nearest word starts and ends of every position, in linear time. */
class Boundaries {
  private readonly prevStart: Int32Array;
  private readonly nextStart: Int32Array;
  private readonly prevEnd: Int32Array;
  private readonly nextEnd: Int32Array;

  constructor(private readonly text: string) {
    const n = text.length;
    const noSpace = new Uint8Array(n + 1);
    for (let i = 0; i < n;) {
      const cp = text.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      if (cp >= 0x0e00 && NO_SPACE_SCRIPT.test(String.fromCodePoint(cp))) for (let k = 0; k < width; k++) noSpace[i + k] = 1;
      i += width;
    }
    const space = (i: number): boolean => i >= 0 && i < n && SPACE.test(text[i]!);
    const splitsPair = (i: number): boolean => {
      if (i <= 0 || i >= n) return false;
      const lo = text.charCodeAt(i);
      const hi = text.charCodeAt(i - 1);
      return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
    };
    const isStart = (i: number): boolean =>
      i < n && !space(i) && !splitsPair(i) && (i === 0 || space(i - 1) || noSpace[i - 1] === 1 || noSpace[i] === 1);
    const isEnd = (i: number): boolean =>
      i > 0 && !space(i - 1) && !splitsPair(i) && (i === n || space(i) || noSpace[i - 1] === 1 || noSpace[i] === 1);
    this.prevStart = new Int32Array(n + 1);
    this.prevEnd = new Int32Array(n + 1);
    this.nextStart = new Int32Array(n + 1);
    this.nextEnd = new Int32Array(n + 1);
    let ps = -1;
    let pe = -1;
    for (let i = 0; i <= n; i++) {
      if (isStart(i)) ps = i;
      if (isEnd(i)) pe = i;
      this.prevStart[i] = ps;
      this.prevEnd[i] = pe;
    }
    let ns = -1;
    let ne = -1;
    for (let i = n; i >= 0; i--) {
      if (isStart(i)) ns = i;
      if (isEnd(i)) ne = i;
      this.nextStart[i] = ns;
      this.nextEnd[i] = ne;
    }
  }

  /** The position of `pos` out of `length` carried over to this text. */
  scaled(pos: number, length: number): number {
    return Math.min(this.text.length, Math.max(0, Math.round((pos * this.text.length) / Math.max(1, length))));
  }

  /** The word start nearest to `t` (the earlier on a tie); `t` itself when the text has none. */
  nearestStart(t: number): number {
    return nearest(t, [this.prevStart[t]!, this.nextStart[t]!]) ?? t;
  }

  /** The word end nearest to `t` that is at least `from`; the text's end when there is none. */
  nearestEnd(t: number, from = 0): number {
    const at = Math.max(t, Math.min(from, this.text.length));
    const prev = this.prevEnd[at]!;
    return nearest(t, [prev >= from ? prev : -1, this.nextEnd[at]!]) ?? this.text.length;
  }

  /** The word start or end nearest to `t`. */
  nearestAny(t: number): number {
    return nearest(t, [this.prevEnd[t]!, this.prevStart[t]!, this.nextStart[t]!, this.nextEnd[t]!]) ?? t;
  }
}

function nearest(t: number, candidates: number[]): number | undefined {
  let best: number | undefined;
  for (const c of candidates) if (c >= 0 && (best === undefined || Math.abs(c - t) < Math.abs(best - t))) best = c;
  return best;
}

/** Folded for the pair check: lower case, white space runs as one space, punctuation trimmed at both ends. */
function comparable(text: string): string {
  const folded = text.toLowerCase().replace(/\s+/g, ' ');
  let a = 0;
  let b = folded.length;
  while (a < b && PUNCTUATION_OR_SPACE.test(folded[a]!)) a++;
  while (b > a && PUNCTUATION_OR_SPACE.test(folded[b - 1]!)) b--;
  return folded.slice(a, b);
}

interface KeptTag {
  token: string;
  pos: number;
  before: string[];
  after: string[];
}

/**
 * The engine's output with the segment's tags back as display tokens, and what had to be repaired.
 * `pairTranslations` maps a pair's number to the engine's translation of its `pairContents` text.
 */
export function restoreTags(
  p: ProtectedText,
  engineOutput: string,
  pairTranslations?: ReadonlyMap<number, string>,
): { text: string; warnings: MtWarning[] } {
  const data = p.restoreData;
  if (data.passthrough) return { text: data.original, warnings: [] };
  const warnings: MtWarning[] = [];
  const output = engineOutput.trim();
  const sourceByToken = new Map<string, TagRestoreData['tags'][number]>();
  for (const tag of data.tags) if (!sourceByToken.has(tag.token)) sourceByToken.set(tag.token, tag);

  // The tags the engine kept, each at its offset in the plain output (markers left out).
  const kept: KeptTag[] = [];
  const keptIndex = new Map<string, number>();
  let plain = output;
  if (data.mode === 'markup') {
    const pieces: string[] = [];
    let length = 0;
    let at = 0;
    for (const m of output.matchAll(MARKERS)) {
      const piece = output.slice(at, m.index);
      pieces.push(piece);
      length += piece.length;
      at = m.index + m[0].length;
      const [, slash, paired, standalone] = m;
      const token = paired !== undefined ? (slash === '/' ? closeToken(paired) : openToken(paired)) : `{${standalone!}}`;
      if (!sourceByToken.has(token) || keptIndex.has(token)) continue;
      keptIndex.set(token, kept.length);
      kept.push({ token, pos: length, before: [], after: [] });
    }
    pieces.push(output.slice(at));
    plain = pieces.join('');
    if (data.escape !== '') plain = plain.split(data.escape).join('<');
  }

  // A closing tag kept before its opening one: swap them.
  for (const tag of data.tags) {
    if (tag.type !== 'open') continue;
    const close = closeToken(tag.token.slice(1, -1));
    const oi = keptIndex.get(tag.token);
    const ci = keptIndex.get(close);
    if (oi === undefined || ci === undefined || ci > oi) continue;
    kept[ci]!.token = tag.token;
    kept[oi]!.token = close;
    keptIndex.set(tag.token, ci);
    keptIndex.set(close, oi);
    warnings.push({ kind: 'TAG_ORDER_REPAIRED', tag: tag.token });
  }

  // The pair check.
  if (pairTranslations !== undefined) {
    const openByNumber = new Map<number, string>();
    for (const tag of data.tags) if (tag.type === 'open' && !openByNumber.has(tag.n)) openByNumber.set(tag.n, tag.token);
    for (const { tag: n } of p.pairContents) {
      const translation = pairTranslations.get(n);
      const open = openByNumber.get(n);
      if (translation === undefined || open === undefined) continue;
      const oi = keptIndex.get(open);
      const ci = keptIndex.get(closeToken(open.slice(1, -1)));
      if (oi === undefined || ci === undefined) continue;
      if (comparable(plain.slice(kept[oi]!.pos, kept[ci]!.pos)) !== comparable(translation)) {
        warnings.push({ kind: 'TAG_POSSIBLY_MISPLACED', tag: open });
      }
    }
  }

  // The tags lost: put back by rule (the boundaries of the output are worked out only when one is lost).
  let bounds: Boundaries | null = null;
  const boundaries = {
    get: (): Boundaries => (bounds ??= new Boundaries(plain)),
  };
  const before = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  const put = (where: Map<number, string[]>, pos: number, token: string): void => {
    const list = where.get(pos);
    if (list === undefined) where.set(pos, [token]);
    else list.push(token);
    warnings.push({ kind: 'TAG_REINSERTED', tag: token });
  };
  const handled = new Set<string>();
  for (const tag of data.tags) {
    if (keptIndex.has(tag.token) || handled.has(tag.token)) continue;
    handled.add(tag.token);
    const target = boundaries.get().scaled(tag.pos, data.sourceLength);
    if (tag.type === 'standalone') {
      const pos =
        tag.at === 'start'
          ? boundaries.get().nearestStart(target)
          : tag.at === 'end'
            ? boundaries.get().nearestEnd(target)
            : boundaries.get().nearestAny(target);
      put(after, pos, tag.token);
      continue;
    }
    const digits = tag.token.slice(1, -1);
    const partnerToken = tag.type === 'open' ? closeToken(digits) : openToken(digits);
    const partner = sourceByToken.get(partnerToken);
    const partnerKept = keptIndex.get(partnerToken);
    if (partnerKept !== undefined) {
      const other = kept[partnerKept]!;
      if (tag.type === 'open') other.before.push(tag.token);
      else other.after.push(tag.token);
      warnings.push({ kind: 'TAG_REINSERTED', tag: tag.token });
    } else if (tag.type === 'open' && partner !== undefined && !handled.has(partnerToken) && partner.pos >= tag.pos) {
      handled.add(partnerToken);
      const openAt = boundaries.get().nearestStart(target);
      const closeTarget = boundaries.get().scaled(partner.pos, data.sourceLength);
      const closeAt = partner.pos > tag.pos ? boundaries.get().nearestEnd(closeTarget, openAt + 1) : openAt;
      put(after, openAt, tag.token);
      put(closeAt === openAt ? after : before, closeAt, partnerToken);
    } else if (tag.type === 'open') {
      put(after, boundaries.get().nearestStart(target), tag.token);
    } else {
      put(before, boundaries.get().nearestEnd(target), tag.token);
    }
  }

  if (kept.length === 0 && before.size === 0 && after.size === 0) return { text: data.prefix + plain + data.suffix, warnings };
  const parts: string[] = [data.prefix];
  let from = 0;
  let k = 0;
  for (let i = 0; i <= plain.length; i++) {
    const b = before.get(i);
    const a = after.get(i);
    if (b === undefined && a === undefined && (k >= kept.length || kept[k]!.pos !== i)) continue;
    parts.push(plain.slice(from, i));
    from = i;
    if (b !== undefined) parts.push(...b);
    while (k < kept.length && kept[k]!.pos === i) {
      const tag = kept[k++]!;
      parts.push(...tag.before, tag.token, ...tag.after);
    }
    if (a !== undefined) parts.push(...a);
  }
  parts.push(plain.slice(from), data.suffix);
  return { text: parts.join(''), warnings };
}

import { primaryLanguage, stemmerFor } from './stemmers.js';
import type { Stemmer } from 'snowball-stemmers';

/**
 * Term recognition in text (docs/terminology.md, "Term recognition"): every occurrence of the
 * terms of one language in a text, with its position. Pure; no I/O. A `TermMatcher` is built once
 * for a set of terms (a term base's terms of one language) and answers any number of texts.
 *
 * The rules, in order:
 * 1. **Ignored characters.** Inline tags (placeholders U+E000..U+F8FF, the segmentation contract)
 *    and the caller's zero-length separator are left out before anything else, so a tag inside a
 *    term does not break its match; positions are of the text as given.
 * 2. **Tokens.** A word is a run of letters, marks and digits; every Han, kana, Hangul and Thai
 *    character is a token of its own (those scripts are written without spaces: matching works on
 *    characters). Between two tokens of one match the text may have at most 3 characters of white
 *    space, hyphens, apostrophes, slashes or middle dots, never sentence punctuation.
 * 3. **Forms.** A term matches case-insensitively (`toLowerCase`) and tolerant of inflection: each
 *    word is compared by its Snowball stem in the matcher's language (`stemmers.ts`; a language
 *    without a stemmer compares the lower-case words). A term with `exactMatch` compares its
 *    words as they are lower-cased, without stemming. A `caseSensitive` term also needs the text's
 *    words to begin as the term's are written, for the length of their stems (exact terms: whole
 *    words as written). Words of more than 64 code units are compared lower-cased, unstemmed.
 * 4. **Compounds.** In languages that write compounds as one word (German, Dutch, the Nordic
 *    languages, Finnish), a one-word term of at least 4 letters without `exactMatch` is also found
 *    as the last part of a longer word ("Datei" in "Systemdateien") or as its first part, with or
 *    without a linking element ("Arbeit" in "Arbeitsspeicher"); each part left at least 3 letters.
 *    Such a match is a `subTerm`.
 * 5. **Overlaps.** Of overlapping matches the longest is kept (then the one that starts first);
 *    matches of the same span are all kept (synonyms, the same term in two term bases).
 */

export interface RecognizableTerm {
  /** The term as written. */
  readonly text: string;
  readonly caseSensitive: boolean;
  readonly exactMatch: boolean;
}

export interface TermOccurrence<T> {
  readonly term: T;
  /** Where the match starts in the text as given (UTF-16 code units). */
  readonly begin: number;
  /** Where it ends (exclusive). */
  readonly end: number;
  /** Found as a part of a compound word. */
  readonly subTerm: boolean;
}

export interface FindOptions {
  /** A string that stands for a zero-length separator in the text (left out like a tag); the API bounds its length. */
  readonly ignore?: string;
}

const LOGOGRAPHIC = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\u30FC\\uFF70\\u3005\\u3006';
const TOKENS = new RegExp(`[${LOGOGRAPHIC}]|(?:(?![${LOGOGRAPHIC}])[\\p{L}\\p{M}\\p{N}])+`, 'gu');
const IS_LOGOGRAPHIC = new RegExp(`^[${LOGOGRAPHIC}]$`, 'u');
const TAGS = /[\uE000-\uF8FF]/u;
/** What may stand between two tokens of one match. */
const JOINING = /^[\s\-\u2010\u2011'\u2019/\u00B7]{0,3}$/u;
/** Languages whose compounds are written as one word. */
const COMPOUNDING = new Set(['de', 'nl', 'sv', 'da', 'nb', 'nn', 'no', 'fi', 'is']);
/** Linking elements between the parts of a compound (German "Arbeit-s-speicher", Dutch "-en-"). */
const LINKS = ['s', 'es', 'n', 'en', 'e', 'er'];
const MIN_COMPOUND_TERM = 4;
const MIN_COMPOUND_REST = 3;
/**
 * Longer words are not looked into for compound parts: each split stems a part, so the work grows
 * with the square of a word's length (real compounds are far shorter).
 */
const MAX_COMPOUND_WORD = 64;
/**
 * Longer words are compared by their lower-case form, not stemmed: the Snowball stemmers' time grows
 * faster than a word's length (measured: 0.9 s for 100,000 letters, 32 s for 200,000).
 */
const MAX_STEMMED_WORD = 64;
/** Words whose stems a matcher remembers at most (then it starts again). */
const STEM_CACHE = 50_000;

interface Token {
  /** Start and end in the view (the text without ignored characters). */
  readonly start: number;
  readonly end: number;
  readonly surface: string;
  readonly logographic: boolean;
}

interface Entry<T> {
  readonly term: T;
  /** Per token: `c:` + a logographic character, `x:` + the lower-case word, or `s:` + its stem. */
  readonly keys: string[];
  /** Per token, the term's word as written (case-sensitive checks). */
  readonly surfaces: string[];
  readonly caseSensitive: boolean;
  readonly exact: boolean;
}

/** A level of the terms' trie: the terms whose keys end here, and the next keys. */
interface TrieNode<T> {
  children: Map<string, TrieNode<T>> | null;
  entries: Entry<T>[] | null;
}

/** A match before overlaps are resolved (view positions). */
interface Found<T> {
  readonly entry: Entry<T>;
  readonly start: number;
  readonly end: number;
  readonly subTerm: boolean;
}

/** The text without ignored characters, and where each of its code units was. */
interface View {
  readonly text: string;
  /** View position → position in the text as given; null when nothing was left out. */
  readonly origin: Int32Array | null;
}

function viewOf(text: string, ignore: string | undefined): View {
  const hasIgnore = ignore !== undefined && ignore !== '' && text.includes(ignore);
  if (!hasIgnore && !TAGS.test(text)) return { text, origin: null };
  const units: string[] = [];
  const origin: number[] = [];
  // The next occurrence of `ignore` is looked up once per occurrence, not at every position.
  let skipAt = hasIgnore ? text.indexOf(ignore) : -1;
  for (let i = 0; i < text.length;) {
    if (i === skipAt) {
      i += ignore!.length;
      skipAt = text.indexOf(ignore!, i);
      continue;
    }
    const code = text.charCodeAt(i);
    if (code < 0xe000 || code > 0xf8ff) {
      units.push(text[i]!);
      origin.push(i);
    }
    i++;
  }
  origin.push(text.length);
  return { text: units.join(''), origin: Int32Array.from(origin) };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKENS.lastIndex = 0;
  for (let match = TOKENS.exec(text); match; match = TOKENS.exec(text)) {
    const surface = match[0];
    tokens.push({ start: match.index, end: match.index + surface.length, surface, logographic: IS_LOGOGRAPHIC.test(surface) });
  }
  return tokens;
}

export class TermMatcher<T extends RecognizableTerm> {
  private readonly stemmer: Stemmer | null;
  private readonly compounding: boolean;
  /** The terms by their tokens' keys, one level a token. */
  private readonly root: TrieNode<T> = { children: null, entries: null };
  /** One-word terms found in compounds, by stem. */
  private readonly compoundParts = new Map<string, Entry<T>[]>();
  /** The first three letters of those terms' lower-case forms and stems (a cheap test before stemming). */
  private readonly compoundStarts = new Set<string>();
  private readonly stems = new Map<string, string>();

  constructor(terms: Iterable<T>, language: string) {
    this.stemmer = stemmerFor(language);
    this.compounding = COMPOUNDING.has(primaryLanguage(language));
    for (const term of terms) this.add(term);
  }

  /**
   * Adds a term after construction: a caller building a matcher of many terms adds them in slices
   * and lets other work run between slices (a matcher of 500,000 terms takes seconds to build).
   */
  addTerms(terms: Iterable<T>): void {
    for (const term of terms) this.add(term);
  }

  private stem(lower: string): string {
    if (this.stemmer === null || lower.length > MAX_STEMMED_WORD) return lower;
    let stem = this.stems.get(lower);
    if (stem === undefined) {
      if (this.stems.size >= STEM_CACHE) this.stems.clear();
      stem = this.stemmer.stem(lower);
      this.stems.set(lower, stem);
    }
    return stem;
  }

  private add(term: T): void {
    const tokens = tokenize(viewOf(term.text, undefined).text);
    if (tokens.length === 0) return;
    const exact = term.exactMatch;
    const keys = tokens.map((t) => {
      if (t.logographic) return `c:${t.surface}`;
      const lower = t.surface.toLowerCase();
      return exact ? `x:${lower}` : `s:${this.stem(lower)}`;
    });
    const entry: Entry<T> = { term, keys, surfaces: tokens.map((t) => t.surface), caseSensitive: term.caseSensitive, exact };
    let node = this.root;
    for (const key of keys) {
      node.children ??= new Map();
      let child = node.children.get(key);
      if (!child) {
        child = { children: null, entries: null };
        node.children.set(key, child);
      }
      node = child;
    }
    (node.entries ??= []).push(entry);
    const only = tokens[0]!;
    if (this.compounding && !exact && tokens.length === 1 && !only.logographic && only.surface.length >= MIN_COMPOUND_TERM) {
      push(this.compoundParts, keys[0]!, entry);
      const lower = only.surface.toLowerCase();
      this.compoundStarts.add(lower.slice(0, 3));
      this.compoundStarts.add(keys[0]!.slice(2, 5));
    }
  }

  /** Every occurrence of the terms in `text`, by position (then the longest first). */
  find(text: string, options: FindOptions = {}): TermOccurrence<T>[] {
    const view = viewOf(text, options.ignore);
    const tokens = tokenize(view.text);
    const n = tokens.length;
    // Per token, its keys (logographic: one; a word: as written lower-case, and its stem, computed
    // when first needed); per gap between two tokens, whether a match may span it.
    const exactKeys: string[] = new Array<string>(n);
    const stemKeys: (string | null)[] = new Array<string | null>(n).fill(null);
    const joins = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const token = tokens[i]!;
      exactKeys[i] = token.logographic ? `c:${token.surface}` : `x:${token.surface.toLowerCase()}`;
      if (i + 1 < n) joins[i] = JOINING.test(view.text.slice(token.end, tokens[i + 1]!.start)) ? 1 : 0;
    }
    const stemKeyAt = (i: number) => (stemKeys[i] ??= `s:${this.stem(exactKeys[i]!.slice(2))}`);
    const found: Found<T>[] = [];
    let frontier: TrieNode<T>[] = [];
    let next: TrieNode<T>[] = [];
    for (let i = 0; i < n; i++) {
      frontier.length = 0;
      frontier.push(this.root);
      for (let k = i; k < n && frontier.length > 0; k++) {
        if (k > i && joins[k - 1] === 0) break;
        next.length = 0;
        const token = tokens[k]!;
        for (const node of frontier) {
          const children = node.children;
          if (children === null) continue;
          const byWord = children.get(exactKeys[k]!);
          if (byWord) next.push(byWord);
          if (!token.logographic && this.stemmer !== null) {
            const byStem = children.get(stemKeyAt(k));
            if (byStem) next.push(byStem);
          } else if (!token.logographic) {
            // Without a stemmer a word's stem key is its lower-case form.
            const byStem = children.get(`s:${exactKeys[k]!.slice(2)}`);
            if (byStem) next.push(byStem);
          }
        }
        for (const node of next) {
          if (node.entries === null) continue;
          for (const entry of node.entries) {
            if (entry.caseSensitive && !this.caseFits(entry, tokens, i)) continue;
            found.push({ entry, start: tokens[i]!.start, end: token.end, subTerm: false });
          }
        }
        [frontier, next] = [next, frontier];
      }
      const token = tokens[i]!;
      if (this.compounding && !token.logographic) this.findParts(token, exactKeys[i]!.slice(2), found);
    }
    return this.resolve(found, view);
  }

  /** Whether the text's words from token `i` begin as the case-sensitive term's are written. */
  private caseFits(entry: Entry<T>, tokens: readonly Token[], i: number): boolean {
    for (let k = 0; k < entry.keys.length; k++) {
      const token = tokens[i + k]!;
      if (token.logographic) continue;
      const written = entry.surfaces[k]!;
      if (entry.exact) {
        if (token.surface !== written) return false;
      } else {
        const length = Math.min(entry.keys[k]!.length - 2, written.length, token.surface.length);
        if (token.surface.slice(0, length) !== written.slice(0, length)) return false;
      }
    }
    return true;
  }

  /** The one-word terms that are the last or the first part of a compound `token`. */
  private findParts(token: Token, lower: string, found: Found<T>[]): void {
    // Lower-casing that changes the length (rare) would misplace the parts: such words are skipped.
    if (lower.length !== token.surface.length || lower.length < MIN_COMPOUND_TERM + MIN_COMPOUND_REST || lower.length > MAX_COMPOUND_WORD) {
      return;
    }
    const offer = (part: string, start: number, end: number) => {
      for (const entry of this.compoundParts.get(`s:${this.stem(part)}`) ?? []) {
        if (entry.caseSensitive) {
          const written = entry.surfaces[0]!;
          const length = Math.min(entry.keys[0]!.length - 2, written.length, end - start);
          // A part inside a word starts lower-case in the text: compare without the first letter.
          if (token.surface.slice(start - token.start + 1, start - token.start + length) !== written.slice(1, length)) continue;
        }
        found.push({ entry, start, end, subTerm: true });
      }
    };
    const mayStartWithTerm = this.compoundStarts.has(lower.slice(0, 3));
    for (let p = MIN_COMPOUND_REST; p <= lower.length - MIN_COMPOUND_REST; p++) {
      if (lower.length - p >= MIN_COMPOUND_TERM && this.compoundStarts.has(lower.slice(p, p + 3))) {
        offer(lower.slice(p), token.start + p, token.end);
      }
      if (p < MIN_COMPOUND_TERM || !mayStartWithTerm) continue;
      const modifier = lower.slice(0, p);
      offer(modifier, token.start, token.start + p);
      for (const link of LINKS) {
        if (modifier.length - link.length >= MIN_COMPOUND_TERM && modifier.endsWith(link)) {
          offer(modifier.slice(0, -link.length), token.start, token.start + p - link.length);
        }
      }
    }
  }

  /** Keeps the longest of overlapping matches and maps the positions back to the text as given. */
  private resolve(found: readonly Found<T>[], view: View): TermOccurrence<T>[] {
    // The terms of each span (a term met twice at one span, by its stem and by its word as
    // written, counts once); then the spans, longest first, each kept unless a kept one overlaps it.
    const spans = new Map<number, { start: number; end: number; subTerm: boolean; entries: Set<Entry<T>> }>();
    const width = view.text.length + 1;
    for (const match of found) {
      const id = match.start * width + match.end;
      const span = spans.get(id);
      if (span) span.entries.add(match.entry);
      else spans.set(id, { start: match.start, end: match.end, subTerm: match.subTerm, entries: new Set([match.entry]) });
    }
    const ordered = [...spans.values()].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
    // Whether a position is covered by a kept span: each span is checked against its own
    // positions, so the whole is linear in the spans' lengths.
    const covered = new Uint8Array(view.text.length);
    const kept: typeof ordered = [];
    for (const span of ordered) {
      let free = true;
      for (let at = span.start; at < span.end && free; at++) free = covered[at] === 0;
      if (!free) continue;
      covered.fill(1, span.start, span.end);
      kept.push(span);
    }
    kept.sort((a, b) => a.start - b.start);
    const origin = view.origin;
    return kept.flatMap((span) =>
      [...span.entries].map((entry) => ({
        term: entry.term,
        begin: origin ? origin[span.start]! : span.start,
        end: origin ? origin[span.end - 1]! + 1 : span.end,
        subTerm: span.subTerm,
      })),
    );
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

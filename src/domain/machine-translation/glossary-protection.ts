/**
 * A glossary enforced through machine translation (issue 17): each occurrence of a glossary term
 * in the text sent is replaced by a token the engine passes through as an unknown word, and the
 * token in the engine's output is replaced by the term's target. Pure; linear in the total length
 * of the terms (compiling) and of the text (protecting, restoring).
 *
 * The rules:
 * 1. **Words.** A text is read as tokens: runs of letters, digits and marks (`\p{L}\p{N}\p{M}`),
 *    white-space runs, and single other characters; display tokens (`{1>`, `<1}`, `{1}`) and the
 *    engine markers of tag-protection.ts (`<g1>`, `</g1>`, `<x1/>`) are barriers no term matches
 *    inside or across.
 * 2. **Matching.** A term matches a run of whole tokens: case-insensitively (`toLowerCase`), any
 *    white-space run of the text standing for any white-space run of the term ("print queue"
 *    matches "Print\nqueue"). So a match starts and ends at a boundary between a letter/digit and
 *    a non-letter/digit (or an end of the text) wherever the term begins or ends with a
 *    letter/digit: "file" is not found in "profile" nor in "files". Terms are trimmed; a term with
 *    nothing left, or with a display token, is left out; of two terms that read the same the first
 *    is kept.
 * 3. **Choice.** Left to right, the longest term at each position wins, and matches do not
 *    overlap ("Print queue settings" with "print" and "print queue": "print queue"). An
 *    occurrence that a letter/digit touches on a side where the term has none (".NET" in
 *    "ASP.NET") is left as it is: its token would merge with that word.
 * 4. **Tokens.** Each occurrence becomes its own token, `Xgt0x`, `Xgt1x`, ... numbered per text:
 *    ASCII letters and digits, which Apertium passes through as an unknown word. When the text
 *    already contains the prefix (case-insensitively), another one is taken (`Qgt`, `Zgt`, ...), so a
 *    token never collides with the text.
 * 5. **Restore.** Each token found in the output (case-insensitively, as a whole word) is replaced
 *    by its target term (every copy, if the engine doubled it); when it stands at the start of a
 *    sentence (the output's start, or after `.`, `!` or `?` and white space, opening quotes,
 *    brackets and tags aside) and the occurrence in the source began with an upper-case letter,
 *    the target's first letter is capitalized. A token not found gives `GLOSSARY_TERM_LOST` and
 *    its target is inserted nowhere.
 *
 * Run it on the text `protectTags` makes (and on its `pairContents`), before the engine; restore
 * terms before tags. The engine should not mark unknown words (apertium-apy `markUnknown=no`).
 */
import type { MtWarning } from './tag-protection.js';

/** One glossary entry: a source term and the target term that must replace it. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** A glossary ready for `protectTerms`. */
export interface CompiledGlossary {
  /** How many distinct source terms it matches. */
  readonly size: number;
}

/** One occurrence replaced by a token: the token, the occurrence as written in the text, the target. */
export interface ProtectedTerm {
  token: string;
  source: string;
  target: string;
}

/** Runs of letters/digits/marks, white-space runs, barriers (display tokens, engine markers), single characters. */
const TEXT_TOKENS = /(\{\d{1,9}>|<\d{1,9}\}|\{\d{1,9}\}|<\/?g\d{1,9}\s*>|<x\d{1,9}\s*\/>)|([\p{L}\p{N}\p{M}]+)|(\s+)|[^]/giu;
const LETTER = /\p{L}/u;
const PREFIXES = ['Xgt', 'Qgt', 'Zgt', 'Xqz', 'Qzx', 'Zqj', 'Jqx', 'Vqz'];
const SENTENCE_END = new Set(['.', '!', '?', '…', '。', '！', '？']);
/** Before a sentence's first word: opening brackets and quotes (`\p{Ps}`, `\p{Pi}`) and these. */
const OPENING = /^[\p{Ps}\p{Pi}"'¿¡]$/u;
/** After a sentence's end, before the space: closing brackets and quotes. */
const CLOSING = /^[\p{Pe}\p{Pf}"']$/u;

interface TextToken {
  /** The token as written. */
  text: string;
  /** What terms are matched on: folded words, ' ' for white space, the character; null for a barrier. */
  key: string | null;
  /** A run of letters, digits and marks. */
  word: boolean;
}

function tokensOf(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  for (const m of text.matchAll(TEXT_TOKENS)) {
    const [whole, barrier, word, space] = m;
    const key = barrier !== undefined ? null : word !== undefined ? word.toLowerCase() : space !== undefined ? ' ' : whole;
    tokens.push({ text: whole, key, word: word !== undefined });
  }
  return tokens;
}

/**
 * An Aho-Corasick automaton over the reversed token sequences of the terms: run over the text
 * backwards, it gives at each token the longest term that starts there, in linear time.
 */
class Glossary implements CompiledGlossary {
  /** Per state: the next state by token key. State 0 is the root. */
  readonly next: Array<Map<string, number>> = [new Map()];
  readonly fail: number[] = [0];
  /** Per state: its depth in tokens. */
  readonly depth: number[] = [0];
  /** Per state: the index of the term that ends there, or -1. */
  readonly termAt: number[] = [-1];
  /** Per state: the state of the longest term that is a suffix of it (itself included), or -1. */
  readonly longest: number[] = [-1];
  readonly targets: string[] = [];

  constructor(terms: readonly GlossaryTerm[]) {
    for (const term of terms) {
      const keys = tokensOf(term.source.trim()).map((t) => t.key);
      if (keys.length === 0 || keys.includes(null)) continue;
      let state = 0;
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        let child = this.next[state]!.get(key);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.depth.push(this.depth[state]! + 1);
          this.termAt.push(-1);
          this.longest.push(-1);
          this.next[state]!.set(key, child);
        }
        state = child;
      }
      if (this.termAt[state] === -1) {
        this.termAt[state] = this.targets.length;
        this.targets.push(term.target);
      }
    }
    // Breadth first: failure links and the longest term ending at each state.
    const queue: number[] = [0];
    for (let q = 0; q < queue.length; q++) {
      const state = queue[q]!;
      this.longest[state] = this.termAt[state]! >= 0 ? state : state === 0 ? -1 : this.longest[this.fail[state]!]!;
      for (const [key, child] of this.next[state]!) {
        if (state !== 0) {
          let f = this.fail[state]!;
          while (f !== 0 && !this.next[f]!.has(key)) f = this.fail[f]!;
          this.fail[child] = this.next[f]!.get(key) ?? 0;
        }
        queue.push(child);
      }
    }
  }

  get size(): number {
    return this.targets.length;
  }

  /** For each token, the longest term starting there: [its length in tokens, its index], or undefined. */
  longestFrom(tokens: readonly TextToken[]): Array<[number, number] | undefined> {
    const found: Array<[number, number] | undefined> = new Array(tokens.length);
    let state = 0;
    for (let i = tokens.length - 1; i >= 0; i--) {
      const key = tokens[i]!.key;
      if (key === null) {
        state = 0;
        continue;
      }
      while (state !== 0 && !this.next[state]!.has(key)) state = this.fail[state]!;
      state = this.next[state]!.get(key) ?? 0;
      const best = this.longest[state]!;
      if (best >= 0) found[i] = [this.depth[best]!, this.termAt[best]!];
    }
    return found;
  }
}

/** Compiles glossary terms for `protectTerms`; linear in their total length. */
export function compileGlossary(terms: readonly GlossaryTerm[]): CompiledGlossary {
  return new Glossary(terms);
}

/** The first token prefix the text does not contain, case-insensitively. */
function prefixFor(text: string): string {
  const folded = text.toLowerCase();
  for (const prefix of PREFIXES) if (!folded.includes(prefix.toLowerCase())) return prefix;
  // A text that holds every prefix above: the first followed by more q's than the text has in a row.
  let run = 0;
  let longestRun = 0;
  for (const c of folded) {
    run = c === 'q' ? run + 1 : 0;
    longestRun = Math.max(longestRun, run);
  }
  return PREFIXES[0]! + 'q'.repeat(longestRun + 1);
}

/** The text with each glossary term occurrence replaced by a token, and the occurrences in order. */
export function protectTerms(text: string, glossary: CompiledGlossary): { text: string; terms: ProtectedTerm[] } {
  if (!(glossary instanceof Glossary)) throw new TypeError('protectTerms needs a glossary made by compileGlossary');
  const terms: ProtectedTerm[] = [];
  if (glossary.size === 0 || text === '') return { text, terms };
  const tokens = tokensOf(text);
  const found = glossary.longestFrom(tokens);
  let prefix: string | undefined;
  const parts: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const match = found[i];
    // A token glued to a word would merge with it (".NET" in "ASP.NET"): such an occurrence stays.
    if (match === undefined || tokens[i - 1]?.word === true || tokens[i + match[0]]?.word === true) {
      parts.push(tokens[i]!.text);
      i++;
      continue;
    }
    const [length, index] = match;
    prefix ??= prefixFor(text);
    const token = `${prefix}${terms.length}x`;
    let source = '';
    for (let k = i; k < i + length; k++) source += tokens[k]!.text;
    terms.push({ token, source, target: glossary.targets[index]! });
    parts.push(token);
    i += length;
  }
  return { text: parts.join(''), terms };
}

function isUpperCaseStart(text: string): boolean {
  const first = String.fromCodePoint(text.codePointAt(0) ?? 0x20);
  return first !== first.toLowerCase();
}

function capitalized(text: string): string {
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const c = String.fromCodePoint(cp);
    if (LETTER.test(c)) return text.slice(0, i) + c.toUpperCase() + text.slice(i + c.length);
    i += c.length;
  }
  return text;
}

/** The engine's output with each token replaced by its target term, and the terms it lost. */
export function restoreTerms(output: string, terms: ReadonlyArray<ProtectedTerm>): { text: string; warnings: MtWarning[] } {
  if (terms.length === 0) return { text: output, warnings: [] };
  const byToken = new Map<string, number>();
  terms.forEach((term, i) => byToken.set(term.token.toLowerCase(), i));
  const seen = new Array<boolean>(terms.length).fill(false);
  const parts: string[] = [];
  let sentenceStart = true;
  let sentenceEnded = false;
  for (const m of output.matchAll(TEXT_TOKENS)) {
    const [whole, barrier, word, space] = m;
    if (barrier !== undefined) {
      parts.push(whole);
    } else if (word !== undefined) {
      const index = byToken.get(word.toLowerCase());
      if (index === undefined) parts.push(whole);
      else {
        const term = terms[index]!;
        seen[index] = true;
        parts.push(sentenceStart && isUpperCaseStart(term.source) ? capitalized(term.target) : term.target);
      }
      sentenceStart = false;
      sentenceEnded = false;
    } else if (space !== undefined) {
      parts.push(whole);
      if (sentenceEnded) sentenceStart = true;
      sentenceEnded = false;
    } else {
      parts.push(whole);
      if (SENTENCE_END.has(whole)) {
        sentenceEnded = true;
        sentenceStart = false;
      } else if (sentenceEnded && CLOSING.test(whole)) {
        // `Done.) Next`: the sentence still ended.
      } else if (!(sentenceStart && OPENING.test(whole))) {
        sentenceStart = false;
        sentenceEnded = false;
      }
    }
  }
  const warnings: MtWarning[] = [];
  terms.forEach((term, i) => {
    if (!seen[i]) warnings.push({ kind: 'GLOSSARY_TERM_LOST', source: term.source, target: term.target });
  });
  return { text: parts.join(''), warnings };
}

/**
 * Spelling with Hunspell (nodehun, the native binding; the choice is measured in docs/spelling.md)
 * on the installed Debian dictionaries. Usable from worker threads: nothing here touches the
 * database, and each thread loads its own dictionaries.
 *
 * - One loaded dictionary per file pair per thread, shared by every organization, with a cache
 *   of word → verdict (cleared when it reaches MAX_CACHED_VERDICTS words).
 * - `loadSpeller` adds the extra words (the organization's dictionary, term-base terms): a
 *   word that equals one of them, or one of their words, case-insensitively and with ’ read as ',
 *   is never reported; neither is a hyphenated word each of whose parts is right or extra.
 * - `suggest` runs Hunspell's suggestion search off the event loop (nodehun's asynchronous call,
 *   on libuv's threads) on a second Hunspell instance, one call at a time per dictionary, so it
 *   never races with the checks, which run synchronously on the caller's thread.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Nodehun } from 'nodehun';
import { spellingTokens } from '../domain/spelling/tokenize.js';
import type { QaSpeller } from '../domain/quality-assurance/types.js';
import { dictionaryFor } from './dictionaries.js';
import type { DictionaryFiles } from './dictionaries.js';

/** Longer words are reported without asking Hunspell (which refuses them anyway, slowly). */
export const MAX_WORD_LENGTH = 100;
/** Words whose verdict one dictionary keeps before the cache starts over. */
export const MAX_CACHED_VERDICTS = 500_000;
/** Suggestions returned for one word at most. */
export const MAX_SUGGESTIONS = 10;
/** Extra words compared with a misspelled word for suggestions at most (the first ones given). */
const MAX_EXTRA_WORDS_SUGGESTED_FROM = 5_000;

const require = createRequire(import.meta.url);
let nodehunClass: typeof Nodehun | undefined;
/** The binding, loaded on first use (an app that never spell-checks never loads it). */
function NodehunClass(): typeof Nodehun {
  nodehunClass ??= (require('nodehun') as { Nodehun: typeof Nodehun }).Nodehun;
  return nodehunClass;
}

/** One dictionary, loaded: checks with a verdict cache, suggestions one at a time. */
class LoadedDictionary {
  private readonly verdicts = new Map<string, boolean>();
  private suggester: Nodehun | null = null;
  private suggestions: Promise<unknown> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly checker: Nodehun,
    private readonly aff: Buffer,
    private readonly dic: Buffer,
  ) {}

  correct(word: string): boolean {
    let verdict = this.verdicts.get(word);
    if (verdict === undefined) {
      verdict = word.length <= MAX_WORD_LENGTH && this.checker.spellSync(word);
      if (this.verdicts.size >= MAX_CACHED_VERDICTS) this.verdicts.clear();
      this.verdicts.set(word, verdict);
    }
    return verdict;
  }

  suggest(word: string): Promise<string[]> {
    const run = this.suggestions.then(async () => {
      this.suggester ??= new (NodehunClass())(this.aff, this.dic);
      return (await this.suggester.suggest(word)) ?? [];
    });
    this.suggestions = run.catch(() => undefined);
    return run;
  }
}

const loaded = new Map<string, Promise<LoadedDictionary>>();

function loadDictionary(files: DictionaryFiles): Promise<LoadedDictionary> {
  let dictionary = loaded.get(files.key);
  if (dictionary === undefined) {
    dictionary = (async () => {
      const [aff, dic] = await Promise.all([readFile(files.aff), readFile(files.dic)]);
      return new LoadedDictionary(files.name, new (NodehunClass())(aff, dic), aff, dic);
    })();
    loaded.set(files.key, dictionary);
    dictionary.catch(() => loaded.delete(files.key));
  }
  return dictionary;
}

/** How words are compared with the extra words: lower case, ’ and ʼ read as '. */
function fold(word: string): string {
  return word.toLowerCase().replace(/[’ʼ]/g, "'");
}

/** The extra words by their folded form (each kept as first given, for suggestions). */
function extraWordMap(extraWords: Iterable<string>): Map<string, string> {
  const words = new Map<string, string>();
  const add = (word: string) => {
    const key = fold(word);
    if (key !== '' && !words.has(key)) words.set(key, word);
  };
  for (const entry of extraWords) {
    const text = entry.trim();
    if (text === '') continue;
    add(text);
    for (const { word } of spellingTokens(text)) {
      add(word);
      if (word.includes('-')) for (const part of word.split('-')) add(part);
    }
  }
  return words;
}

class OrganizationSpeller implements QaSpeller {
  constructor(
    private readonly dictionary: LoadedDictionary,
    private readonly extra: Map<string, string>,
  ) {}

  /** Whether `word` is right; `dotAfter`: a full stop follows it in the text (abbreviations). */
  correct(word: string, dotAfter = false): boolean {
    if (this.extra.has(fold(word)) || this.dictionary.correct(word)) return true;
    if (dotAfter && this.dictionary.correct(`${word}.`)) return true;
    if (word.includes('-')) {
      const parts = word.split('-').filter((p) => p !== '');
      return parts.length > 1 && parts.every((p) => this.extra.has(fold(p)) || this.dictionary.correct(p));
    }
    return false;
  }

  misspelled(text: string): { word: string; offset: number }[] {
    const found: { word: string; offset: number }[] = [];
    for (const token of spellingTokens(text)) {
      const dotAfter = text.charCodeAt(token.offset + token.word.length) === 0x2e;
      if (!this.correct(token.word, dotAfter)) found.push(token);
    }
    return found;
  }
}

/**
 * A speller for `lang` (a Phrase language code: `de`, `en_gb`, `pt_br`) that also accepts
 * `extraWords`; null when no installed dictionary serves the language (the caller reports the
 * text unchecked, never clean).
 */
export async function loadSpeller(lang: string, extraWords: Iterable<string>): Promise<QaSpeller | null> {
  const files = dictionaryFor(lang);
  if (files === null) return null;
  return new OrganizationSpeller(await loadDictionary(files), extraWordMap(extraWords));
}

/** The name of the dictionary that serves `lang` (`de_DE`), or null. */
export function dictionaryNameFor(lang: string): string | null {
  return dictionaryFor(lang)?.name ?? null;
}

/**
 * Ranked suggestions for `word`, or null when no dictionary serves `lang`. A right word (or an
 * extra one) gets none. Order: extra words one edit away, Hunspell's suggestions in its own order
 * (without the truncated-compound forms that begin or end with a hyphen, unless the word does),
 * extra words two edits away; at most MAX_SUGGESTIONS.
 */
export async function suggest(lang: string, word: string, extraWords: Iterable<string>): Promise<string[] | null> {
  const files = dictionaryFor(lang);
  if (files === null) return null;
  const dictionary = await loadDictionary(files);
  const extra = extraWordMap(extraWords);
  const speller = new OrganizationSpeller(dictionary, extra);
  const text = word.trim();
  if (text === '' || text.length > MAX_WORD_LENGTH || speller.correct(text)) return [];
  const near: [string[], string[]] = [[], []];
  const folded = fold(text);
  let compared = 0;
  for (const [key, original] of extra) {
    if (++compared > MAX_EXTRA_WORDS_SUGGESTED_FROM) break;
    const distance = editDistanceAtMostTwo(folded, key);
    if (distance === 1 || distance === 2) near[distance - 1]!.push(original);
  }
  const hyphenEdges = text.startsWith('-') || text.endsWith('-');
  const fromDictionary = (await dictionary.suggest(text)).filter((s) => hyphenEdges || !(s.startsWith('-') || s.endsWith('-')));
  const ranked = [...new Set([...near[0], ...fromDictionary, ...near[1]])].filter((s) => s !== text);
  return ranked.slice(0, MAX_SUGGESTIONS);
}

/** The optimal-string-alignment distance of `a` and `b` when it is at most 2, else 3. */
export function editDistanceAtMostTwo(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  if (a === b) return 0;
  const n = b.length;
  let previous2: number[] = [];
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > 2) return 3;
    previous2 = previous;
    previous = current;
  }
  return Math.min(previous[n]!, 3);
}

import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { normalizeLanguage } from '../../../domain/languages/supported-languages.js';
import type { QaSpeller } from '../../../domain/quality-assurance/types.js';
import { errors } from '../../../errors/index.js';
import { loadSpeller, suggest } from '../../../spelling/index.js';
import { insertWord, wordsFor } from './spell-check.repository.js';
import { MAX_TOTAL_CHARS } from './spell-check.schemas.js';

/**
 * Spell checking with the organization's dictionary (docs/spelling.md): the words it added for a
 * language, the checks of texts (chunked, so a long list never holds the event loop), suggestions
 * and the speller QA runs use.
 */

/** How long the check works before it lets other requests run, in milliseconds. */
const SLICE_MS = 10;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The codes whose words apply to `lang`: the code itself and its language without region (`de_at` → `de_at`, `de`). */
function dictionaryLangs(lang: string): string[] {
  const code = normalizeLanguage(lang) ?? lang.trim().toLowerCase().replace(/-/g, '_');
  const base = code.split('_')[0]!;
  return [...new Set([code, base].filter((c) => c !== ''))];
}

/** The words of the organization's dictionary that apply to `lang` (added for it or for its language without region). */
export function organizationWords(db: Kysely<DB>, organizationId: Id, lang: string): Promise<string[]> {
  return wordsFor(db, organizationId, dictionaryLangs(lang));
}

/**
 * A speller for `lang` that never flags the organization's words nor `extraWords` (a job's
 * term-base terms, say); null when no installed dictionary serves the language (QA reports
 * spelling unchecked then, never clean).
 */
export async function spellerForJob(
  db: Kysely<DB>,
  organizationId: Id,
  lang: string,
  extraWords: Iterable<string>,
): Promise<QaSpeller | null> {
  const words = await organizationWords(db, organizationId, lang);
  return loadSpeller(lang, [...words, ...extraWords]);
}

export interface CheckedText {
  text: string;
  misspelledWords: { word: string; offset: number }[];
}

/** The 400 of a request whose texts hold more than MAX_TOTAL_CHARS characters together. */
function assertTextsSize(texts: readonly string[], field: string): void {
  let total = 0;
  for (const text of texts) total += text.length;
  if (total > MAX_TOTAL_CHARS)
    throw errors.InvalidArguments({
      reason: `The ${field} hold ${total} characters together; one spell check may hold at most ${MAX_TOTAL_CHARS}. Send them in several requests.`,
      details: [{ field, message: `at most ${MAX_TOTAL_CHARS} characters in total` }],
    });
}

/**
 * The checked texts of a check request, or a 400 (too much text, SpellingDictionaryMissing). `lang`
 * is the caller's, validated. Words of the request's `referenceTexts` (the source the texts
 * translate) and `extraWords` (a job's terms) are copied, not misspelled: never flagged.
 */
export async function checkTexts(
  db: Kysely<DB>,
  organizationId: Id,
  lang: string,
  request: { texts: readonly string[]; referenceTexts?: readonly string[] | undefined; zeroLengthSeparator?: string | undefined },
  extraWords: readonly string[] = [],
): Promise<CheckedText[]> {
  const { texts, referenceTexts = [] } = request;
  assertTextsSize(texts, 'texts');
  assertTextsSize(referenceTexts, 'referenceTexts');
  const speller = await spellerForJob(db, organizationId, lang, [...extraWords, ...referenceTexts]);
  if (speller === null) throw errors.SpellingDictionaryMissing({ lang });
  const separator = request.zeroLengthSeparator ?? '';
  const results: CheckedText[] = [];
  let sliceStart = performance.now();
  for (const text of texts) {
    // The separator marks a boundary between words and keeps every offset where it was.
    const read = separator === '' ? text : text.split(separator).join(' '.repeat(separator.length));
    results.push({ text, misspelledWords: speller.misspelled(read).map((m) => ({ word: m.word, offset: m.offset })) });
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return results;
}

/** Ranked suggestions for each word, or the 400 SpellingDictionaryMissing. */
export async function suggestWords(
  db: Kysely<DB>,
  organizationId: Id,
  lang: string,
  words: readonly string[],
): Promise<{ word: string; suggestions: { text: string }[] }[]> {
  const extra = await organizationWords(db, organizationId, lang);
  const results: { word: string; suggestions: { text: string }[] }[] = [];
  for (const word of words) {
    const found = await suggest(lang, word, extra);
    if (found === null) throw errors.SpellingDictionaryMissing({ lang });
    results.push({ word, suggestions: found.map((text) => ({ text })) });
  }
  return results;
}

/** Adds a word to the organization's dictionary for `lang` (a supported code, normalized); adding it again changes nothing. */
export async function addWord(
  db: Kysely<DB>,
  caller: { organizationId: Id; userId: Id | null },
  lang: string,
  word: string,
  now: string,
): Promise<void> {
  await insertWord(db, { organizationId: caller.organizationId, lang, word, createdAt: now, createdById: caller.userId });
}

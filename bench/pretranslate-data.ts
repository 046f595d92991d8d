/**
 * The machine-translation data of bench/pretranslate.bench.ts: distinct English sentences, from
 * the msgids of the machine's gettext catalogs (`../shared/data/catalog-tmx.mjs`, through
 * bench/tm-data.ts), generated sentences when there are not enough of them. Each text is one
 * segment by the service's own segmenter, has letters (it is not a non-translatable), and is
 * plain prose (no tags, placeholders, format specifiers or asterisks), so that the service sends
 * the engine exactly the text of the job's segment; the bench checks that. No top-level work.
 */
import { isNonTranslatable } from '../src/domain/analysis/segment-text.js';
import { segmentText } from '../src/domain/segmentation/segmenter.js';
import { catalogPairs, catalogsMissing, LARGE_LANGUAGES, prng, shuffled } from './tm-data.js';

/** Prose: letters, digits, spaces and sentence punctuation; starts with a capital. */
const PROSE = /^[A-Z][A-Za-z0-9 ,.;:!?'’()-]*$/;
const MIN_WORDS = 3;
const MAX_CHARS = 200;

export interface MtSentences {
  texts: string[];
  /** How many came from the catalogs (the rest were generated). */
  fromCatalogs: number;
  /** Why none came from the catalogs, when none did. */
  catalogNote: string | null;
  words: number;
  bytes: number;
}

function acceptable(text: string): boolean {
  if (text.length > MAX_CHARS || !PROSE.test(text) || text.split(' ').length < MIN_WORDS) return false;
  if (isNonTranslatable(text)) return false;
  const pieces = segmentText(text, 'en');
  return pieces.length === 1 && pieces[0]!.text.trim() === text;
}

const SUBJECTS = [
  'The server',
  'Your account',
  'This project',
  'The new version',
  'Every user',
  'The translator',
  'Our team',
  'The report',
];
const VERBS = ['opens', 'saves', 'checks', 'updates', 'removes', 'shows', 'sends', 'keeps', 'reads', 'prints'];
const ADJECTIVES = ['current', 'old', 'large', 'shared', 'hidden', 'selected', 'empty', 'secure', 'local', 'default'];
const NOUNS = ['file', 'window', 'message', 'folder', 'document', 'setting', 'account', 'page', 'list', 'report', 'image', 'table'];
const ENDINGS = [
  'before the end of the day',
  'when the user logs in',
  'after each change',
  'every morning',
  'on request',
  'in the background',
];

/** Generated sentences, distinct, in a seeded order. */
function generated(count: number, seed: number, taken: Set<string>): string[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const out: string[] = [];
  for (let attempts = 0; out.length < count && attempts < count * 50; attempts++) {
    const text = `${pick(SUBJECTS)} ${pick(VERBS)} the ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(ENDINGS)}${random() < 0.3 ? ` ${1 + Math.floor(random() * 99)} times` : ''}.`;
    if (taken.has(text) || !acceptable(text)) continue;
    taken.add(text);
    out.push(text);
  }
  return out;
}

/** `count` distinct sentences: the catalogs' (seeded choice), then generated ones. */
export function mtSentences(count: number, seed: number): MtSentences {
  const taken = new Set<string>();
  const candidates: string[] = [];
  const missing = catalogsMissing();
  let catalogNote: string | null = missing;
  if (missing === null) {
    for (const lang of ['es', ...LARGE_LANGUAGES.filter((lang) => lang !== 'es')]) {
      const pairs = catalogPairs(lang);
      if (pairs === null) continue;
      for (const [rawSource] of pairs) {
        const source = rawSource.replace(/\s+/g, ' ').trim();
        if (source === '' || taken.has(source)) continue;
        // A message of several sentences gives each of them.
        for (const piece of segmentText(source, 'en')) {
          const text = piece.text.replace(/\s+/g, ' ').trim();
          if (taken.has(text) || !acceptable(text)) continue;
          taken.add(text);
          candidates.push(text);
        }
      }
      if (candidates.length >= count * 3) break;
    }
    if (candidates.length === 0) catalogNote = 'the catalogs hold no plain English sentence';
  }
  const texts = shuffled(candidates, prng(seed)).slice(0, count);
  const fromCatalogs = texts.length;
  if (texts.length < count) texts.push(...generated(count - texts.length, seed, taken));
  return {
    texts,
    fromCatalogs,
    catalogNote,
    words: texts.reduce((sum, text) => sum + text.split(' ').length, 0),
    bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
  };
}

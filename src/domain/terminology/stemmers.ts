import { newStemmer } from 'snowball-stemmers';
import type { Stemmer } from 'snowball-stemmers';

/**
 * The Snowball stemmer of a language (docs/terminology.md, "Term recognition"), by the language
 * code's primary subtag; null for a language Snowball has no stemmer for (its terms then match
 * by their case-folded forms only).
 */
const ALGORITHMS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  cs: 'czech',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  hu: 'hungarian',
  it: 'italian',
  ga: 'irish',
  nb: 'norwegian',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  es: 'spanish',
  sl: 'slovene',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

const stemmers = new Map<string, Stemmer | null>();

/** The primary subtag of a language code, lower-case: `de_CH` → `de`. */
export function primaryLanguage(code: string): string {
  return code.split(/[-_]/)[0]!.toLowerCase();
}

export function stemmerFor(language: string): Stemmer | null {
  const primary = primaryLanguage(language);
  let stemmer = stemmers.get(primary);
  if (stemmer === undefined) {
    const algorithm = ALGORITHMS[primary];
    stemmer = algorithm ? newStemmer(algorithm) : null;
    stemmers.set(primary, stemmer);
  }
  return stemmer;
}

/**
 * Which installed Hunspell dictionary serves a language code (docs/spelling.md, "Dictionaries").
 * Debian's `hunspell-*` packages put `<name>.aff` and `<name>.dic` in /usr/share/hunspell, older
 * ones in /usr/share/myspell(/dicts). A code (`de`, `de_at`, `pt-BR`, `sr_latn_rs`, any case) is
 * looked up as, in order: language_Script_REGION, language_REGION, the language's main region
 * (en → en_US, de → de_DE, pt → pt_PT, sv → sv_SE, …; else language_LANGUAGE), the bare language
 * (`fr`), then the first other region of the language in alphabetical order. No file of the
 * language: null.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export const DICTIONARY_DIRECTORIES = ['/usr/share/hunspell', '/usr/share/myspell', '/usr/share/myspell/dicts'];

/** The region a bare language code means, where it is not the language code in capitals. */
const MAIN_REGION: Record<string, string> = {
  en: 'US',
  af: 'ZA',
  ar: 'SA',
  be: 'BY',
  bn: 'BD',
  br: 'FR',
  bs: 'BA',
  ca: 'ES',
  cs: 'CZ',
  cy: 'GB',
  da: 'DK',
  el: 'GR',
  eo: 'EO',
  et: 'EE',
  eu: 'ES',
  fa: 'IR',
  ga: 'IE',
  gd: 'GB',
  gl: 'ES',
  gu: 'IN',
  he: 'IL',
  hi: 'IN',
  hy: 'AM',
  ka: 'GE',
  kk: 'KZ',
  ko: 'KR',
  lb: 'LU',
  ml: 'IN',
  mr: 'IN',
  nb: 'NO',
  ne: 'NP',
  nn: 'NO',
  no: 'NO',
  oc: 'FR',
  pa: 'IN',
  sl: 'SI',
  sq: 'AL',
  sr: 'RS',
  sv: 'SE',
  sw: 'TZ',
  ta: 'IN',
  te: 'IN',
  uk: 'UA',
  ur: 'PK',
  vi: 'VN',
};

/** Other names Debian gives a language's dictionaries. */
const LANGUAGE_ALIASES: Record<string, string[]> = { no: ['nb'], nb: ['no'], he: ['iw'], id: ['in'] };

export interface DictionaryFiles {
  /** The dictionary's name, as its file is called (`de_DE`). */
  name: string;
  aff: string;
  dic: string;
  /** The files with symbolic links resolved: fr_FR and fr_BE, links to fr, share one speller. */
  key: string;
}

/** Every installed dictionary by name (the first directory that has it wins). */
export function installedDictionaries(directories: readonly string[] = DICTIONARY_DIRECTORIES): Map<string, { aff: string; dic: string }> {
  const found = new Map<string, { aff: string; dic: string }>();
  for (const directory of directories) {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      continue;
    }
    const present = new Set(names);
    for (const file of names) {
      if (!file.endsWith('.dic')) continue;
      const name = file.slice(0, -4);
      if (found.has(name) || !present.has(`${name}.aff`)) continue;
      found.set(name, { aff: join(directory, `${name}.aff`), dic: join(directory, file) });
    }
  }
  return found;
}

/** The dictionary names to try for a language code, best first (see the header). */
export function dictionaryCandidates(code: string): string[] {
  const parts = code
    .trim()
    .replace(/-/g, '_')
    .split('_')
    .filter((p) => p !== '');
  const language = parts[0]?.toLowerCase() ?? '';
  if (!/^[a-z]{2,3}$/.test(language)) return [];
  let script: string | null = null;
  let region: string | null = null;
  for (const part of parts.slice(1)) {
    if (/^[A-Za-z]{4}$/.test(part)) script = part[0]!.toUpperCase() + part.slice(1).toLowerCase();
    else if (/^([A-Za-z]{2}|\d{3})$/.test(part) && region === null) region = part.toUpperCase();
  }
  const names: string[] = [];
  for (const lang of [language, ...(LANGUAGE_ALIASES[language] ?? [])]) {
    if (script !== null && region !== null) names.push(`${lang}_${script}_${region}`);
    if (script !== null) names.push(`${lang}_${script}`);
    if (region !== null) names.push(`${lang}_${region}`);
    names.push(`${lang}_${MAIN_REGION[lang] ?? lang.toUpperCase()}`, lang);
  }
  return [...new Set(names)];
}

/** The dictionary that serves `code`, or null when none of its language is installed. */
export function dictionaryFor(code: string, directories: readonly string[] = DICTIONARY_DIRECTORIES): DictionaryFiles | null {
  const candidates = dictionaryCandidates(code);
  if (candidates.length === 0) return null;
  const installed = installedDictionaries(directories);
  let name = candidates.find((c) => installed.has(c));
  if (name === undefined) {
    const languages = new Set(candidates.map((c) => c.split('_')[0]!));
    name = [...installed.keys()].sort().find((n) => languages.has(n.split('_')[0]!));
  }
  if (name === undefined) return null;
  const files = installed.get(name)!;
  let key = `${files.aff}\n${files.dic}`;
  try {
    key = `${realpathSync(files.aff)}\n${realpathSync(files.dic)}`;
  } catch {
    // a dangling link: reading it fails later, with its own message
  }
  return { name, aff: files.aff, dic: files.dic, key };
}

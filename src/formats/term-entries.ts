/**
 * The common model of the terminology file formats (TBX, and XLSX and CSV in Phrase's column
 * layout; docs/terminology.md, "Import and export"). A reader yields entries, one concept each, with
 * the terms it holds in every language; a writer takes entries and streams a file. No database
 * code: the term-base import and export feed and drain these.
 */

/** Term status as stored: the published enum has `New` and `Approved`; `Rejected` is kept for files that say so. */
export type TermEntryStatus = 'New' | 'Approved' | 'Rejected';

export const TERM_TYPES = ['FULL_FORM', 'SHORT_FORM', 'ACRONYM', 'ABBREVIATION', 'PHRASE', 'VARIANT'] as const;
export const PARTS_OF_SPEECH = ['ADJECTIVE', 'NOUN', 'VERB', 'ADVERB'] as const;
export const GENDERS = ['MASCULINE', 'FEMININE', 'NEUTRAL'] as const;
export const NUMBERS = ['SINGULAR', 'PLURAL', 'UNCOUNTABLE'] as const;

export type TermType = (typeof TERM_TYPES)[number];
export type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];
export type Gender = (typeof GENDERS)[number];
export type GrammaticalNumber = (typeof NUMBERS)[number];

/** One term of an entry, in one language. Absent fields are unknown (the importer applies defaults). */
export interface TermEntryTerm {
  /** Language code as the file gives it, canonicalized to lower case with `_` (`en`, `en_us`, `pt_br`). */
  lang: string;
  text: string;
  status?: TermEntryStatus;
  /** Free text (preferred, admitted, deprecated, forbidden…). */
  usage?: string;
  forbidden?: boolean;
  preferred?: boolean;
  caseSensitive?: boolean;
  exactMatch?: boolean;
  termType?: TermType;
  partOfSpeech?: PartOfSpeech;
  gender?: Gender;
  number?: GrammaticalNumber;
  note?: string;
  shortTranslation?: string;
  /** ISO 8601 date-times and user names, as the file gives them. */
  createdAt?: string;
  createdBy?: string;
  modifiedAt?: string;
  modifiedBy?: string;
}

/** One concept of a terminology file. */
export interface TermEntry {
  /** The file's id of the concept (TBX `termEntry/@id`, the sheet's concept id column), if any. */
  id?: string;
  definition?: string;
  /** Names, as the file gives them (the importer resolves them to the organization's records). */
  domain?: string;
  subdomains?: string[];
  note?: string;
  url?: string;
  terms: TermEntryTerm[];
}

/** A problem with one entry or row: the reader skips it and goes on. */
export interface TermFileWarning {
  message: string;
  /** 1-based line of the file (TBX) or row of the sheet (XLSX, CSV), where known. */
  line?: number;
}

export interface TermReadOptions {
  /** Entries or rows that cannot be read are reported here and skipped. */
  warnings?: TermFileWarning[];
  /** At most this many warnings are kept (default 1,000); the rest are counted in one last warning. */
  maxWarnings?: number;
  /** Largest batch yielded (default 1,000 entries). */
  batchSize?: number;
}

export interface TermWriteOptions {
  /** The languages to write, in this order (a sheet's columns; TBX writes each entry's languages in this order). */
  langs: readonly string[];
  /** Terms or entries that cannot be written are reported here. */
  warnings?: TermFileWarning[];
}

/** `en-US`, `EN_us` → `en_us`: the form term bases store (the service's language codes). */
export function termLanguage(code: string): string {
  return code.trim().replace(/-/g, '_').toLowerCase();
}

/** A warning list that keeps at most `max` entries and counts the rest in one last warning. */
export function warningSink(options: { warnings?: TermFileWarning[]; maxWarnings?: number }) {
  const max = options.maxWarnings ?? 1000;
  let dropped = 0;
  return {
    add(warning: TermFileWarning) {
      const list = options.warnings;
      if (!list) return;
      if (list.length < max) {
        list.push(warning);
        return;
      }
      dropped += 1;
      const last = list[list.length - 1]!;
      if (dropped === 1) list.push({ message: `and 1 more problem` });
      else last.message = `and ${dropped} more problems`;
    },
  };
}

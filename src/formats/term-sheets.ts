import { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import { CsvError, parse as parseCsv } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify';
import { decodeStream, encoding, encodingFromBom } from './encoding.js';
import { GENDERS, NUMBERS, PARTS_OF_SPEECH, TERM_TYPES, termLanguage, warningSink } from './term-entries.js';
import type { TermEntry, TermEntryStatus, TermEntryTerm, TermReadOptions, TermWriteOptions } from './term-entries.js';
import { FormatError } from './types.js';
import { readFirstWorksheet, writeWorksheet, XLSX_MAX_CELL_CHARS } from './xlsx-sheet.js';
import { hasNonXmlCharacter } from './xml.js';

/**
 * Term bases as spreadsheets, XLSX and CSV, in Phrase's column layout: readers and writers of
 * TermEntry batches (term-entries.ts), streamed both ways.
 *
 * LAYOUT (the contract docs and other code cite)
 *
 * The first worksheet (XLSX) or the file (CSV). Its first non-empty row is the header and names
 * the columns; names are matched case-insensitively with spaces, `_` and `-` ignored
 * (`Entry_ID` = `entry id` = `ENTRY-ID`). Column order is free.
 *
 * Concept columns:
 *   `Entry_ID`                                       the concept's id
 *   `Entry_Definition`  (`Definition`)               its definition
 *   `Entry_Domain`      (`Entry_Subject`, `Domain`, `Subject`)
 *   `Entry_Subdomains`  (`Entry_Subdomain`, `Subdomain`, `Subdomains`)  names separated by `;`
 *   `Entry_Note`        (`Note`, `Concept note`)
 *   `Entry_URL`         (`URL`)
 *
 * Language columns: a header that is a language code (`en`, `en_US`, `en-US`, `zh_Hans_CN`: two
 * or three letters, then `-` or `_` separated subtags of 2 to 8 letters or digits) and not one of
 * the names above holds term text; the term's `lang` is the code through termLanguage (`en_US` →
 * `en_us`). One exception: a code that extends another language column's code by something that
 * is no script or region (`en_Colour` beside `en`) is taken for an unknown attribute column. A
 * language's attribute columns are `<lang>_<Attribute>` or Phrase's `<lang>_Term_<Attribute>`
 * (`en_US_Status`, `en_Term_Status`), the language written as in its term column or in any form
 * termLanguage makes equal:
 *   `Status`                                New, Approved or Rejected
 *   `Usage`                                 free text
 *   `Forbidden`, `Preferred`                boolean
 *   `Case`   (`CaseSensitive`)              boolean
 *   `Exact`  (`ExactMatch`)                 boolean
 *   `Type`   (`TermType`)                   FULL_FORM, SHORT_FORM, ACRONYM, ABBREVIATION, PHRASE, VARIANT
 *   `Part_of_speech` (`POS`, `PartOfSpeech`)  ADJECTIVE, NOUN, VERB, ADVERB
 *   `Gender`                                MASCULINE, FEMININE, NEUTRAL (`neuter` too)
 *   `Number`                                SINGULAR, PLURAL, UNCOUNTABLE
 *   `Note`   (`Term_Note`)                  free text
 *   `Short`  (`ShortTranslation`)           free text
 *   `Created` (`Creation date`, `Created at`, `Created on`), `Modified` (`Modification date`,
 *     `Modified at`, `Modified on`, `Last modified`)     dates
 *   `Creator` (`Created by`), `Modifier` (`Modified by`)  user names
 *   `Definition`                            a definition in that language: becomes the concept's
 *                                           definition when the concept has none (not written)
 * Booleans: TRUE/FALSE, true/false, yes/no, 1/0, Excel boolean cells, and the localized Excel
 * spellings WAHR/FALSCH, VRAI/FAUX, VERDADERO/FALSO; an empty cell is unknown. Enum values are
 * case-insensitive, words separated by spaces, `-` or `_` (`full form` → FULL_FORM). Dates: text
 * is kept as written (ISO 8601 expected); an XLSX number cell in a date column is an Excel date
 * (the workbook's 1900 or 1904 date system) and becomes an ISO 8601 UTC date-time. Free text is
 * kept exactly as written; a cell of only white space is empty.
 *
 * Rows: one row per term set of a concept. A concept's first row holds its concept columns and
 * its first term in each language; its further terms in a language (synonyms) go on further rows
 * that repeat its `Entry_ID` (their other concept columns may stay empty: a concept field is taken
 * from the first of its rows that gives it). Only CONSECUTIVE rows with the same non-empty
 * `Entry_ID` make one concept, so the readers stream; the same id again after another concept's
 * rows starts a new concept of that id. A row without `Entry_ID` is a concept of its own. A
 * concept's terms come in row order, and within a row in the order of the language columns.
 *
 * Problems: unknown header names, repeated columns and attribute columns without their language's
 * term column are ignored with one warning each. A header without a language column is a
 * FormatError ("no language column"), so is a file that is no XLSX workbook (XLSX) or no text
 * (CSV). A bad row (an enum or status value not known, a boolean that is none, a cell over
 * Excel's 32,767 characters) is skipped whole with a warning naming its row (1-based, the header
 * is row 1; CSV counts records, so a quoted line break does not start a row), the column and the
 * value; the rest of the file is read, the concept's other rows included. A row without term text
 * is skipped, silently when it is empty, with a warning otherwise; attribute cells of a language
 * without term text in that row are ignored with a warning.
 *
 * CSV: the delimiter is `,`, or `;` or tab when the header line holds more of that than of `,`
 * (outside quotes). UTF-8 with or without BOM, or UTF-16 with a BOM; other bytes are a FormatError
 * (decoded strictly, never with U+FFFD). RFC 4180 quoting, line breaks inside quotes, `\r\n`, `\n`
 * or `\r` line ends.
 *
 * Writers: the header `Entry_ID, Entry_Definition, Entry_Domain, Entry_Subdomains, Entry_Note,
 * Entry_URL`, then for each language of `options.langs` (written as given, in that order) `<lang>`,
 * `<lang>_Status`, `_Usage`, `_Forbidden`, `_Preferred`, `_Case`, `_Exact`, `_Type`,
 * `_Part_of_speech`, `_Gender`, `_Number`, `_Note`, `_Short`, `_Created`, `_Creator`,
 * `_Modified`, `_Modifier`. A concept takes as many consecutive rows as its largest number of
 * terms in one language: its n-th term of each language on its n-th row, the concept columns on the
 * first row only, `Entry_ID` on every row. An entry without an id gets a generated one (a sequence
 * number, different from the ids of the concepts written just before and after it) so its rows stay
 * together. Subdomains are joined with `; ` (a name holding `;` reads back as two). Booleans are
 * written TRUE/FALSE (XLSX: boolean cells), everything else as text (XLSX: inline strings, no
 * shared-string table). CSV is UTF-8 with a BOM (so that Excel opens it as UTF-8), `,` delimited,
 * `\r\n` line ends, fields quoted as RFC 4180 asks (a delimiter, quote or line break inside). A CSV
 * cell beginning with `=`, `+`, `-` or `@` is written as it is, not defused with a leading `'`:
 * the file must read back exactly (a term may well begin with `-`); whoever opens an exported
 * file in a spreadsheet application should not let it evaluate formulas from untrusted term bases.
 * Left out with a warning: terms in a language not in `options.langs` or without text, entries
 * with no term left, entries with a cell over 32,767 characters (both formats, since the readers
 * refuse such a cell) or (XLSX) a character XML cannot hold. Reading what a writer wrote gives the
 * entries back (`read(write(x))` deep-equals x) when every entry has an id (without white space
 * around it), its terms are in the order the readers produce and in languages written, their
 * `lang` is canonical (termLanguage), no text is only white space, and no subdomain name holds
 * `;` or white space at either end.
 *
 * Memory: the readers hold one batch (and the concept being read), XLSX also the workbook's
 * shared strings (the worksheet is streamed by xlsx-sheet.ts, as for tm-xlsx.ts). The writers write
 * as batches come, honour the output's backpressure and end the output; on failure they destroy it.
 */

const DEFAULT_BATCH = 1000;
/** CSV text within one row beyond this many characters is refused (a row is held whole; XLSX: xlsx-sheet.ts). */
const MAX_ROW_CHARS = 10_000_000;
/** A language column's header. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

type ConceptField = 'id' | 'definition' | 'domain' | 'subdomains' | 'note' | 'url';
type TermField =
  | 'status'
  | 'usage'
  | 'forbidden'
  | 'preferred'
  | 'caseSensitive'
  | 'exactMatch'
  | 'termType'
  | 'partOfSpeech'
  | 'gender'
  | 'number'
  | 'note'
  | 'shortTranslation'
  | 'createdAt'
  | 'createdBy'
  | 'modifiedAt'
  | 'modifiedBy'
  | 'definition';

/** A header name as matched: lower case, without spaces, `_` and `-`. */
function headerKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

const CONCEPT_HEADERS: Record<string, ConceptField> = {
  entryid: 'id',
  entrydefinition: 'definition',
  definition: 'definition',
  entrydomain: 'domain',
  entrysubject: 'domain',
  domain: 'domain',
  subject: 'domain',
  entrysubdomains: 'subdomains',
  entrysubdomain: 'subdomains',
  subdomain: 'subdomains',
  subdomains: 'subdomains',
  entrynote: 'note',
  note: 'note',
  conceptnote: 'note',
  entryurl: 'url',
  url: 'url',
};

const TERM_HEADERS: Record<string, TermField> = {
  status: 'status',
  usage: 'usage',
  forbidden: 'forbidden',
  preferred: 'preferred',
  case: 'caseSensitive',
  casesensitive: 'caseSensitive',
  exact: 'exactMatch',
  exactmatch: 'exactMatch',
  type: 'termType',
  partofspeech: 'partOfSpeech',
  pos: 'partOfSpeech',
  gender: 'gender',
  number: 'number',
  note: 'note',
  short: 'shortTranslation',
  shorttranslation: 'shortTranslation',
  created: 'createdAt',
  createdat: 'createdAt',
  createdon: 'createdAt',
  creationdate: 'createdAt',
  creator: 'createdBy',
  createdby: 'createdBy',
  modified: 'modifiedAt',
  modifiedat: 'modifiedAt',
  modifiedon: 'modifiedAt',
  modificationdate: 'modifiedAt',
  lastmodified: 'modifiedAt',
  modifier: 'modifiedBy',
  modifiedby: 'modifiedBy',
  definition: 'definition',
};

/** The attribute named by the rest of a `<lang>_…` header, with or without Phrase's `Term_`. */
function termField(rest: string): TermField | undefined {
  const key = headerKey(rest);
  if (Object.hasOwn(TERM_HEADERS, key)) return TERM_HEADERS[key];
  if (key.startsWith('term') && Object.hasOwn(TERM_HEADERS, key.slice(4))) return TERM_HEADERS[key.slice(4)];
  return undefined;
}

/** `en_US_Status` → `{ code: 'en_US', field: 'status' }`: the shortest language code that leaves a known attribute. */
function attributeHeader(name: string): { code: string; field: TermField } | null {
  for (let at = 2; at < name.length; at++) {
    const c = name[at];
    if (c !== '_' && c !== '-' && c !== ' ') continue;
    const code = name.slice(0, at);
    if (!LANGUAGE_CODE.test(code)) return null;
    const field = termField(name.slice(at + 1));
    if (field) return { code, field };
  }
  return null;
}

function conceptHeader(name: string): ConceptField | undefined {
  const key = headerKey(name);
  return Object.hasOwn(CONCEPT_HEADERS, key) ? CONCEPT_HEADERS[key] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Values

const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  '1': true,
  '0': false,
  wahr: true,
  falsch: false,
  vrai: true,
  faux: false,
  verdadero: true,
  falso: false,
};

const STATUSES: Record<string, TermEntryStatus> = { new: 'New', approved: 'Approved', rejected: 'Rejected' };

function enumLookup<T extends string>(values: readonly T[], aliases: Record<string, T> = {}): Map<string, T> {
  const map = new Map<string, T>(values.map((value) => [value, value]));
  for (const [alias, value] of Object.entries(aliases)) map.set(alias, value);
  return map;
}

const ENUMS = {
  termType: { what: 'a term type', values: enumLookup(TERM_TYPES) },
  partOfSpeech: { what: 'a part of speech', values: enumLookup(PARTS_OF_SPEECH) },
  gender: { what: 'a gender', values: enumLookup(GENDERS, { NEUTER: 'NEUTRAL' }) },
  number: { what: 'a grammatical number', values: enumLookup(NUMBERS) },
} as const;

/** A cell's value that makes its row bad. */
class BadValue extends Error {}

/** A message's quotation of a cell (long ones cut). */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

/** An Excel serial date → ISO 8601 UTC. */
function excelDate(serial: number, date1904: boolean): string | null {
  // The 1900 system counts a 29 February 1900 that was not: serials before it are a day early.
  const days = date1904 ? serial + 1462 : serial < 61 ? serial + 1 : serial;
  const ms = Math.round((days - 25569) * 86_400_000);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function setTermField(term: TermEntryTerm, field: Exclude<TermField, 'definition'>, raw: string, isNumber: boolean, date1904: boolean) {
  switch (field) {
    case 'status': {
      const status = STATUSES[raw.trim().toLowerCase()];
      if (!status) throw new BadValue('is not a status (New, Approved, Rejected)');
      term.status = status;
      return;
    }
    case 'forbidden':
    case 'preferred':
    case 'caseSensitive':
    case 'exactMatch': {
      const key = raw.trim().toLowerCase();
      if (!Object.hasOwn(BOOLEANS, key)) throw new BadValue('is not a boolean (TRUE or FALSE)');
      term[field] = BOOLEANS[key];
      return;
    }
    case 'termType':
    case 'partOfSpeech':
    case 'gender':
    case 'number': {
      const known = ENUMS[field];
      const value = known.values.get(
        raw
          .trim()
          .toUpperCase()
          .replace(/[\s_-]+/g, '_'),
      );
      if (!value) throw new BadValue(`is not ${known.what} (${[...new Set(known.values.values())].join(', ')})`);
      (term as unknown as Record<string, string>)[field] = value;
      return;
    }
    case 'createdAt':
    case 'modifiedAt': {
      if (isNumber) {
        const iso = excelDate(Number(raw), date1904);
        if (iso === null) throw new BadValue('is not a date');
        term[field] = iso;
      } else term[field] = raw;
      return;
    }
    default:
      term[field] = raw;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading: rows → entries

type Column =
  | { kind: 'concept'; field: ConceptField; name: string }
  | { kind: 'text'; lang: number; name: string }
  | { kind: 'attribute'; lang: number; field: TermField; name: string };

/** Turns the rows of a sheet (cell texts, column A first) into entries. */
class TermRowReader {
  /** Entries complete, not yet yielded. */
  readonly entries: TermEntry[] = [];
  private columns: (Column | null)[] | null = null;
  private langs: string[] = [];
  private current: TermEntry | null = null;
  private readonly warnings: ReturnType<typeof warningSink>;
  /** XLSX: the workbook counts dates from 1904. */
  date1904 = false;

  constructor(options: TermReadOptions) {
    this.warnings = warningSink(options);
  }

  private warn(message: string, line?: number): void {
    this.warnings.add(line === undefined ? { message } : { message, line });
  }

  /** The end of the sheet: the last concept is complete. */
  finish(): void {
    if (!this.columns) throw new FormatError('the sheet has no header row');
    this.close();
  }

  private close(): void {
    if (this.current) this.entries.push(this.current);
    this.current = null;
  }

  /** One row; `numbers` lists the columns (0-based) whose cells are numbers (XLSX). */
  row(cells: readonly (string | undefined)[], rowNumber: number, numbers: readonly number[] | null = null): void {
    if (!this.columns) {
      if (cells.some((cell) => cell !== undefined && cell.trim() !== '')) this.header(cells, rowNumber);
      return;
    }
    const columns = this.columns;
    const concept: Partial<Record<ConceptField, string>> = {};
    const terms: (TermEntryTerm | undefined)[] = new Array<TermEntryTerm | undefined>(this.langs.length);
    const attributes: { column: Extract<Column, { kind: 'attribute' }>; index: number; value: string }[] = [];
    let empty = true;
    for (let index = 0; index < cells.length; index++) {
      const value = cells[index];
      if (value === undefined || value.trim() === '') continue;
      empty = false;
      const column = columns[index];
      if (!column) continue;
      if (value.length > XLSX_MAX_CELL_CHARS) {
        this.warn(
          `row ${rowNumber}: column "${column.name}" has ${value.length} characters, more than a cell holds (${XLSX_MAX_CELL_CHARS}): row skipped`,
          rowNumber,
        );
        return;
      }
      if (column.kind === 'concept') concept[column.field] = value;
      else if (column.kind === 'text') terms[column.lang] = { lang: this.langs[column.lang]!, text: value };
      else attributes.push({ column, index, value });
    }
    if (empty) return;
    let definition: string | undefined;
    const orphans = new Set<string>();
    for (const { column, index, value } of attributes) {
      const term = terms[column.lang];
      if (!term) {
        orphans.add(column.name);
        continue;
      }
      if (column.field === 'definition') {
        definition ??= value;
        continue;
      }
      try {
        setTermField(term, column.field, value, numbers !== null && numbers.includes(index), this.date1904);
      } catch (error) {
        if (!(error instanceof BadValue)) throw error;
        this.warn(`row ${rowNumber}: column "${column.name}" has ${quote(value)}, which ${error.message}: row skipped`, rowNumber);
        return;
      }
    }
    const found = terms.filter((term): term is TermEntryTerm => term !== undefined);
    if (found.length === 0) {
      this.warn(`row ${rowNumber} has no term text: skipped`, rowNumber);
      return;
    }
    if (orphans.size > 0) {
      this.warn(`row ${rowNumber}: ${[...orphans].map((name) => `"${name}"`).join(', ')} given without the term: ignored`, rowNumber);
    }
    const id = concept.id?.trim();
    let entry = this.current;
    if (!entry || id === undefined || id === '' || entry.id !== id) {
      this.close();
      entry = this.current = { terms: [] };
      if (id) entry.id = id;
    }
    if (concept.definition !== undefined) entry.definition ??= concept.definition;
    if (definition !== undefined) entry.definition ??= definition;
    if (concept.domain !== undefined) entry.domain ??= concept.domain;
    if (concept.subdomains !== undefined && !entry.subdomains) {
      const names = concept.subdomains
        .split(';')
        .map((name) => name.trim())
        .filter((name) => name !== '');
      if (names.length > 0) entry.subdomains = names;
    }
    if (concept.note !== undefined) entry.note ??= concept.note;
    if (concept.url !== undefined) entry.url ??= concept.url;
    entry.terms.push(...found);
  }

  private header(cells: readonly (string | undefined)[], rowNumber: number): void {
    const columns: (Column | null)[] = [];
    const langIndex = new Map<string, number>();
    const seen = new Set<string>();
    const attributes: { index: number; code: string; field: TermField; name: string }[] = [];
    const languages: { index: number; name: string; lang: string }[] = [];
    const ignored: { index: number; message: string }[] = [];
    const ignore = (index: number, name: string, why: string) => {
      ignored.push({ index, message: `column ${index + 1} ("${name}") ${why}: ignored` });
      columns[index] = null;
    };
    for (let index = 0; index < cells.length; index++) {
      const name = (cells[index] ?? '').trim();
      columns[index] = null;
      if (name === '') continue;
      const field = conceptHeader(name);
      if (field) {
        if (seen.has(field)) ignore(index, name, 'repeats an earlier column');
        else {
          seen.add(field);
          columns[index] = { kind: 'concept', field, name };
        }
        continue;
      }
      const attribute = attributeHeader(name);
      if (attribute) attributes.push({ index, name, ...attribute });
      else if (LANGUAGE_CODE.test(name)) languages.push({ index, name, lang: termLanguage(name) });
      else ignore(index, name, 'is not a known column');
    }
    const codes = new Set(languages.map(({ lang }) => lang));
    for (const { index, name, lang } of languages) {
      if (attributeOfLanguage(lang, codes)) ignore(index, name, 'is not a known column');
      else if (langIndex.has(lang)) ignore(index, name, `repeats the language ${lang}`);
      else {
        langIndex.set(lang, this.langs.length);
        columns[index] = { kind: 'text', lang: this.langs.length, name };
        this.langs.push(lang);
      }
    }
    for (const { index, code, field, name } of attributes) {
      const lang = langIndex.get(termLanguage(code));
      const key = `${termLanguage(code)}:${field}`;
      if (lang === undefined) ignore(index, name, `has no term column "${code}"`);
      else if (seen.has(key)) ignore(index, name, 'repeats an earlier column');
      else {
        seen.add(key);
        columns[index] = { kind: 'attribute', lang, field, name };
      }
    }
    if (this.langs.length === 0) {
      throw new FormatError('the header row has no language column (a column named by a language code, such as "en" or "de_DE")', {
        line: rowNumber,
      });
    }
    ignored.sort((a, b) => a.index - b.index);
    for (const { message } of ignored) this.warn(message, rowNumber);
    this.columns = columns;
  }
}

/** A script (`Hans`) or region (`US`, `419`) subtag. */
const SCRIPT_OR_REGION = /^(?:[a-z]{2}|[a-z]{4}|[0-9]{3})$/;

/**
 * Whether a header shaped like a language code is rather an unknown attribute of another language
 * column: `en_Colour` beside `en` (the rest is no script or region), not `en_US` beside `en`.
 */
function attributeOfLanguage(lang: string, codes: ReadonlySet<string>): boolean {
  const subtags = lang.split('_');
  for (let n = subtags.length - 1; n >= 1; n--) {
    if (codes.has(subtags.slice(0, n).join('_'))) return !subtags.slice(n).every((subtag) => SCRIPT_OR_REGION.test(subtag));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// XLSX reading

/**
 * Reads a term base spreadsheet (XLSX, the first worksheet) as batches of entries (at most
 * `options.batchSize`, default 1,000). A file that is no XLSX workbook, or whose header has no
 * language column, rejects with FormatError; bad rows are skipped with a warning (module comment).
 */
export async function* readXlsxTerms(input: Readable, options: TermReadOptions = {}): AsyncGenerator<TermEntry[]> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const rows = new TermRowReader(options);
  const sheet = readFirstWorksheet(input, {
    start: ({ date1904 }) => (rows.date1904 = date1904),
    row: (cells, rowNumber, numbers) => rows.row(cells, rowNumber, numbers),
  });
  let completed = false;
  try {
    for await (const _ of sheet) {
      while (rows.entries.length >= batchSize) yield rows.entries.splice(0, batchSize);
    }
    rows.finish();
    while (rows.entries.length > 0) yield rows.entries.splice(0, batchSize);
    completed = true;
  } finally {
    // The sheet's reader releases the input when it fails or is stopped; a failure after the sheet
    // (no worksheet, no header row) or stopping during the last batches releases it too.
    if (!completed) input.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// CSV reading

/** The delimiter of a CSV file from its first line: `;` or tab when it has more of them than `,`. */
function detectDelimiter(text: string): string {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n' || c === '\r') break;
    else if (c === ',' || c === ';' || c === '\t') counts[c] += 1;
  }
  const best = counts[';'] >= counts['\t'] ? ';' : '\t';
  return counts[best] > counts[','] ? best : ',';
}

/** Whether `text` holds a line end outside quotes. */
function hasLineEnd(text: string): boolean {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return true;
  }
  return false;
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Characters of the first line looked at to find the delimiter. */
const HEAD_CHARS = 1024 * 1024;

/**
 * Reads a term base as CSV (module comment) as batches of entries (at most `options.batchSize`,
 * default 1,000). Rejects with FormatError when the file is no text in a known encoding, is
 * malformed CSV (an unclosed quote) or its header has no language column.
 */
export async function* readCsvTerms(input: Readable, options: TermReadOptions = {}): AsyncGenerator<TermEntry[]> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  let completed = false;
  let parser: ReturnType<typeof parseCsv> | null = null;
  try {
    const decoded = await decodeStream(input, (head) => {
      if (head.subarray(0, 4).equals(ZIP_MAGIC)) throw new FormatError('not a CSV file: this is a zip archive (an XLSX workbook?)');
      return encodingFromBom(head) ?? encoding('utf-8');
    });
    const text = decoded.chunks;
    let head = '';
    let ended = false;
    while (head.length < HEAD_CHARS && !hasLineEnd(head)) {
      const next = await text.next();
      if (next.done) {
        ended = true;
        break;
      }
      head += next.value;
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000e-\u001a]/.test(head.slice(0, 4096))) throw new FormatError('not a CSV file: it holds binary data');
    const delimiter = detectDelimiter(head);
    async function* source(): AsyncGenerator<string> {
      try {
        if (head) yield head;
        head = '';
        if (ended) return;
        for (;;) {
          const next = await text.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        await text.return(undefined);
      }
    }
    parser = parseCsv({
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: false,
      max_record_size: MAX_ROW_CHARS,
    });
    // Errors of the source (decoding) destroy the parser with them; stopping early destroys both.
    pipeline(Readable.from(source()), parser, () => {});
    const rows = new TermRowReader(options);
    let rowNumber = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        rowNumber += 1;
        rows.row(record, rowNumber);
        if (rows.entries.length >= batchSize) yield rows.entries.splice(0, batchSize);
      }
    } catch (error) {
      // csv-parse's message names the line.
      if (error instanceof CsvError) throw new FormatError(`malformed CSV: ${error.message}`);
      throw error;
    }
    rows.finish();
    while (rows.entries.length > 0) yield rows.entries.splice(0, batchSize);
    completed = true;
  } finally {
    if (!completed) {
      parser?.destroy();
      input.destroy();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

const CONCEPT_COLUMNS = ['Entry_ID', 'Entry_Definition', 'Entry_Domain', 'Entry_Subdomains', 'Entry_Note', 'Entry_URL'] as const;

/** The term columns written after each language's text column, in order. */
const TERM_COLUMNS: readonly (readonly [suffix: string, field: Exclude<TermField, 'definition'>])[] = [
  ['Status', 'status'],
  ['Usage', 'usage'],
  ['Forbidden', 'forbidden'],
  ['Preferred', 'preferred'],
  ['Case', 'caseSensitive'],
  ['Exact', 'exactMatch'],
  ['Type', 'termType'],
  ['Part_of_speech', 'partOfSpeech'],
  ['Gender', 'gender'],
  ['Number', 'number'],
  ['Note', 'note'],
  ['Short', 'shortTranslation'],
  ['Created', 'createdAt'],
  ['Creator', 'createdBy'],
  ['Modified', 'modifiedAt'],
  ['Modifier', 'modifiedBy'],
];

type SheetCell = string | boolean | null;

/** Entries → rows of cells, in the layout of the module comment. */
class TermRowWriter {
  readonly header: string[];
  private readonly langs: string[];
  private readonly langIndex = new Map<string, number>();
  private readonly warnings: ReturnType<typeof warningSink>;
  private previousId: string | undefined;
  private nextGenerated = 1;
  private position = 0;
  entries = 0;
  terms = 0;

  constructor(
    options: TermWriteOptions,
    private readonly xml: boolean,
  ) {
    this.warnings = warningSink(options);
    this.langs = [];
    for (const raw of options.langs) {
      const code = raw.trim();
      if (!LANGUAGE_CODE.test(code) || conceptHeader(code) || attributeHeader(code)) {
        throw new FormatError(`"${raw}" cannot be a language column of a term sheet (not a language code)`);
      }
      const lang = termLanguage(code);
      if (this.langIndex.has(lang)) continue;
      this.langIndex.set(lang, this.langs.length);
      this.langs.push(code);
    }
    if (this.langs.length === 0) throw new FormatError('writing a term sheet needs at least one language');
    this.header = [...CONCEPT_COLUMNS];
    for (const lang of this.langs) {
      this.header.push(lang);
      for (const [suffix] of TERM_COLUMNS) this.header.push(`${lang}_${suffix}`);
    }
  }

  private warn(message: string): void {
    this.warnings.add({ message });
  }

  /** The rows of one entry; `nextId` is the id of the entry written after it (to keep generated ids apart). */
  rows(entry: TermEntry, nextId: string | undefined): SheetCell[][] | null {
    this.position += 1;
    const what = `entry ${entry.id ?? this.position}`;
    const byLang: TermEntryTerm[][] = this.langs.map(() => []);
    const unwritten = new Set<string>();
    for (const term of entry.terms) {
      const index = this.langIndex.get(termLanguage(term.lang));
      if (index === undefined) unwritten.add(term.lang);
      else if (term.text.trim() === '') this.warn(`${what}: a ${term.lang} term has no text: left out`);
      else byLang[index]!.push(term);
    }
    if (unwritten.size > 0) this.warn(`${what}: terms in ${[...unwritten].join(', ')} (not among the languages written): left out`);
    const count = Math.max(...byLang.map((terms) => terms.length));
    if (count === 0) {
      this.warn(`${what} has no term in the languages written: left out`);
      return null;
    }
    let id = entry.id;
    if (id === undefined || id === '') {
      do id = String(this.nextGenerated++);
      while (id === this.previousId || id === nextId);
    } else if (id === this.previousId) {
      this.warn(`${what} follows an entry with the same id: the two read back as one concept`);
    }
    const width = this.header.length;
    const rows: SheetCell[][] = [];
    for (let n = 0; n < count; n++) {
      const row: SheetCell[] = new Array<SheetCell>(width).fill(null);
      row[0] = id;
      if (n === 0) {
        row[1] = entry.definition ?? null;
        row[2] = entry.domain ?? null;
        row[3] = entry.subdomains && entry.subdomains.length > 0 ? entry.subdomains.join('; ') : null;
        row[4] = entry.note ?? null;
        row[5] = entry.url ?? null;
      }
      for (let l = 0; l < byLang.length; l++) {
        const term = byLang[l]![n];
        if (!term) continue;
        let at = CONCEPT_COLUMNS.length + l * (TERM_COLUMNS.length + 1);
        row[at++] = term.text;
        for (const [, field] of TERM_COLUMNS) {
          const value = term[field];
          row[at++] = value === undefined ? null : value;
        }
      }
      rows.push(row);
    }
    for (const row of rows) {
      for (const cell of row) {
        if (typeof cell !== 'string') continue;
        if (cell.length > XLSX_MAX_CELL_CHARS) {
          this.warn(`${what} has a text longer than ${XLSX_MAX_CELL_CHARS} characters (a cell's limit): left out`);
          return null;
        }
        if (this.xml && hasNonXmlCharacter(cell)) {
          this.warn(`${what} has a character XML cannot hold: left out`);
          return null;
        }
      }
    }
    this.previousId = id;
    this.entries += 1;
    for (const terms of byLang) this.terms += terms.length;
    return rows;
  }

  /** Every entry of `source` with the id of the one after it. */
  async *withNext(source: AsyncIterable<TermEntry[]> | Iterable<TermEntry[]>): AsyncGenerator<[TermEntry, string | undefined]> {
    let pending: TermEntry | null = null;
    for await (const batch of source) {
      for (const entry of batch) {
        if (pending) yield [pending, entry.id || undefined];
        pending = entry;
      }
    }
    if (pending) yield [pending, undefined];
  }
}

/**
 * Writes entries as a term base spreadsheet (XLSX; layout in the module comment), streaming with
 * backpressure, and ends `output`. Rejects with FormatError when `options.langs` is empty or holds
 * something that is no language code; on any failure `output` is destroyed.
 */
export async function writeXlsxTerms(
  entries: AsyncIterable<TermEntry[]> | Iterable<TermEntry[]>,
  output: Writable,
  options: TermWriteOptions,
): Promise<{ entries: number; terms: number }> {
  const writer = new TermRowWriter(options, true);
  await writeWorksheet(output, 'Terms', writer.header, async (sheet) => {
    for await (const [entry, nextId] of writer.withNext(entries)) {
      const rows = writer.rows(entry, nextId);
      if (!rows) continue;
      await sheet.addRows(rows);
      sheet.checkOutput();
    }
  });
  return { entries: writer.entries, terms: writer.terms };
}

/**
 * Writes entries as a term base in CSV (UTF-8 with BOM, `,`, `\r\n`; layout in the module
 * comment), streaming with backpressure, and ends `output`. Rejects with FormatError when
 * `options.langs` is empty or holds something that is no language code; on any failure `output` is
 * destroyed.
 */
export async function writeCsvTerms(
  entries: AsyncIterable<TermEntry[]> | Iterable<TermEntry[]>,
  output: Writable,
  options: TermWriteOptions,
): Promise<{ entries: number; terms: number }> {
  const writer = new TermRowWriter(options, false);
  const stringifier = stringifyCsv({
    bom: true,
    delimiter: ',',
    record_delimiter: '\r\n',
    // csv-stringify quotes a field with the record delimiter, not one with a lone `\n` or `\r`.
    quoted_match: /[\r\n]/,
    escape_formulas: false,
  });
  let failure: unknown = null;
  const done = pipelinePromise(stringifier, output).catch((error: unknown) => {
    failure ??= error;
  });
  const drained = () =>
    new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        stringifier.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        stringifier.off('drain', onDrain);
        // The pipeline settles after the close: its error is the one to report.
        void done.then(() => reject((failure as Error) ?? new Error('the output was closed')));
      };
      stringifier.once('drain', onDrain);
      stringifier.once('close', onClose);
    });
  const write = async (record: string[]) => {
    if (failure || stringifier.destroyed) {
      await done;
      throw (failure as Error) ?? new Error('the output was closed');
    }
    if (!stringifier.write(record)) await drained();
  };
  const text = (cell: SheetCell): string => (cell === null ? '' : cell === true ? 'TRUE' : cell === false ? 'FALSE' : cell);
  try {
    await write(writer.header);
    for await (const [entry, nextId] of writer.withNext(entries)) {
      const rows = writer.rows(entry, nextId);
      if (!rows) continue;
      for (const row of rows) await write(row.map(text));
    }
    stringifier.end();
    await done;
    if (failure) throw failure;
  } catch (error) {
    failure ??= error;
    stringifier.destroy(error as Error);
    output.destroy(error as Error);
    await done;
    throw error;
  }
  return { entries: writer.entries, terms: writer.terms };
}

import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';

/**
 * CSV and TSV (`.csv`, `.tsv`), in Phrase's two flavours (docs/formats/csv-and-xml.md):
 *
 * - `csvFilter` / `tsvFilter` (settings section `csv`, CsvSettingsDto): the cells of the chosen
 *   columns and rows are units; a translation replaces the cell itself.
 * - `multilingualCsvFilter` (section `multilingualCsv`, MultilingualCsvSettingsDto): one column
 *   holds the source language, others the target languages; a unit is a source cell, its target
 *   the cell of the job's target language in the same row, where the translation is written.
 *
 * A small RFC 4180 scanner reads the decoded text once, character by character, and records where
 * each field sits in its record, so that write-back replaces exactly the cells it translates and
 * copies every other byte (quoting, line endings, BOM) as it was.
 */

/** A field longer than this is refused (units are held in memory whole). */
export const MAX_CSV_FIELD_CHARS = 1_000_000;
/** A record (row) longer than this is refused. */
export const MAX_CSV_RECORD_CHARS = 10_000_000;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

export interface CsvField {
  /** Offsets of the field's raw text (quotes included) in its record's raw text. */
  start: number;
  end: number;
  quoted: boolean;
  /** The field's value (quotes removed, doubled quotes undone). */
  value: string;
}

export interface CsvRecord {
  /** 1-based record number (a spreadsheet's row number). */
  row: number;
  /** 1-based line where the record starts. */
  line: number;
  fields: CsvField[];
  /** The record's raw text with its line ending (only when the scanner keeps raw text). */
  raw: string;
  /** `\r\n`, `\n`, `\r`, or '' for a last record without one. */
  eol: string;
}

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: either the first half of `""` or the closing quote. */
const QUOTE_SEEN = 3;
/** Just after a closing quote: only a delimiter or a line break may follow. */
const CLOSED = 4;

/**
 * Cuts decoded text into records as it comes; each piece of text gives the records it completes.
 * Linear: each character is looked at once (quoted runs are found with indexOf).
 */
export class CsvScanner {
  private state = FIELD_START;
  private readonly delimiter: number;
  /** Current record: fields so far, raw text parts, length of its raw text before the current text. */
  private fields: CsvField[] = [];
  private rawParts: string[] = [];
  private recordLength = 0;
  private row = 0;
  private line = 1;
  private recordLine = 1;
  /** Current field: offset in the record, value parts, quoting, where it starts. */
  private fieldStart = 0;
  private valueParts: string[] = [];
  private valueLength = 0;
  private quoted = false;
  private fieldLine = 1;
  private fieldColumn = 1;
  /** Offset (in the current text; negative: in an earlier one) where the current line starts. */
  private lineStart = 0;
  /** A record ended by CR at the end of a text: a LF at the start of the next text belongs to it. */
  private pendingCr: CsvRecord | null = null;
  /** Whether anything of the current record was seen. */
  private started = false;

  constructor(
    delimiter: string,
    private readonly keepRaw: boolean,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  push(text: string, into: CsvRecord[]): void {
    const n = text.length;
    let i = 0;
    if (this.pendingCr) {
      const record = this.pendingCr;
      this.pendingCr = null;
      if (n > 0 && text.charCodeAt(0) === LF) {
        record.eol = '\r\n';
        if (this.keepRaw) record.raw += '\n';
        i = 1;
      }
      into.push(record);
      this.lineStart = i;
    }
    /** Record-relative offset of text[0]; where this text's part of the record's raw text starts. */
    let base = this.recordLength - i;
    let rawFrom = i;
    let segment = i;
    const delimiter = this.delimiter;
    while (i < n) {
      const state = this.state;
      if (state === QUOTED) {
        const q = text.indexOf('"', i);
        const stop = q < 0 ? n : q;
        this.countLines(text, i, stop);
        if (q < 0) break;
        this.addValue(text, segment, q);
        this.state = QUOTE_SEEN;
        i = q + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (state === QUOTE_SEEN) {
        if (c === QUOTE) {
          // A doubled quote: one quote of the value.
          this.state = QUOTED;
          this.addValue(text, i, i + 1);
          i++;
          segment = i;
          continue;
        }
        this.state = CLOSED;
      }
      if (this.state === CLOSED && c !== delimiter && c !== LF && c !== CR) {
        throw new FormatError('unexpected text after the closing quote of a quoted field', {
          line: this.line,
          column: i - this.lineStart + 1,
        });
      }
      if (this.state === FIELD_START) {
        this.beginField(base + i, i);
        this.started = true;
        if (c === QUOTE) {
          this.quoted = true;
          this.state = QUOTED;
          i++;
          segment = i;
          continue;
        }
        this.state = UNQUOTED;
        segment = i;
      }
      // Unquoted text (or nothing, after a closing quote) up to a delimiter or a line break.
      let j = i;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === delimiter || d === LF || d === CR) break;
        j++;
      }
      if (this.state === UNQUOTED) this.addValue(text, segment, j);
      if (j >= n) {
        i = n;
        break;
      }
      this.endField(base + j);
      if (text.charCodeAt(j) === delimiter) {
        // The next field starts right after the delimiter (perhaps empty, at a line break or the end).
        this.beginField(base + j + 1, j + 1);
        this.state = FIELD_START;
        i = j + 1;
        segment = i;
        continue;
      }
      // A line break ends the record.
      const d = text.charCodeAt(j);
      let end = j + 1;
      let eol = d === LF ? '\n' : '\r';
      if (d === CR && j + 1 < n && text.charCodeAt(j + 1) === LF) {
        eol = '\r\n';
        end = j + 2;
      }
      this.keepRawText(text, rawFrom, end, base);
      const record = this.finishRecord(eol);
      this.line += 1;
      this.lineStart = end;
      if (d === CR && end === n) {
        // CR at the end of this text: the next text may start with its LF.
        this.pendingCr = record;
      } else into.push(record);
      // The next record starts here.
      base = -end;
      rawFrom = end;
      i = end;
      segment = end;
      this.state = FIELD_START;
    }
    if (this.state === QUOTED) this.addValue(text, segment, n);
    this.keepRawText(text, rawFrom, n, base);
    this.lineStart -= n;
  }

  /** Adds text[from, to) to the record's raw text; `base` is the record offset of text[0]. */
  private keepRawText(text: string, from: number, to: number, base: number): void {
    if (to <= from) return;
    this.recordLength = base + to;
    if (this.recordLength > MAX_CSV_RECORD_CHARS) {
      throw new FormatError(`a row is longer than ${MAX_CSV_RECORD_CHARS} characters`, { line: this.recordLine });
    }
    if (this.keepRaw) this.rawParts.push(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  private beginField(offset: number, at: number): void {
    this.fieldStart = offset;
    this.fieldLine = this.line;
    this.fieldColumn = at - this.lineStart + 1;
    this.valueParts = [];
    this.valueLength = 0;
    this.quoted = false;
  }

  private finishRecord(eol: string): CsvRecord {
    const raw = this.keepRaw ? (this.rawParts.length === 1 ? this.rawParts[0]! : this.rawParts.join('')) : '';
    this.row += 1;
    const record: CsvRecord = { row: this.row, line: this.recordLine, fields: this.fields, raw, eol };
    this.fields = [];
    this.rawParts = [];
    this.recordLength = 0;
    this.recordLine = this.line + (eol === '' ? 0 : 1);
    this.started = false;
    return record;
  }

  private endField(offset: number): void {
    const value = this.valueParts.length === 1 ? this.valueParts[0]! : this.valueParts.join('');
    this.fields.push({ start: this.fieldStart, end: offset, quoted: this.quoted, value });
    this.valueParts = [];
    this.valueLength = 0;
  }

  private addValue(text: string, from: number, to: number): void {
    if (to <= from) return;
    this.valueLength += to - from;
    if (this.valueLength > MAX_CSV_FIELD_CHARS) {
      throw new FormatError(`a field is longer than ${MAX_CSV_FIELD_CHARS} characters`, { line: this.fieldLine, column: this.fieldColumn });
    }
    this.valueParts.push(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  /** Line breaks inside a quoted field (CRLF, LF or a lone CR). */
  private countLines(text: string, from: number, to: number): void {
    let k = from;
    // The LF of a CRLF split between two texts was counted with its CR.
    if (k === 0 && this.crAtEnd && k < to && text.charCodeAt(0) === LF) {
      this.lineStart = 1;
      k = 1;
    }
    this.crAtEnd = false;
    for (; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === CR || (c === LF && (k === 0 || text.charCodeAt(k - 1) !== CR))) {
        this.line += 1;
        this.lineStart = k + 1;
      } else if (c === LF) this.lineStart = k + 1;
    }
    this.crAtEnd = to === text.length && to > from && text.charCodeAt(to - 1) === CR;
  }

  private crAtEnd = false;

  /** The last record (when the text does not end with a line break). */
  end(into: CsvRecord[]): void {
    if (this.pendingCr) {
      into.push(this.pendingCr);
      this.pendingCr = null;
      return;
    }
    if (this.state === QUOTED) {
      throw new FormatError('a quoted field is never closed', { line: this.fieldLine, column: this.fieldColumn });
    }
    if (!this.started) return;
    this.endField(this.recordLength);
    into.push(this.finishRecord(''));
  }
}

// ---------------------------------------------------------------------------------------------
// Settings

/** Column letters as spreadsheets write them (A, B, …, Z, AA, …) to a 0-based index. */
function columnIndexOfLetters(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** A 0-based column index as letters (0 → A, 26 → AA). */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** The largest column or row number a setting may name (a larger one is a mistake, not a file). */
const MAX_SPEC_NUMBER = 1_000_000;

function specItem(item: string, what: string, letters: boolean): number {
  const trimmed = item.trim();
  if (/^[0-9]{1,7}$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n >= 1 && n <= MAX_SPEC_NUMBER) return n - 1;
  } else if (letters && /^[A-Za-z]{1,4}$/.test(trimmed)) {
    return columnIndexOfLetters(trimmed);
  }
  throw new FormatError(`${what}: "${item}" is not a ${letters ? 'column letter or number' : 'row number'}`);
}

/**
 * A set of 0-based indexes from Phrase's column or row list: comma-separated items, each a column
 * letter (`B`, `AA`) or a 1-based number, or a range of them (`B-D`, `2-5`); a range with no end
 * (`2-`) goes on to the last. Empty or absent: null (every column / row).
 */
export class IndexSet {
  private constructor(
    private readonly singles: Set<number>,
    private readonly ranges: [number, number][],
  ) {}

  static parse(spec: unknown, what: string, letters: boolean): IndexSet | null {
    if (typeof spec !== 'string' || spec.trim() === '') return null;
    const singles = new Set<number>();
    const ranges: [number, number][] = [];
    for (const item of spec.split(/[,;]/)) {
      if (item.trim() === '') continue;
      const dash = item.indexOf('-');
      if (dash < 0) {
        singles.add(specItem(item, what, letters));
        continue;
      }
      const from = specItem(item.slice(0, dash), what, letters);
      const rest = item.slice(dash + 1);
      const to = rest.trim() === '' ? Infinity : specItem(rest, what, letters);
      if (to < from) throw new FormatError(`${what}: the range "${item.trim()}" ends before it starts`);
      ranges.push([from, to]);
    }
    return new IndexSet(singles, ranges);
  }

  has(index: number): boolean {
    if (this.singles.has(index)) return true;
    for (const [from, to] of this.ranges) if (index >= from && index <= to) return true;
    return false;
  }

  /** The indexes named one by one, in order (for columns named by a single entry). */
  first(): number | undefined {
    const all = [...this.singles, ...this.ranges.map(([from]) => from)];
    return all.length ? Math.min(...all) : undefined;
  }

  list(limit: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < limit; i++) if (this.has(i)) out.push(i);
    return out;
  }
}

/** Phrase's delimiter settings (`delimiterType` wins over `delimiter` unless OTHER). */
export function csvDelimiter(settings: Readonly<Record<string, unknown>>, fallback = ','): string {
  const type = typeof settings['delimiterType'] === 'string' ? (settings['delimiterType'] as string).toUpperCase() : undefined;
  if (type === 'TAB') return '\t';
  if (type === 'SEMICOLON') return ';';
  if (type === 'COMMA') return fallback === '\t' && settings['delimiter'] === undefined ? fallback : ',';
  const given = settings['delimiter'];
  if (typeof given !== 'string' || given === '') return fallback;
  const delimiter = given === '\\t' || given.toLowerCase() === 'tab' ? '\t' : given;
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new FormatError(`the CSV delimiter must be one character other than a quote or a line break (got "${given}")`);
  }
  return delimiter;
}

// ---------------------------------------------------------------------------------------------
// Cell content: HTML tags and tagRegexp matches as inline tags

const HTML_VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

interface HtmlToken {
  start: number;
  end: number;
  kind: 'open' | 'close' | 'standalone';
  name: string;
}

/** HTML-like tags in text: `<name …>`, `</name>`, `<name/>`, `<!--…-->` (one pass, no backtracking). */
function htmlTokens(text: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) break;
      tokens.push({ start: i, end: end + 3, kind: 'standalone', name: '!--' });
      i = text.indexOf('<', end + 3);
      continue;
    }
    const closing = next === 0x2f;
    const nameStart = closing ? i + 2 : i + 1;
    let j = nameStart;
    while (j < text.length && /[A-Za-z0-9:_-]/.test(text[j]!)) j++;
    const first = text.charCodeAt(nameStart);
    const letter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
    if (!letter || j === nameStart) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    // The tag ends at the first '>' outside a quoted attribute value.
    let k = j;
    let quote = 0;
    for (; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e || c === 0x3c) break;
    }
    if (k >= text.length || text.charCodeAt(k) !== 0x3e) {
      i = k < text.length ? k : -1;
      continue;
    }
    const name = text.slice(nameStart, j).toLowerCase();
    const selfClosing = text.charCodeAt(k - 1) === 0x2f;
    tokens.push({ start: i, end: k + 1, kind: closing ? 'close' : selfClosing || HTML_VOID.has(name) ? 'standalone' : 'open', name });
    i = text.indexOf('<', k + 1);
  }
  return tokens;
}

/**
 * A cell's text as unit source and tags: with `html`, HTML tags become inline tags (a start tag
 * and its matching end tag a pair, anything else standalone); then `pattern` matches in the text
 * between them become standalone tags.
 */
export function cellContent(value: string, html: boolean, pattern: RegExp | null): { source: string; tags: InlineTag[] } {
  const tags: InlineTag[] = [];
  let source = '';
  let counter = 0;
  const addText = (text: string): void => {
    if (!pattern || text === '') {
      source += text;
      return;
    }
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match[0] === '') continue;
      const tag = inlineTag(++counter, 'standalone', match[0]);
      tags.push(tag);
      source += text.slice(last, match.index) + tag.display;
      last = match.index + match[0].length;
    }
    source += text.slice(last);
  };
  if (!html || !value.includes('<')) {
    addText(value);
    return { source, tags };
  }
  const tokens = htmlTokens(value);
  // Pair each close with the nearest open of the same name still open (a stack per name).
  const partner = new Map<number, number>();
  const open = new Map<string, number[]>();
  tokens.forEach((token, index) => {
    if (token.kind === 'open') {
      let stack = open.get(token.name);
      if (!stack) open.set(token.name, (stack = []));
      stack.push(index);
    } else if (token.kind === 'close') {
      const opener = open.get(token.name)?.pop();
      if (opener !== undefined) {
        partner.set(opener, index);
        partner.set(index, opener);
      }
    }
  });
  const numberOf = new Map<number, number>();
  let last = 0;
  const nextId = (): number => ++counter;
  tokens.forEach((token, index) => {
    addText(value.slice(last, token.start));
    last = token.end;
    const original = value.slice(token.start, token.end);
    const other = partner.get(index);
    if (other === undefined) {
      const tag = inlineTag(nextId(), 'standalone', original);
      tags.push(tag);
      source += tag.display;
    } else if (token.kind === 'open') {
      const id = nextId();
      numberOf.set(index, id);
      const tag = inlineTag(id, 'open', original);
      tags.push(tag);
      source += tag.display;
    } else {
      const tag = inlineTag(numberOf.get(other)!, 'close', original);
      tags.push(tag);
      source += tag.display;
    }
  });
  addText(value.slice(last));
  return { source, tags };
}

// ---------------------------------------------------------------------------------------------
// The filters

function chooseTextEncoding(head: Buffer): TextEncoding {
  return encodingFromBom(head) ?? encoding('utf-8');
}

/** Where a cell is: `B3` (column letters and 1-based row), as a spreadsheet names it. */
export function cellLocator(column: number, row: number): string {
  return `${columnLetters(column)}${row}`;
}

/** A unit of a record with what the writer needs: the field it came from and the one it writes to. */
interface RecordUnit {
  unit: TextUnit;
  /** Field index written by a translation. */
  writeColumn: number;
  /** The original value of the written cell (for line endings). */
  sourceValue: string;
}

interface CsvPlan {
  delimiter: string;
  /** The units of one record, in order (their `index` filled in by the caller). */
  unitsOf(record: CsvRecord): RecordUnit[];
}

function fieldValue(record: CsvRecord, column: number | undefined): string | undefined {
  return column === undefined ? undefined : record.fields[column]?.value;
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^[0-9]{1,9}$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return n > 0 ? n : undefined;
}

function noteOf(record: CsvRecord, columns: IndexSet | null): string | null {
  if (!columns) return null;
  const notes: string[] = [];
  record.fields.forEach((field, column) => {
    if (columns.has(column) && field.value.trim() !== '') notes.push(field.value);
  });
  return notes.length ? notes.join('\n') : null;
}

function settingsOf(options: FilterOptions): Readonly<Record<string, unknown>> {
  const settings = options.formatSettings;
  return settings && typeof settings === 'object' ? settings : {};
}

function monolingualPlan(options: FilterOptions, defaultDelimiter: string): CsvPlan {
  const settings = settingsOf(options);
  const delimiter = csvDelimiter(settings, defaultDelimiter);
  const importColumns = IndexSet.parse(settings['importColumns'], 'importColumns', true);
  const noteColumns = IndexSet.parse(settings['contextNoteColumns'], 'contextNoteColumns', true);
  const keyColumn = IndexSet.parse(settings['contextKeyColumn'], 'contextKeyColumn', true)?.first();
  const maxLenColumn = IndexSet.parse(settings['maxLenColumn'], 'maxLenColumn', true)?.first();
  const rows = IndexSet.parse(settings['importRows'], 'importRows', false);
  const html = settings['htmlSubFilter'] === true;
  const pattern = compileTagRegexp(typeof settings['tagRegexp'] === 'string' ? settings['tagRegexp'] : options.tagRegexp);
  const metadata = (column: number): boolean => noteColumns?.has(column) === true || column === keyColumn || column === maxLenColumn;
  return {
    delimiter,
    unitsOf(record) {
      if (rows && !rows.has(record.row - 1)) return [];
      const units: RecordUnit[] = [];
      let note: string | null | undefined;
      record.fields.forEach((field, column) => {
        if (importColumns ? !importColumns.has(column) : metadata(column)) return;
        if (field.value.trim() === '') return;
        note ??= noteOf(record, noteColumns);
        const { source, tags } = cellContent(field.value, html, pattern);
        const key = fieldValue(record, keyColumn);
        const maxLength = positiveInteger(fieldValue(record, maxLenColumn));
        const unit: TextUnit = {
          index: 0,
          key: key !== undefined && key.trim() !== '' ? key : null,
          locator: cellLocator(column, record.row),
          source,
          tags,
          target: null,
          translatable: true,
          note,
        };
        if (maxLength !== undefined) unit.maxLength = maxLength;
        units.push({ unit, writeColumn: column, sourceValue: field.value });
      });
      return units;
    },
  };
}

/** Language codes compared loosely: case, `_` or `-`; a bare language matches its first region. */
function languageKey(code: string): string {
  return code.trim().toLowerCase().replace(/_/g, '-');
}

/** `de:B, fr:C` (or `de=B`), a JSON object string, or an object: language → column spec. */
function languageColumns(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  let object: unknown = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{')) {
      try {
        object = JSON.parse(trimmed);
      } catch {
        throw new FormatError(`multilingual CSV: the column map "${trimmed}" is not valid JSON`);
      }
    } else {
      for (const item of trimmed.split(/[,;]/)) {
        const match = /^\s*([^:=\s]+)\s*[:=]\s*([A-Za-z]{1,4}|[0-9]{1,7})\s*$/.exec(item);
        if (match) out.set(languageKey(match[1]!), match[2]!);
      }
      return out;
    }
  }
  if (object && typeof object === 'object') {
    for (const [language, column] of Object.entries(object as Record<string, unknown>)) {
      if (typeof column === 'string' || typeof column === 'number') out.set(languageKey(language), String(column));
    }
  }
  return out;
}

function columnForLanguage(map: Map<string, string>, language: string | undefined): string | undefined {
  if (!language) return undefined;
  const key = languageKey(language);
  if (map.has(key)) return map.get(key);
  const primary = key.split('-')[0]!;
  if (map.has(primary)) return map.get(primary);
  for (const [code, column] of map) if (code.split('-')[0] === primary) return column;
  return undefined;
}

function singleColumn(spec: string | undefined, what: string): number | undefined {
  if (spec === undefined) return undefined;
  return IndexSet.parse(spec, what, true)?.first();
}

/** Whether a string setting names a plain column list (no `lang:` mapping). */
function isPlainColumns(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && !/[:={]/.test(value);
}

/** A multilingual setting that is either one column for all, or a language map; for `language`. */
function columnSetting(value: unknown, language: string | undefined, what: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (isPlainColumns(value)) return singleColumn(value, what);
  return singleColumn(columnForLanguage(languageColumns(value), language), what);
}

/**
 * Whether a `multilingualCsv` settings section configures a source column and target columns, so
 * that the multilingual filter should read the file (FileImportSettings.autodetectMultilingualFiles
 * permitting).
 */
export function isMultilingualCsvSettings(section: unknown): boolean {
  if (!section || typeof section !== 'object') return false;
  const s = section as Record<string, unknown>;
  const targets = languageColumns(s['targetColumns']).size + languageColumns(s['allTargetColumns']).size;
  const hasSource =
    (typeof s['sourceColumns'] === 'string' && s['sourceColumns'].trim() !== '') || languageColumns(s['allTargetColumns']).size > 1;
  return hasSource && targets > 0;
}

function multilingualPlan(options: FilterOptions, write: boolean): CsvPlan {
  const settings = settingsOf(options);
  const delimiter = csvDelimiter(settings);
  const all = new Map([...languageColumns(settings['allTargetColumns']), ...languageColumns(settings['targetColumns'])]);
  const sourceSetting = settings['sourceColumns'];
  let sourceColumn = isPlainColumns(sourceSetting)
    ? singleColumn(sourceSetting, 'sourceColumns')
    : singleColumn(columnForLanguage(languageColumns(sourceSetting), options.sourceLanguage), 'sourceColumns');
  sourceColumn ??= singleColumn(columnForLanguage(all, options.sourceLanguage), 'sourceColumns');
  if (sourceColumn === undefined) {
    throw new FormatError(
      `multilingual CSV: no source column${options.sourceLanguage ? ` for "${options.sourceLanguage}"` : ''} in the import settings (sourceColumns)`,
    );
  }
  const targetColumn = singleColumn(columnForLanguage(all, options.targetLanguage), 'targetColumns');
  if (write && targetColumn === undefined) {
    throw new FormatError(
      `multilingual CSV: no target column for "${options.targetLanguage ?? '(no target language)'}" in the import settings (targetColumns)`,
    );
  }
  if (targetColumn === sourceColumn) throw new FormatError('multilingual CSV: the target column is the source column');
  const noteColumns = isPlainColumns(settings['contextNoteColumns'])
    ? IndexSet.parse(settings['contextNoteColumns'], 'contextNoteColumns', true)
    : null;
  const languageNote = noteColumns
    ? undefined
    : columnSetting(settings['contextNoteColumns'], options.targetLanguage, 'contextNoteColumns');
  const keyColumn = columnSetting(settings['contextKeyColumns'], options.targetLanguage, 'contextKeyColumns');
  const maxLenColumn = columnSetting(settings['maxLenColumns'], options.targetLanguage, 'maxLenColumns');
  const rows = IndexSet.parse(settings['importRows'], 'importRows', false);
  const html = settings['htmlSubFilter'] === true;
  const pattern = compileTagRegexp(typeof settings['tagRegexp'] === 'string' ? settings['tagRegexp'] : options.tagRegexp);
  const action = typeof settings['nonEmptySegmentAction'] === 'string' ? settings['nonEmptySegmentAction'] : 'NONE';
  return {
    delimiter,
    unitsOf(record) {
      if (rows && !rows.has(record.row - 1)) return [];
      const value = fieldValue(record, sourceColumn);
      if (value === undefined || value.trim() === '') return [];
      const { source, tags } = cellContent(value, html, pattern);
      const targetValue = fieldValue(record, targetColumn);
      let target: string | null = null;
      let allTags = tags;
      if (targetValue !== undefined && targetValue !== '') {
        // The target's tags reuse the source's numbers when their markup is the same.
        const parsed = cellContent(targetValue, html, pattern);
        target = parsed.source;
        if (parsed.tags.length > 0)
          target = renumberTargetTags(parsed.source, parsed.tags, tags, (extra) => (allTags = [...tags, ...extra]));
      }
      const key = fieldValue(record, keyColumn);
      const maxLength = positiveInteger(fieldValue(record, maxLenColumn));
      const note = noteColumns ? noteOf(record, noteColumns) : fieldValue(record, languageNote)?.trim() || null;
      const unit: TextUnit = {
        index: 0,
        key: key !== undefined && key.trim() !== '' ? key : null,
        locator: cellLocator(sourceColumn, record.row),
        source,
        tags: allTags,
        target,
        translatable: true,
        note,
      };
      if (maxLength !== undefined) unit.maxLength = maxLength;
      if (target !== null && target.trim() !== '') {
        if (action === 'CONFIRM' || action === 'CONFIRM_LOCK') unit.targetConfirmed = true;
        if (action === 'LOCK' || action === 'CONFIRM_LOCK') unit.locked = true;
      }
      return [{ unit, writeColumn: targetColumn ?? -1, sourceValue: targetValue ?? value }];
    },
  };
}

/**
 * A target's text with its tags numbered as the source's where the markup is the same (the n-th
 * use of an identical tag in the target takes the n-th in the source; a close takes its open's
 * number); other tags get numbers after the source's, reported through `extra`.
 */
function renumberTargetTags(text: string, targetTags: InlineTag[], sourceTags: InlineTag[], extra: (tags: InlineTag[]) => void): string {
  const pool = new Map<string, number[]>();
  for (const tag of sourceTags) {
    if (tag.kind === 'close') continue;
    const key = `${tag.kind}\u0000${tag.original}`;
    const list = pool.get(key) ?? [];
    list.push(tag.id);
    pool.set(key, list);
  }
  const sourceDisplays = new Set(sourceTags.map((tag) => tag.display));
  let next = sourceTags.reduce((max, tag) => Math.max(max, tag.id), 0) + 1;
  const idFor = new Map<number, number>();
  for (const tag of targetTags) {
    if (tag.kind !== 'close') idFor.set(tag.id, pool.get(`${tag.kind}\u0000${tag.original}`)?.shift() ?? next++);
  }
  const added: InlineTag[] = [];
  for (const tag of targetTags) {
    const renumbered = inlineTag(idFor.get(tag.id) ?? next++, tag.kind, tag.original);
    idFor.set(tag.id, renumbered.id);
    if (!sourceDisplays.has(renumbered.display)) added.push(renumbered);
  }
  extra(added);
  const byDisplay = new Map(targetTags.map((tag) => [tag.display, tag]));
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/\{\d+[>}]|<\d+\}/g)) {
    const tag = byDisplay.get(match[0]);
    if (!tag) continue;
    out += text.slice(last, match.index) + inlineTag(idFor.get(tag.id)!, tag.kind, '').display;
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

async function* csvRecords(chunks: AsyncIterable<string>, delimiter: string, keepRaw: boolean): AsyncGenerator<CsvRecord[]> {
  const scanner = new CsvScanner(delimiter, keepRaw);
  for await (const chunk of chunks) {
    const records: CsvRecord[] = [];
    scanner.push(chunk, records);
    if (records.length) yield records;
  }
  const last: CsvRecord[] = [];
  scanner.end(last);
  if (last.length) yield last;
}

function makeParseBatches(planOf: (options: FilterOptions) => CsvPlan) {
  return async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
    const plan = planOf(options);
    const { chunks } = await decodeStream(input, chooseTextEncoding);
    let index = 0;
    for await (const records of csvRecords(chunks, plan.delimiter, false)) {
      const units: TextUnit[] = [];
      for (const record of records) {
        for (const { unit } of plan.unitsOf(record)) {
          unit.index = index++;
          units.push(unit);
        }
      }
      if (units.length) yield units;
    }
  };
}

/** Whether a cell value must be quoted: delimiter, quote, line break, or white space at either end. */
function needsQuotes(value: string, delimiter: string): boolean {
  if (value === '') return false;
  return (
    value.includes(delimiter) ||
    value.includes('"') ||
    value.includes('\n') ||
    value.includes('\r') ||
    /^\s/.test(value) ||
    /\s$/.test(value)
  );
}

function cellText(value: string, quoted: boolean, delimiter: string): string {
  return quoted || needsQuotes(value, delimiter) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The record's raw text with the given cells replaced (and cells added when the row is short). */
function rewriteRecord(record: CsvRecord, edits: Map<number, string>, delimiter: string, insertQuoted: boolean): string {
  let out = '';
  let last = 0;
  const columns = [...edits.keys()].sort((a, b) => a - b);
  const body = record.raw.length - record.eol.length;
  for (const column of columns) {
    const value = edits.get(column)!;
    const field = record.fields[column];
    if (field) {
      const quoted = field.quoted || (insertQuoted && field.value === '');
      out += record.raw.slice(last, field.start) + cellText(value, quoted, delimiter);
      last = field.end;
    } else {
      // Past the row's last cell: empty cells up to it.
      out +=
        record.raw.slice(last, body) +
        delimiter.repeat(column - Math.max(record.fields.length - 1, 0)) +
        cellText(value, insertQuoted, delimiter);
      last = body;
      record.fields[column] = { start: body, end: body, quoted: true, value };
    }
  }
  return out + record.raw.slice(last);
}

function makeWrite(planOf: (options: FilterOptions) => CsvPlan, insertQuoted: boolean) {
  return async function write(
    original: Readable,
    translations: ReadonlyMap<string, UnitTranslation>,
    output: Writable,
    options: FilterOptions = {},
  ): Promise<void> {
    const plan = planOf(options);
    const { encoding: enc, chunks } = await decodeStream(original, chooseTextEncoding);
    async function* rewritten(): AsyncGenerator<Buffer> {
      if (enc.bom.length) yield enc.bom;
      for await (const records of csvRecords(chunks, plan.delimiter, true)) {
        let text = '';
        for (const record of records) {
          let edits: Map<number, string> | null = null;
          for (const { unit, writeColumn, sourceValue } of plan.unitsOf(record)) {
            const translation = translations.get(unit.locator);
            if (!translation || writeColumn < 0) continue;
            let value = restoreTags(translation.text, unit.tags);
            if (sourceValue.includes('\r\n')) value = value.replace(/\r?\n/g, '\r\n');
            // The cell's own text: nothing to change (its quoting stays as it was).
            if (value === record.fields[writeColumn]?.value) continue;
            (edits ??= new Map()).set(writeColumn, value);
          }
          text += edits ? rewriteRecord(record, edits, plan.delimiter, insertQuoted) : record.raw;
        }
        if (text) yield encodeText(text, enc);
      }
    }
    await pipeline(rewritten(), output);
  };
}

const csvPlan = (options: FilterOptions): CsvPlan => monolingualPlan(options, ',');
const tsvPlan = (options: FilterOptions): CsvPlan => monolingualPlan(options, '\t');

const csvParseBatches = makeParseBatches(csvPlan);
const tsvParseBatches = makeParseBatches(tsvPlan);
const multilingualParseBatches = makeParseBatches((options) => multilingualPlan(options, false));

/** Comma-separated values; options.formatSettings is the `csv` section (CsvSettingsDto). */
export const csvFilter: FormatFilter = {
  name: 'csv',
  extensions: ['csv'],
  parse: (input, options) => unitsOfBatches(csvParseBatches(input, options)),
  parseBatches: csvParseBatches,
  write: makeWrite(csvPlan, false),
};

/** Tab-separated values: the `csv` section too, with a tab as the default delimiter. */
export const tsvFilter: FormatFilter = {
  name: 'tsv',
  extensions: ['tsv', 'tab'],
  parse: (input, options) => unitsOfBatches(tsvParseBatches(input, options)),
  parseBatches: tsvParseBatches,
  write: makeWrite(tsvPlan, false),
};

/**
 * Multilingual CSV; options.formatSettings is the `multilingualCsv` section
 * (MultilingualCsvSettingsDto), options.sourceLanguage and options.targetLanguage pick the columns.
 */
export const multilingualCsvFilter: FormatFilter = {
  name: 'multilingual-csv',
  extensions: ['csv'],
  parse: (input, options) => unitsOfBatches(multilingualParseBatches(input, options)),
  parseBatches: multilingualParseBatches,
  write: makeWrite((options) => multilingualPlan(options, true), true),
};

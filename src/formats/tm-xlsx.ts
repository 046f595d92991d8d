import type { Readable, Writable } from 'node:stream';
import type ExcelJSTypes from 'exceljs';
import type { SaxesTagPlain } from 'saxes';
import { canonicalLanguage } from './tmx.js';
import type { TmxUnit, TmxWarning } from './tmx.js';
import type { TmUnit, TmVariant } from './tm-formats.js';
import { tagsOfDisplayTokens } from './tm-xliff.js';
import { FormatError } from './types.js';
import { shapedSaxesParser } from './xml.js';

/**
 * Translation memories as spreadsheets (XLSX), read and written as streams through ExcelJS.
 *
 * Layout: the first worksheet; its first row names the columns, one per language (`en`, `de`,
 * `fr_FR`…), plus optionally `context_prev` (or `previous`), `context_next` (`next`), `key`
 * (`context`) and `note`. Each further row is one unit: the source language's cell and a variant
 * per other non-empty language cell. Inline tags are Phrase display tokens in the text (`{1>`,
 * `<1}`, `{1}`); their markup is unknown, so their originals are TMX's generic `<bpt/>`, `<ept/>`,
 * `<ph/>` (see tagsOfDisplayTokens).
 *
 * ExcelJS unzips the workbook as it streams in (a worksheet stored before the shared strings goes
 * to a temporary file first) and caches the shared-string table, as any XLSX reader must; the
 * worksheet's XML is parsed here with saxes (ExcelJS' own row reader decodes XML entities twice,
 * so `&amp;` written in a cell would come back as `&`, and keeps only the last run of an inline
 * rich text). Memory is bounded by the shared strings plus one batch. The writer writes inline
 * strings (no shared-string table, which would grow with the file) and waits for the zip stream to
 * catch up every few hundred rows, so its memory stays flat however many rows it writes.
 */

type ExcelJSModule = typeof ExcelJSTypes;

/** ExcelJS is large: loaded on first use, not when the formats load. */
let excelJs: Promise<ExcelJSModule> | null = null;
function loadExcelJs(): Promise<ExcelJSModule> {
  excelJs ??= import('exceljs').then((module) => ((module as { default?: ExcelJSModule }).default ?? module) as ExcelJSModule);
  return excelJs;
}

export interface XlsxTmReadOptions {
  /** The source language: the column in this language holds the source (required). */
  sourceLang: string;
  warnings?: TmxWarning[];
  /** At most this many warnings are kept (default 1,000); the rest are counted in one last warning. */
  maxWarnings?: number;
  /** Largest batch yielded (default 5,000 units). */
  batchSize?: number;
}

export interface XlsxTmWriteOptions {
  sourceLang: string;
  targetLangs: readonly string[];
  /** Also write the `context_prev`, `context_next`, `key` and `note` columns (default false). */
  withContext?: boolean;
  /** The worksheet's name (default `TM`). */
  sheetName?: string;
  /** Units that cannot be written (no source text, a cell over Excel's limit) are reported here. */
  warnings?: TmxWarning[];
}

const DEFAULT_BATCH = 5000;
/** Excel's limit of characters in one cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;
/** Worksheet XML inside one row beyond this many characters is refused (a row is held whole). */
const MAX_ROW_CHARS = 10_000_000;

type ExtraColumn = 'contextPrev' | 'contextNext' | 'contextKey' | 'note';

const EXTRA_HEADERS: Record<string, ExtraColumn> = {
  context_prev: 'contextPrev',
  previous: 'contextPrev',
  context_next: 'contextNext',
  next: 'contextNext',
  key: 'contextKey',
  context: 'contextKey',
  context_key: 'contextKey',
  note: 'note',
  notes: 'note',
};

type Column = { kind: 'lang'; lang: string } | { kind: 'extra'; extra: ExtraColumn };

/** The number of a column from a cell reference (`B7` → 2), 0 when it has none. */
function columnOf(ref: string | undefined): number {
  if (!ref) return 0;
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    n = n * 26 + (c - 0x60);
  }
  return n;
}

/** A shared string as ExcelJS caches it: text, rich text runs, or null (an empty `<si>`). */
function sharedStringText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && Array.isArray((value as { richText?: unknown }).richText)) {
    return (value as { richText: { text?: unknown }[] }).richText.map((run) => (typeof run.text === 'string' ? run.text : '')).join('');
  }
  return '';
}

/** Numbers as Excel shows them in general format: `3.1400000000000001` → `3.14`. */
function numberText(raw: string): string {
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) ? String(n) : raw;
}

/**
 * Parses a worksheet's XML (`<sheetData><row><c r t><v>|<is>…`) into rows of cell texts (index
 * 0 is column A), calling `onRow` for each complete row.
 */
class SheetScanner {
  private readonly parser = shapedSaxesParser();
  private failure: FormatError | null = null;
  private row: string[] | null = null;
  private rowNumber = 0;
  private rowChars = 0;
  private cell: { column: number; type: string; parts: string[] | null; value: string[] | null } | null = null;
  private lastColumn = 0;
  /** Inside `<is>`: collecting `<t>` text; `<rPh>` (phonetic runs) is not part of the text. */
  private inInline = false;
  private inPhonetic = 0;
  private capture: string[] | null = null;

  constructor(
    private readonly sharedStrings: readonly unknown[] | undefined,
    private readonly onRow: (cells: string[], rowNumber: number) => void,
  ) {
    const parser = this.parser;
    parser.on('error', (error) => {
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.failure ??= new FormatError(`malformed worksheet XML: ${message}`, { line: parser.line, column: parser.column + 1 });
    });
    parser.on('doctype', () => (this.failure ??= new FormatError('a DOCTYPE in a worksheet is refused')));
    parser.on('text', (text) => this.onText(text));
    parser.on('cdata', (text) => this.onText(text));
    parser.on('opentag', (tag) => {
      if (!this.failure) this.onOpen(tag);
    });
    parser.on('closetag', (tag) => {
      if (!this.failure) this.onClose(tag.name);
    });
  }

  push(chunk: string): void {
    this.parser.write(chunk);
    if (this.failure) throw this.failure;
  }

  end(): void {
    this.parser.close();
    if (this.failure) throw this.failure;
  }

  private onText(text: string): void {
    if (this.capture && this.inPhonetic === 0) {
      this.capture.push(text);
      this.rowChars += text.length;
      if (this.rowChars > MAX_ROW_CHARS)
        this.failure ??= new FormatError(`row ${this.rowNumber} is larger than ${MAX_ROW_CHARS} characters`);
    }
  }

  private onOpen(tag: SaxesTagPlain): void {
    const local = tag.name.slice(tag.name.indexOf(':') + 1);
    const attributes = tag.attributes as Record<string, string>;
    switch (local) {
      case 'row': {
        const r = Number(attributes['r']);
        this.rowNumber = Number.isInteger(r) && r > 0 ? r : this.rowNumber + 1;
        this.row = [];
        this.rowChars = 0;
        this.lastColumn = 0;
        return;
      }
      case 'c': {
        if (!this.row) return;
        const column = columnOf(attributes['r']) || this.lastColumn + 1;
        this.lastColumn = column;
        this.cell = { column, type: attributes['t'] ?? 'n', parts: null, value: null };
        return;
      }
      case 'v':
        if (this.cell) this.capture = this.cell.value = [];
        return;
      case 'is':
        if (this.cell) {
          this.inInline = true;
          this.cell.parts = [];
        }
        return;
      case 'rPh':
        if (this.inInline) this.inPhonetic += 1;
        return;
      case 't':
        if (this.inInline && this.cell?.parts) this.capture = this.cell.parts;
        return;
      default:
        return;
    }
  }

  private onClose(name: string): void {
    const local = name.slice(name.indexOf(':') + 1);
    switch (local) {
      case 'v':
      case 't':
        this.capture = null;
        return;
      case 'rPh':
        if (this.inPhonetic > 0) this.inPhonetic -= 1;
        return;
      case 'is':
        this.inInline = false;
        return;
      case 'c': {
        const cell = this.cell;
        this.cell = null;
        this.capture = null;
        if (cell && this.row) this.row[cell.column - 1] = this.cellText(cell);
        return;
      }
      case 'row': {
        const row = this.row;
        this.row = null;
        if (row) this.onRow(row, this.rowNumber);
        return;
      }
      default:
        return;
    }
  }

  private cellText(cell: { type: string; parts: string[] | null; value: string[] | null }): string {
    const value = cell.value?.join('') ?? '';
    switch (cell.type) {
      case 's':
        return sharedStringText(this.sharedStrings?.[Number(value)]);
      case 'inlineStr':
        return cell.parts?.join('') ?? value;
      case 'str':
      case 'd':
        return value;
      case 'b':
        return value === '' ? '' : value === '0' ? 'FALSE' : 'TRUE';
      case 'e':
        return '';
      default:
        return numberText(value);
    }
  }
}

/** Rows of the sheet turned into units: the header first, then one unit per row. */
class RowReader {
  readonly units: TmUnit[] = [];
  private columns: (Column | null)[] | null = null;
  private sourceColumn = -1;
  private sourceLang = '';
  private warningCount = 0;
  private readonly maxWarnings: number;

  constructor(private readonly options: XlsxTmReadOptions) {
    this.maxWarnings = options.maxWarnings ?? 1000;
  }

  private warn(message: string, line?: number): void {
    const warnings = this.options.warnings;
    if (!warnings) return;
    this.warningCount += 1;
    if (this.warningCount <= this.maxWarnings) warnings.push(line === undefined ? { message } : { message, line });
  }

  finish(): void {
    if (!this.columns) throw new FormatError('the worksheet has no header row');
    if (this.warningCount > this.maxWarnings) {
      this.options.warnings?.push({ message: `${this.warningCount - this.maxWarnings} more warnings not listed` });
    }
  }

  row(cells: string[], rowNumber: number): void {
    if (!this.columns) return this.header(cells, rowNumber);
    const columns = this.columns;
    const source = cells[this.sourceColumn];
    if (source === undefined || source.trim() === '') {
      const hasText = cells.some((cell, index) => columns[index]?.kind === 'lang' && cell.trim() !== '');
      if (hasText) this.warn(`row ${rowNumber} has no ${this.sourceLang} text: skipped`, rowNumber);
      return;
    }
    const variants: TmVariant[] = [{ lang: this.sourceLang, text: source, tags: tagsOfDisplayTokens(source) }];
    const unit: TmUnit = { sourceLang: this.sourceLang, variants };
    for (let index = 0; index < cells.length; index++) {
      const column = columns[index];
      const text = cells[index];
      if (!column || text === undefined || index === this.sourceColumn || text.trim() === '') continue;
      if (column.kind === 'lang') variants.push({ lang: column.lang, text, tags: tagsOfDisplayTokens(text) });
      else if (column.extra === 'note') unit.notes = [text];
      else unit[column.extra] = text;
    }
    this.units.push(unit);
  }

  private header(cells: string[], rowNumber: number): void {
    const wanted = canonicalLanguage(this.options.sourceLang);
    if (wanted === null) throw new FormatError(`the source language "${this.options.sourceLang}" is not a known language code`);
    const columns: (Column | null)[] = [];
    const seen = new Set<string>();
    for (let index = 0; index < cells.length; index++) {
      const raw = (cells[index] ?? '').trim();
      if (raw === '') {
        columns.push(null);
        continue;
      }
      const extra = EXTRA_HEADERS[raw.toLowerCase().replace(/[\s-]+/g, '_')];
      const lang = extra ? null : canonicalLanguage(raw);
      if (extra) {
        if (seen.has(extra)) {
          this.warn(`column ${index + 1} ("${raw}") repeats an earlier column: ignored`, rowNumber);
          columns.push(null);
        } else {
          seen.add(extra);
          columns.push({ kind: 'extra', extra });
        }
      } else if (lang === null) {
        this.warn(`column ${index + 1} ("${raw}") is neither a known language code nor a known column: ignored`, rowNumber);
        columns.push(null);
      } else if (seen.has(`lang:${lang}`)) {
        this.warn(`column ${index + 1} ("${raw}") repeats the language ${lang}: ignored`, rowNumber);
        columns.push(null);
      } else {
        seen.add(`lang:${lang}`);
        columns.push({ kind: 'lang', lang });
      }
    }
    let source = columns.findIndex((column) => column?.kind === 'lang' && column.lang === wanted);
    if (source < 0) {
      // `en` for a column `en-US` (or the other way round), when only one column is in that language.
      const primary = wanted.split('-')[0];
      const candidates = columns.flatMap((column, index) =>
        column?.kind === 'lang' && column.lang.split('-')[0] === primary ? [index] : [],
      );
      if (candidates.length === 1) source = candidates[0]!;
    }
    if (source < 0) {
      const languages = columns.flatMap((column) => (column?.kind === 'lang' ? [column.lang] : []));
      throw new FormatError(
        `the header row has no column for the source language ${wanted} (languages: ${languages.join(', ') || 'none'})`,
        { line: rowNumber },
      );
    }
    this.sourceColumn = source;
    this.sourceLang = (columns[source] as { lang: string }).lang;
    this.columns = columns;
  }
}

/** ExcelJS' streaming reader and worksheet reader, with the fields (not in its typings) read here. */
interface WorkbookReaderInternals {
  sharedStrings?: unknown[];
  model?: { sheets?: { id?: number }[] };
}
interface WorksheetReaderInternals {
  id?: number | string;
  iterator?: AsyncIterable<Buffer | string> & { destroy?: () => void; return?: () => unknown };
}

function releaseWorksheet(worksheet: WorksheetReaderInternals): void {
  const iterator = worksheet.iterator;
  if (!iterator) return;
  if (typeof iterator.destroy === 'function') iterator.destroy();
  else void iterator.return?.();
}

/**
 * Reads a TM spreadsheet (XLSX) as batches of units (at most `batchSize` each). A file that is no
 * XLSX workbook, or whose header has no column in `options.sourceLang`, rejects with FormatError;
 * unknown header columns are ignored with a warning.
 */
export async function* readXlsxTm(input: Readable, options: XlsxTmReadOptions): AsyncGenerator<TmUnit[]> {
  if (!options.sourceLang) throw new FormatError('reading an XLSX translation memory needs the source language');
  if (canonicalLanguage(options.sourceLang) === null) {
    throw new FormatError(`the source language "${options.sourceLang}" is not a known language code`);
  }
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const ExcelJS = await loadExcelJs();
  // ExcelJS pipes `input` into its unzipper, which does not see the input's errors: each wait for
  // ExcelJS is raced with them. (Not with one long-lived promise: every Promise.race would leave a
  // reaction on it holding that wait's result, a chunk of the file, for as long as it lives.)
  let inputError: unknown = null;
  let pendingReject: ((error: unknown) => void) | null = null;
  const onInputError = (error: unknown) => {
    inputError ??= error;
    pendingReject?.(error);
  };
  input.on('error', onInputError);
  const race = <T>(promise: Promise<T>): Promise<T> => {
    if (inputError !== null) return Promise.reject(inputError as Error);
    return new Promise<T>((resolve, reject) => {
      pendingReject = reject;
      promise.then(
        (value) => {
          pendingReject = null;
          resolve(value);
        },
        (error: unknown) => {
          pendingReject = null;
          reject(error as Error);
        },
      );
    });
  };

  /** What ExcelJS (the unzipper, its XML parser) rejects with is the file's fault: a FormatError. */
  const unzipped = async <T>(promise: Promise<T>): Promise<T> => {
    try {
      return await race(promise);
    } catch (error) {
      if (error instanceof FormatError || error === inputError) throw error;
      throw new FormatError(`not a readable XLSX workbook: ${(error as Error)?.message ?? String(error)}`);
    }
  };

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const internals = reader as unknown as WorkbookReaderInternals;
  // ExcelJS reads `model.sheets` when a worksheet comes while it has the workbook's relations and
  // shared strings but not yet xl/workbook.xml (zip entries may come in any order, and ExcelJS's
  // own writer varies it): without a model it throws. With an empty one the worksheet is read as
  // the first; the real model replaces it when xl/workbook.xml comes.
  internals.model ??= { sheets: [] };
  const rows = new RowReader(options);
  let read = false;
  const worksheets = reader[Symbol.asyncIterator]();
  let completed = false;
  try {
    for (;;) {
      const next = await unzipped(worksheets.next());
      if (next.done) break;
      const worksheet = next.value as WorksheetReaderInternals;
      const firstId = internals.model?.sheets?.[0]?.id;
      if (read || (firstId !== undefined && worksheet.id !== undefined && Number(worksheet.id) !== Number(firstId))) {
        releaseWorksheet(worksheet);
        continue;
      }
      if (!worksheet.iterator) throw new Error('this version of ExcelJS is not supported: its worksheet reader has no iterator');
      read = true;
      const scanner = new SheetScanner(internals.sharedStrings, (cells, rowNumber) => rows.row(cells, rowNumber));
      const decoder = new TextDecoder('utf-8');
      const chunks = worksheet.iterator[Symbol.asyncIterator]();
      for (;;) {
        const chunk = await unzipped(chunks.next());
        if (chunk.done) break;
        const value = chunk.value;
        scanner.push(typeof value === 'string' ? value : decoder.decode(value, { stream: true }));
        while (rows.units.length >= batchSize) yield rows.units.splice(0, batchSize);
        if (rows.units.length > 0) yield rows.units.splice(0);
      }
      scanner.push(decoder.decode());
      scanner.end();
      if (rows.units.length > 0) yield rows.units.splice(0);
    }
    completed = true;
  } finally {
    input.off('error', onInputError);
    // Failed or abandoned half way: the rest of the file is not wanted.
    if (!completed) input.destroy();
  }
  if (!read) throw new FormatError('not an XLSX workbook: it has no worksheet');
  rows.finish();
}

/** ExcelJS' worksheet writer's stream (a StreamBuf piped into the zip entry), whose backlog bounds memory. */
interface WorksheetWriterInternals {
  stream?: {
    buffers?: unknown[];
    pipes?: { _writableState?: { length?: number }; _readableState?: { length?: number } }[];
  };
}

/** Characters the zip stream has not taken yet beyond which the writer waits. */
const MAX_BACKLOG = 256 * 1024;
const CHECK_EVERY_ROWS = 500;

function backlog(sheet: WorksheetWriterInternals): number {
  const stream = sheet.stream;
  if (!stream) return 0;
  const pipe = stream.pipes?.[0];
  return (stream.buffers?.length ?? 0) * 65536 + (pipe?._writableState?.length ?? 0) + (pipe?._readableState?.length ?? 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => (ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

function languageOf(code: string, what: string): string {
  const lang = canonicalLanguage(code);
  if (lang === null) throw new FormatError(`${what}: "${code}" is not a known language code`);
  return lang;
}

/**
 * Writes units (or batches of units) as a TM spreadsheet: a header row (the source language, then
 * the target languages) and one row per unit, texts with their tags as display tokens. Streams
 * with backpressure and ends `output`. A unit without text in the source language, or with a
 * text longer than a cell holds, is left out and reported in `options.warnings`. Rejects with
 * FormatError for an unknown language, leaving `output` destroyed when it had begun.
 */
export async function writeXlsxTm(
  output: Writable,
  units: AsyncIterable<TmxUnit | TmxUnit[]> | Iterable<TmxUnit | TmxUnit[]>,
  options: XlsxTmWriteOptions,
): Promise<void> {
  const sourceLang = languageOf(options.sourceLang, 'the source language');
  const targetLangs = options.targetLangs.map((lang) => languageOf(lang, 'a target language'));
  const languages = [sourceLang, ...targetLangs.filter((lang, index) => lang !== sourceLang && targetLangs.indexOf(lang) === index)];
  const ExcelJS = await loadExcelJs();
  let outputError: unknown = null;
  const onOutputError = (error: unknown) => (outputError ??= error);
  output.on('error', onOutputError);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  try {
    const sheet = workbook.addWorksheet(options.sheetName ?? 'TM');
    const header: string[] = [...languages];
    if (options.withContext) header.push('context_prev', 'context_next', 'key', 'note');
    sheet.addRow(header).commit();
    const sheetInternals = sheet as unknown as WorksheetWriterInternals;
    let index = 0;
    let sinceCheck = 0;
    for await (const item of units) {
      const batch = Array.isArray(item) ? item : [item];
      for (const unit of batch) {
        index += 1;
        const cells = rowOf(unit, languages, options, index);
        if (!cells) continue;
        // An empty cell is left out of the sheet, not written as an empty string.
        sheet.addRow(cells.map((cell) => (cell === '' ? null : cell))).commit();
        if (++sinceCheck >= CHECK_EVERY_ROWS) {
          sinceCheck = 0;
          for (let waits = 0; backlog(sheetInternals) > MAX_BACKLOG; waits++) {
            if (outputError || output.destroyed) throw outputError ?? new Error('the output was closed');
            await sleep(waits < 20 ? 0 : 5);
          }
        }
      }
      if (outputError || output.destroyed) throw outputError ?? new Error('the output was closed');
    }
    sheet.commit();
    await workbook.commit();
    if (outputError) throw outputError;
  } catch (error) {
    (workbook as unknown as { zip?: { abort?: () => void } }).zip?.abort?.();
    output.destroy(error as Error);
    throw error;
  } finally {
    output.off('error', onOutputError);
  }

  function rowOf(unit: TmxUnit, langs: readonly string[], writeOptions: XlsxTmWriteOptions, position: number): string[] | null {
    const what = `unit ${unit.tuid ?? position}`;
    const texts = new Map<string, string>();
    for (const variant of unit.variants) {
      const lang = canonicalLanguage(variant.lang);
      if (lang !== null && !texts.has(lang)) texts.set(lang, variant.text);
    }
    const cells = langs.map((lang) => texts.get(lang) ?? '');
    if (cells[0] === '') {
      writeOptions.warnings?.push({ message: `${what} has no ${langs[0]} text: left out` });
      return null;
    }
    if (writeOptions.withContext) {
      const key = (unit as TmUnit).contextKey;
      cells.push(unit.contextPrev ?? '', unit.contextNext ?? '', key ?? '', unit.notes?.join('\n') ?? '');
    }
    if (cells.some((cell) => cell.length > XLSX_MAX_CELL_CHARS)) {
      writeOptions.warnings?.push({
        message: `${what} has a text longer than ${XLSX_MAX_CELL_CHARS} characters (a cell's limit): left out`,
      });
      return null;
    }
    return cells;
  }
}

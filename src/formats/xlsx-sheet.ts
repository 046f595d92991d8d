import type { Readable, Writable } from 'node:stream';
import type ExcelJSTypes from 'exceljs';
import type { SaxesTagPlain } from 'saxes';
import { FormatError } from './types.js';
import { shapedSaxesParser } from './xml.js';

/**
 * The first worksheet of an XLSX workbook, read and written as streams through ExcelJS: what the
 * TM spreadsheets (tm-xlsx.ts) and the term base spreadsheets (term-sheets.ts) share.
 *
 * Reading: ExcelJS unzips the workbook as it streams in (a worksheet stored before the shared
 * strings goes to a temporary file first) and caches the shared-string table, as any XLSX reader
 * must; the worksheet's XML is parsed here with saxes (ExcelJS' own row reader decodes XML
 * entities twice, so `&amp;` written in a cell would come back as `&`, and keeps only the last
 * run of an inline rich text). Memory is bounded by the shared strings plus what the caller holds.
 *
 * Writing: inline strings (no shared-string table, which would grow with the file), waiting for the
 * zip stream to catch up every few hundred rows, so that memory stays flat however many rows.
 */

type ExcelJSModule = typeof ExcelJSTypes;

/** ExcelJS is large: loaded on first use, not when the formats load. */
let excelJs: Promise<ExcelJSModule> | null = null;
function loadExcelJs(): Promise<ExcelJSModule> {
  excelJs ??= import('exceljs').then((module) => ((module as { default?: ExcelJSModule }).default ?? module) as ExcelJSModule);
  return excelJs;
}

/** Excel's limit of characters in one cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;
/** Worksheet XML inside one row beyond this many characters is refused (a row is held whole). */
const MAX_ROW_CHARS = 10_000_000;

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * One row of the worksheet: `cells` holds the cell texts (index 0 is column A, no entry where the
 * row has no cell; numbers as Excel shows them in general format, booleans TRUE/FALSE, errors
 * empty), `numbers` the 0-based columns whose cells are numbers (Excel dates are numbers), null
 * when none, `rowNumber` the row's number in the sheet (1-based).
 */
export type WorksheetRowHandler = (cells: string[], rowNumber: number, numbers: number[] | null) => void;

export interface WorksheetReadHandlers {
  /** Called once, when the first worksheet begins, with the workbook's date system. */
  start?(workbook: { date1904: boolean }): void;
  /** Called for each row as its XML is parsed; what it throws rejects the read. */
  row: WorksheetRowHandler;
}

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
 * Parses a worksheet's XML (`<sheetData><row><c r t><v>|<is>…`) into rows of cell texts (index 0
 * is column A), noting which cells are numbers, calling `onRow` for each complete row.
 */
class SheetScanner {
  private readonly parser = shapedSaxesParser();
  private failure: FormatError | null = null;
  private row: string[] | null = null;
  private numbers: number[] | null = null;
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
    private readonly onRow: WorksheetRowHandler,
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
        this.numbers = null;
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
        if (!cell || !this.row) return;
        this.row[cell.column - 1] = this.cellText(cell);
        if (cell.type === 'n' && cell.value) (this.numbers ??= []).push(cell.column - 1);
        return;
      }
      case 'row': {
        const row = this.row;
        this.row = null;
        if (row) this.onRow(row, this.rowNumber, this.numbers);
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

/** ExcelJS' streaming reader and worksheet reader, with the fields (not in its typings) read here. */
interface WorkbookReaderInternals {
  sharedStrings?: unknown[];
  model?: { sheets?: { id?: number }[]; properties?: { date1904?: boolean } };
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
 * Reads the first worksheet of the XLSX workbook `input`, calling `handlers.row` for each row as
 * its XML is parsed, and pauses (yields) after each piece of the sheet and at its end, so that the
 * caller can yield what the rows made before more is read. The other worksheets are skipped.
 * Rejects with FormatError when `input` is no XLSX workbook, has no worksheet or malformed
 * worksheet XML, or has a row over 10,000,000 characters. Failing, or stopped before the end, it
 * destroys `input`.
 */
export async function* readFirstWorksheet(input: Readable, handlers: WorksheetReadHandlers): AsyncGenerator<void> {
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
      handlers.start?.({ date1904: internals.model?.properties?.date1904 === true });
      const scanner = new SheetScanner(internals.sharedStrings, handlers.row);
      const decoder = new TextDecoder('utf-8');
      const chunks = worksheet.iterator[Symbol.asyncIterator]();
      for (;;) {
        const chunk = await unzipped(chunks.next());
        if (chunk.done) break;
        const value = chunk.value;
        scanner.push(typeof value === 'string' ? value : decoder.decode(value, { stream: true }));
        yield;
      }
      scanner.push(decoder.decode());
      scanner.end();
      yield;
    }
    completed = true;
  } finally {
    input.off('error', onInputError);
    // Failed or abandoned half way: the rest of the file is not wanted.
    if (!completed) input.destroy();
  }
  if (!read) throw new FormatError('not an XLSX workbook: it has no worksheet');
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A cell written: text (an inline string), a boolean cell, or null (no cell). */
export type WorksheetValue = string | boolean | null;

/** The worksheet being written, as `writeWorksheet` hands it to its caller. */
export interface WorksheetSink {
  /**
   * Adds and commits `rows`; then, every few hundred rows, waits for the zip stream to take what
   * it was given (rejecting when the output fails or closes meanwhile).
   */
  addRows(rows: readonly (readonly WorksheetValue[])[]): Promise<void>;
  /** Throws the output's error (or that it was closed) when it failed or closed. */
  checkOutput(): void;
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

/**
 * Writes an XLSX workbook of one worksheet named `sheetName` to `output`: `header` is its first
 * row, `fill` adds the others through the sink. Ends `output` when `fill` is done; when `fill` or
 * the output fails, aborts the zip, destroys `output` and rejects with that error.
 */
export async function writeWorksheet(
  output: Writable,
  sheetName: string,
  header: readonly string[],
  fill: (sheet: WorksheetSink) => Promise<void>,
): Promise<void> {
  const ExcelJS = await loadExcelJs();
  let outputError: unknown = null;
  const onOutputError = (error: unknown) => (outputError ??= error);
  output.on('error', onOutputError);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  try {
    const sheet = workbook.addWorksheet(sheetName);
    sheet.addRow(header).commit();
    const sheetInternals = sheet as unknown as WorksheetWriterInternals;
    let sinceCheck = 0;
    const checkOutput = () => {
      if (outputError || output.destroyed) throw outputError ?? new Error('the output was closed');
    };
    await fill({
      async addRows(rows) {
        for (const row of rows) sheet.addRow(row).commit();
        sinceCheck += rows.length;
        if (sinceCheck < CHECK_EVERY_ROWS) return;
        sinceCheck = 0;
        for (let waits = 0; backlog(sheetInternals) > MAX_BACKLOG; waits++) {
          checkOutput();
          await sleep(waits < 20 ? 0 : 5);
        }
      },
      checkOutput,
    });
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
}

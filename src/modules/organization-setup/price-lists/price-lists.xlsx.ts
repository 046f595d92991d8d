import type ExcelJSTypes from 'exceljs';
import { normalizeLanguage } from '../../../domain/languages/supported-languages.js';
import { checkAmount, decimalToNumber, formatDecimal, parseDecimal } from '../../../domain/pricing/decimal.js';
import { errors } from '../../../errors/index.js';
import type { WorkflowStepView } from './price-lists.repository.js';
import { MAX_PRICE_SETS } from './price-lists.schemas.js';

/**
 * Price lists as spreadsheets (exportPriceList, exportPriceListTemplate, importPriceList; 2025
 * operations not in the published spec, so the layout is OpenTMS's):
 *
 * - one worksheet (the first one is read); row 1 is the header: `Source language`,
 *   `Target language`, `Minimum price`, then one column per workflow step of the organization,
 *   named by the step's name, in workflow order;
 * - each further row is one language pair (price set): language codes as GET /api2/v1/languages
 *   lists them (any case, `-` or `_`), the minimum price and the price per billing unit of each
 *   step, as numbers (or text holding a decimal number);
 * - the template is the header alone.
 *
 * Reading checks the whole sheet before anything is written, and refuses it with a 400 naming
 * the row and column ("row 3, column D: …") at the first problem: a header other than the three
 * fixed columns and the organization's step names (any case; columns may come in any order, and
 * `Minimum price` and step columns may be left out), a missing language column, an unsupported
 * language code, a pair listed twice or from a language into itself, a price that is no number,
 * negative, or has more than 4 decimal places or 15 significant digits. Empty rows are skipped.
 */

type ExcelJSModule = typeof ExcelJSTypes;
let excelJs: Promise<ExcelJSModule> | null = null;
/** ExcelJS is large: loaded on first use. */
function loadExcelJs(): Promise<ExcelJSModule> {
  excelJs ??= import('exceljs').then((module) => ((module as { default?: ExcelJSModule }).default ?? module) as ExcelJSModule);
  return excelJs;
}

export const HEADER = { source: 'Source language', target: 'Target language', minimum: 'Minimum price' } as const;

/** Largest sheet file accepted, in bytes (a price list of 10,000 pairs and 15 steps is well under 2 MB). */
export const MAX_SHEET_BYTES = 5 * 1024 * 1024;
/** Largest total size of the workbook's parts once unzipped (checked on the ZIP directory before reading). */
export const MAX_UNZIPPED_BYTES = 32 * 1024 * 1024;
/** Most parts in the workbook's ZIP. */
const MAX_ZIP_ENTRIES = 1000;
/** Most columns read in the header row. */
const MAX_COLUMNS = 500;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One language pair of a sheet: prices by workflow step id, decimal strings; a value left empty is absent. */
export interface SheetPair {
  rowNumber: number;
  sourceLang: string;
  targetLang: string;
  minimumPrice: string | null;
  prices: Map<string, string>;
}

/** A pair to write: the stored decimal strings. */
export interface SheetRowOut {
  sourceLang: string;
  targetLang: string;
  minimumPrice: string;
  prices: Map<string, string>;
}

/** `1` -> `A`, `27` -> `AA`. */
export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

const sheetError = (where: string, message: string) =>
  errors.InvalidArguments({
    reason: `The price list sheet is not valid: ${where}: ${message}.`,
    details: [{ field: 'file', message: `${where}: ${message}` }],
  });
const at = (row: number, column?: number) => (column === undefined ? `row ${row}` : `row ${row}, column ${columnLetter(column)}`);

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/** A worksheet name Excel accepts: at most 31 characters, none of `[]:*?/\`. */
function sheetNameOf(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31);
  return cleaned === '' ? 'Price list' : cleaned;
}

/** The workbook of a price list (no rows: the template). */
export async function writePriceSheet(name: string, steps: readonly WorkflowStepView[], rows: readonly SheetRowOut[]): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetNameOf(name));
  sheet.addRow([HEADER.source, HEADER.target, HEADER.minimum, ...steps.map((s) => s.name)]);
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const money = (text: string) => decimalToNumber(parseDecimal(text));
  for (const row of rows) {
    sheet.addRow([row.sourceLang, row.targetLang, money(row.minimumPrice), ...steps.map((s) => money(row.prices.get(s.id) ?? '0'))]);
  }
  sheet.columns.forEach((column, index) => {
    column.width = index < 3 ? 18 : Math.max(12, Math.min(40, (steps[index - 3]?.name.length ?? 0) + 4));
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * Refuses a file whose ZIP directory announces more than MAX_UNZIPPED_BYTES (a "ZIP bomb"), more
 * than MAX_ZIP_ENTRIES parts, or ZIP64 sizes, before ExcelJS unzips it in memory; a file that is
 * no ZIP archive at all is no workbook.
 */
function assertReasonableZip(data: Buffer): void {
  const notWorkbook = () => sheetError('the file', 'it is not an XLSX workbook');
  const minEnd = Math.max(0, data.length - 22 - 0xffff);
  let end = -1;
  for (let i = data.length - 22; i >= minEnd; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notWorkbook();
  const entries = data.readUInt16LE(end + 10);
  const directoryOffset = data.readUInt32LE(end + 16);
  if (entries > MAX_ZIP_ENTRIES || entries === 0xffff || directoryOffset === 0xffffffff)
    throw sheetError('the file', 'it has too many parts');
  let offset = directoryOffset;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > data.length || data.readUInt32LE(offset) !== 0x02014b50) throw notWorkbook();
    const size = data.readUInt32LE(offset + 24);
    if (size === 0xffffffff) throw sheetError('the file', 'it is too large once unzipped');
    total += size;
    if (total > MAX_UNZIPPED_BYTES) throw sheetError('the file', `it is larger than ${MAX_UNZIPPED_BYTES} bytes once unzipped`);
    offset += 46 + data.readUInt16LE(offset + 28) + data.readUInt16LE(offset + 30) + data.readUInt16LE(offset + 32);
  }
}

type Cell = { kind: 'empty' } | { kind: 'number'; value: number } | { kind: 'text'; value: string } | { kind: 'other'; shown: string };

/** What a cell holds, formulas read through their cached result. */
function cellOf(value: ExcelJSTypes.CellValue | undefined): Cell {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'string') return value.trim() === '' ? { kind: 'empty' } : { kind: 'text', value: value.trim() };
  if (typeof value === 'boolean') return { kind: 'other', shown: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) return { kind: 'other', shown: value.toISOString().slice(0, 10) };
  const object = value as unknown as Record<string, unknown>;
  if (Array.isArray(object.richText)) {
    return cellOf((object.richText as { text?: unknown }[]).map((run) => (typeof run.text === 'string' ? run.text : '')).join(''));
  }
  if ('formula' in object || 'sharedFormula' in object) return cellOf(object.result as ExcelJSTypes.CellValue | undefined);
  if (typeof object.text === 'string') return cellOf(object.text);
  if (typeof object.error === 'string') return { kind: 'other', shown: object.error };
  return { kind: 'other', shown: 'a value of another kind' };
}

const shown = (cell: Cell) =>
  cell.kind === 'text' ? `"${cell.value}"` : cell.kind === 'number' ? String(cell.value) : cell.kind === 'other' ? cell.shown : 'nothing';

type Column = { kind: 'source' } | { kind: 'target' } | { kind: 'minimum' } | { kind: 'step'; step: WorkflowStepView };

function headerColumns(row: ExcelJSTypes.Row, steps: readonly WorkflowStepView[]): Map<number, Column> {
  const fixed: Record<string, Column> = {
    [HEADER.source.toLowerCase()]: { kind: 'source' },
    [HEADER.target.toLowerCase()]: { kind: 'target' },
    [HEADER.minimum.toLowerCase()]: { kind: 'minimum' },
  };
  const byName = new Map(steps.map((step) => [step.name.trim().toLowerCase(), step]));
  const columns = new Map<number, Column>();
  const seen = new Map<string, number>();
  let failure: Error | null = null;
  row.eachCell({ includeEmpty: false }, (excelCell, column) => {
    if (failure) return;
    if (column > MAX_COLUMNS) {
      failure = sheetError(at(1, column), `a sheet has at most ${MAX_COLUMNS} columns`);
      return;
    }
    const cell = cellOf(excelCell.value);
    if (cell.kind === 'empty') return;
    if (cell.kind !== 'text') {
      failure = sheetError(at(1, column), `the header ${shown(cell)} is no column name`);
      return;
    }
    const key = cell.value.replace(/\s+/g, ' ').toLowerCase();
    const kind = fixed[key] ?? (byName.has(key) ? { kind: 'step' as const, step: byName.get(key)! } : undefined);
    if (!kind) {
      failure = sheetError(
        at(1, column),
        `"${cell.value}" is not a column of a price list (${HEADER.source}, ${HEADER.target}, ${HEADER.minimum} or the name of a workflow step of the organization)`,
      );
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      failure = sheetError(at(1, column), `the column "${cell.value}" is already column ${columnLetter(first)}`);
      return;
    }
    seen.set(key, column);
    columns.set(column, kind);
  });
  if (failure) throw failure;
  for (const [kind, label] of [
    ['source', HEADER.source],
    ['target', HEADER.target],
  ] as const) {
    if (![...columns.values()].some((c) => c.kind === kind)) throw sheetError(at(1), `the header has no "${label}" column`);
  }
  return columns;
}

function languageOf(cell: Cell, rowNumber: number, column: number, label: string): string {
  if (cell.kind === 'empty') throw sheetError(at(rowNumber, column), `the ${label} is missing`);
  const code = cell.kind === 'text' ? normalizeLanguage(cell.value) : null;
  if (code === null)
    throw sheetError(at(rowNumber, column), `${shown(cell)} is not a supported language code (see GET /api2/v1/languages)`);
  return code;
}

function amountOf(cell: Cell, rowNumber: number, column: number, what: string): string | null {
  if (cell.kind === 'empty') return null;
  if (cell.kind !== 'number' && cell.kind !== 'text') throw sheetError(at(rowNumber, column), `${what} ${shown(cell)} is not a number`);
  const checked = checkAmount(cell.value);
  if ('reason' in checked) {
    const reason = checked.reason === 'must be a decimal number' ? 'is not a number' : checked.reason;
    throw sheetError(at(rowNumber, column), `${what} ${shown(cell)} ${reason}`);
  }
  return formatDecimal(checked.value);
}

/**
 * The language pairs of a price list sheet (see the file comment), checked through; a bad sheet
 * is a 400 naming the row and column of the first problem.
 */
export async function readPriceSheet(data: Buffer, steps: readonly WorkflowStepView[]): Promise<SheetPair[]> {
  assertReasonableZip(data);
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw sheetError('the file', 'it is not a readable XLSX workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.actualRowCount === 0) throw sheetError(at(1), `the header row is missing (${HEADER.source}, ${HEADER.target}, …)`);
  const header = sheet.getRow(1);
  if (header.actualCellCount === 0) throw sheetError(at(1), `the header row is missing (${HEADER.source}, ${HEADER.target}, …)`);
  if (sheet.actualRowCount - 1 > MAX_PRICE_SETS)
    throw sheetError('the sheet', `a price list holds at most ${MAX_PRICE_SETS} language pairs`);
  const columns = headerColumns(header, steps);
  const columnOf = (kind: Column['kind']) => [...columns].find(([, c]) => c.kind === kind)?.[0];
  const sourceColumn = columnOf('source')!;
  const targetColumn = columnOf('target')!;

  const pairs: SheetPair[] = [];
  const firstRowOf = new Map<string, number>();
  let failure: Error | null = null;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (failure || rowNumber === 1) return;
    try {
      const cells = new Map<number, Cell>();
      row.eachCell({ includeEmpty: false }, (excelCell, column) => {
        const cell = cellOf(excelCell.value);
        if (cell.kind === 'empty') return;
        if (!columns.has(column)) throw sheetError(at(rowNumber, column), `${shown(cell)} stands in a column without a header`);
        cells.set(column, cell);
      });
      if (cells.size === 0) return;
      const cell = (column: number): Cell => cells.get(column) ?? { kind: 'empty' };
      const sourceLang = languageOf(cell(sourceColumn), rowNumber, sourceColumn, 'source language');
      const targetLang = languageOf(cell(targetColumn), rowNumber, targetColumn, 'target language');
      if (sourceLang === targetLang)
        throw sheetError(at(rowNumber, targetColumn), `the target language is the source language (${sourceLang})`);
      const key = `${sourceLang}\u0000${targetLang}`;
      const first = firstRowOf.get(key);
      if (first !== undefined)
        throw sheetError(at(rowNumber, targetColumn), `the pair ${sourceLang} → ${targetLang} is already listed in row ${first}`);
      firstRowOf.set(key, rowNumber);
      const pair: SheetPair = { rowNumber, sourceLang, targetLang, minimumPrice: null, prices: new Map() };
      for (const [column, kind] of columns) {
        if (kind.kind === 'minimum') pair.minimumPrice = amountOf(cell(column), rowNumber, column, 'the minimum price');
        if (kind.kind === 'step') {
          const price = amountOf(cell(column), rowNumber, column, `the price for ${kind.step.name}`);
          if (price !== null) pair.prices.set(kind.step.id, price);
        }
      }
      pairs.push(pair);
    } catch (error) {
      failure = error as Error;
    }
  });
  if (failure) throw failure;
  return pairs;
}

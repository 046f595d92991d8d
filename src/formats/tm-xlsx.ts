import type { Readable, Writable } from 'node:stream';
import { canonicalLanguage } from './tmx.js';
import type { TmxUnit, TmxWarning } from './tmx.js';
import type { TmUnit, TmVariant } from './tm-formats.js';
import { tagsOfDisplayTokens } from './tm-xliff.js';
import { FormatError } from './types.js';
import { readFirstWorksheet, writeWorksheet, XLSX_MAX_CELL_CHARS } from './xlsx-sheet.js';

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
 * The workbook is streamed both ways by xlsx-sheet.ts (ExcelJS for the zip, saxes for the
 * worksheet's XML): memory is bounded by the shared strings plus one batch when reading, and stays
 * flat however many rows are written (inline strings, no shared-string table).
 */

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
  const rows = new RowReader(options);
  for await (const _ of readFirstWorksheet(input, { row: (cells, rowNumber) => rows.row(cells, rowNumber) })) {
    while (rows.units.length >= batchSize) yield rows.units.splice(0, batchSize);
    if (rows.units.length > 0) yield rows.units.splice(0);
  }
  rows.finish();
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
  const header: string[] = [...languages];
  if (options.withContext) header.push('context_prev', 'context_next', 'key', 'note');
  await writeWorksheet(output, options.sheetName ?? 'TM', header, async (sheet) => {
    let index = 0;
    for await (const item of units) {
      const batch = Array.isArray(item) ? item : [item];
      for (const unit of batch) {
        index += 1;
        const cells = rowOf(unit, languages, options, index);
        if (!cells) continue;
        // An empty cell is left out of the sheet, not written as an empty string.
        await sheet.addRows([cells.map((cell) => (cell === '' ? null : cell))]);
      }
      sheet.checkOutput();
    }
  });

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

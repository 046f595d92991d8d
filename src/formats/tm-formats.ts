import type { Readable } from 'node:stream';
import { readTmx } from './tmx.js';
import type { TmxUnit, TmxVariant, TmxWarning } from './tmx.js';
import { readXliffTm } from './tm-xliff.js';
import type { XliffTmStats } from './tm-xliff.js';
import { readXlsxTm } from './tm-xlsx.js';

/**
 * The translation-memory file formats the TM import reads, and the one unit shape they all give:
 * TMX's (`TmxUnit`), with the few things other formats know on top (a key, a target's state).
 * Every reader streams and yields batches, so the import treats all formats alike.
 */

export type TmImportFormat = 'tmx' | 'xliff' | 'xlsx';

/** A variant as a TM reader gives it: TMX's, plus what XLIFF says of a translation. */
export interface TmVariant extends TmxVariant {
  /** XLIFF: the `<target>`'s `state` as written (`translated`, `needs-review-translation`, `final`…). */
  state?: string;
  /**
   * XLIFF: whether the translation counts as confirmed: `approved="yes"`, Memsource's
   * `m:confirmed="1"`, or a state of `translated`, `signed-off` or `final`.
   */
  confirmed?: boolean;
}

/** A unit as a TM reader gives it: a `TmxUnit` (assignable to one), plus the file's own key for it. */
export interface TmUnit extends TmxUnit {
  variants: TmVariant[];
  /** The key the file gives the text: an XLIFF `resname`, an XLSX `key` column. */
  contextKey?: string;
}

export type TmWarning = TmxWarning;

export interface TmReadOptions {
  /** XLSX: the source language, naming the column that holds the source (required for XLSX). */
  sourceLang?: string;
  /** Warnings are pushed here (unknown languages, ignored columns…). */
  warnings?: TmWarning[];
  /** At most this many warnings are kept (default 1,000); the rest are counted in one last warning. */
  maxWarnings?: number;
  /** Largest batch yielded (default 5,000 units). */
  batchSize?: number;
  /** XML formats: elements nested deeper than this are a FormatError (default 512). */
  maxDepth?: number;
  /** XLIFF: keep only confirmed translations (see TmVariant.confirmed); default false. */
  confirmedOnly?: boolean;
  /** XLIFF: counts of what was read and skipped, filled in as the file is read. */
  stats?: XliffTmStats;
}

const EXTENSIONS: Record<string, TmImportFormat> = {
  tmx: 'tmx',
  xlf: 'xliff',
  xliff: 'xliff',
  mxliff: 'xliff',
  mxlf: 'xliff',
  xlsx: 'xlsx',
};

/**
 * The TM format of a file by its name's extension (case-insensitive), or null when it is none the
 * import reads (old binary `.xls` included: it is not an XLSX workbook).
 */
export function tmImportFormat(fileName: string): TmImportFormat | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  return EXTENSIONS[fileName.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * Reads a TM file of the given format as batches of units. XLSX needs `options.sourceLang`
 * (FormatError without it); a malformed file rejects with FormatError.
 */
export function readTmUnits(format: TmImportFormat, input: Readable, options: TmReadOptions = {}): AsyncGenerator<TmUnit[]> {
  const { sourceLang, confirmedOnly, stats, ...common } = options;
  switch (format) {
    case 'tmx':
      return readTmx(input, common);
    case 'xliff':
      return readXliffTm(input, { ...common, confirmedOnly, stats });
    case 'xlsx':
      return readXlsxTm(input, { ...common, sourceLang: sourceLang ?? '' });
  }
}

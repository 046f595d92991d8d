import type { Readable, Writable } from 'node:stream';
import type { ZipLimits } from './zip-package.js';

/**
 * The common model of the file filters (docs/file-formats.md). A filter turns a file into
 * translatable units whose text carries inline tags as Phrase-style display tokens, and writes
 * translations back into the original structure.
 */

export type InlineTagKind = 'open' | 'close' | 'standalone';

/**
 * One inline tag occurrence. A paired tag is two occurrences (an `open` and a `close`) sharing one
 * `id`. Display forms follow the Phrase TMS editor notation: `{1>` opens, `<1}` closes, `{1}`
 * stands alone.
 */
export interface InlineTag {
  id: number;
  kind: InlineTagKind;
  /** The exact original markup (raw file text), put back on write. */
  original: string;
  /** The display token, e.g. `{1>`. */
  display: string;
}

export interface TextUnit {
  /** 0-based order of the unit in the file. */
  index: number;
  /** The file's own name for the text (XLIFF resname or id, JSON dotted key); null for plain text. */
  key: string | null;
  /** Where the unit came from, unique within the file; translations are addressed by it on write. */
  locator: string;
  /** Source text, inline tags as display tokens. */
  source: string;
  /** Every tag occurring in `source` or `target` (target-only tags numbered after the source's). */
  tags: InlineTag[];
  /** Translation already in the file (e.g. an XLIFF `<target>`), tags as display tokens. */
  target: string | null;
  translatable: boolean;
  note: string | null;
  /**
   * Optional facts a format may carry about the unit (bilingual and resource formats); absent means
   * the file says nothing. `targetConfirmed`: the file marks its target as final (XLIFF 2
   * `state="final"`, an MXLIFF `m:confirmed` level, a PO entry with a translation and no `fuzzy`
   * flag). `locked`: the file forbids editing the target (MXLIFF `m:locked`, an XML rule's
   * `lockXPath`). `maxLength`: the most characters the
   * file allows the target (XLIFF `maxwidth` in characters, an XML rule's `maxLenXPath`, a CSV
   * `maxLenColumn`). `context`: a further key that tells identical sources apart (PO `msgctxt`,
   * Qt TS `<context><name>`), shown with the key. `matchScore` and `origin`: what a bilingual file
   * records about where its target came from (MXLIFF `m:score` 0–1.01, `m:trans-origin`).
   */
  targetConfirmed?: boolean;
  locked?: boolean;
  maxLength?: number;
  context?: string;
  matchScore?: number;
  origin?: string;
}

export interface UnitTranslation {
  /** The translated text with display tokens for tags (`{1>`, `<1}`, `{1}`). */
  text: string;
  /**
   * Bilingual formats: whether the translation is confirmed, so that the writer marks it as final
   * (XLIFF 2 `state="final"` rather than `translated`, PO without the `fuzzy` flag, MXLIFF
   * `m:confirmed`). Absent: the writer's default for a written translation.
   */
  confirmed?: boolean;
}

export interface FilterOptions {
  /**
   * Phrase's `tagRegexp` import setting (TxtSettingsDto, JsonSettingsDto): text matching this
   * regular expression becomes standalone tags, e.g. `\{[a-z]+\}` for `{name}` placeholders.
   * Plain text and JSON only.
   */
  tagRegexp?: string;
  /** Plain text: what one unit is (default `line`, as Phrase imports TXT line by line). */
  plainTextUnit?: 'line' | 'paragraph';
  /** XLIFF: read `<note>` elements into `note` (XlfSettingsDto.importNotes, default true). */
  importNotes?: boolean;
  /** JSON: the largest file accepted, in bytes (default 50 MiB). */
  maxJsonBytes?: number;
  /**
   * XLIFF and JSON: elements (objects, arrays) nested deeper than this are a FormatError
   * (default 512; the import passes OPENTMS_IMPORT_MAX_DEPTH).
   */
  maxDepth?: number;
  /**
   * XLIFF import: the import's tags-per-segment limit (OPENTMS_IMPORT_MAX_TAGS_PER_SEGMENT). A
   * translatable unit whose source holds more than twice as many tags in a row (nothing between
   * them) is a FormatError as soon as the run is read: segmentation cuts a run of tags at most once,
   * so one of its segments would be over the limit. Unset: no such check (write-back).
   */
  maxTagsPerSegment?: number;
  /** Write: the target language code, written as `xml:lang` on inserted XLIFF targets. */
  targetLanguage?: string;
  /** The source language code of the job (for formats with one column or element per language). */
  sourceLanguage?: string;
  /**
   * The format's own section of Phrase's `FileImportSettings` (`po`, `doc`, `xls`, `ppt`, `html`,
   * `md`, `yaml`, `android`, `mac`, `resx`, `csv`, `multilingualCsv`, `xml`, `xlf2`, …), as the
   * API stored it: each filter reads the fields of its DTO it implements (docs/file-formats.md,
   * "Settings") and ignores the rest. Unknown or mistyped values fall back to the defaults.
   */
  formatSettings?: Readonly<Record<string, unknown>>;
  /** ZIP-based formats (office documents): the container's limits (zip-package.ts; its defaults when absent). */
  zipLimits?: ZipLimits;
}

export interface FormatFilter {
  /** Stable name, e.g. `xliff12`. */
  readonly name: string;
  /** Lower-case file name extensions without the dot. */
  readonly extensions: readonly string[];
  /** Recognizes the format from the file's first bytes (at most FORMAT_SNIFF_BYTES). */
  detect?(firstBytes: Buffer): boolean;
  /** Streams the units of `input`; throws FormatError on a malformed file. */
  parse(input: Readable, options?: FilterOptions): AsyncIterable<TextUnit>;
  /**
   * The units of `parse`, in batches (one per chunk of the file or so): for callers that take
   * millions of tiny units, where one await per unit would cost more than the unit's own work.
   */
  parseBatches(input: Readable, options?: FilterOptions): AsyncIterable<TextUnit[]>;
  /**
   * Streams `original` to `output` with the translations (keyed by locator) written in; untouched
   * parts stay byte-for-byte as they were. Ends `output`. Rejects with FormatError when the
   * original is malformed or a translation cannot be written (misnested tags, characters the
   * file's encoding cannot hold).
   */
  write(original: Readable, translations: ReadonlyMap<string, UnitTranslation>, output: Writable, options?: FilterOptions): Promise<void>;
}

/** How many leading bytes `filterFor` needs to recognize a file by content. */
export const FORMAT_SNIFF_BYTES = 1024;

/** A malformed or unsupported file. The import records `message` as the job's import error. */
export class FormatError extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, position: { line?: number; column?: number } = {}) {
    super(
      position.line === undefined
        ? message
        : `${message} (line ${position.line}${position.column === undefined ? '' : `, column ${position.column}`})`,
    );
    this.name = 'FormatError';
    this.line = position.line;
    this.column = position.column;
  }
}

/** `parse` made from `parseBatches`: the units one by one. */
export async function* unitsOfBatches(batches: AsyncIterable<TextUnit[]>): AsyncGenerator<TextUnit> {
  for await (const batch of batches) yield* batch;
}

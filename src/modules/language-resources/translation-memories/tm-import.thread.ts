import { fileFromPort } from '../../../queue/file-port.js';
import type { FilePull } from '../../../queue/file-port.js';
import type { MessagePort } from 'node:worker_threads';
import { languageMapper } from '../../../domain/languages/language-mapping.js';
import { readTmUnits } from '../../../formats/tm-formats.js';
import type { TmImportFormat, TmUnit, TmVariant, TmWarning } from '../../../formats/tm-formats.js';
import type { InlineTag } from '../../../formats/types.js';
import { FormatError } from '../../../formats/types.js';
import { openDatabase } from '../../../db/database.js';
import type { Id } from '../../../db/schema.js';
import { writeUnits } from './tm-units.repository.js';
import { addTransferUnits } from './tm-transfers.repository.js';

/**
 * The CPU-heavy half of a TM import, run in a worker thread (src/queue/thread-pool.ts), as the
 * job import does it (jobs/job-import.thread.ts): the file's bytes come in through the port, go
 * through the format's streaming reader (src/formats/tm-formats.ts), each unit's variants are
 * mapped to the TM's languages, and the units go back to the main thread in batches, which
 * writes each batch in a transaction of its own (tm-import.task.ts). On SQLite with a database
 * file the thread writes the batches itself (`threadWriter`). Nothing here holds the whole file.
 *
 * The protocol on the port:
 * - thread -> main: `pull` (send the next chunk), `batch` (units to write), `done` (the last message);
 * - main -> thread: `chunk`, `end`, `error` (the file could not be read), `ack` (a batch was written).
 * At most BATCHES_IN_FLIGHT batches are unacknowledged, so memory stays flat when the database is
 * slower than the parser.
 */

export interface ParseTmFileInput {
  readonly format: TmImportFormat;
  /** The TM's languages (codes of the supported list: `en`, `de_de`). */
  readonly sourceLang: string;
  readonly targetLangs: readonly string[];
  /** `en_us` in the file goes only to a TM language `en_us` (not to `en`, and `en` not to `en_us`). */
  readonly strictLangMatching: boolean;
  /** Tags keep their TMX element but not the native code inside it. */
  readonly stripNativeCodes: boolean;
  readonly batchUnits: number;
  /**
   * On SQLite with a database file: the thread writes the batches itself, over a connection of its
   * own, instead of sending them to the main thread (see `threadWriter`).
   */
  readonly writer?: ThreadWriterInput;
}

export interface ThreadWriterInput {
  readonly sqliteFile: string;
  readonly tmId: Id;
  readonly asyncRequestId: string;
  /** The stamp of units without dates in the file (the task's clock, read when it started). */
  readonly now: string;
}

/** A unit ready for `writeUnits` (NewTmUnit's fields an import knows). */
export interface ImportedUnit {
  targetLang: string;
  source: string;
  target: string;
  sourceTags: string | null;
  targetTags: string | null;
  previousSource: string | null;
  nextSource: string | null;
  contextKey: string | null;
  targetNote: string | null;
  createdAt: string | null;
  modifiedAt: string | null;
}

export interface ImportWarning {
  code: string;
  message: string;
  args?: Record<string, unknown>;
}

export type ParseTmFileResult =
  { readonly units: number; readonly warnings: ImportWarning[] } | { readonly formatError: string; readonly warnings: ImportWarning[] };

/** A batch of units, thread → main. */
export type UnitBatch = { readonly type: 'batch'; readonly units: ImportedUnit[] };

export type ToMain = FilePull | UnitBatch | { readonly type: 'done'; readonly result: ParseTmFileResult };

export type { FileToThread as ToThread } from '../../../queue/file-port.js';

export const BATCHES_IN_FLIGHT = 2;
/** Warnings of the reader passed on to the async request, at most. */
const MAX_READER_WARNINGS = 100;
/** XLIFF target states that say the target is no translation yet: such targets are not imported. */
const UNTRANSLATED_STATES = new Set(['new', 'needs-translation']);

/** A TMX date (`YYYYMMDDThhmmssZ`) or any date Date reads, as ISO 8601; null when it is none. */
export function isoDate(value: string | undefined): string | null {
  if (!value) return null;
  const tmx = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  const date = tmx ? new Date(`${tmx[1]}-${tmx[2]}-${tmx[3]}T${tmx[4]}:${tmx[5]}:${tmx[6]}Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const CODE_WITH_CONTENT = /^<(bpt|ept|ph|it)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*>[\s\S]*<\/\1>$/;

function tagsJson(tags: readonly InlineTag[], strip: boolean): string | null {
  if (tags.length === 0) return null;
  if (!strip) return JSON.stringify(tags);
  return JSON.stringify(tags.map((tag) => ({ ...tag, original: tag.original.replace(CODE_WITH_CONTENT, '<$1$2/>') })));
}

/** Turns the reader's units into rows of the TM, counting what was left out. */
class UnitMapper {
  private readonly sourceOf: (lang: string) => string | null;
  private readonly targetOf: (lang: string) => string | null;
  readonly skippedLangs = new Map<string, number>();
  withoutSource = 0;
  untranslated = 0;
  empty = 0;

  constructor(private readonly input: ParseTmFileInput) {
    this.sourceOf = languageMapper([input.sourceLang], input.strictLangMatching);
    this.targetOf = languageMapper(input.targetLangs, input.strictLangMatching);
  }

  map(unit: TmUnit, out: ImportedUnit[]): void {
    const { sourceLang } = this.input;
    // The unit's own source language first; a file whose source is another language is not the TM's.
    const sourceVariant =
      unit.variants.find((v) => v.lang === unit.sourceLang && this.sourceOf(v.lang) === sourceLang) ??
      unit.variants.find((v) => this.sourceOf(v.lang) === sourceLang);
    if (!sourceVariant) {
      this.withoutSource++;
      return;
    }
    if (sourceVariant.text.trim() === '') {
      this.empty++;
      return;
    }
    const sourceTags = tagsJson(sourceVariant.tags, this.input.stripNativeCodes);
    const props = unit.props ?? [];
    const contextKey = unit.contextKey ?? props.find((p) => p.type === 'x-context-key')?.value ?? null;
    for (const variant of unit.variants as TmVariant[]) {
      if (variant === sourceVariant) continue;
      const targetLang = this.targetOf(variant.lang);
      if (targetLang === null) {
        if (this.sourceOf(variant.lang) !== sourceLang) this.skippedLangs.set(variant.lang, (this.skippedLangs.get(variant.lang) ?? 0) + 1);
        continue;
      }
      if (variant.state !== undefined && UNTRANSLATED_STATES.has(variant.state)) {
        this.untranslated++;
        continue;
      }
      if (variant.text.trim() === '') {
        this.empty++;
        continue;
      }
      const created = isoDate(variant.creationDate ?? unit.creationDate);
      const changed = isoDate(variant.changeDate ?? unit.changeDate);
      out.push({
        targetLang,
        source: sourceVariant.text,
        target: variant.text,
        sourceTags,
        targetTags: tagsJson(variant.tags, this.input.stripNativeCodes),
        previousSource: unit.contextPrev ?? null,
        nextSource: unit.contextNext ?? null,
        contextKey,
        targetNote: variant.notes?.length ? variant.notes.join('\n') : null,
        createdAt: created ?? changed,
        modifiedAt: changed ?? created,
      });
    }
  }

  warnings(readerWarnings: readonly TmWarning[]): ImportWarning[] {
    const warnings: ImportWarning[] = [];
    for (const [lang, count] of this.skippedLangs) {
      warnings.push({
        code: 'LanguageSkipped',
        message: `${count} translation(s) in ${lang}: not a language of the translation memory (${[this.input.sourceLang, ...this.input.targetLangs].join(', ')}); skipped.`,
        args: { lang, count },
      });
    }
    if (this.withoutSource) {
      warnings.push({
        code: 'SourceMissing',
        message: `${this.withoutSource} unit(s) have no text in the source language of the translation memory (${this.input.sourceLang}); skipped.`,
        args: { count: this.withoutSource },
      });
    }
    if (this.untranslated) {
      warnings.push({
        code: 'NotTranslated',
        message: `${this.untranslated} target(s) in state new or needs-translation; skipped.`,
        args: { count: this.untranslated },
      });
    }
    if (this.empty) {
      warnings.push({ code: 'EmptyText', message: `${this.empty} empty source(s) or target(s); skipped.`, args: { count: this.empty } });
    }
    for (const warning of readerWarnings.slice(0, MAX_READER_WARNINGS)) {
      warnings.push({
        code: 'FileWarning',
        message: warning.line === undefined ? warning.message : `line ${warning.line}: ${warning.message}`,
      });
    }
    if (readerWarnings.length > MAX_READER_WARNINGS) {
      warnings.push({
        code: 'FileWarning',
        message: `${readerWarnings.length - MAX_READER_WARNINGS} more warnings of the file not listed.`,
      });
    }
    return warnings;
  }
}

/**
 * The batches written in the thread, each in a transaction of its own (with the transfer's
 * progress), over the thread's own connection to the SQLite file. better-sqlite3 runs a statement
 * synchronously on the calling thread, and SQLite has one connection per process in the service:
 * written on the main thread, a batch would hold the API's event loop and every other query for
 * the whole transaction (about 50 ms for 2,000 units). Here the API's reads go on beside it (WAL);
 * its writes wait for the batch's commit (busy_timeout). A thread terminated mid-batch closes its
 * connection, which rolls the open transaction back.
 */
function threadWriter(input: ThreadWriterInput): { write(units: ImportedUnit[]): Promise<void>; close(): Promise<void> } {
  const database = openDatabase({ kind: 'sqlite', path: input.sqliteFile });
  return {
    async write(units) {
      await database.db.transaction().execute(async (trx) => {
        await writeUnits(trx, input.tmId, units, input.now);
        await addTransferUnits(trx, input.asyncRequestId, units.length);
      });
    },
    close: () => database.close(),
  };
}

/** Runs in the thread; the name is what tm-import.task.ts asks the pool for. */
export async function parseTmFile(input: ParseTmFileInput, port: MessagePort): Promise<ParseTmFileResult> {
  const { source, send: sendBatch } = fileFromPort<{ units: ImportedUnit[] }>(port, BATCHES_IN_FLIGHT);
  const writer = input.writer ? threadWriter(input.writer) : null;
  const send = (units: ImportedUnit[]) => (writer ? writer.write(units) : sendBatch({ units }));

  const readerWarnings: TmWarning[] = [];
  const mapper = new UnitMapper(input);
  let count = 0;
  let result: ParseTmFileResult;
  try {
    let rows: ImportedUnit[] = [];
    for await (const units of readTmUnits(input.format, source, {
      sourceLang: input.sourceLang,
      warnings: readerWarnings,
      maxWarnings: MAX_READER_WARNINGS,
      batchSize: input.batchUnits,
    })) {
      for (const unit of units) {
        mapper.map(unit, rows);
        if (rows.length >= input.batchUnits) {
          count += rows.length;
          await send(rows);
          rows = [];
        }
      }
    }
    if (rows.length > 0) {
      count += rows.length;
      await send(rows);
    }
    result = { units: count, warnings: mapper.warnings(readerWarnings) };
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    result = { formatError: error.message, warnings: mapper.warnings(readerWarnings) };
  } finally {
    source.destroy();
    await writer?.close();
  }
  port.postMessage({ type: 'done', result } satisfies ToMain);
  return result;
}

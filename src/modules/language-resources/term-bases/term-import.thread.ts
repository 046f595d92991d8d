import type { Readable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import { languageMapper } from '../../../domain/languages/language-mapping.js';
import { readTbx } from '../../../formats/tbx.js';
import type { TermEntry, TermFileWarning } from '../../../formats/term-entries.js';
import { readCsvTerms, readXlsxTerms } from '../../../formats/term-sheets.js';
import { FormatError } from '../../../formats/types.js';
import { fileFromPort } from '../../../queue/file-port.js';
import type { FilePull } from '../../../queue/file-port.js';

/**
 * The CPU-heavy half of a term base import, run in a worker thread (src/queue/thread-pool.ts), as
 * the TM import does it: the file's bytes come in through the port, go through the format's
 * streaming reader (TBX, XLSX, CSV), each term's language is mapped to the term base's, and the
 * entries go back to the main thread in batches, which writes each batch in a transaction of its
 * own (term-import.task.ts). At most BATCHES_IN_FLIGHT batches are unacknowledged, so memory stays
 * flat when the database is slower than the parser. Nothing here holds the whole file.
 */

export type TermFileFormat = 'tbx' | 'xlsx' | 'csv';

export interface ParseTermFileInput {
  readonly format: TermFileFormat;
  /** The term base's languages. */
  readonly langs: readonly string[];
  readonly strictLangMatching: boolean;
  readonly batchEntries: number;
}

export interface ImportWarning {
  code: string;
  message: string;
  args?: Record<string, unknown>;
}

export type ParseTermFileResult =
  | { readonly entries: number; readonly warnings: ImportWarning[] }
  | { readonly formatError: string; readonly entries: number; readonly warnings: ImportWarning[] };

/** A batch of entries, thread → main. */
export type TermBatch = { readonly type: 'batch'; readonly entries: TermEntry[] };

export type ToMain = FilePull | TermBatch | { readonly type: 'done'; readonly result: ParseTermFileResult };

export const BATCHES_IN_FLIGHT = 2;
/** Warnings of the reader passed on to the async request, at most. */
const MAX_READER_WARNINGS = 100;

function readerOf(format: TermFileFormat) {
  return format === 'tbx' ? readTbx : format === 'xlsx' ? readXlsxTerms : readCsvTerms;
}

/**
 * Reads a term file and maps its languages: a term in a language that is not the term base's is
 * left out (counted per language in one warning each); an entry left without terms is left out.
 */
export async function* mappedEntries(
  source: Readable,
  input: Omit<ParseTermFileInput, 'batchEntries'> & { batchEntries?: number },
  warnings: ImportWarning[],
): AsyncGenerator<TermEntry[]> {
  const readerWarnings: TermFileWarning[] = [];
  const mapLang = languageMapper(input.langs, input.strictLangMatching);
  const skippedLangs = new Map<string, number>();
  let reported = 0;
  const flushReaderWarnings = () => {
    for (const warning of readerWarnings.splice(0)) {
      if (reported >= MAX_READER_WARNINGS) continue;
      reported++;
      warnings.push({
        code: 'ENTRY_SKIPPED',
        message: warning.line !== undefined ? `line or row ${warning.line}: ${warning.message}` : warning.message,
        ...(warning.line !== undefined ? { args: { line: warning.line } } : {}),
      });
    }
  };
  try {
    for await (const batch of readerOf(input.format)(source, {
      warnings: readerWarnings,
      maxWarnings: MAX_READER_WARNINGS,
      batchSize: input.batchEntries ?? 1000,
    })) {
      flushReaderWarnings();
      const out: TermEntry[] = [];
      for (const entry of batch) {
        const terms = [];
        for (const term of entry.terms) {
          const lang = mapLang(term.lang);
          if (lang === null) skippedLangs.set(term.lang, (skippedLangs.get(term.lang) ?? 0) + 1);
          else terms.push(lang === term.lang ? term : { ...term, lang });
        }
        if (terms.length) out.push({ ...entry, terms });
      }
      yield out;
    }
  } finally {
    flushReaderWarnings();
    for (const [lang, count] of skippedLangs) {
      warnings.push({
        code: 'LANGUAGE_SKIPPED',
        message: `${count} term${count === 1 ? '' : 's'} in ${lang}: not a language of the term base${input.strictLangMatching ? ' (strict language matching)' : ''}`,
        args: { lang, terms: count },
      });
    }
  }
}

/** The thread's entry point (thread-pool.ts `run(module, 'parseTermFile', input, { port })`). */
export async function parseTermFile(input: ParseTermFileInput, port: MessagePort): Promise<ParseTermFileResult> {
  const { source, send } = fileFromPort<{ entries: TermEntry[] }>(port, BATCHES_IN_FLIGHT);
  const warnings: ImportWarning[] = [];
  let entries = 0;
  let result: ParseTermFileResult;
  try {
    for await (const batch of mappedEntries(source, input, warnings)) {
      if (batch.length === 0) continue;
      entries += batch.length;
      await send({ entries: batch });
    }
    result = { entries, warnings };
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    result = { formatError: error.message, entries, warnings };
  } finally {
    source.destroy();
  }
  port.postMessage({ type: 'done', result } satisfies ToMain);
  return result;
}

import { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { languageMapper } from '../../../domain/languages/language-mapping.js';
import { errors } from '../../../errors/index.js';
import { readTbx, writeTbx } from '../../../formats/tbx.js';
import type { TermEntry, TermEntryTerm, TermFileWarning } from '../../../formats/term-entries.js';
import { readCsvTerms, readXlsxTerms, writeCsvTerms, writeXlsxTerms } from '../../../formats/term-sheets.js';
import { FormatError } from '../../../formats/types.js';
import { entriesPage, langsOf } from './glossaries.repository.js';
import type { GlossaryEntryRow, GlossaryRow } from './glossaries.repository.js';

/**
 * Glossaries as TBX, XLSX and CSV files (uploadGlossary, exportGlossary; docs/terminology.md,
 * "Glossaries (built)"), through the terminology readers and writers of src/formats.
 *
 * Mapping: a file's concept (a TBX termEntry, a sheet's row or rows of one Entry_ID) gives one
 * entry per source-language term and target language: each term of the concept in the glossary's
 * source language (its first) is paired with the concept's first term in each target language.
 * Further terms of a target language in the same concept are ignored (an entry has one target
 * term); a concept without a source-language term or without any target term gives nothing. Term
 * attributes (status, usage, notes…) and concept fields are not kept. Texts are trimmed.
 *
 * The export writes one concept per source term, holding the source term and its target term in
 * every target language that has one, in the order of the source texts: uploading the file gives
 * the same entries back.
 */

export type GlossaryFileFormat = 'tbx' | 'xlsx' | 'csv';
export type GlossaryExportFormat = 'Xlsx' | 'Tbx' | 'Csv';

/** The largest file uploadGlossary reads (glossaries are small; a larger file is 413). */
export const GLOSSARY_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** The most entries one upload may hold (distinct source term and target language), else 400. */
export const GLOSSARY_UPLOAD_MAX_ENTRIES = 200_000;
/** Warnings answered, at most. */
const MAX_WARNINGS = 100;
/** Entries read (and concepts exported) per batch: the event loop serves other requests between batches. */
const BATCH = 1000;

export const EXPORT_FILE = {
  Tbx: { extension: 'tbx', contentType: 'application/x-tbx+xml' },
  Xlsx: { extension: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  Csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
} as const;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The format of a glossary file by its name: TBX (.tbx, .xml), Excel (.xlsx) or CSV (.csv, .tsv, .txt). */
export function glossaryFileFormat(filename: string): GlossaryFileFormat | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'tbx' || extension === 'xml') return 'tbx';
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'csv' || extension === 'tsv' || extension === 'txt') return 'csv';
  return null;
}

/** The body of an upload, read whole: at most GLOSSARY_UPLOAD_MAX_BYTES (413 beyond, the rest of the body left unread). */
export async function receiveGlossaryFile(body: Readable, maxBytes = GLOSSARY_UPLOAD_MAX_BYTES): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw errors.FileTooLarge({ limitBytes: maxBytes });
    }
    chunks.push(chunk);
  }
  if (size === 0) {
    throw errors.InvalidArguments({ reason: 'The file is empty.', details: [{ field: 'file', message: 'is empty' }] });
  }
  return chunks;
}

/** What an upload read: target language → source text → target text, and what was skipped. */
export interface GlossaryFileContent {
  pairs: Map<string, Map<string, string>>;
  warnings: string[];
}

function readerOf(format: GlossaryFileFormat) {
  return format === 'tbx' ? readTbx : format === 'xlsx' ? readXlsxTerms : readCsvTerms;
}

/**
 * Reads a glossary file into its entries (module comment), batch by batch, yielding to the event
 * loop between batches. A file that is not of its format at all is 400 (InvalidArguments naming
 * the line where known); entries and rows that cannot be read are skipped with a warning.
 */
export async function readGlossaryFile(
  chunks: readonly Buffer[],
  format: GlossaryFileFormat,
  filename: string,
  langs: readonly string[],
  strictLangMatching: boolean,
): Promise<GlossaryFileContent> {
  const [sourceLang, ...targetLangs] = langs;
  const pairs = new Map<string, Map<string, string>>(targetLangs.map((lang) => [lang, new Map()]));
  const warnings: string[] = [];
  const readerWarnings: TermFileWarning[] = [];
  const mapLang = languageMapper(langs, strictLangMatching);
  const otherLangs = new Map<string, number>();
  let withoutSource = 0;
  let withoutTarget = 0;
  let entries = 0;
  const flush = () => {
    for (const warning of readerWarnings.splice(0)) {
      if (warnings.length < MAX_WARNINGS)
        warnings.push(warning.line !== undefined ? `line or row ${warning.line}: ${warning.message}` : warning.message);
    }
  };
  const input = Readable.from(chunks, { objectMode: false });
  try {
    for await (const batch of readerOf(format)(input, { warnings: readerWarnings, maxWarnings: MAX_WARNINGS, batchSize: BATCH })) {
      flush();
      for (const concept of batch) {
        const sources: string[] = [];
        const targets = new Map<string, string>();
        for (const term of concept.terms) {
          const lang = mapLang(term.lang);
          const text = term.text.trim();
          if (lang === null) otherLangs.set(term.lang, (otherLangs.get(term.lang) ?? 0) + 1);
          else if (text === '') continue;
          else if (lang === sourceLang) sources.push(text);
          else if (!targets.has(lang)) targets.set(lang, text);
        }
        if (sources.length === 0) withoutSource += 1;
        else if (targets.size === 0) withoutTarget += 1;
        else {
          for (const [lang, target] of targets) {
            const byText = pairs.get(lang)!;
            for (const source of sources) {
              if (!byText.has(source)) entries += 1;
              byText.set(source, target);
            }
          }
          if (entries > GLOSSARY_UPLOAD_MAX_ENTRIES) {
            throw errors.InvalidArguments({
              reason: `The file holds more than ${GLOSSARY_UPLOAD_MAX_ENTRIES} glossary entries, more than one upload takes; split it.`,
              details: [{ field: 'file', message: `more than ${GLOSSARY_UPLOAD_MAX_ENTRIES} entries` }],
            });
          }
        }
      }
      await yieldToEventLoop();
    }
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    throw errors.InvalidArguments({
      reason: `${filename} cannot be read as ${format.toUpperCase()}: ${error.message.replace(/\0/g, '\\u0000')}`,
      details: [{ field: 'file', message: error.message.slice(0, 500) }],
    });
  } finally {
    input.destroy();
  }
  flush();
  const note = (message: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
  };
  const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  for (const [lang, count] of otherLangs) {
    const strict = strictLangMatching ? ' (strict language matching)' : '';
    note(`${counted(count, 'term', 'terms')} in ${lang}: not a language of the glossary${strict}`);
  }
  if (withoutSource) note(`${counted(withoutSource, 'entry', 'entries')} without a term in the source language ${sourceLang}: skipped`);
  if (withoutTarget) note(`${counted(withoutTarget, 'entry', 'entries')} without a term in a target language: skipped`);
  return { pairs, warnings };
}

/**
 * A glossary's entries as concepts, a page at a time in the order of their source text: one
 * concept per source term with its target terms in the glossary's language order.
 */
export async function* glossaryConcepts(db: Kysely<DB>, glossary: GlossaryRow): AsyncGenerator<TermEntry[]> {
  const langs = langsOf(glossary);
  const sourceLang = langs[0];
  if (sourceLang === undefined) return;
  const rank = (lang: string) => (langs.includes(lang) ? langs.indexOf(lang) : langs.length);
  let after: { sourceText: string; id: GlossaryEntryRow['id'] } | null = null;
  let group: GlossaryEntryRow[] = [];
  const conceptOf = (rows: GlossaryEntryRow[]): TermEntry => {
    const targets: TermEntryTerm[] = rows
      .map((row) => ({ lang: row.targetLang, text: row.targetText }))
      .sort((a, b) => rank(a.lang) - rank(b.lang));
    return { id: String(rows[0]!.id), terms: [{ lang: sourceLang, text: rows[0]!.sourceText }, ...targets] };
  };
  for (;;) {
    const rows = await entriesPage(db, glossary.id, sourceLang, after, BATCH);
    if (rows.length === 0) break;
    const last = rows[rows.length - 1]!;
    after = { sourceText: last.sourceText, id: last.id };
    const concepts: TermEntry[] = [];
    for (const row of rows) {
      if (group.length && group[0]!.sourceText !== row.sourceText) {
        concepts.push(conceptOf(group));
        group = [];
      }
      group.push(row);
    }
    // The last group may go on in the next page: it is written with it.
    if (concepts.length) yield concepts;
  }
  if (group.length) yield [conceptOf(group)];
}

/** Writes a glossary's export to `output` (which the writer ends). */
export async function writeGlossaryExport(
  db: Kysely<DB>,
  glossary: GlossaryRow,
  format: GlossaryExportFormat,
  output: Writable,
): Promise<{ entries: number; terms: number }> {
  const concepts = glossaryConcepts(db, glossary);
  const langs = langsOf(glossary);
  if (format === 'Tbx') return writeTbx(concepts, output, { langs, title: glossary.name, sourceLang: langs[0] });
  if (format === 'Xlsx') return writeXlsxTerms(concepts, output, { langs });
  return writeCsvTerms(concepts, output, { langs });
}

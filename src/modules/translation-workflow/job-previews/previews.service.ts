import { createWriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { joinSegments } from '../../../domain/segmentation/segmenter.js';
import { errors } from '../../../errors/index.js';
import { extensionOf, FORMAT_SNIFF_BYTES, FormatError } from '../../../formats/index.js';
import { filterOptionsFromImportSettings } from '../../../formats/import-settings.js';
import { readMxliff } from '../../../formats/mxliff.js';
import type { ReadBilingualJob } from '../../../formats/mxliff.js';
import { sharedThreadPool } from '../../../queue/thread-pool.js';
import { candidateTranslations, filterOfSource, jobSourceFile, pickTranslations, writeTargetFile } from '../job-files/index.js';
import type { JobSourceFile, TargetFileWork } from '../job-files/index.js';
import { jobOfBilingualFile } from '../bilingual-files/index.js';
import type { JobAccess } from '../kernel/index.js';
import { OFFICE_EXTENSIONS, OfficeConversionError, OfficeConverter, OfficeMissingError } from './office-pdf.js';
import { listingPage, PREVIEW_CSP } from './preview-pages.js';
import type { ListedUnit } from './preview-pages.js';
import { targetCharset, targetFileWarnings } from './target-warnings.js';
import type { WarningTag, WarningUnit } from './target-warnings.js';

/**
 * Job previews (docs/previews.md): the job's translated document (its target file, built as the
 * target-file download builds it) shown as a page: HTML as itself without scripts, Markdown
 * rendered, Office documents as PDF by LibreOffice, every other format as a listing of its units.
 */

/** Largest translated HTML or Markdown document rendered in the process (parsing it is CPU work on the event loop). */
export const PREVIEW_RENDER_LIMIT_BYTES = 8 * 1024 * 1024;

/** The thread entry that renders HTML and Markdown previews (preview-pages.thread.ts). */
const THREAD_MODULE = new URL(import.meta.url.endsWith('.ts') ? './preview-pages.thread.ts' : './preview-pages.thread.js', import.meta.url);

/** Units per chunk of a listing page (the event loop gets a turn between chunks). */
const LISTING_BATCH = 500;

const HTML_FILTERS = new Set(['html']);
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml']);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown']);
const OFFICE_FILTERS = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'opendocument']);

export type PreviewKind = 'HTML' | 'MARKDOWN' | 'OFFICE' | 'LISTING';

/** How a job's file is previewed, from the filter that imported it (else its extension). */
export function previewKindOf(format: string | null, filename: string): PreviewKind {
  const extension = extensionOf(filename);
  if (format === 'markdown' || (format === null && MARKDOWN_EXTENSIONS.has(extension))) return 'MARKDOWN';
  if ((format !== null && HTML_FILTERS.has(format)) || (format === null && HTML_EXTENSIONS.has(extension))) return 'HTML';
  if ((format !== null && OFFICE_FILTERS.has(format)) || OFFICE_EXTENSIONS.has(extension)) return 'OFFICE';
  return 'LISTING';
}

/** A preview ready to send; `dispose` (when set) runs once the response is over. */
export interface Preview {
  filename: string;
  contentType: string;
  body: Readable | string;
  size?: number;
  /** The Content-Security-Policy header of an HTML preview. */
  csp?: string;
  dispose?: () => Promise<void>;
}

/** The LibreOffice converter of this process: one conversion at a time (office-pdf.ts). */
let sharedConverter: OfficeConverter | null = null;
export function officeConverter(): OfficeConverter {
  return (sharedConverter ??= new OfficeConverter());
}

function assertImported(source: JobSourceFile): void {
  if (source.importStatus === 'RUNNING') throw errors.JobImportNotFinished({ targetFile: true });
  if (source.importStatus === 'ERROR') throw errors.JobImportFailed({ targetFile: true });
}

function workOf(access: JobAccess, source: JobSourceFile): TargetFileWork {
  const { job } = access;
  return {
    sha256: null,
    job: { id: job.id, jobSourceId: job.jobSourceId, targetLang: job.targetLang, workflowLevel: Number(job.workflowLevel) },
    source,
  };
}

const stem = (filename: string) => (filename.includes('.') ? filename.slice(0, filename.lastIndexOf('.')) : filename);

/**
 * The preview of a job (filePreviewJob, filePreview, getPreviewFile): its target file rendered by
 * kind. `overlay` (segment index -> translation, from a bilingual file) replaces the job's
 * translations where it has one.
 */
export async function jobPreview(
  deps: AppDeps,
  access: JobAccess,
  overlay?: ReadonlyMap<number, string>,
  converter: OfficeConverter = officeConverter(),
): Promise<Preview> {
  const source = await jobSourceFile(deps.database.db, access.job.jobSourceId);
  assertImported(source);
  const work = workOf(access, source);
  const lang = access.job.targetLang;
  const name = `${stem(source.filename)}-${lang}-preview`;
  switch (previewKindOf(source.format, source.filename)) {
    case 'OFFICE':
      return officePreview(deps, work, overlay, converter, name);
    case 'HTML': {
      const bytes = await targetBytes(deps, work, overlay);
      const html = await sharedThreadPool().run<string>(THREAD_MODULE, 'renderHtmlPreview', { bytes });
      return { filename: `${name}.html`, contentType: 'text/html; charset=utf-8', body: html, csp: PREVIEW_CSP };
    }
    case 'MARKDOWN': {
      const bytes = await targetBytes(deps, work, overlay);
      const page = await sharedThreadPool().run<string>(THREAD_MODULE, 'renderMarkdownPreview', { bytes, title: source.filename, lang });
      return { filename: `${name}.html`, contentType: 'text/html; charset=utf-8', body: page, csp: PREVIEW_CSP };
    }
    default: {
      const units = await listedUnits(deps.database.db, work, overlay);
      const header = { filename: source.filename, sourceLang: access.project.project.sourceLang, targetLang: lang };
      return {
        filename: `${name}.html`,
        contentType: 'text/html; charset=utf-8',
        body: Readable.from(listingPage(header, inBatches(units))),
        csp: PREVIEW_CSP,
      };
    }
  }
}

/** The target file's bytes, at most PREVIEW_RENDER_LIMIT_BYTES (else 501). */
async function targetBytes(deps: AppDeps, work: TargetFileWork, overlay: ReadonlyMap<number, string> | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > PREVIEW_RENDER_LIMIT_BYTES) {
        tooLarge = true;
        done(new Error('too large'));
      } else {
        chunks.push(chunk);
        done();
      }
    },
  });
  try {
    await writeTargetFile(deps, work, sink, overlay);
  } catch (error) {
    if (tooLarge) throw errors.PreviewNotAvailable({ limitBytes: PREVIEW_RENDER_LIMIT_BYTES });
    throw targetError(error);
  }
  if (tooLarge) throw errors.PreviewNotAvailable({ limitBytes: PREVIEW_RENDER_LIMIT_BYTES });
  return Buffer.concat(chunks);
}

function targetError(error: unknown): unknown {
  return error instanceof FormatError ? errors.TargetFileFailed({ reason: error.message }) : error;
}

async function officePreview(
  deps: AppDeps,
  work: TargetFileWork,
  overlay: ReadonlyMap<number, string> | undefined,
  converter: OfficeConverter,
  name: string,
): Promise<Preview> {
  if (converter.knownMissing) throw errors.PreviewNotAvailable({ libreOfficeMissing: true });
  const extension = extensionOf(work.source.filename);
  const inputExtension = OFFICE_EXTENSIONS.has(extension) ? extension : (work.source.format ?? 'docx');
  try {
    const pdf = await converter.convert(inputExtension, async (path) => {
      const file = createWriteStream(path);
      const written = finished(file);
      try {
        await writeTargetFile(deps, work, file, overlay);
      } catch (error) {
        file.destroy();
        await written.catch(() => undefined);
        throw targetError(error);
      }
      await written;
    });
    return { filename: `${name}.pdf`, contentType: 'application/pdf', body: pdf.stream(), size: pdf.size, dispose: pdf.dispose };
  } catch (error) {
    if (error instanceof OfficeMissingError) throw errors.PreviewNotAvailable({ libreOfficeMissing: true });
    if (error instanceof OfficeConversionError) throw errors.PreviewFailed({ reason: error.message });
    throw error;
  }
}

// ---- the units of a job (listing pages and target-file warnings)

interface UnitSegment {
  idx: number;
  unitLocator: string;
  key: string | null;
  source: string;
  tags: string;
  gapBefore: string;
  gapAfter: string | null;
  importedTarget: string | null;
}

async function unitSegments(db: Kysely<DB>, jobSourceId: string): Promise<UnitSegment[]> {
  const rows = await db
    .selectFrom('sourceSegments')
    .select(['idx', 'unitLocator', 'key', 'source', 'tags', 'gapBefore', 'gapAfter', 'importedTarget'])
    .where('jobSourceId', '=', jobSourceId)
    .orderBy('idx')
    .execute();
  return rows.map((row) => ({ ...row, idx: Number(row.idx) }));
}

/** Consecutive segments of one unit, in file order. */
function groupUnits(segments: readonly UnitSegment[]): UnitSegment[][] {
  const units: UnitSegment[][] = [];
  for (const segment of segments) {
    const last = units[units.length - 1];
    if (last && last[0]!.unitLocator === segment.unitLocator) last.push(segment);
    else units.push([segment]);
  }
  return units;
}

/** The translation of every segment for the job's target file, with the overlay on top. */
async function translationsOf(db: Kysely<DB>, work: TargetFileWork, overlay?: ReadonlyMap<number, string>): Promise<Map<number, string>> {
  const translations = pickTranslations(work.job.id, await candidateTranslations(db, work.job));
  for (const [idx, target] of overlay ?? []) translations.set(idx, target);
  return translations;
}

/** A unit's text: its segments' texts joined with the gaps between them. */
function unitText(unit: readonly UnitSegment[], texts: readonly string[]): string {
  return joinSegments([...unit.map((s) => s.gapBefore), unit[unit.length - 1]!.gapAfter ?? ''], texts);
}

/** The translation a unit's target gets: null when none of its segments has one and it had no imported target. */
function unitTranslation(unit: readonly UnitSegment[], translations: ReadonlyMap<number, string>): string | null {
  const imported = unit[0]!.importedTarget;
  if (!unit.some((s) => translations.has(s.idx))) return imported;
  return unitText(
    unit,
    unit.map((s) => translations.get(s.idx) ?? (unit.length === 1 && imported !== null ? imported : s.source)),
  );
}

async function listedUnits(db: Kysely<DB>, work: TargetFileWork, overlay?: ReadonlyMap<number, string>): Promise<ListedUnit[]> {
  const translations = await translationsOf(db, work, overlay);
  return groupUnits(await unitSegments(db, work.source.id)).map((unit) => ({
    number: unit[0]!.idx + 1,
    key: unit[0]!.key,
    source: unitText(
      unit,
      unit.map((s) => s.source),
    ),
    translation: unitTranslation(unit, translations),
  }));
}

async function* inBatches<T>(items: readonly T[]): AsyncGenerator<readonly T[]> {
  for (let from = 0; from < items.length; from += LISTING_BATCH) {
    yield items.slice(from, from + LISTING_BATCH);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// ---- target-file warnings

/** getCompletedFileWarnings: what the writer of the job's target file adjusts (target-warnings.ts). */
export async function jobTargetFileWarnings(deps: AppDeps, access: JobAccess): Promise<string[]> {
  const db = deps.database.db;
  const source = await jobSourceFile(db, access.job.jobSourceId);
  assertImported(source);
  const work = workOf(access, source);
  const firstBytes = await firstBytesOf(deps, source.sha256);
  const filter = filterOfSource(source.format, source.filename, firstBytes);
  const translations = await translationsOf(db, work);
  const maxLengths = filter ? await unitMaxLengths(deps, source, filter.name) : new Map<string, number>();
  const units: WarningUnit[] = groupUnits(await unitSegments(db, source.id)).map((unit) => {
    const maxLength = maxLengths.get(unit[0]!.unitLocator);
    return {
      key: unit[0]!.key,
      segments: unit.map((s) => ({ idx: s.idx, source: s.source, tags: parseTags(s.tags), target: translations.get(s.idx) ?? null })),
      text: unitTranslation(unit, translations),
      ...(maxLength === undefined ? {} : { maxLength }),
    };
  });
  return targetFileWarnings(units, filter ? targetCharset(filter.name, firstBytes) : undefined);
}

function parseTags(json: string): WarningTag[] {
  try {
    const tags: unknown = JSON.parse(json);
    return Array.isArray(tags) ? (tags as WarningTag[]) : [];
  } catch {
    return [];
  }
}

async function firstBytesOf(deps: AppDeps, sha256: string): Promise<Buffer> {
  const stream = await deps.blobs.open(sha256);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= Math.max(FORMAT_SNIFF_BYTES, 64 * 1024)) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * The length limits the original file sets its units (TextUnit.maxLength), by unit locator: the
 * file is read again with its filter (the import does not keep them). A file that no longer
 * reads gives none.
 */
async function unitMaxLengths(deps: AppDeps, source: JobSourceFile, filterName: string): Promise<Map<string, number>> {
  const limits = new Map<string, number>();
  const filter = filterOfSource(filterName, source.filename, Buffer.alloc(0));
  if (!filter) return limits;
  const options = filterOptionsFromImportSettings(filter.name, source.importSettings, { maxDepth: deps.config.importLimits.maxDepth });
  try {
    for await (const batch of filter.parseBatches(await deps.blobs.open(source.sha256), options)) {
      for (const unit of batch) if (unit.maxLength !== undefined) limits.set(unit.locator, unit.maxLength);
    }
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
  }
  return limits;
}

// ---- bilingual files

/** An uploaded MXLIFF file (getPreviewFile, filePreview): its jobs, or 400. */
export async function readPreviewBilingualFile(deps: AppDeps, input: AsyncIterable<unknown>): Promise<ReadBilingualJob[]> {
  try {
    const jobs = await readMxliff(input, { maxDepth: deps.config.importLimits.maxDepth, limitBytes: deps.config.uploadLimitBytes });
    if (jobs.length === 0) throw new FormatError('the file holds no job (no <file> element)');
    if (jobs.length > 1) throw new FormatError(`the file holds ${jobs.length} jobs; a preview shows one job, so send the file of one job`);
    return jobs;
  } catch (error) {
    if (error instanceof FormatError) throw errors.BilingualFileUnreadable({ reason: error.message });
    throw error;
  }
}

/** The job a bilingual file names (`m:task-id`), as the caller reaches it, or a 400 (bilingual-files' own check). */
export { jobOfBilingualFile };

/**
 * The translations of a bilingual file for job `access` (segment index -> target): each segment
 * must be a segment of the job's file with the same source (else 400, as uploading it would be);
 * empty targets are left out (the job's translation, else the source, shows there).
 */
export async function bilingualOverlay(db: Kysely<DB>, access: JobAccess, file: ReadBilingualJob): Promise<Map<number, string>> {
  if (file.jobUid !== access.job.uid) {
    throw errors.BilingualFileMismatch({ reason: `the file is of job ${file.jobUid}, not of job ${access.job.uid}` });
  }
  const sources = new Map<number, string>();
  const indexes = file.segments.map((s) => s.index);
  for (let from = 0; from < indexes.length; from += 1000) {
    const rows = await db
      .selectFrom('sourceSegments')
      .select(['idx', 'source'])
      .where('jobSourceId', '=', access.job.jobSourceId)
      .where('idx', 'in', indexes.slice(from, from + 1000))
      .execute();
    for (const row of rows) sources.set(Number(row.idx), row.source);
  }
  const overlay = new Map<number, string>();
  for (const segment of file.segments) {
    const source = sources.get(segment.index);
    if (source === undefined) {
      throw errors.BilingualFileMismatch({ reason: `segment ${file.jobUid}:${segment.index} is not a segment of the job` });
    }
    if (source !== segment.source) {
      throw errors.BilingualFileMismatch({
        reason: `the source of segment ${file.jobUid}:${segment.index} is not the job's (the job's source changed)`,
      });
    }
    if (segment.target !== '') overlay.set(segment.index, segment.target);
  }
  return overlay;
}

import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import type { AppDeps, AppTaskHandler } from '../../../deps.js';
import { nowIso } from '../../../db/ids.js';
import type { Id } from '../../../db/schema.js';
import { wildcardMatcher } from '../../../domain/translation-memory/tm-text.js';
import { asyncFailure, errors } from '../../../errors/index.js';
import { canonicalLanguage, readTmx, writeTmx } from '../../../formats/tmx.js';
import type { TmxProp, TmxUnit } from '../../../formats/tmx.js';
import { writeXlsxTm } from '../../../formats/tm-xlsx.js';
import type { TmUnit } from '../../../formats/tm-formats.js';
import type { InlineTag } from '../../../formats/types.js';
import { FormatError } from '../../../formats/types.js';
import type { Caller } from '../../../http/access.js';
import { enqueue } from '../../../queue/queue.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { recordStoredFile } from '../../../storage/stored-files.js';
import { completeAsyncRequest, createAsyncRequest } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { targetLangsOf, visibleTo } from './translation-memories.repository.js';
import type { TransMemoryRow } from './translation-memories.repository.js';
import { WILDCARD_MAX } from './tm-search.js';
import { clearUnits, unitsPage } from './tm-units.repository.js';
import type { TmUnitRow } from './tm-units.repository.js';
import {
  addTransferUnits,
  findTransfer,
  findTransferWithRequest,
  insertTransfer,
  liveTransMemory,
  resetTransferUnits,
  setLastAsyncRequest,
  setTransferFile,
  userNames,
} from './tm-transfers.repository.js';
import type { TmTransferKind } from './tm-transfers.repository.js';

/**
 * TM exports (docs/translation-memory.md, "Import and export"), all asynchronous:
 * - export (exportV2, EXPORT_TMX) and export by query (exportByQueryAsync, EXPORT_TMX_BY_QUERY): a
 *   TMX 1.4 file written by `writeTmx` while the units are read from the database in pages by id
 *   (memory flat however large the TM), stored as a blob; one `<tu>` per unit (a source and one
 *   translation), so that importing the file again gives the same units. The download sends the
 *   TMX, or converts it to XLSX as it streams (format=XLSX): the file is the snapshot the export
 *   took, whatever changed since;
 * - the cleaned export (exportCleanedTMs, EXTRACT_CLEANED_TMS): deduplicated pairs as TSV or TXT in
 *   a ZIP;
 * - clear all (clearTransMemoryV2, CLEAR_TM).
 */
export const TM_EXPORT_TASK = 'tm.export';
export const TM_CLEANED_TASK = 'tm.exportCleaned';
export const TM_CLEAR_TASK = 'tm.clear';

/** The filters of an export by query, resolved when it was asked for. */
export interface ExportFilter {
  queries: string[];
  queryLangs: string[];
  createdAtMin?: string | null;
  createdAtMax?: string | null;
  modifiedAtMin?: string | null;
  modifiedAtMax?: string | null;
  createdById?: string | null;
  modifiedById?: string | null;
  filename?: string | null;
  projectId?: string | null;
}

export interface TmExportPayload {
  asyncRequestId: string;
  /** null: every target language of the TM. */
  targetLangs: string[] | null;
  filter: ExportFilter | null;
}

export interface TmCleanedPayload {
  asyncRequestId: string;
  tmIds: string[];
  outputFormat: 'TSV' | 'TXT';
  preserveRatio: number | null;
  targetLangs: string[] | null;
}

export interface TmClearPayload {
  asyncRequestId: string;
  tmId: string;
}

declare module '../../../queue/types.js' {
  interface TaskPayloads {
    'tm.export': TmExportPayload;
    'tm.exportCleaned': TmCleanedPayload;
    'tm.clear': TmClearPayload;
  }
}

const PAGE = 1000;

// ---------------------------------------------------------------------------------------------
// Requests

async function recordRequest(
  deps: AppDeps,
  caller: Caller,
  input: {
    action: 'EXPORT_TMX' | 'EXPORT_TMX_BY_QUERY' | 'EXTRACT_CLEANED_TMS' | 'CLEAR_TM';
    tms: readonly TransMemoryRow[];
    transfer: { kind: TmTransferKind; langs?: { sourceLang: string; targetLangs: string[] } } | null;
    callbackUrl?: string | null;
    task: (asyncRequestId: string) => Parameters<typeof enqueue>[1];
  },
): Promise<AsyncRequestRow> {
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const asyncRequest = await createAsyncRequest(deps, trx, {
      organizationId: caller.organizationId,
      createdById: caller.userId,
      action: input.action,
      callbackUrl: input.callbackUrl ?? null,
    });
    if (input.transfer) {
      await insertTransfer(trx, {
        asyncRequestId: asyncRequest.id,
        organizationId: caller.organizationId,
        transMemoryId: input.tms.length === 1 ? input.tms[0]!.id : null,
        kind: input.transfer.kind,
        filename: null,
        langs: input.transfer.langs ?? null,
        now: nowIso(deps.clock),
      });
    }
    await setLastAsyncRequest(
      trx,
      input.tms.map((tm) => tm.id),
      asyncRequest.id,
    );
    await enqueue(trx, input.task(asyncRequest.id), deps.clock());
    return asyncRequest;
  });
  deps.taskWakeup.notify();
  return row;
}

export function requestTmExport(
  deps: AppDeps,
  caller: Caller,
  tm: TransMemoryRow,
  options: { targetLangs: string[] | null; filter: ExportFilter | null; callbackUrl?: string | null },
): Promise<AsyncRequestRow> {
  return recordRequest(deps, caller, {
    action: options.filter ? 'EXPORT_TMX_BY_QUERY' : 'EXPORT_TMX',
    tms: [tm],
    transfer: { kind: 'EXPORT', langs: { sourceLang: tm.sourceLang, targetLangs: options.targetLangs ?? targetLangsOf(tm) } },
    callbackUrl: options.callbackUrl ?? null,
    task: (asyncRequestId) => ({
      kind: TM_EXPORT_TASK,
      payload: { asyncRequestId, targetLangs: options.targetLangs, filter: options.filter },
      organizationId: caller.organizationId,
      asyncRequestId,
    }),
  });
}

export function requestCleanedExport(
  deps: AppDeps,
  caller: Caller,
  tms: readonly TransMemoryRow[],
  options: { outputFormat: 'TSV' | 'TXT'; preserveRatio: number | null; targetLangs: string[] | null },
): Promise<AsyncRequestRow> {
  return recordRequest(deps, caller, {
    action: 'EXTRACT_CLEANED_TMS',
    tms,
    transfer: { kind: 'CLEANED' },
    task: (asyncRequestId) => ({
      kind: TM_CLEANED_TASK,
      payload: { asyncRequestId, tmIds: tms.map((tm) => String(tm.id)), ...options },
      organizationId: caller.organizationId,
      asyncRequestId,
    }),
  });
}

export function requestTmClear(deps: AppDeps, caller: Caller, tm: TransMemoryRow): Promise<AsyncRequestRow> {
  return recordRequest(deps, caller, {
    action: 'CLEAR_TM',
    tms: [tm],
    transfer: null,
    task: (asyncRequestId) => ({
      kind: TM_CLEAR_TASK,
      payload: { asyncRequestId, tmId: String(tm.id) },
      organizationId: caller.organizationId,
      asyncRequestId,
    }),
  });
}

// ---------------------------------------------------------------------------------------------
// Reading the units

/** Whether a unit passes an export-by-query's filters. */
export function unitFilter(tm: Pick<TransMemoryRow, 'sourceLang'>, filter: ExportFilter | null): (row: TmUnitRow) => boolean {
  if (!filter) return () => true;
  const matchers = filter.queries.filter((q) => q !== '').map((q) => wildcardMatcher(q.slice(0, WILDCARD_MAX)));
  const langs = new Set(filter.queryLangs);
  const onSource = langs.has(tm.sourceLang);
  const between = (value: string, min?: string | null, max?: string | null) =>
    (!min || Date.parse(value) >= Date.parse(min)) && (!max || Date.parse(value) <= Date.parse(max));
  return (row) => {
    if (!between(row.createdAt, filter.createdAtMin, filter.createdAtMax)) return false;
    if (!between(row.modifiedAt, filter.modifiedAtMin, filter.modifiedAtMax)) return false;
    if (filter.createdById && String(row.createdById) !== filter.createdById) return false;
    if (filter.modifiedById && String(row.modifiedById) !== filter.modifiedById) return false;
    if (filter.filename && row.filename !== filter.filename) return false;
    if (filter.projectId && String(row.projectId) !== filter.projectId) return false;
    if (matchers.length === 0) return true;
    const onTarget = langs.has(row.targetLang);
    return matchers.some((m) => (onSource && m(row.source)) || (onTarget && m(row.target)));
  };
}

/** The live units of a TM in the given target languages, in pages by id, filtered. */
async function* unitRows(
  deps: AppDeps,
  tmId: Id,
  targetLangs: readonly string[] | null,
  keep: (row: TmUnitRow) => boolean,
): AsyncGenerator<TmUnitRow[]> {
  let afterId: string | null = null;
  for (;;) {
    const rows: TmUnitRow[] = await unitsPage(deps.database.db, tmId, { afterId, limit: PAGE, targetLangs });
    if (rows.length === 0) return;
    afterId = String(rows[rows.length - 1]!.id);
    yield rows.filter(keep);
    if (rows.length < PAGE) return;
  }
}

function tagsOf(json: string | null): InlineTag[] {
  if (!json) return [];
  try {
    const tags = JSON.parse(json) as unknown;
    return Array.isArray(tags) ? (tags as InlineTag[]) : [];
  } catch {
    return [];
  }
}

/** A unit as one TMX `<tu>`: the source and its translation, the context as props, authorship as stamps. */
function tmxUnitOf(tm: TransMemoryRow, row: TmUnitRow, names: Map<string, string>): TmxUnit {
  const unit: TmxUnit = {
    sourceLang: tm.sourceLang,
    creationDate: row.createdAt,
    changeDate: row.modifiedAt,
    variants: [
      { lang: tm.sourceLang, text: row.source, tags: tagsOf(row.sourceTags) },
      { lang: row.targetLang, text: row.target, tags: tagsOf(row.targetTags), ...(row.targetNote ? { notes: [row.targetNote] } : {}) },
    ],
  };
  const creator = row.createdById === null ? undefined : names.get(String(row.createdById));
  const changer = row.modifiedById === null ? undefined : names.get(String(row.modifiedById));
  if (creator !== undefined) unit.creationId = creator;
  if (changer !== undefined) unit.changeId = changer;
  if (row.previousSource !== null) unit.contextPrev = row.previousSource;
  if (row.nextSource !== null) unit.contextNext = row.nextSource;
  if (row.contextKey !== null) unit.props = [{ type: 'x-context-key', value: row.contextKey }];
  return unit;
}

/** Stores what `write` writes into `output` as a blob; rejects with the writer's error first. */
async function storeWritten(deps: AppDeps, write: (output: Writable) => Promise<void>): Promise<StoredBlob> {
  const output = new PassThrough();
  const [written, stored] = await Promise.allSettled([write(output), deps.blobs.put(output)]);
  if (written.status === 'rejected') throw written.reason;
  if (stored.status === 'rejected') throw stored.reason;
  return stored.value;
}

/** A file name from a TM's name: no path separators or control characters. */
function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').trim();
  return (cleaned || 'translation-memory').slice(0, 200);
}

// ---------------------------------------------------------------------------------------------
// Tasks

async function isFinished(deps: AppDeps, asyncRequestId: string): Promise<boolean> {
  const request = await deps.database.db
    .selectFrom('asyncRequests')
    .select('finishedAt')
    .where('id', '=', asyncRequestId)
    .executeTakeFirst();
  return !request || request.finishedAt !== null;
}

async function failWith(deps: AppDeps, asyncRequestId: string, reason: string): Promise<void> {
  await completeAsyncRequest(deps, deps.database.db, asyncRequestId, asyncFailure('AsyncTaskFailed', { reason: reason.slice(0, 2000) }));
  deps.taskWakeup.notify();
}

export async function runTmExport(deps: AppDeps, payload: TmExportPayload): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  const transfer = await findTransfer(db, asyncRequestId);
  if (!transfer || (await isFinished(deps, asyncRequestId))) return;
  const tm = transfer.transMemoryId === null ? undefined : await liveTransMemory(db, transfer.transMemoryId);
  if (!tm) return failWith(deps, asyncRequestId, 'The translation memory was deleted before the export finished.');
  await resetTransferUnits(db, asyncRequestId);
  const keep = unitFilter(tm, payload.filter);
  let count = 0;
  async function* units(): AsyncGenerator<TmxUnit[]> {
    for await (const rows of unitRows(deps, tm!.id, payload.targetLangs, keep)) {
      const names = await userNames(
        db,
        rows.flatMap((r) => [r.createdById, r.modifiedById]),
      );
      count += rows.length;
      await addTransferUnits(db, asyncRequestId, rows.length);
      yield rows.map((row) => tmxUnitOf(tm!, row, names));
    }
  }
  let blob: StoredBlob;
  try {
    blob = await storeWritten(deps, (output) =>
      writeTmx(units(), output, { srcLang: tm.sourceLang, creationTool: 'OpenTMS', creationDate: deps.clock(), segType: 'sentence' }),
    );
  } catch (error) {
    if (error instanceof FormatError) return failWith(deps, asyncRequestId, `The TMX could not be written: ${error.message}`);
    throw error;
  }
  const filename = `${safeName(tm.name)}.tmx`;
  await db.transaction().execute(async (trx) => {
    await recordStoredFile(deps, trx, blob);
    await setTransferFile(trx, asyncRequestId, { sha256: blob.sha256, filename, units: count });
    await completeAsyncRequest(deps, trx, asyncRequestId, {});
  });
  deps.taskWakeup.notify();
}

/** The text of a cleaned pair: tags (display tokens) left out, trimmed. */
function cleanText(text: string): string {
  return text.replace(/\{\d{1,9}>|<\d{1,9}\}|\{\d{1,9}\}/g, '').trim();
}

/** One line of a cleaned file: backslashes, tabs and line breaks escaped (`\\`, `\t`, `\n`, `\r`). */
export function escapeLine(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** Whether a pair's length ratio is within [ratio, 1/ratio] (no ratio: every pair). */
export function keepsRatio(source: string, target: string, ratio: number | null): boolean {
  if (ratio === null || ratio <= 0) return true;
  if (source.length === 0 || target.length === 0) return false;
  const r = target.length / source.length;
  return r >= ratio && r <= 1 / ratio;
}

function writeLine(stream: Writable, line: string): Promise<void> | void {
  if (!stream.write(`${line}\n`)) return new Promise((resolve) => stream.once('drain', () => resolve()));
}

export async function runCleanedExport(deps: AppDeps, payload: TmCleanedPayload): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  const transfer = await findTransfer(db, asyncRequestId);
  if (!transfer || (await isFinished(deps, asyncRequestId))) return;
  await resetTransferUnits(db, asyncRequestId);
  const folder = await mkdtemp(join(tmpdir(), 'opentms-cleaned-'));
  try {
    const entries: { path: string; name: string }[] = [];
    const taken = new Set<string>();
    let count = 0;
    for (const tmId of payload.tmIds) {
      const tm = await liveTransMemory(db, tmId);
      if (!tm) continue;
      const langs = targetLangsOf(tm).filter((lang) => payload.targetLangs === null || payload.targetLangs.includes(lang));
      for (const lang of langs) {
        let base = `${safeName(tm.name)}_${tm.sourceLang}_${lang}`;
        for (let n = 1; taken.has(base.toLowerCase()); n++) base = `${safeName(tm.name)}_${tm.sourceLang}_${lang} (${n})`;
        taken.add(base.toLowerCase());
        const files =
          payload.outputFormat === 'TSV'
            ? [{ name: `${base}.tsv`, path: join(folder, `${entries.length}.tsv`) }]
            : [
                { name: `${base}.${tm.sourceLang}.txt`, path: join(folder, `${entries.length}.src.txt`) },
                { name: `${base}.${lang}.txt`, path: join(folder, `${entries.length}.tgt.txt`) },
              ];
        const streams = files.map((f) => createWriteStream(f.path));
        // Deduplicated per file: a set of 12-byte digests of the cleaned pairs.
        const seen = new Set<string>();
        for await (const rows of unitRows(deps, tm.id, [lang], () => true)) {
          for (const row of rows) {
            const source = cleanText(row.source);
            const target = cleanText(row.target);
            if (source === '' || target === '' || !keepsRatio(source, target, payload.preserveRatio)) continue;
            const digest = createHash('sha1').update(source).update('\u0000').update(target).digest('base64').slice(0, 16);
            if (seen.has(digest)) continue;
            seen.add(digest);
            count++;
            if (streams.length === 1) await writeLine(streams[0]!, `${escapeLine(source)}\t${escapeLine(target)}`);
            else {
              await writeLine(streams[0]!, escapeLine(source));
              await writeLine(streams[1]!, escapeLine(target));
            }
          }
          await addTransferUnits(db, asyncRequestId, rows.length);
        }
        for (const stream of streams) {
          stream.end();
          await finished(stream);
        }
        entries.push(...files);
      }
    }
    const blob = await storeWritten(deps, async (output) => {
      const zip = new yazl.ZipFile();
      for (const entry of entries) zip.addFile(entry.path, entry.name);
      zip.end();
      zip.outputStream.pipe(output);
      await finished(output);
    });
    await db.transaction().execute(async (trx) => {
      await recordStoredFile(deps, trx, blob);
      await setTransferFile(trx, asyncRequestId, { sha256: blob.sha256, filename: 'cleaned-translation-memories.zip', units: count });
      await completeAsyncRequest(deps, trx, asyncRequestId, {});
    });
    deps.taskWakeup.notify();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export async function runTmClear(deps: AppDeps, payload: TmClearPayload): Promise<void> {
  const db = deps.database.db;
  const { asyncRequestId } = payload;
  if (await isFinished(deps, asyncRequestId)) return;
  const tm = await liveTransMemory(db, payload.tmId);
  if (!tm) return failWith(deps, asyncRequestId, 'The translation memory was deleted before it was cleared.');
  // The clear and the request's completion commit together: a rerun finds the request finished.
  await db.transaction().execute(async (trx) => {
    await clearUnits(trx, tm.id);
    await completeAsyncRequest(deps, trx, asyncRequestId, {});
  });
  deps.taskWakeup.notify();
}

export const tmExportTask: AppTaskHandler<typeof TM_EXPORT_TASK> = {
  kind: TM_EXPORT_TASK,
  maxAttempts: 3,
  run: (context, payload) => runTmExport(context.deps, payload),
};

export const tmCleanedExportTask: AppTaskHandler<typeof TM_CLEANED_TASK> = {
  kind: TM_CLEANED_TASK,
  maxAttempts: 3,
  run: (context, payload) => runCleanedExport(context.deps, payload),
};

export const tmClearTask: AppTaskHandler<typeof TM_CLEAR_TASK> = {
  kind: TM_CLEAR_TASK,
  maxAttempts: 3,
  run: (context, payload) => runTmClear(context.deps, payload),
};

// ---------------------------------------------------------------------------------------------
// Downloads

export interface FinishedExport {
  sha256: string;
  filename: string;
  langs: { sourceLang: string; targetLangs: string[] } | null;
}

/**
 * The file of a finished export of `kind` the caller may download: 404 for an id that is no such
 * export of the organization (or of a TM the caller does not see; a deleted TM's exports are the
 * requester's and admins'), 400 while it runs or when it failed.
 */
export async function finishedExport(deps: AppDeps, caller: Caller, asyncRequestId: string, kind: TmTransferKind): Promise<FinishedExport> {
  const db = deps.database.db;
  const what = kind === 'CLEANED' ? 'Cleaned translation memory export' : 'Translation memory export';
  const row = await findTransferWithRequest(db, caller.organizationId, asyncRequestId);
  if (!row || row.kind !== kind) throw errors.ResourceNotFound({ what });
  if (row.transMemoryId !== null) {
    const visible = await db
      .selectFrom('transMemories')
      .select('id')
      .where('id', '=', row.transMemoryId)
      .where((eb) => visibleTo(eb, caller))
      .executeTakeFirst();
    if (!visible) throw errors.ResourceNotFound({ what });
  } else if (caller.role !== 'ADMIN' && String(row.createdById) !== String(caller.userId)) {
    throw errors.ResourceNotFound({ what });
  }
  if (row.finishedAt === null) {
    throw errors.InvalidArguments({
      reason: 'The export has not finished yet: wait until its async request has finished.',
      details: [{ field: 'asyncRequestId', message: 'the export is still running' }],
    });
  }
  const outcome = row.response ? (JSON.parse(row.response) as { errorCode?: string | null; errorDesc?: string | null }) : {};
  if (outcome.errorCode || row.sha256 === null || row.filename === null) {
    throw errors.InvalidArguments({
      reason: `The export failed: ${outcome.errorDesc ?? 'no file was written'}.`,
      details: [{ field: 'asyncRequestId', message: 'the export failed' }],
    });
  }
  return { sha256: row.sha256, filename: row.filename, langs: row.langs ? (JSON.parse(row.langs) as FinishedExport['langs']) : null };
}

/** XLSX fields that add the context columns (the other fields of `fields` are not written). */
const CONTEXT_FIELDS = new Set(['PREVIOUS_SEGMENT', 'NEXT_SEGMENT', 'CONTEXT_KEY', 'NOTE']);

/**
 * An export's TMX converted to XLSX as it is sent: the stored TMX is read (streaming) and written
 * as a spreadsheet into the returned stream, so neither file is ever held whole.
 */
export async function xlsxOfExport(deps: AppDeps, file: FinishedExport, fields: readonly string[] | undefined): Promise<PassThrough> {
  const input = await deps.blobs.open(file.sha256);
  const output = new PassThrough();
  const sourceLang = file.langs?.sourceLang ?? 'en';
  const targetLangs = (file.langs?.targetLangs ?? []).filter((lang) => canonicalLanguage(lang) !== null);
  async function* units(): AsyncGenerator<TmUnit[]> {
    for await (const batch of readTmx(input)) {
      yield batch.map((unit) => {
        const key = unit.props?.find((p: TmxProp) => p.type === 'x-context-key')?.value;
        return key === undefined ? unit : { ...unit, contextKey: key };
      });
    }
  }
  writeXlsxTm(output, units(), { sourceLang, targetLangs, withContext: (fields ?? []).some((f) => CONTEXT_FIELDS.has(f)) }).catch(
    (error: unknown) => {
      input.destroy();
      output.destroy(error as Error);
    },
  );
  return output;
}

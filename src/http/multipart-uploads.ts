import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { errors } from '../errors/index.js';
import { MAX_FILES_PER_REQUEST, sanitizeFilename } from './uploads.js';
import type { StoredBlob } from '../storage/blob-store.js';
import { putUpload, releaseStoredFiles } from '../storage/stored-files.js';

/**
 * Reading the files of an upload request into the blob store, for reference files and the Files
 * API. Blobs are stored before any row is written (src/storage/stored-files.ts); when the request
 * fails afterwards (a bad part, too many files, a file past the limit, a failed transaction),
 * `discardUploads` removes what this request stored and nobody else uses, so a refused request
 * leaves nothing behind.
 */

export interface UploadedFile {
  /** Sanitized: the last path segment, no control characters (src/http/uploads.ts). */
  filename: string;
  contentType: string | null;
  blob: StoredBlob;
}

export interface MultipartUpload {
  files: UploadedFile[];
  /** The text of the `json` part, when one was sent (as a field or as a file part). */
  json: string | undefined;
}

/** Largest `json` part read, in bytes (the same as the multipart field limit). */
const MAX_JSON_PART_BYTES = 1024 * 1024;

const tooManyFiles = () => errors.TooManyFiles({ max: MAX_FILES_PER_REQUEST });

/** The 415 for a request that should be multipart but is not. */
export const notMultipart = () => errors.UnsupportedMediaType({ expected: 'multipart' });

/** Media type of a part, without parameters; null when the client sent none or the generic default. */
function partContentType(mimetype: string | undefined): string | null {
  const type = (mimetype ?? '').split(';')[0]!.trim().toLowerCase();
  return type === '' ? null : type.slice(0, 255);
}

async function readText(stream: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      throw errors.InvalidArguments({
        reason: 'The json part is too large.',
        details: [{ field: 'json', message: `at most ${limit} bytes` }],
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Maps the multipart plugin's limit errors to the API's: more than 50 files is a 400, a file past the limit a 413 as elsewhere. */
function translateMultipartError(deps: AppDeps, error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return errors.FileTooLarge({ limitBytes: deps.config.uploadLimitBytes });
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return tooManyFiles();
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return notMultipart();
  return error;
}

/**
 * Streams the `file` parts of a multipart request into the blob store (each at most the upload
 * limit: 413) and returns them with the `json` part's text. Any other part is a 400. On failure
 * the blobs stored so far are discarded before the error is thrown.
 */
export async function readMultipartUpload(deps: AppDeps, request: FastifyRequest): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw notMultipart();
  const files: UploadedFile[] = [];
  let json: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') {
        const filename = sanitizeFilename(part.filename, 'file');
        const blob = await putUpload(deps, part.file);
        files.push({ filename, contentType: partContentType(part.mimetype), blob });
        if (files.length > MAX_FILES_PER_REQUEST) throw tooManyFiles();
      } else if (part.fieldname === 'json') {
        json = part.type === 'file' ? await readText(part.file, MAX_JSON_PART_BYTES) : String(part.value);
      } else if (part.fieldname === 'file') {
        throw errors.InvalidArguments({
          reason: 'A file part must name its file (Content-Disposition: form-data; name="file"; filename="…").',
          details: [{ field: 'file', message: 'has no filename' }],
        });
      } else {
        if (part.type === 'file') part.file.resume();
        throw errors.InvalidArguments({
          reason: `Unexpected part "${part.fieldname}": send \`file\` parts and one \`json\` part.`,
          details: [{ field: part.fieldname, message: 'is not a part of this request' }],
        });
      }
    }
  } catch (error) {
    await discardUploads(
      deps,
      files.map((f) => f.blob),
    );
    throw translateMultipartError(deps, error);
  }
  return { files, json };
}

/**
 * Removes blobs this request stored when nothing references them: their `stored_files` rows are
 * upserted and released the way a delete releases files, so a blob another record uses stays.
 */
export async function discardUploads(deps: AppDeps, blobs: readonly StoredBlob[]): Promise<void> {
  if (blobs.length === 0) return;
  const db = deps.database.db;
  const now = deps.clock().toISOString();
  for (const blob of blobs) {
    await db
      .insertInto('storedFiles')
      .values({ sha256: blob.sha256, size: blob.size, createdAt: now })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }
  await releaseStoredFiles(
    deps,
    blobs.map((b) => b.sha256),
  );
}

/** Runs `write` (which records `blobs`); if it fails, discards them before rethrowing. */
export async function withUploads<T>(deps: AppDeps, blobs: readonly StoredBlob[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await discardUploads(deps, blobs);
    throw error;
  }
}

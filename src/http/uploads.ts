import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import JSON5 from 'json5';
import { errors } from '../errors/index.js';
import { findNul, nullDropperFor, nulRefused } from './json-leniency.js';

/**
 * File uploads (issue 6): job source files, reference files and the Files API take files as
 * `application/octet-stream` bodies named by `Content-Disposition`, or as `multipart/form-data`.
 * Bodies stream straight into the blob store: nothing holds a whole file in memory, and the size
 * limit is `config.uploadLimitBytes` (the blob store's `maxBytes`), not Fastify's body limit.
 */

/** Most files one multipart request may carry (description, "Limits": template reference files, bilingual files). */
export const MAX_FILES_PER_REQUEST = 50;

/**
 * Installs the two upload parsers on `app` (call once, on the plugin that holds the API):
 * - `application/octet-stream`: the body stays a stream (`request.body` is the raw Readable);
 * - `multipart/form-data`: @fastify/multipart, read with `request.parts()`; files beyond
 *   MAX_FILES_PER_REQUEST or larger than the upload limit are refused with a 4xx.
 */
export async function installUploadParsing(app: FastifyInstance, uploadLimitBytes: number): Promise<void> {
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  await app.register(multipart, {
    limits: {
      fileSize: uploadLimitBytes,
      files: MAX_FILES_PER_REQUEST,
      fields: 20,
      fieldSize: 1024 * 1024,
      parts: MAX_FILES_PER_REQUEST + 20,
      headerPairs: 200,
    },
    throwFileSizeLimit: true,
  });
}

/** The raw body stream of an `application/octet-stream` request, or a 415 for any other type. */
export function octetStreamBody(request: FastifyRequest): Readable {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/octet-stream' || !request.body || typeof (request.body as Readable).pipe !== 'function') {
    throw errors.UnsupportedMediaType({ expected: 'octetStream' });
  }
  return request.body as Readable;
}

/** What a file name may be at most, in characters; longer names keep their extension. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * A file name safe to store and to send back: the last segment of any path (both `/` and `\`),
 * without control characters, trimmed, at most MAX_FILENAME_LENGTH characters. A name that is
 * empty or only dots afterwards is refused (400), so `../../etc/passwd` becomes `passwd` and
 * `..` is an error; stored files are addressed by hash, never by this name.
 */
export function sanitizeFilename(raw: string, field = 'filename'): string {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let name = lastSegment.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (name === '' || /^\.+$/.test(name)) {
    throw errors.InvalidArguments({ reason: `The file name "${raw}" is not usable.`, details: [{ field, message: 'must name a file' }] });
  }
  if (name.length > MAX_FILENAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_FILENAME_LENGTH - extension.length) + extension;
  }
  return name;
}

/**
 * A directory path (JobCreateRequestDto.path) made harmless: segments joined by `/`, with empty,
 * `.` and `..` segments and control characters dropped; null when nothing is left.
 */
export function sanitizeDirectory(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const segments = raw
    .split(/[/\\]/)
    // eslint-disable-next-line no-control-regex
    .map((segment) => segment.replace(/[\u0000-\u001f\u007f]/g, '').trim())
    .filter((segment) => segment !== '' && !/^\.+$/.test(segment));
  const path = segments.join('/').slice(0, 1024);
  return path === '' ? null : path;
}

/**
 * The file name a `Content-Disposition` header gives: `filename*=UTF-8''<percent-encoded>` (RFC
 * 6266/5987) wins over `filename="…"` or a bare `filename=…`. Returns the raw name (not yet
 * sanitized), or null when the header names no file.
 */
export function filenameFromContentDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^';\s]*)'[^']*'([^;]*)/i.exec(header);
  if (extended) {
    const charset = extended[1]!.toLowerCase();
    const value = extended[2]!.trim().replace(/^"(.*)"$/, '$1');
    try {
      if (charset === 'utf-8' || charset === '') return decodeURIComponent(value);
      if (charset === 'iso-8859-1') return Buffer.from(unescape(value), 'latin1').toString('latin1');
    } catch {
      throw errors.InvalidArguments({
        reason: 'The Content-Disposition header has a badly encoded filename*.',
        details: [{ field: 'Content-Disposition', message: 'filename* is not valid percent-encoding' }],
      });
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;]+)/i.exec(header);
  if (bare) return bare[1]!.trim();
  return null;
}

/** The sanitized file name of an octet-stream upload; 400 when `Content-Disposition` names none. */
export function uploadFilename(request: FastifyRequest): string {
  const raw = filenameFromContentDisposition(request.headers['content-disposition']);
  if (raw === null) {
    throw errors.ContentDispositionMissing();
  }
  return sanitizeFilename(raw, 'Content-Disposition');
}

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
/** Same rules as JSON bodies (src/http/validation.ts): defaults applied, no type coercion. */
const documentAjv = addFormats(
  new Ajv({ useDefaults: true, removeAdditional: false, allErrors: false, strict: false, coerceTypes: false }),
);
const compiledSchemas = new WeakMap<TSchema, ValidateFunction>();

/** Longest `Memsource` header read, in characters (Node's own header limit is 16 KiB by default). */
export const MAX_MEMSOURCE_HEADER_CHARS = 32 * 1024;

const PYTHON_CONSTANTS: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };
const identifierChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$]/.test(c);

/**
 * A Python dict literal's `True`, `False` and `None` as JSON's `true`, `false` and `null`, outside
 * quoted strings (single or double, with backslash escapes), in one pass; the rest unchanged, for
 * JSON5 to read (`{'useProjectFileImportSettings': True}`).
 */
export function pythonConstantsAsJson(text: string): string {
  let out = '';
  let quote: string | null = null;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (quote !== null) {
      out += c;
      if (c === '\\' && i + 1 < text.length) out += text[++i];
      else if (c === quote) quote = null;
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      out += c;
      i++;
      continue;
    }
    if (/[A-Za-z_$]/.test(c) && !identifierChar(text[i - 1])) {
      let end = i + 1;
      while (identifierChar(text[end])) end++;
      const word = text.slice(i, end);
      out += PYTHON_CONSTANTS[word] ?? word;
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Parses and validates a JSON document that does not arrive as the body: the `Memsource` header of
 * job creation, the `json` part of a multipart request. Bad JSON or a document that does not
 * match `schema` is a 400 naming `field`. As for bodies (src/http/validation.ts), a null where
 * `schema` does not allow null counts as absent, and a U+0000 anywhere is a 400.
 * `lenient` (the Memsource header) also reads JSON5, which covers the Python dict literal a
 * command-line client sends (`{'targetLangs': ['de'], 'useProjectFileImportSettings': True}`, its
 * `True`/`False`/`None` read as JSON's); strict JSON stays the documented form.
 */
export function parseJsonDocument<T extends TSchema>(
  text: string | undefined,
  schema: T,
  field: string,
  options: { lenient?: boolean } = {},
): unknown {
  if (text === undefined || text.trim() === '') {
    throw errors.InvalidArguments({ reason: `${field} is required.`, details: [{ field, message: 'is required' }] });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (!options.lenient) throw errors.InvalidJson({ part: field });
    if (text.length > MAX_MEMSOURCE_HEADER_CHARS) {
      throw errors.InvalidArguments({
        reason: `${field} is too long.`,
        details: [{ field, message: `at most ${MAX_MEMSOURCE_HEADER_CHARS} characters` }],
      });
    }
    try {
      value = JSON5.parse(pythonConstantsAsJson(text));
    } catch {
      throw errors.InvalidJson({ part: field });
    }
  }
  const nul = findNul(value);
  if (nul !== null) throw nulRefused(field, nul);
  let validator = compiledSchemas.get(schema);
  if (!validator) {
    validator = documentAjv.compile(schema);
    compiledSchemas.set(schema, validator);
  }
  nullDropperFor(schema)?.(value);
  if (!validator(value)) {
    const first = validator.errors?.[0];
    const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const path = [field, first?.instancePath.replace(/^\//, '').replace(/\//g, '.'), missing].filter(Boolean).join('.');
    throw errors.InvalidArguments({
      reason: `Invalid ${path}: ${first?.message ?? 'does not match the expected shape'}.`,
      details: [{ field: path, message: first?.message ?? 'is not valid' }],
    });
  }
  return value;
}

/**
 * The `Memsource` header of an octet-stream upload, parsed (strict JSON, or the JSON5 / Python dict
 * literal form) and validated against `schema`.
 */
export function memsourceHeader<T extends TSchema>(request: FastifyRequest, schema: T): unknown {
  const header = request.headers['memsource'];
  return parseJsonDocument(Array.isArray(header) ? header[0] : header, schema, 'Memsource', { lenient: true });
}

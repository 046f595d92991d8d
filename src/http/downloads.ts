import type { FastifyReply } from 'fastify';
import yazl from 'yazl';
import type { BlobStore } from '../storage/blob-store.js';

/** Downloads of stored files: one file as an attachment, or several as a streamed ZIP. */

/**
 * The `Content-Disposition` of every download, written as the real service writes it:
 * `attachment; filename*=UTF-8''<percent-encoded name>; filename="<ASCII fallback>"`. The exact
 * name comes first as `filename*` (RFC 6266, RFC 8187), since clients read it with a regular
 * expression that expects `filename*=UTF-8''` right after `attachment; `; the ASCII fallback (other
 * characters, quotes and backslashes as `_`) serves those that know only `filename`. No name can
 * break the header: everything outside RFC 5987's attr-char is percent-encoded.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}; filename="${fallback}"`;
}

/** Sends one stored file as an attachment named `filename`. */
export async function sendStoredFile(
  deps: { readonly blobs: BlobStore },
  reply: FastifyReply,
  file: { sha256: string; filename: string; size?: number | string; contentType?: string | null },
): Promise<FastifyReply> {
  const stream = await deps.blobs.open(file.sha256);
  reply.header('content-disposition', attachmentDisposition(file.filename));
  // The type is whatever the uploader said: browsers must not second-guess it into HTML or script.
  reply.header('x-content-type-options', 'nosniff');
  reply.type(file.contentType || 'application/octet-stream');
  if (file.size !== undefined) reply.header('content-length', String(file.size));
  return reply.send(stream);
}

/** `name` made unique among `taken` by a counter before the extension: `a.txt`, `a (1).txt`, … */
export function uniqueEntryName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Sends several stored files as one ZIP archive, streamed (entries are read one after another,
 * never all at once). Entry names are made unique.
 */
export async function sendZip(
  deps: { readonly blobs: BlobStore },
  reply: FastifyReply,
  archiveName: string,
  files: ReadonlyArray<{ sha256: string; filename: string }>,
): Promise<FastifyReply> {
  const zip = new yazl.ZipFile();
  const taken = new Set<string>();
  for (const file of files) {
    // Opened lazily: yazl reads entries in order, so only one blob is open at a time.
    zip.addReadStreamLazy(uniqueEntryName(file.filename, taken), {}, (callback) => {
      deps.blobs.open(file.sha256).then(
        (stream) => callback(null, stream),
        (error: Error) => callback(error, undefined as never),
      );
    });
  }
  zip.end();
  reply.header('content-disposition', attachmentDisposition(archiveName));
  reply.type('application/zip');
  return reply.send(zip.outputStream);
}

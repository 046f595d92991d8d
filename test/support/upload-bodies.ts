import { inflateRawSync } from 'node:zlib';

/** Request bodies of file uploads, and reading ZIP answers, for tests of upload operations. */

export interface Part {
  name: string;
  content: string | Buffer;
  /** A file part when set (or when `type` is set); a plain field otherwise. */
  filename?: string;
  type?: string;
}

/** A multipart/form-data body, encoded by the platform's FormData the way an HTTP client sends it. */
export async function multipart(parts: readonly Part[]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename === undefined && part.type === undefined) form.append(part.name, String(part.content));
    else form.append(part.name, new Blob([part.content], { type: part.type ?? 'application/octet-stream' }), part.filename ?? 'blob');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** A `json` part as Phrase clients send it: a part of type application/json. */
export const jsonPart = (note: string): Part => ({ name: 'json', content: JSON.stringify({ note }), type: 'application/json' });
export const filePart = (filename: string, content: string | Buffer, type = 'text/plain'): Part => ({
  name: 'file',
  filename,
  content,
  type,
});

/** The entries of a ZIP archive (stored or deflated), in central-directory order. */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a ZIP archive');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localOffset = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

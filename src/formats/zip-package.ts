import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createDeflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { FormatError } from './types.js';

/**
 * A ZIP container (Office Open XML, OpenDocument, ZIP uploads) read from a stream and written
 * back with some entries replaced.
 *
 * Reading: the stream is spooled to a temporary file (under `os.tmpdir()`, removed by `close()`,
 * which the `withZipPackage` helper always calls), opened with yauzl (central directory, lazy
 * entries), and checked against hostile-input limits before anything is decompressed: number of
 * entries, entry names (no `..`, absolute paths, backslashes, drive letters, duplicates),
 * encryption. Each entry's declared size and compression ratio are checked when it is opened,
 * and the bytes actually decompressed are held to the declared size (yauzl's
 * validateEntrySizes), so a lying header cannot expand further. Nested archives are only bytes.
 *
 * Writing: yazl cannot take already-compressed data (it computes the CRC of what it is given and
 * deflates it again), so entries would come out recompressed, with different bytes, and
 * re-deflating hundreds of megabytes is slow. The records are written here instead: an entry that
 * is not replaced is copied raw (its local header, compressed data and data descriptor byte for
 * byte); a replaced entry keeps its name, dates, flags (less the data-descriptor bit), extra fields
 * and compression method (deflate level 6 or stored), with a fresh CRC and sizes. When no entry's
 * content changes, the original file is copied whole, so the output is the input byte for byte.
 */

export interface ZipLimits {
  /** Most entries in the archive (default 10,000). */
  maxEntries?: number;
  /** Largest archive file accepted, in bytes (default 1 GiB). */
  maxArchiveBytes?: number;
  /** Most bytes decompressed over all entries opened (default 1 GiB). */
  maxTotalBytes?: number;
  /** Largest declared uncompressed size of an entry that is opened (default 512 MiB). */
  maxEntryBytes?: number;
  /** Highest compression ratio of an entry larger than `ratioFloorBytes` (default 200). */
  maxRatio?: number;
  /** Entries up to this uncompressed size are not held to `maxRatio` (default 4 MiB). */
  ratioFloorBytes?: number;
}

export const DEFAULT_ZIP_LIMITS: Required<ZipLimits> = {
  maxEntries: 10_000,
  maxArchiveBytes: 1 << 30,
  maxTotalBytes: 1 << 30,
  maxEntryBytes: 512 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 4 * 1024 * 1024,
};

/** One entry of the archive, as the central directory describes it. */
export interface ZipEntry {
  /** Position in the central directory (0-based). */
  readonly index: number;
  /** The entry's name (UTF-8 when flagged so, else CP437 read as Latin-1). */
  readonly name: string;
  readonly isDirectory: boolean;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** 0 stored, 8 deflated (others cannot be opened, only copied). */
  readonly compressionMethod: number;
  readonly crc32: number;
  /** yauzl's record (raw name, extra fields, dates, attributes). */
  readonly raw: Entry;
}

/** New content for an entry on write. */
export interface EntryRewrite {
  /** The new uncompressed content. */
  content: AsyncIterable<Buffer> | Iterable<Buffer>;
  /**
   * Asked once `content` is consumed: true when the content turned out the same as before (no
   * translation changed anything), so the original compressed bytes are copied instead.
   */
  unchanged?: () => boolean;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = 0x08074b50;
const MAX_32 = 0xffffffff;

function zipError(error: unknown): FormatError {
  if (error instanceof FormatError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new FormatError(`the file is not a valid ZIP archive (${message})`);
}

/** Why an entry name is refused, or null when it is acceptable. */
export function unsafeEntryName(name: string): string | null {
  if (name === '') return 'an empty name';
  if (name.includes('\0')) return 'a NUL character';
  if (name.includes('\\')) return 'a backslash';
  if (name.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'a drive letter';
  if (name.split('/').some((part) => part === '..')) return 'a ".." path segment';
  return null;
}

function decodeName(entry: Entry): string {
  const raw = entry.fileNameRaw;
  if ((entry.generalPurposeBitFlag & 0x800) !== 0) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw new FormatError('the file is not a valid ZIP archive (an entry name is not valid UTF-8)');
    }
  }
  return raw.toString('latin1');
}

/** Counts bytes through, failing past `limit`. */
function byteLimit(limit: number, message: string): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limit) done(new FormatError(message));
      else done(null, chunk);
    },
  });
}

export class ZipPackage {
  readonly entries: readonly ZipEntry[];
  private readonly byName: Map<string, ZipEntry>;
  private readonly limits: Required<ZipLimits>;
  private opened = new Set<number>();
  private decompressedTotal = 0;
  private closed = false;
  private tempCount = 0;

  private constructor(
    private readonly dir: string,
    /** The spooled archive. */
    readonly path: string,
    private readonly zip: ZipFile,
    entries: ZipEntry[],
    /** The archive comment, raw. */
    private readonly comment: Buffer,
    limits: Required<ZipLimits>,
  ) {
    this.entries = entries;
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
    this.limits = limits;
  }

  /** Spools `input` to a temporary file and reads the central directory. Rejects with FormatError. */
  static async open(input: AsyncIterable<unknown> | Readable, limits: ZipLimits = {}): Promise<ZipPackage> {
    const all = { ...DEFAULT_ZIP_LIMITS, ...limits };
    const dir = await mkdtemp(join(tmpdir(), 'opentms-zip-'));
    const path = join(dir, 'archive.zip');
    let zip: ZipFile | null = null;
    try {
      // Errors of the input stream pass through unchanged.
      await pipeline(
        input,
        byteLimit(all.maxArchiveBytes, `the archive is larger than the limit of ${all.maxArchiveBytes} bytes`),
        createWriteStream(path),
      );
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    try {
      zip = await new Promise<ZipFile>((resolve, reject) =>
        yauzl.open(
          path,
          { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: false },
          (error, zipFile) => (error ? reject(zipError(error)) : resolve(zipFile)),
        ),
      );
      if (zip.entryCount > all.maxEntries) {
        throw new FormatError(`the archive has ${zip.entryCount} entries, more than the limit of ${all.maxEntries}`);
      }
      const entries = await readEntries(zip);
      const comment = Buffer.isBuffer(zip.comment) ? zip.comment : Buffer.from(zip.comment as string, 'latin1');
      return new ZipPackage(dir, path, zip, entries, comment, all);
    } catch (error) {
      zip?.close();
      await rm(dir, { recursive: true, force: true });
      throw zipError(error);
    }
  }

  entry(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** Checks an entry's declared size and ratio against the limits before it is decompressed. */
  private admit(entry: ZipEntry): void {
    const { maxEntryBytes, maxRatio, ratioFloorBytes, maxTotalBytes } = this.limits;
    if (entry.raw.isEncrypted()) throw new FormatError(`entry ${entry.name} is encrypted`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new FormatError(`entry ${entry.name} uses an unsupported compression method (${entry.compressionMethod})`);
    }
    if (entry.uncompressedSize > maxEntryBytes) {
      throw new FormatError(`entry ${entry.name} expands beyond the limit (${entry.uncompressedSize} bytes, limit ${maxEntryBytes})`);
    }
    if (entry.uncompressedSize > ratioFloorBytes && entry.uncompressedSize > maxRatio * Math.max(1, entry.compressedSize)) {
      const ratio = Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize));
      throw new FormatError(`entry ${entry.name} expands beyond the limit (compression ratio ${ratio}:1, limit ${maxRatio}:1)`);
    }
    if (!this.opened.has(entry.index)) {
      if (this.decompressedTotal + entry.uncompressedSize > maxTotalBytes) {
        throw new FormatError(`entry ${entry.name} expands beyond the limit (the archive's entries exceed ${maxTotalBytes} bytes in all)`);
      }
      this.opened.add(entry.index);
      this.decompressedTotal += entry.uncompressedSize;
    }
  }

  /** The decompressed bytes of an entry, in chunks; corrupt data is a FormatError. */
  async *read(entry: ZipEntry): AsyncGenerator<Buffer> {
    if (this.closed) throw new Error('the ZIP package is closed');
    this.admit(entry);
    let stream: Readable;
    try {
      stream = await new Promise<Readable>((resolve, reject) =>
        this.zip.openReadStream(entry.raw, (error, readStream) => (error ? reject(error) : resolve(readStream))),
      );
    } catch (error) {
      throw new FormatError(`entry ${entry.name} cannot be read: ${(error as Error).message}`);
    }
    try {
      // Own iterator: an error of the stream is the archive's fault, one thrown by the consumer is not ours to wrap.
      const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      for (;;) {
        let next: IteratorResult<Buffer>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw new FormatError(`entry ${entry.name} is corrupt: ${(error as Error).message}`);
        }
        if (next.done) break;
        yield next.value;
      }
    } finally {
      stream.destroy();
    }
  }

  /** A whole (small) entry as text, refused beyond `maxBytes`. */
  async readText(entry: ZipEntry, maxBytes = 64 * 1024 * 1024): Promise<string> {
    if (entry.uncompressedSize > maxBytes) {
      throw new FormatError(`entry ${entry.name} is larger than ${maxBytes} bytes`);
    }
    const parts: Buffer[] = [];
    for await (const chunk of this.read(entry)) parts.push(chunk);
    const bytes = Buffer.concat(parts);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new FormatError(`entry ${entry.name} is not valid UTF-8 text`);
    }
  }

  /** A fresh path in the package's temporary directory (removed by `close()`). */
  tempPath(label: string): string {
    this.tempCount += 1;
    return join(this.dir, `${this.tempCount}-${label.replace(/[^A-Za-z0-9.-]/g, '_')}`);
  }

  /**
   * Writes the archive to `output` (and ends it): every entry in the original order, replaced
   * where `rewrite` returns new content, else copied raw. See the module comment.
   */
  async write(output: Writable, rewrite: (entry: ZipEntry) => EntryRewrite | null): Promise<void> {
    const fresh = new Map<number, { path: string; crc: number; size: number; compressedSize: number }>();
    for (const entry of this.entries) {
      const replacement = rewrite(entry);
      if (!replacement) continue;
      const path = this.tempPath(`entry-${entry.index}`);
      let crc = 0;
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const stages: (Transform | ReturnType<typeof createDeflateRaw>)[] = [measure];
      if (entry.compressionMethod === 8) stages.push(createDeflateRaw({ level: 6 }));
      else if (entry.compressionMethod !== 0) {
        throw new FormatError(`entry ${entry.name} uses an unsupported compression method (${entry.compressionMethod})`);
      }
      await pipeline(replacement.content, ...(stages as [Transform]), createWriteStream(path));
      if (replacement.unchanged?.()) {
        await rm(path, { force: true });
        continue;
      }
      const compressedSize = (await stat(path)).size;
      if (size > MAX_32 - 1 || compressedSize > MAX_32 - 1) throw new FormatError(`entry ${entry.name} would be larger than 4 GiB`);
      fresh.set(entry.index, { path, crc: crc >>> 0, size, compressedSize });
    }
    if (fresh.size === 0) {
      await pipeline(createReadStream(this.path), output);
      return;
    }
    const handle = await open(this.path, 'r');
    try {
      await pipeline(this.assemble(handle, fresh), output);
    } finally {
      await handle.close();
    }
  }

  private async *assemble(
    handle: FileHandle,
    fresh: Map<number, { path: string; crc: number; size: number; compressedSize: number }>,
  ): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of this.entries) {
      const raw = entry.raw;
      const start = raw.relativeOffsetOfLocalHeader;
      const head = await readAt(handle, start, 30);
      if (head.readUInt32LE(0) !== LOCAL_HEADER)
        throw new FormatError(`the file is not a valid ZIP archive (bad local header of ${entry.name})`);
      const nameLength = head.readUInt16LE(26);
      const extraLength = head.readUInt16LE(28);
      const localExtra = await readAt(handle, start + 30 + nameLength, extraLength);
      const dataStart = start + 30 + nameLength + extraLength;
      if (offset > MAX_32 - 1) throw new FormatError('the written archive would be larger than 4 GiB');
      const localOffset = offset;
      const replaced = fresh.get(entry.index);
      let crc = raw.crc32;
      let compressedSize = entry.compressedSize;
      let size = entry.uncompressedSize;
      let flags = raw.generalPurposeBitFlag;
      if (!replaced) {
        // Local header, data and data descriptor exactly as they were.
        let length = 30 + nameLength + extraLength + compressedSize;
        if ((flags & 0x8) !== 0) {
          const zip64 = extraFields(localExtra).some((field) => field.id === 0x0001);
          const signature = await readAt(handle, dataStart + compressedSize, 4);
          length += (signature.length === 4 && signature.readUInt32LE(0) === DATA_DESCRIPTOR ? 4 : 0) + (zip64 ? 20 : 12);
        }
        for await (const chunk of createReadStream(this.path, { start, end: start + length - 1 })) {
          yield chunk as Buffer;
        }
        offset += length;
      } else {
        crc = replaced.crc;
        compressedSize = replaced.compressedSize;
        size = replaced.size;
        flags &= ~0x8;
        const extra = withoutZip64(localExtra);
        const header = Buffer.alloc(30);
        header.writeUInt32LE(LOCAL_HEADER, 0);
        header.writeUInt16LE(raw.versionNeededToExtract, 4);
        header.writeUInt16LE(flags, 6);
        header.writeUInt16LE(raw.compressionMethod, 8);
        header.writeUInt16LE(raw.lastModFileTime, 10);
        header.writeUInt16LE(raw.lastModFileDate, 12);
        header.writeUInt32LE(crc, 14);
        header.writeUInt32LE(compressedSize, 18);
        header.writeUInt32LE(size, 22);
        header.writeUInt16LE(raw.fileNameRaw.length, 26);
        header.writeUInt16LE(extra.length, 28);
        yield Buffer.concat([header, raw.fileNameRaw, extra]);
        for await (const chunk of createReadStream(replaced.path)) yield chunk as Buffer;
        offset += 30 + raw.fileNameRaw.length + extra.length + compressedSize;
        await rm(replaced.path, { force: true });
      }
      if (compressedSize > MAX_32 - 1 || size > MAX_32 - 1) throw new FormatError(`entry ${entry.name} is too large to rewrite (4 GiB)`);
      const extra = withoutZip64(raw.extraFieldRaw);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(CENTRAL_HEADER, 0);
      record.writeUInt16LE(raw.versionMadeBy, 4);
      record.writeUInt16LE(raw.versionNeededToExtract, 6);
      record.writeUInt16LE(flags, 8);
      record.writeUInt16LE(raw.compressionMethod, 10);
      record.writeUInt16LE(raw.lastModFileTime, 12);
      record.writeUInt16LE(raw.lastModFileDate, 14);
      record.writeUInt32LE(crc, 16);
      record.writeUInt32LE(compressedSize, 20);
      record.writeUInt32LE(size, 24);
      record.writeUInt16LE(raw.fileNameRaw.length, 28);
      record.writeUInt16LE(extra.length, 30);
      record.writeUInt16LE(raw.fileCommentRaw.length, 32);
      record.writeUInt16LE(0, 34);
      record.writeUInt16LE(raw.internalFileAttributes, 36);
      record.writeUInt32LE(raw.externalFileAttributes >>> 0, 38);
      record.writeUInt32LE(localOffset, 42);
      central.push(record, raw.fileNameRaw, extra, raw.fileCommentRaw);
    }
    const directory = Buffer.concat(central);
    if (offset + directory.length > MAX_32 - 1) throw new FormatError('the written archive would be larger than 4 GiB');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    end.writeUInt16LE(this.comment.length, 20);
    yield Buffer.concat([directory, end, this.comment]);
  }

  /** Closes the archive and removes the temporary files. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.zip.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function extraFields(raw: Buffer): { id: number; start: number; end: number }[] {
  const fields: { id: number; start: number; end: number }[] = [];
  for (let at = 0; at + 4 <= raw.length;) {
    const id = raw.readUInt16LE(at);
    const length = raw.readUInt16LE(at + 2);
    const end = Math.min(raw.length, at + 4 + length);
    fields.push({ id, start: at, end });
    at = end;
  }
  return fields;
}

/** Extra fields less the ZIP64 one (sizes and offsets are written in the 32-bit fields). */
function withoutZip64(raw: Buffer): Buffer {
  const fields = extraFields(raw);
  if (!fields.some((field) => field.id === 0x0001)) return raw;
  return Buffer.concat(fields.filter((field) => field.id !== 0x0001).map((field) => raw.subarray(field.start, field.end)));
}

function readEntries(zip: ZipFile): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: ZipEntry[] = [];
    const names = new Set<string>();
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      reject(zipError(error));
    };
    zip.on('error', fail);
    zip.on('entry', (raw: Entry) => {
      try {
        const name = decodeName(raw);
        const problem = unsafeEntryName(name);
        if (problem) throw new FormatError(`the archive has an entry name with ${problem}: ${JSON.stringify(name.slice(0, 200))}`);
        if (names.has(name)) throw new FormatError(`the archive has two entries named ${JSON.stringify(name.slice(0, 200))}`);
        if (raw.isEncrypted()) throw new FormatError(`entry ${name} is encrypted`);
        names.add(name);
        entries.push({
          index: entries.length,
          name,
          isDirectory: name.endsWith('/'),
          compressedSize: raw.compressedSize,
          uncompressedSize: raw.uncompressedSize,
          compressionMethod: raw.compressionMethod,
          crc32: raw.crc32,
          raw,
        });
        zip.readEntry();
      } catch (error) {
        fail(error);
      }
    });
    zip.on('end', () => {
      if (!failed) resolve(entries);
    });
    zip.readEntry();
  });
}

/** Opens `input` as a ZIP package, runs `use`, and always closes it (temporary files removed). */
export async function withZipPackage<T>(
  input: AsyncIterable<unknown> | Readable,
  limits: ZipLimits | undefined,
  use: (zip: ZipPackage) => Promise<T>,
): Promise<T> {
  const zip = await ZipPackage.open(input, limits);
  try {
    return await use(zip);
  } finally {
    await zip.close();
  }
}

/** Whether `firstBytes` start like a ZIP archive (a local file header, or an empty archive). */
export function looksLikeZip(firstBytes: Buffer): boolean {
  return firstBytes.length >= 4 && firstBytes[0] === 0x50 && firstBytes[1] === 0x4b && firstBytes[2] === 3 && firstBytes[3] === 4;
}

/** The names of the entries whose local headers lie within `firstBytes` (for content sniffing). */
export function leadingEntryNames(firstBytes: Buffer): string[] {
  const names: string[] = [];
  let at = 0;
  while (at + 30 <= firstBytes.length && firstBytes.readUInt32LE(at) === LOCAL_HEADER) {
    const flags = firstBytes.readUInt16LE(at + 6);
    const compressedSize = firstBytes.readUInt32LE(at + 18);
    const nameLength = firstBytes.readUInt16LE(at + 26);
    const extraLength = firstBytes.readUInt16LE(at + 28);
    if (at + 30 + nameLength > firstBytes.length) break;
    names.push(firstBytes.subarray(at + 30, at + 30 + nameLength).toString('latin1'));
    if ((flags & 0x8) !== 0) break; // size unknown here
    at += 30 + nameLength + extraLength + compressedSize;
  }
  return names;
}

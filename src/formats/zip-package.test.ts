import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { unzipAll, zipOf } from './ooxml-test-helpers.js';
import { streamOf } from './testing.js';
import { FormatError } from './types.js';
import { ZipPackage, leadingEntryNames, looksLikeZip, unsafeEntryName, withZipPackage } from './zip-package.js';
import type { EntryRewrite, ZipEntry, ZipLimits } from './zip-package.js';

async function expectFormatError(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  expect((error as FormatError).message).toMatch(message);
}

async function writeWith(bytes: Buffer, rewrite: (entry: ZipEntry) => EntryRewrite | null, limits?: ZipLimits): Promise<Buffer> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  await withZipPackage(streamOf(bytes, 1000), limits, (zip) => zip.write(sink, rewrite));
  return Buffer.concat(parts);
}

async function readAll(zip: ZipPackage, entry: ZipEntry): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of zip.read(entry)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The raw compressed data of each entry (local header to data end) by name. */
function rawData(bytes: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let at = 0;
  while (at + 30 <= bytes.length && bytes.readUInt32LE(at) === 0x04034b50) {
    const size = bytes.readUInt32LE(at + 18);
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 30, at + 30 + nameLength).toString('latin1');
    const start = at + 30 + nameLength + extraLength;
    const flags = bytes.readUInt16LE(at + 6);
    if ((flags & 8) !== 0) break; // sizes in a descriptor: not needed by these tests
    out.set(name, bytes.subarray(start, start + size));
    at = start + size;
  }
  return out;
}

/** A one-entry archive written by hand, with any name, flags and declared sizes. */
function handMadeZip(name: string, data: Buffer, options: { flags?: number; method?: number; uncompressedSize?: number } = {}): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const method = options.method ?? 0;
  const size = options.uncompressedSize ?? data.length;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(options.flags ?? 0, 6);
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(options.flags ?? 0, 8);
  central.writeUInt16LE(method, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const directoryOffset = 30 + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

describe('ZipPackage', () => {
  it('lists and reads entries, and removes its temporary file on close', async () => {
    const bytes = await zipOf([
      ['a.txt', 'hello'],
      ['dir/b.xml', '<b/>', { compress: false }],
    ]);
    const zip = await ZipPackage.open(streamOf(bytes, 7));
    expect(zip.entries.map((e) => [e.name, e.compressionMethod])).toEqual([
      ['a.txt', 8],
      ['dir/b.xml', 0],
    ]);
    expect((await readAll(zip, zip.entry('a.txt')!)).toString()).toBe('hello');
    expect(await zip.readText(zip.entry('dir/b.xml')!)).toBe('<b/>');
    expect(existsSync(zip.path)).toBe(true);
    await zip.close();
    expect(existsSync(zip.path)).toBe(false);
  });

  it('refuses what is not a ZIP archive, and removes the spooled file', async () => {
    await expectFormatError(ZipPackage.open(streamOf('this is a text file named .docx')), /not a valid ZIP archive/);
    await expectFormatError(ZipPackage.open(streamOf(Buffer.alloc(0))), /not a valid ZIP archive/);
  });

  it('refuses too many entries before reading them', async () => {
    const bytes = await zipOf(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, 'x'] as [string, string]));
    await expectFormatError(ZipPackage.open(streamOf(bytes), { maxEntries: 10 }), /20 entries, more than the limit of 10/);
  });

  it('refuses an archive larger than the limit while spooling', async () => {
    const bytes = await zipOf([['a.bin', Buffer.alloc(5000, 1), { compress: false }]]);
    await expectFormatError(ZipPackage.open(streamOf(bytes, 100), { maxArchiveBytes: 1000 }), /larger than the limit of 1000 bytes/);
  });

  it.each([
    ['../evil.txt', /a "\.\." path segment/],
    ['word/../../evil.txt', /a "\.\." path segment/],
    ['/etc/passwd', /an absolute path/],
    ['C:/windows/x', /a drive letter/],
    ['a\\b.txt', /a backslash/],
  ])('refuses the entry name %s', async (name, message) => {
    await expectFormatError(ZipPackage.open(streamOf(handMadeZip(name, Buffer.from('x')))), message);
  });

  it('names unsafe entries', () => {
    expect(unsafeEntryName('word/document.xml')).toBeNull();
    expect(unsafeEntryName('a..b/c')).toBeNull();
    expect(unsafeEntryName('')).toBe('an empty name');
  });

  it('refuses encrypted entries', async () => {
    await expectFormatError(
      ZipPackage.open(streamOf(handMadeZip('secret.xml', Buffer.alloc(20), { flags: 1, uncompressedSize: 8 }))),
      /entry secret.xml is encrypted/,
    );
  });

  it('refuses a zip bomb (high compression ratio) when the entry is opened', async () => {
    const bytes = await zipOf([['bomb.xml', Buffer.alloc(8 * 1024 * 1024, 0x20)]]);
    const zip = await ZipPackage.open(streamOf(bytes));
    try {
      await expectFormatError(
        readAll(zip, zip.entry('bomb.xml')!),
        /entry bomb.xml expands beyond the limit \(compression ratio \d+:1, limit 200:1\)/,
      );
    } finally {
      await zip.close();
    }
  });

  it('refuses entries above the per-entry and total limits', async () => {
    const bytes = await zipOf([
      ['a.bin', Buffer.alloc(3000, 1), { compress: false }],
      ['b.bin', Buffer.alloc(3000, 2), { compress: false }],
    ]);
    await withZipPackage(streamOf(bytes), { maxEntryBytes: 2000 }, async (zip) => {
      await expectFormatError(readAll(zip, zip.entry('a.bin')!), /entry a.bin expands beyond the limit \(3000 bytes, limit 2000\)/);
    });
    await withZipPackage(streamOf(bytes), { maxTotalBytes: 5000 }, async (zip) => {
      expect((await readAll(zip, zip.entry('a.bin')!)).length).toBe(3000);
      expect((await readAll(zip, zip.entry('a.bin')!)).length).toBe(3000); // the same entry again does not count twice
      await expectFormatError(readAll(zip, zip.entry('b.bin')!), /exceed 5000 bytes in all/);
    });
  });

  it('stops an entry that expands past its declared size', async () => {
    const data = deflateRawSync(Buffer.alloc(100_000, 0x61));
    const bytes = handMadeZip('liar.xml', data, { method: 8, uncompressedSize: 1000 });
    await withZipPackage(streamOf(bytes), undefined, async (zip) => {
      await expectFormatError(readAll(zip, zip.entry('liar.xml')!), /entry liar.xml is corrupt/);
    });
  });

  it('treats a nested ZIP as bytes', async () => {
    const inner = await zipOf([['x.txt', 'inner']]);
    const bytes = await zipOf([['nested.zip', inner]]);
    await withZipPackage(streamOf(bytes), undefined, async (zip) => {
      expect(zip.entries.map((e) => e.name)).toEqual(['nested.zip']);
      expect((await readAll(zip, zip.entry('nested.zip')!)).equals(inner)).toBe(true);
    });
  });
});

describe('ZipPackage.write', () => {
  it('copies the whole file when nothing changes', async () => {
    const bytes = await zipOf([
      ['a.txt', 'hello'],
      ['b.txt', 'world'],
    ]);
    expect((await writeWith(bytes, () => null)).equals(bytes)).toBe(true);
    // Rewritten with the same content: reported unchanged, copied.
    const same = await writeWith(bytes, (entry) => {
      const content = entry.name === 'a.txt' ? 'hello' : 'world';
      return { content: [Buffer.from(content)], unchanged: () => true };
    });
    expect(same.equals(bytes)).toBe(true);
  });

  it('replaces an entry and copies the others raw, keeping names, dates, methods and order', async () => {
    const mtime = new Date(2021, 4, 6, 7, 8, 10);
    const bytes = await zipOf([
      ['first.xml', '<a>one</a>'.repeat(50), { mtime }],
      ['second.xml', 'replace me', { mtime }],
      ['stored.bin', Buffer.from([1, 2, 3, 4]), { compress: false, mtime }],
      ['third.xml', '<c>three</c>'.repeat(50), { mtime }],
    ]);
    const out = await writeWith(bytes, (entry) =>
      entry.name === 'second.xml'
        ? {
            content: (async function* () {
              yield Buffer.from('new ');
              yield Buffer.from('content ünïcode');
            })(),
          }
        : null,
    );
    const before = await unzipAll(bytes);
    const after = await unzipAll(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(after.get('second.xml')!.content.toString()).toBe('new content ünïcode');
    for (const name of ['first.xml', 'stored.bin', 'third.xml'])
      expect(after.get(name)!.content.equals(before.get(name)!.content)).toBe(true);
    for (const [name, entry] of after) {
      expect(entry.compressionMethod).toBe(before.get(name)!.compressionMethod);
      expect(entry.lastModFileTime).toBe(before.get(name)!.lastModFileTime);
      expect(entry.lastModFileDate).toBe(before.get(name)!.lastModFileDate);
    }
    // yazl writes data descriptors; the raw-copied entries are the same bytes: compare their compressed data through yauzl.
    await withZipPackage(streamOf(bytes), undefined, async (original) => {
      await withZipPackage(streamOf(out), undefined, async (written) => {
        for (const name of ['first.xml', 'third.xml']) {
          expect(written.entry(name)!.compressedSize).toBe(original.entry(name)!.compressedSize);
          expect(written.entry(name)!.crc32).toBe(original.entry(name)!.crc32);
        }
      });
    });
  });

  it('rewrites a stored entry stored, without a data descriptor, readable by unzip -t', async () => {
    const bytes = await zipOf([
      ['a.xml', 'aaa', { compress: false }],
      ['b.xml', 'bbb'],
    ]);
    const out = await writeWith(bytes, (entry) => (entry.name === 'a.xml' ? { content: [Buffer.from('stored again')] } : null));
    const raw = rawData(out);
    expect(raw.get('a.xml')!.toString()).toBe('stored again');
    const after = await unzipAll(out);
    expect(after.get('a.xml')!.compressionMethod).toBe(0);
    expect(after.get('b.xml')!.content.toString()).toBe('bbb');
  });
});

describe('sniffing', () => {
  it('recognizes a ZIP and names its leading entries', async () => {
    const bytes = await zipOf([
      ['[Content_Types].xml', '<Types/>', { compress: false }],
      ['word/document.xml', '<w:document/>', { compress: false }],
    ]);
    expect(looksLikeZip(bytes)).toBe(true);
    expect(looksLikeZip(Buffer.from('PK'))).toBe(false);
    // yazl sets the data-descriptor flag, so only the first name can be read from the header alone.
    expect(leadingEntryNames(bytes.subarray(0, 1024))[0]).toBe('[Content_Types].xml');
  });
});

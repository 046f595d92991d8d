import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError, localBlobStore } from './blob-store.js';
import type { BlobStore } from './blob-store.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe('local blob store', () => {
  let root: string;
  let store: BlobStore;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'opentms-blobs-'));
    store = localBlobStore(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('stores bytes under their SHA-256 and gives them back unchanged', async () => {
    const data = Buffer.from([0xef, 0xbb, 0xbf, 0x48, 0x00, 0xff, 0x0d, 0x0a]);
    const stored = await store.put(data);
    expect(stored).toEqual({ sha256: sha(data), size: data.length });
    expect(await bytesOf(await store.open(stored.sha256))).toEqual(data);
    expect(await store.has(stored.sha256)).toBe(true);
  });

  it('streams a large source through without holding it, and stores equal content once', async () => {
    const chunk = Buffer.alloc(1 << 20, 'a');
    const source = () =>
      Readable.from(
        (function* () {
          for (let i = 0; i < 16; i++) yield chunk;
        })(),
      );
    const [first, second] = await Promise.all([store.put(source()), store.put(source())]);
    expect(first).toEqual(second);
    expect(first.size).toBe(16 << 20);
    const folder = join(root, first.sha256.slice(0, 2), first.sha256.slice(2, 4));
    expect(await readdir(folder)).toEqual([first.sha256]);
  });

  it('refuses more than maxBytes and leaves nothing behind', async () => {
    await expect(store.put('x'.repeat(1001), { maxBytes: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.has(sha('x'.repeat(1001)))).toBe(false);
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
  });

  it('a source that fails half-way leaves nothing behind', async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('partial');
        throw new Error('client went away');
      })(),
    );
    await expect(store.put(failing)).rejects.toThrow('client went away');
    expect(await store.has(sha('partial'))).toBe(false);
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
  });

  it('removes blobs; a missing or malformed address is not found', async () => {
    const stored = await store.put('to be removed');
    await store.remove(stored.sha256);
    await store.remove(stored.sha256);
    expect(await store.has(stored.sha256)).toBe(false);
    await expect(store.open(stored.sha256)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.has('../x')).toBe(false);
  });
});

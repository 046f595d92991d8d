import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The blob store: where uploaded and generated files live (job originals, reference files,
 * target files). Blobs are addressed by the SHA-256 of their bytes, so one file uploaded twice is
 * stored once; which records use a blob is the database's business (see docs/translation-workflow.md).
 *
 * Files stream through: nothing holds a whole file in memory. A put resolves only when the bytes
 * are durable (file fsynced, renamed into place, directory fsynced), so a crash never leaves a
 * record pointing at a half-written file.
 */
export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface BlobStore {
  /** Streams `source` into the store. Rejects with BlobTooLargeError past `maxBytes`, leaving nothing behind. */
  put(source: Readable | Buffer | string, options?: { maxBytes?: number }): Promise<StoredBlob>;
  /** The blob's bytes; rejects with BlobNotFoundError when it is not there. */
  open(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  /** Removes the blob (no error when it is already gone). */
  remove(sha256: string): Promise<void>;
  /**
   * Every blob with the time it was last stored (a put of bytes already there renews it), and
   * leftover temporary files of interrupted puts (`sha256: null`), for the orphan sweeper.
   */
  list(): AsyncIterable<{ sha256: string | null; path: string; storedAt: Date }>;
  /** Removes a leftover temporary file named by `list`. */
  removeTemporary(path: string): Promise<void>;
  /** Removes the blob only if it was last stored before `cutoff` (checked at the moment of removal); whether it did. */
  removeIfStoredBefore(sha256: string, cutoff: Date): Promise<boolean>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`blob ${sha256} not found`);
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Blobs as files under a local folder: `<root>/ab/cd/<sha256>`, temporary files in `<root>/tmp`. */
export function localBlobStore(root: string): BlobStore {
  const pathOf = (sha256: string) => {
    if (!SHA256.test(sha256)) throw new BlobNotFoundError(sha256);
    return join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };

  async function fsyncDirectory(path: string): Promise<void> {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async function exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  }

  return {
    async put(source, options = {}) {
      const tmpDir = join(root, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmp = join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > limit) return done(new BlobTooLargeError(limit));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const input = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([Buffer.from(source)]) : source;
      const output = createWriteStream(tmp, { flags: 'wx' });
      try {
        await pipeline(input, meter, output);
        const handle = await open(tmp, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        const sha256 = hash.digest('hex');
        const target = pathOf(sha256);
        if (await exists(target)) {
          await rm(tmp, { force: true });
          // Renewed, so that the orphan sweeper does not take bytes a request is about to record.
          const now = new Date();
          await utimes(target, now, now);
        } else {
          await mkdir(dirname(target), { recursive: true });
          await rename(tmp, target);
          await fsyncDirectory(dirname(target));
        }
        return { sha256, size };
      } catch (error) {
        // The pipeline rejects as soon as the source fails, while the file may still be opening:
        // removed before it exists, it would be created after. Wait until the stream has closed.
        if (!output.closed) await once(output, 'close').catch(() => {});
        await rm(tmp, { force: true });
        throw error;
      }
    },

    async open(sha256) {
      const path = pathOf(sha256);
      if (!(await exists(path))) throw new BlobNotFoundError(sha256);
      return createReadStream(path);
    },

    async has(sha256) {
      return SHA256.test(sha256) && exists(pathOf(sha256));
    },

    async remove(sha256) {
      await rm(pathOf(sha256), { force: true });
    },

    async *list() {
      const entries = async (path: string) => readdir(path, { withFileTypes: true }).catch(() => []);
      for (const temporary of await entries(join(root, 'tmp'))) {
        if (!temporary.isFile()) continue;
        const path = join(root, 'tmp', temporary.name);
        const info = await stat(path).catch(() => null);
        if (info) yield { sha256: null, path, storedAt: info.mtime };
      }
      for (const first of await entries(root)) {
        if (!first.isDirectory() || !/^[0-9a-f]{2}$/.test(first.name)) continue;
        for (const second of await entries(join(root, first.name))) {
          if (!second.isDirectory()) continue;
          for (const file of await entries(join(root, first.name, second.name))) {
            if (!file.isFile() || !SHA256.test(file.name)) continue;
            const path = join(root, first.name, second.name, file.name);
            const info = await stat(path).catch(() => null);
            if (info) yield { sha256: file.name, path, storedAt: info.mtime };
          }
        }
      }
    },

    async removeIfStoredBefore(sha256, cutoff) {
      const info = await stat(pathOf(sha256)).catch(() => null);
      if (!info || info.mtime.getTime() > cutoff.getTime()) return false;
      await rm(pathOf(sha256), { force: true });
      return true;
    },

    async removeTemporary(path) {
      if (dirname(path) !== join(root, 'tmp')) throw new Error(`not a temporary file of the blob store: ${path}`);
      await rm(path, { force: true });
    },
  };
}

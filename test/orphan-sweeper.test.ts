import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS, sweepOrphanBlobs } from '../src/storage/orphan-sweeper.js';
import { recordStoredFile } from '../src/storage/stored-files.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';

/** The orphan blob sweeper (src/storage/orphan-sweeper.ts) on a real blob store and database. */
describe('orphan blob sweeper', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Makes the blob look stored `ms` before the test clock's now. */
  async function age(sha256: string, ms: number) {
    for await (const entry of t.deps.blobs.list()) {
      if (entry.sha256 === sha256) {
        const then = new Date(t.clock().getTime() - ms);
        await utimes(entry.path, then, then);
      }
    }
  }

  it('removes old blobs no record holds, and keeps recorded ones and fresh uploads', async () => {
    // The sweeper measures age by the app's clock; files are aged relative to it.
    const recorded = await t.deps.blobs.put('held by a record');
    await t.database.db.transaction().execute((trx) => recordStoredFile(t.deps, trx, recorded));
    const orphan = await t.deps.blobs.put('left by a failed transaction');
    const fresh = await t.deps.blobs.put('an upload in flight');
    await age(recorded.sha256, 2 * ORPHAN_GRACE_MS);
    await age(orphan.sha256, 2 * ORPHAN_GRACE_MS);
    await age(fresh.sha256, ORPHAN_GRACE_MS / 2);

    const result = await sweepOrphanBlobs(t.deps);
    expect(result.blobsRemoved).toBe(1);
    expect(await t.deps.blobs.has(orphan.sha256)).toBe(false);
    expect(await t.deps.blobs.has(recorded.sha256)).toBe(true);
    expect(await t.deps.blobs.has(fresh.sha256)).toBe(true);
  });

  it('leaves an old orphan alone once the same bytes are uploaded again', async () => {
    const first = await t.deps.blobs.put('uploaded twice');
    await age(first.sha256, 2 * ORPHAN_GRACE_MS);
    // The second upload renews the blob's time, so the sweeper sees a fresh upload.
    await t.deps.blobs.put('uploaded twice');
    const entry = await (async () => {
      for await (const e of t.deps.blobs.list()) if (e.sha256 === first.sha256) return e;
      return null;
    })();
    expect(Math.abs(entry!.storedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('removes leftover temporary files of interrupted puts', async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    const anchor = await t.deps.blobs.put('finds the store folder');
    let root = '';
    for await (const entry of t.deps.blobs.list()) if (entry.sha256 === anchor.sha256) root = join(entry.path, '..', '..', '..');
    await mkdir(join(root, 'tmp'), { recursive: true });
    const leftover = join(root, 'tmp', 'interrupted-put');
    await writeFile(leftover, 'half a file');
    const then = new Date(t.clock().getTime() - 2 * ORPHAN_GRACE_MS);
    await utimes(leftover, then, then);
    const result = await sweepOrphanBlobs(t.deps);
    expect(result.temporaryRemoved).toBe(1);
  });
});

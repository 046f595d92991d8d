import type { StorageDeps } from './stored-files.js';

/**
 * Removes blobs no record holds. A request stores an upload's bytes before the transaction that
 * records them (src/storage/stored-files.ts); when that transaction fails, or the process dies in
 * between, the bytes stay behind with no `stored_files` row. Blobs without a row that were stored
 * more than `graceMs` ago, and temporary files of interrupted puts as old, are removed; a blob
 * that is recorded is never touched (releaseStoredFiles removes those). The grace period keeps
 * the sweeper away from uploads still in flight: a put of bytes already present renews their time.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

export interface SweepResult {
  blobsRemoved: number;
  temporaryRemoved: number;
}

export async function sweepOrphanBlobs(deps: StorageDeps, graceMs = ORPHAN_GRACE_MS): Promise<SweepResult> {
  const cutoff = deps.clock().getTime() - graceMs;
  const result: SweepResult = { blobsRemoved: 0, temporaryRemoved: 0 };
  let candidates: string[] = [];
  const sweep = async () => {
    if (candidates.length === 0) return;
    const recorded = await deps.database.db.selectFrom('storedFiles').select('sha256').where('sha256', 'in', candidates).execute();
    const keep = new Set(recorded.map((r) => r.sha256));
    for (const sha256 of candidates) {
      // Stored again since it was listed (an upload of the same bytes in flight): left alone.
      if (keep.has(sha256) || !(await deps.blobs.removeIfStoredBefore(sha256, new Date(cutoff)))) continue;
      result.blobsRemoved++;
    }
    candidates = [];
  };
  for await (const entry of deps.blobs.list()) {
    if (entry.storedAt.getTime() > cutoff) continue;
    if (entry.sha256 === null) {
      await deps.blobs.removeTemporary(entry.path);
      result.temporaryRemoved++;
      continue;
    }
    candidates.push(entry.sha256);
    if (candidates.length >= BATCH) await sweep();
  }
  await sweep();
  return result;
}

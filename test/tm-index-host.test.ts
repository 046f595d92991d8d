import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { newUid } from '../src/db/ids.js';
import { TmIndexHost } from '../src/modules/language-resources/translation-memories/tm-index/index-host.js';
import type { NewTmUnit } from '../src/modules/language-resources/translation-memories/tm-units.repository.js';
import {
  bumpVersion,
  deleteSourceUnits,
  textHash,
  upsertUnits,
} from '../src/modules/language-resources/translation-memories/tm-units.repository.js';
import { insertOrganization } from '../src/modules/identity/organizations/organizations.repository.js';
import { createTestDatabase } from './harness.js';

/**
 * The in-process index over more rows than one page of its reads (5,000): the first load pages
 * through the unique key, a catch-up through (version, id), and neither loses or repeats a row at
 * a page's edge. Searches for the first and last texts written find them at 100.
 */

const UNITS = 12_001;
/** Letters for a number (0 → "a", 26 → "ba"): texts that differ in words, not only in a number. */
const letters = (n: number): string => (n < 26 ? '' : letters(Math.floor(n / 26))) + String.fromCharCode(97 + (n % 26));
const text = (i: number) => `Entry ${letters(i)} of the paged memory, written ${letters(i * 7 + 3)} for the index host`;

describe('the TM index host over many pages', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let tmId: string;
  const hosts: TmIndexHost[] = [];

  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
    const organization = await insertOrganization(database.db, 'Paged');
    const tm = await database.db
      .insertInto('transMemories')
      .values({
        uid: newUid(),
        organizationId: organization.id,
        internalId: 1,
        name: 'Paged',
        sourceLang: 'en',
        targetLangs: '["de","fr"]',
        createdAt: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    tmId = String(tm.id);
  });

  afterAll(async () => {
    for (const host of hosts) await host.close();
    await drop();
  });

  async function write(from: number, to: number, lang: string): Promise<void> {
    for (let start = from; start < to; start += 2000) {
      const units: NewTmUnit[] = [];
      for (let i = start; i < Math.min(to, start + 2000); i++) units.push({ targetLang: lang, source: text(i), target: `${lang} ${i}` });
      await database.db
        .transaction()
        .execute(async (trx) => upsertUnits(trx, tmId, await bumpVersion(trx, tmId), units, '2026-11-25T00:00:00.000Z'));
    }
  }

  const exact = async (host: TmIndexHost, i: number, langs: string[] | null = null) =>
    (await host.search(tmId, text(i), { minScore: 100, limit: 1, langs })).map((m) => m.key);

  it('loads every row, then catches up on more than a page of changes, deletions included', async () => {
    await write(0, UNITS, 'de');
    // Every source in a second language too: a source's rows span the load's pages in key order.
    await write(0, UNITS, 'fr');
    const host = new TmIndexHost(database.db);
    hosts.push(host);
    const probes = [0, 1, 4999, 5000, 5001, 9999, 10_000, UNITS - 1];
    for (const i of probes) expect(await exact(host, i, ['fr'])).toEqual([textHash(text(i))]);
    expect((await host.stats()).entries).toBe(UNITS);

    // More than a page of changes since: new sources, and deletions of a whole source.
    await write(UNITS, UNITS + 7003, 'de');
    await database.db.transaction().execute(async (trx) => {
      const version = await bumpVersion(trx, tmId);
      for (const i of [3, 5000, UNITS - 1]) await deleteSourceUnits(trx, tmId, version, textHash(text(i)), null);
    });
    for (const i of [UNITS, UNITS + 5000, UNITS + 7002, 0, 10_000]) expect(await exact(host, i)).toEqual([textHash(text(i))]);
    for (const i of [3, 5000, UNITS - 1]) expect(await exact(host, i)).toEqual([]);
    expect((await host.stats()).entries).toBe(UNITS + 7003 - 3);

    // A second host (another process) loads the same state from scratch.
    const other = new TmIndexHost(database.db);
    hosts.push(other);
    expect(await exact(other, UNITS + 7002)).toEqual([textHash(text(UNITS + 7002))]);
    expect((await other.stats()).entries).toBe(UNITS + 7003 - 3);
  }, 60_000);

  it('splits band searches between the writer and reader threads over one shared index: the same answers as one thread, and changes seen at once', async () => {
    const single = new TmIndexHost(database.db, { readers: 0 });
    const shared = new TmIndexHost(database.db, { readers: 2 });
    hosts.push(single, shared);
    const stages = [100, 95, 85, 75, 50];
    // Exact texts, near ones (a word changed) and texts of nothing in the TM.
    const queries = [...Array(90).keys()].map((n) =>
      n % 3 === 0 ? text(n * 97) : n % 3 === 1 ? text(n * 89).replace('paged', 'paginated') : `Nothing alike ${letters(n)} here`,
    );
    const expected = await single.bestMatches(tmId, queries, { stages, langs: ['de'] });
    expect(expected.filter((match) => match !== null).length).toBeGreaterThan(40);
    expect(await shared.bestMatches(tmId, queries, { stages, langs: ['de'] })).toEqual(expected);
    expect(shared.liveReaders).toBe(2);
    expect(single.liveReaders).toBe(0);
    // Several batches at once, as an analysis sends them.
    const batches = await Promise.all([0, 1, 2].map(() => shared.bestMatches(tmId, queries, { stages, langs: ['de'] })));
    for (const batch of batches) expect(batch).toEqual(expected);

    // A change is found by every thread's part of the next batch (the readers adopt a new snapshot).
    const added = [UNITS + 8000, UNITS + 8001, UNITS + 8002, UNITS + 8003];
    await write(added[0]!, added[added.length - 1]! + 1, 'de');
    const next = await shared.bestMatches(tmId, [...added.map(text), ...queries, ...added.map(text)], { stages, langs: ['de'] });
    expect(next.slice(0, 4)).toEqual(added.map((i) => [textHash(text(i)), 100]));
    expect(next.slice(-4)).toEqual(added.map((i) => [textHash(text(i)), 100]));
    expect(next.slice(4, -4)).toEqual(expected);
  }, 60_000);
});

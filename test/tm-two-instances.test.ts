import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { localBlobStore } from '../src/storage/blob-store.js';
import { createTestDatabase, TEST_DATABASE_URL } from './harness.js';
import { apiToken, loginAs, makeOrganization, makeUser } from './factories.js';
import type { TestApp } from './harness.js';

/**
 * Issue 14, point 8: several app instances over one database give the same search results, and a
 * unit written through one is found through the other as soon as the write returns. Each instance
 * has its own connections and its own index thread (as two processes would); on PostgreSQL they
 * share the test's schema, on SQLite one database file.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('translation memories across app instances', () => {
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  let cleanUp: () => Promise<void>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const blobDir = mkdtempSync(join(tmpdir(), 'opentms-tm-two-'));
    let first: Database;
    let second: Database;
    if (TEST_DATABASE_URL) {
      const created = await createTestDatabase();
      first = created.database;
      second = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema: created.schema!, maxConnections: 4 });
      cleanUp = async () => {
        await second.close();
        await created.drop();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'opentms-tm-two-db-'));
      first = openDatabase({ kind: 'sqlite', path: join(dir, 'db.sqlite') });
      await migrateToLatest(first);
      second = openDatabase({ kind: 'sqlite', path: join(dir, 'db.sqlite') });
      cleanUp = async () => {
        await first.close();
        await second.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    databases.push(first, second);
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    for (const database of databases) {
      const deps = { config, database, clock: () => new Date(), taskWakeup: createTaskWakeup(), blobs: localBlobStore(blobDir) };
      apps.push(await buildApp(deps, { logger: false }));
    }
    const organization = await makeOrganization(first.db);
    const admin = await makeUser(first.db, organization, { role: 'ADMIN' });
    headers = apiToken(await loginAs({ inject: (o: any) => apps[0]!.inject(o) } as unknown as TestApp, admin));
    const previous = cleanUp;
    cleanUp = async () => {
      for (const app of apps) await app.close();
      await previous();
      rmSync(blobDir, { recursive: true, force: true });
    };
  });
  afterAll(() => cleanUp());

  const call = async (instance: number, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const response = await apps[instance]!.inject({
      method,
      url: `/api2/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? null : response.json();
  };
  const texts = (result: any) => result.searchResults.map((r: any) => `${r.source.text}=${r.score}`);

  it('finds through one instance what was written through the other, at once', async () => {
    const tm = await call(0, 'POST', 'transMemories', { name: 'Shared', sourceLang: 'en', targetLangs: ['de'] });
    const search = (instance: number, query: string) =>
      call(instance, 'POST', `transMemories/${tm.uid}/search`, { query, sourceLang: 'en' });

    // Both load their index (empty), then writes go through alternating instances.
    expect(texts(await search(0, 'The printer is out of paper.'))).toEqual([]);
    expect(texts(await search(1, 'The printer is out of paper.'))).toEqual([]);
    await call(0, 'POST', `transMemories/${tm.uid}/segments`, {
      targetLang: 'de',
      sourceSegment: 'The printer is out of paper.',
      targetSegment: 'Der Drucker hat kein Papier.',
    });
    expect(texts(await search(1, 'The printer is out of paper.'))).toEqual(['The printer is out of paper.=1']);
    await call(1, 'POST', `transMemories/${tm.uid}/segments`, {
      targetLang: 'de',
      sourceSegment: 'The printer is out of toner.',
      targetSegment: 'Der Drucker hat keinen Toner.',
    });
    const fromFirst = await search(0, 'The printer is out of toner!');
    const fromSecond = await search(1, 'The printer is out of toner!');
    expect(texts(fromFirst)).toEqual(texts(fromSecond));
    expect(texts(fromFirst)[0]).toBe('The printer is out of toner.=0.99');

    // A deletion through one is seen by the other.
    const segmentId = fromFirst.searchResults[0].segmentId;
    await call(0, 'DELETE', `transMemories/${tm.uid}/segments/${segmentId}`);
    expect(texts(await search(1, 'The printer is out of toner.'))).not.toContain('The printer is out of toner.=1');

    // Clearing through one empties the other's index too; new writes are found again.
    await call(1, 'DELETE', `transMemories/${tm.uid}/segments`);
    expect(texts(await search(0, 'The printer is out of paper.'))).toEqual([]);
    await call(1, 'POST', `transMemories/${tm.uid}/segments`, {
      targetLang: 'de',
      sourceSegment: 'Paper jam.',
      targetSegment: 'Papierstau.',
    });
    expect(texts(await search(0, 'Paper jam.'))).toEqual(['Paper jam.=1']);

    // Deleting the TM through one: the other answers 404, not stale results.
    await call(0, 'DELETE', `transMemories/${tm.uid}`);
    const gone = await apps[1]!.inject({
      method: 'POST',
      url: `/api2/v1/transMemories/${tm.uid}/search`,
      headers,
      payload: { query: 'Paper jam.', sourceLang: 'en' },
    });
    expect(gone.statusCode).toBe(404);
  });
});

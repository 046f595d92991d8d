import { createHash } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newUid } from '../src/db/ids.js';
import { migrations } from '../src/db/migrations/index.js';
import { textHash, upsertUnits } from '../src/modules/language-resources/translation-memories/tm-units.repository.js';
import { createTestDatabase } from './harness.js';

/**
 * The migration 2026-11-25T0900_tm_units_import_keys rebuilds `tm_units` with shorter hashes and a
 * unique key that leads with the source: rows written before it keep their ids, texts and stamps,
 * get the new hashes, and behave as units written after it (the upsert finds them, new rows
 * continue the ids). Its `down` restores the layout before it.
 */

const TARGET = '2026-11-25T0900_tm_units_import_keys';
const hexHash = (text: string) => createHash('sha1').update(text).digest('hex');

describe('the migration that rebuilt tm_units with import keys', () => {
  it('keeps the rows written before it, with the new hashes, and leaves the upsert duplicate-free', async () => {
    const { database, drop, schema } = await createTestDatabase({ migrate: false });
    try {
      const names = Object.keys(migrations).sort();
      const before = names[names.indexOf(TARGET) - 1]!;
      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => migrations },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const at = '2026-11-24T10:00:00.000Z';
      const bool = (value: boolean) => (database.dialect === 'postgres' ? value : Number(value));
      const org = await db
        .insertInto('organizations')
        .values({ uid: newUid(), name: 'Before', created_at: at, is_system: bool(false) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tm = await db
        .insertInto('trans_memories')
        .values({
          uid: newUid(),
          organization_id: org.id,
          internal_id: 1,
          name: 'Old',
          source_lang: 'en',
          target_langs: '["de"]',
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const old = [
        ['Hello world', 'Hallo Welt', false],
        ['Open the file', 'Datei öffnen', false],
        ['Gone', 'Weg', true],
      ] as const;
      for (const [source, target, deleted] of old) {
        await db
          .insertInto('tm_units')
          .values({
            tm_id: tm.id,
            target_lang: 'de',
            source_hash: hexHash(source),
            target_hash: hexHash(target),
            source,
            target,
            previous_source: 'Before it',
            created_at: at,
            modified_at: at,
            version: 1,
            deleted: bool(deleted),
          })
          .execute();
      }
      const idsBefore = (await sql<{ id: unknown }>`select id from tm_units order by id`.execute(db)).rows.map((r) => String(r.id));

      expect((await migrator.migrateTo(TARGET)).error).toBeUndefined();
      const rows = await database.db.selectFrom('tmUnits').selectAll().orderBy('id').execute();
      expect(rows.map((r) => String(r.id))).toEqual(idsBefore);
      expect(rows.map((r) => [r.source, r.sourceHash, r.targetHash, r.previousSource, Boolean(r.deleted)])).toEqual(
        old.map(([source, target, deleted]) => [source, textHash(source), textHash(target), 'Before it', deleted]),
      );
      expect(textHash('Hello world')).toMatch(/^[A-Za-z0-9_-]{20}$/);

      // The same source and target again: an update of the old row (the tombstone revives); a new pair: a new row after the old ones.
      await database.db.transaction().execute((trx) =>
        upsertUnits(
          trx,
          String(tm.id),
          2,
          [
            { targetLang: 'de', source: 'Hello world', target: 'Hallo Welt', previousSource: 'Changed' },
            { targetLang: 'de', source: 'Gone', target: 'Weg' },
            { targetLang: 'de', source: 'New', target: 'Neu' },
          ],
          '2026-11-25T10:00:00.000Z',
        ),
      );
      const after = await database.db.selectFrom('tmUnits').selectAll().orderBy('id').execute();
      expect(after).toHaveLength(4);
      expect(after.map((r) => [r.source, r.previousSource, Boolean(r.deleted), Number(r.version)])).toEqual([
        ['Hello world', 'Changed', false, 2],
        ['Open the file', 'Before it', false, 1],
        ['Gone', null, false, 2],
        ['New', null, false, 2],
      ]);
      expect(Number(after[3]!.id)).toBeGreaterThan(Number(after[2]!.id));

      // down: the layout before it, the hashes in hex again; up again, and the rest still applies.
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const restored = (
        await sql<{ source: string; hash: string }>`select source, source_hash as hash from tm_units order by id`.execute(db)
      ).rows;
      expect(restored.map((r) => r.hash)).toEqual(restored.map((r) => hexHash(r.source)));
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await database.db.selectFrom('tmUnits').select('sourceHash').orderBy('id').execute()).toEqual(
        after.map((r) => ({ sourceHash: r.sourceHash })),
      );
    } finally {
      await drop();
    }
  });
});

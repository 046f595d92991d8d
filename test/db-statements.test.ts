import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, sql } from 'kysely';
import type { UnknownRow } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RowCasePlugin } from '../src/db/camel-case.js';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { statementName } from '../src/db/pg-statements.js';
import { wrapSqlite } from '../src/db/sqlite-statements.js';
import { makeOrganization, makeUser } from './factories.js';
import { TEST_DATABASE_URL } from './harness.js';

/**
 * The database levers of the request path (docs/performance.md, "Database levers"): prepared
 * statements kept on SQLite, named statements on PostgreSQL, and the cheaper row mapping.
 * The SQLite part always runs (SQLite is in-process); the PostgreSQL part with TEST_DATABASE_URL.
 */

interface Scratch {
  id: number;
  owner_id: number | null;
  internal_id: number;
  flag: number;
  label: string;
}
interface ScratchDB {
  scratch: Scratch;
}

/** A bare Kysely over an in-memory SQLite database with the service's wrapper. */
function scratchSqlite(maxStatements?: number) {
  const raw = new BetterSqlite3(':memory:');
  const wrapped = wrapSqlite(raw, maxStatements === undefined ? {} : { maxStatements });
  const db = new Kysely<ScratchDB>({ dialect: new SqliteDialect({ database: wrapped }) });
  const prepare = vi.spyOn(raw, 'prepare');
  return { raw, wrapped, db, prepare };
}

async function fillScratch(db: Kysely<ScratchDB>, rows = 10): Promise<void> {
  await sql`create table scratch (id integer primary key, owner_id integer, internal_id integer not null, flag integer not null, label text not null)`.execute(
    db,
  );
  for (let i = 1; i <= rows; i++) {
    await db
      .insertInto('scratch')
      .values({ id: i, owner_id: i % 2 ? 7 : null, internal_id: 100 + i, flag: i % 2, label: `row ${i}` })
      .execute();
  }
}

describe('SQLite: prepared statements are kept and reused', () => {
  it('prepares a statement once for repeated executions with new values', async () => {
    const { db, prepare } = scratchSqlite();
    await fillScratch(db);
    prepare.mockClear();
    for (let id = 1; id <= 5; id++) {
      const row = await db.selectFrom('scratch').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.label).toBe(`row ${id}`);
    }
    expect(prepare).toHaveBeenCalledTimes(1);
    await db.selectFrom('scratch').select('label').where('id', '=', 1).execute();
    expect(prepare).toHaveBeenCalledTimes(2);
    await db.destroy();
  });

  it('answers exactly what an uncached connection answers: ids as strings, counters as numbers', async () => {
    const cached = scratchSqlite();
    const uncached = scratchSqlite(0);
    await fillScratch(cached.db);
    await fillScratch(uncached.db);
    const query = (db: Kysely<ScratchDB>) => db.selectFrom('scratch').selectAll().where('flag', '=', 1).orderBy('id').execute();
    const first = await query(cached.db);
    const again = await query(cached.db);
    const reference = await query(uncached.db);
    expect(again).toEqual(first);
    expect(first).toEqual(reference);
    expect(first[0]).toEqual({ id: '1', owner_id: '7', internal_id: 101, flag: 1, label: 'row 1' });
    expect(uncached.wrapped.cachedStatements).toBe(0);
    await cached.db.destroy();
    await uncached.db.destroy();
  });

  it('builds each row as better-sqlite3 would: same keys, order and values, a repeated name keeping its last value', async () => {
    const { raw, wrapped, db } = scratchSqlite();
    await fillScratch(db);
    const queries = [
      'select * from scratch order by id',
      'select a.*, b.* from scratch a join scratch b on b.id = a.id + 1 order by a.id',
      'select label as "quote""d", count(*) over () as n, null as empty_value, x\'00ff\' as bytes from scratch',
      'select * from scratch where id < 0',
    ];
    for (const query of queries) {
      const reference = raw
        .prepare(query)
        .all()
        .map((row) => {
          const copy = { ...(row as Record<string, unknown>) };
          for (const key of Object.keys(copy))
            if ((key === 'id' || key.endsWith('_id')) && key !== 'internal_id' && typeof copy[key] === 'number')
              copy[key] = String(copy[key]);
          return copy;
        });
      const rows = wrapped.prepare(query).all([]) as Array<Record<string, unknown>>;
      expect(
        rows.map((row) => Object.keys(row)),
        query,
      ).toEqual(reference.map((row) => Object.keys(row)));
      expect(rows, query).toEqual(reference);
    }
    // better-sqlite3 would assign a `__proto__` column to the prototype; here it is a column like any other.
    const [row] = wrapped.prepare('select label as "__proto__", 1 as n from scratch where id = 1').all([]) as Array<
      Record<string, unknown>
    >;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('row 1');
    expect(row!.n).toBe(1);
    await db.destroy();
  });

  it('keeps at most maxStatements, dropping the least recently used', async () => {
    const { db, wrapped, prepare } = scratchSqlite(3);
    await fillScratch(db);
    const byIds = (ids: number[]) => db.selectFrom('scratch').select('id').where('id', 'in', ids).execute();
    for (let n = 1; n <= 6; n++) await byIds(Array.from({ length: n }, (_, i) => i + 1));
    expect(wrapped.cachedStatements).toBe(3); // in-lists of length 4, 5 and 6
    prepare.mockClear();
    await byIds([1, 2, 3, 4]); // kept, and now the most recent
    expect(prepare).toHaveBeenCalledTimes(0);
    await byIds([1]); // evicted earlier: prepared again, evicting the length-5 list
    expect(prepare).toHaveBeenCalledTimes(1);
    await byIds([1, 2, 3, 4]);
    expect(prepare).toHaveBeenCalledTimes(1);
    await byIds([1, 2, 3, 4, 5]);
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(wrapped.cachedStatements).toBe(3);
    expect((await byIds([2, 3])).map((r) => r.id)).toEqual(['2', '3']);
    await db.destroy();
  });

  it('streams with a statement of its own, so the same text can run while a stream is open', async () => {
    const { db, wrapped } = scratchSqlite();
    await fillScratch(db);
    const text = 'select * from scratch where id > ? order by id';
    const open = wrapped.prepare(text).iterate([0]);
    expect(open.next().value).toMatchObject({ id: '1', owner_id: '7' });
    // The kept statement is not the busy one.
    expect(wrapped.prepare(text).all([8])).toEqual([
      { id: '9', owner_id: '7', internal_id: 109, flag: 1, label: 'row 9' },
      { id: '10', owner_id: null, internal_id: 110, flag: 0, label: 'row 10' },
    ]);
    const rest = [...open].map((row) => (row as { id: string }).id);
    expect(rest).toEqual(['2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // Kysely's stream goes through the same path.
    const streamed: string[] = [];
    for await (const row of db.selectFrom('scratch').select('id').where('id', '>', 7).stream()) streamed.push(String(row.id));
    expect(streamed).toEqual(['8', '9', '10']);
    await db.destroy();
  });

  it('runs transactions through kept begin/commit/rollback statements', async () => {
    const { db, prepare } = scratchSqlite();
    await fillScratch(db, 0);
    prepare.mockClear();
    for (let i = 1; i <= 3; i++) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('scratch').values({ id: i, owner_id: null, internal_id: i, flag: 0, label: 'kept' }).execute();
      });
      await expect(
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('scratch')
            .values({ id: 100 + i, owner_id: null, internal_id: i, flag: 0, label: 'rolled back' })
            .execute();
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    }
    const rows = await db.selectFrom('scratch').select(['id', 'label']).orderBy('id').execute();
    expect(rows).toEqual([1, 2, 3].map((id) => ({ id: String(id), label: 'kept' })));
    // begin, insert, commit, rollback, and the final select: each prepared once.
    expect(prepare).toHaveBeenCalledTimes(5);
    await db.destroy();
  });

  it('forgets kept statements when the schema changes, so new id columns are read as strings', async () => {
    const { db, wrapped } = scratchSqlite();
    await fillScratch(db, 1);
    expect(await db.selectFrom('scratch').selectAll().execute()).toHaveLength(1);
    expect(wrapped.cachedStatements).toBeGreaterThan(0);
    await sql`alter table scratch add column project_id integer`.execute(db);
    expect(wrapped.cachedStatements).toBe(0);
    await sql`update scratch set project_id = 42`.execute(db);
    const [row] = (await db.selectFrom('scratch').selectAll().execute()) as unknown as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ id: '1', project_id: '42' });
    await db.destroy();
  });

  it('keeps the statements of the service database across requests (openDatabase)', async () => {
    const prepare = vi.spyOn(BetterSqlite3.prototype, 'prepare');
    const database = openDatabase({ kind: 'sqlite', path: ':memory:' });
    try {
      await migrateToLatest(database);
      const organization = await makeOrganization(database.db);
      const user = await makeUser(database.db, organization);
      const find = () =>
        database.db
          .selectFrom('users')
          .selectAll()
          .where('organizationId', '=', organization.id)
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
      const first = await find();
      prepare.mockClear();
      for (let i = 0; i < 5; i++) expect(await find()).toEqual(first);
      expect(prepare).not.toHaveBeenCalled();
      expect(first).toMatchObject({ id: user.id, organizationId: organization.id, active: 1 });
      expect(typeof first.id).toBe('string');
    } finally {
      prepare.mockRestore();
      await database.close();
    }
  });
});

describe('RowCasePlugin maps rows exactly as CamelCasePlugin does', () => {
  class Exposed extends CamelCasePlugin {
    map(row: UnknownRow): UnknownRow {
      return this.mapRow(row);
    }
  }
  class ExposedRowCase extends RowCasePlugin {
    map(row: UnknownRow): UnknownRow {
      return this.mapRow(row);
    }
  }

  it('for flat and nested rows', () => {
    const date = new Date('2026-11-21T12:00:00.000Z');
    const rows: UnknownRow[] = [
      { id: '1', project_id: '2', internal_id: 3, is_system: 1, created_at: '2026', note: null, missing: undefined },
      { already_camel: 'x', alreadyCamel2: 'y', _leading: 1, trailing_: 2, double__under: 3, UPPER_CASE: 4 },
      {
        json_value: { nested_key: { deeper_key: [1, { in_array: true }] }, list_of: [{ a_b: 1 }, 'text', null] },
        array_value: [{ item_key: 1 }, [{ inner_key: 2 }], 3],
        date_value: date,
        buffer_value: Buffer.from('ab'),
        null_proto: Object.assign(Object.create(null) as object, { some_key: 1 }),
      },
      {},
    ];
    const kysely = new Exposed();
    const ours = new ExposedRowCase();
    for (const row of rows) {
      const expected = kysely.map(row);
      const actual = ours.map(row);
      expect(actual).toEqual(expected);
      expect(Object.keys(actual)).toEqual(Object.keys(expected));
    }
    expect(ours.mapRows(rows)).toEqual(rows.map((row) => kysely.map(row)));
    const mapped = ours.map(rows[2]!);
    expect(mapped.dateValue).toBe(date);
    expect(mapped.bufferValue).toBe(rows[2]!.buffer_value);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL: named prepared statements', () => {
  const url = TEST_DATABASE_URL!;
  const schema = `test_named_${process.pid}_${randomBytes(4).toString('hex')}`;
  const opened: Database[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query(`create table ${schema}.scratch (id bigserial primary key, owner_id bigint, label text not null)`);
    await admin.query(`insert into ${schema}.scratch (owner_id, label) select n, 'row ' || n from generate_series(1, 10) n`);
    await admin.end();
  });

  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  /** One connection, so that every statement runs in the session the checks look at. */
  function open(namedStatements: { maxPerConnection?: number; minUses?: number } = {}) {
    const database = openDatabase({ kind: 'postgres', url, schema, maxConnections: 1, namedStatements });
    opened.push(database);
    return database.db as unknown as Kysely<{ scratch: { id: string; ownerId: string | null; label: string } }>;
  }

  async function preparedNames<T>(db: Kysely<T>): Promise<Map<string, string>> {
    const { rows } = await sql<{
      name: string;
      statement: string;
    }>`select name, statement from pg_prepared_statements where name like 'q\\_%'`.execute(db);
    return new Map(rows.map((r) => [r.name, r.statement]));
  }

  async function backendPid<T>(db: Kysely<T>): Promise<number> {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    return rows[0]!.pid;
  }

  it('names a statement after its second run and reuses it on the connection', async () => {
    const db = open();
    const byId = (id: number) => db.selectFrom('scratch').select(['id', 'ownerId', 'label']).where('id', '=', String(id));
    const text = byId(1).compile().sql;
    const pid = await backendPid(db);
    expect(await byId(1).execute()).toEqual([{ id: '1', ownerId: '1', label: 'row 1' }]);
    expect((await preparedNames(db)).has(statementName(text))).toBe(false);
    for (let id = 2; id <= 5; id++) expect((await byId(id).executeTakeFirstOrThrow()).label).toBe(`row ${id}`);
    const names = await preparedNames(db);
    expect(names.get(statementName(text))).toBe(text);
    expect([...names.values()].filter((statement) => statement === text)).toHaveLength(1);
    expect(await backendPid(db)).toBe(pid);
  });

  it('names at most maxPerConnection statements per connection; the rest run unnamed', async () => {
    const db = open({ maxPerConnection: 3, minUses: 1 });
    const byIds = (ids: string[]) => db.selectFrom('scratch').select('id').where('id', 'in', ids).orderBy('id').execute();
    for (let round = 0; round < 2; round++) {
      for (let n = 1; n <= 6; n++) {
        const ids = Array.from({ length: n }, (_, i) => String(i + 1));
        expect((await byIds(ids)).map((r) => r.id)).toEqual(ids);
      }
    }
    expect((await preparedNames(db)).size).toBe(3);
  });

  it('keeps statements prepared in a transaction that rolls back', async () => {
    const db = open({ minUses: 1 });
    const query = () => db.selectFrom('scratch').select('label').where('id', '=', '3');
    const name = statementName(query().compile().sql);
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await trx.selectFrom('scratch').select('label').where('id', '=', '3').execute()).toEqual([{ label: 'row 3' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await preparedNames(db)).has(name)).toBe(true);
    expect(await query().execute()).toEqual([{ label: 'row 3' }]);
  });

  it('recovers when another session changes the result of a prepared statement', async () => {
    const db = open({ minUses: 1 });
    const table = `changing_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create table ${schema}.${table} (id bigint primary key)`);
      await admin.query(`insert into ${schema}.${table} values (1)`);
      const select = () => sql<Record<string, unknown>>`select * from ${sql.table(table)} where id = ${'1'}`.execute(db);
      expect((await select()).rows).toEqual([{ id: '1' }]);
      const pid = await backendPid(db);
      await admin.query(`alter table ${schema}.${table} add column added_at text default 'now'`);
      // Outside a transaction: run again unnamed, and the connection is replaced afterwards.
      expect((await select()).rows).toEqual([{ id: '1', addedAt: 'now' }]);
      expect(await backendPid(db)).not.toBe(pid);
      // Inside a transaction the statement's error is the transaction's.
      expect((await select()).rows).toHaveLength(1);
      await admin.query(`alter table ${schema}.${table} add column other text`);
      await expect(
        db.transaction().execute(async (trx) => sql`select * from ${sql.table(table)} where id = ${'1'}`.execute(trx)),
      ).rejects.toThrow(/cached plan must not change result type/);
      expect((await select()).rows).toEqual([{ id: '1', addedAt: 'now', other: null }]);
    } finally {
      await admin.end();
    }
  });

  it('stops naming on a connection that changed the schema itself, and replaces it', async () => {
    const db = open({ minUses: 1 });
    const table = `own_change_${randomBytes(3).toString('hex')}`;
    const before = await backendPid(db);
    expect(await backendPid(db)).toBe(before);
    await sql`create table ${sql.table(table)} (id bigint primary key)`.execute(db);
    const after = await backendPid(db);
    expect(after).not.toBe(before);
    await sql`insert into ${sql.table(table)} values (${'1'})`.execute(db);
    expect((await sql`select * from ${sql.table(table)}`.execute(db)).rows).toEqual([{ id: '1' }]);
    expect(await backendPid(db)).toBe(after);
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  Selectable,
  SqlBool,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { RowCasePlugin } from '../src/db/camel-case.js';
import { compiledQuery } from '../src/db/compiled-query.js';
import type { Database } from '../src/db/database.js';
import { newUid } from '../src/db/ids.js';
import type { UsersTable } from '../src/db/schema.js';
import type { OrganizationRow } from '../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../src/modules/identity/users/users.repository.js';
import { makeOrganization, makeUser } from './factories.js';
import { createTestDatabase, testDialect } from './harness.js';

/** Hot queries compiled once (src/db/compiled-query.ts), on the suite's database. */

let database: Database;
let drop: () => Promise<void>;
let organization: OrganizationRow;
let other: OrganizationRow;
let users: UserRow[];

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  organization = await makeOrganization(database.db);
  other = await makeOrganization(database.db);
  users = [];
  for (let i = 0; i < 3; i++) users.push(await makeUser(database.db, organization, { firstName: `First ${i}` }));
  users.push(await makeUser(database.db, other, { role: 'LINGUIST' }));
});

afterAll(async () => {
  await drop();
});

const buildFindUser = vi.fn((db: Database['db'], p: { organizationId: string; id: string }) =>
  db.selectFrom('users').selectAll().where('organizationId', '=', p.organizationId).where('id', '=', p.id),
);
const findUser = compiledQuery(buildFindUser);

const listByRole = compiledQuery((db, p: { organizationId: string; role: 'ADMIN' | 'LINGUIST'; limit: number }) =>
  db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organizationId')
    .select(['users.id', 'users.userName', 'users.active', 'organizations.isSystem', 'organizations.name as organizationName'])
    .where('users.organizationId', '=', p.organizationId)
    .where('users.role', '=', p.role)
    .where('users.deletedAt', 'is', null)
    .orderBy('users.id')
    .limit(p.limit),
);

describe('compiledQuery', () => {
  it('returns what the builder executed directly returns, for new values each time', async () => {
    for (const user of users) {
      const organizationId = user.organizationId;
      const expected = await buildFindUser(database.db, { organizationId, id: user.id }).executeTakeFirst();
      const row = await findUser.first(database.db, { organizationId, id: user.id });
      expect(row).toEqual(expected);
      expect(row).toMatchObject({ id: user.id, organizationId, userName: user.userName });
      expect(typeof row!.id).toBe('string');
    }
    expect(await findUser.first(database.db, { organizationId: other.id, id: users[0]!.id })).toBeUndefined();
    expect(await findUser.all(database.db, { organizationId: organization.id, id: users[1]!.id })).toHaveLength(1);
  });

  it('types rows from the query builder', async () => {
    const rows = await listByRole.all(database.db, { organizationId: organization.id, role: 'ADMIN', limit: 2 });
    expectTypeOf(rows[0]!).toEqualTypeOf<{
      id: string;
      userName: string;
      active: SqlBool;
      isSystem: SqlBool;
      organizationName: string;
    }>();
    expectTypeOf(findUser.first).returns.resolves.toEqualTypeOf<Selectable<UsersTable> | undefined>();
    // camelCase keys, ids as strings, booleans as the database answers them
    expect(rows).toEqual(
      users.slice(0, 2).map((u) => ({
        id: u.id,
        userName: u.userName,
        active: testDialect === 'postgres' ? true : 1,
        isSystem: testDialect === 'postgres' ? false : 0,
        organizationName: organization.name,
      })),
    );
    expect(await listByRole.all(database.db, { organizationId: organization.id, role: 'ADMIN', limit: 10 })).toHaveLength(3);
    expect(await listByRole.all(database.db, { organizationId: other.id, role: 'LINGUIST', limit: 10 })).toEqual([
      expect.objectContaining({ id: users[3]!.id }),
    ]);
  });

  it('builds and compiles once per database', async () => {
    buildFindUser.mockClear();
    for (const user of users) await findUser.first(database.db, { organizationId: user.organizationId, id: user.id });
    expect(buildFindUser).toHaveBeenCalledTimes(0); // compiled by the first test already
    const second = await createTestDatabase();
    try {
      const organization2 = await makeOrganization(second.database.db);
      const user2 = await makeUser(second.database.db, organization2);
      for (let i = 0; i < 3; i++) {
        expect(await findUser.first(second.database.db, { organizationId: organization2.id, id: user2.id })).toMatchObject({
          userName: user2.userName,
        });
      }
      expect(buildFindUser).toHaveBeenCalledTimes(1);
    } finally {
      await second.drop();
    }
  });

  it('binds values, never writes them into the SQL', async () => {
    const byName = compiledQuery((db, p: { organizationId: string; userName: string }) =>
      db.selectFrom('users').select('id').where('organizationId', '=', p.organizationId).where('userName', '=', p.userName),
    );
    const text = byName.sqlFor(database.db);
    expect(text).toMatch(/"organization_id" = (\?|\$1) and "user_name" = (\?|\$2)/);
    const hostile = `x' or '1'='1`;
    expect(await byName.all(database.db, { organizationId: organization.id, userName: hostile })).toEqual([]);
    expect(await byName.all(database.db, { organizationId: organization.id, userName: users[2]!.userName })).toEqual([
      { id: users[2]!.id },
    ]);
    expect(byName.sqlFor(database.db)).toBe(text);
  });

  it('runs in a transaction, seeing its uncommitted rows, and writes', async () => {
    const rename = compiledQuery((db, p: { id: string; firstName: string }) =>
      db.updateTable('users').set({ firstName: p.firstName }).where('id', '=', p.id),
    );
    const insertClient = compiledQuery((db, p: { uid: string; organizationId: string; name: string; createdAt: string }) =>
      db
        .insertInto('clients')
        .values({ uid: p.uid, organizationId: p.organizationId, name: p.name, createdAt: p.createdAt })
        .returning(['id', 'name']),
    );
    const findClient = compiledQuery((db, p: { uid: string }) => db.selectFrom('clients').select(['id', 'name']).where('uid', '=', p.uid));
    const uid = newUid();
    await expect(
      database.db.transaction().execute(async (trx) => {
        expect(await rename.run(trx, { id: users[0]!.id, firstName: 'Renamed' })).toBe(1);
        const inserted = await insertClient.first(trx, {
          uid,
          organizationId: organization.id,
          name: 'Client in transaction',
          createdAt: new Date().toISOString(),
        });
        expect(inserted).toEqual({ id: expect.any(String), name: 'Client in transaction' });
        expect(await findClient.first(trx, { uid })).toEqual(inserted);
        expect((await findUser.first(trx, { organizationId: organization.id, id: users[0]!.id }))?.firstName).toBe('Renamed');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await findClient.first(database.db, { uid })).toBeUndefined();
    expect((await findUser.first(database.db, { organizationId: organization.id, id: users[0]!.id }))?.firstName).toBe('First 0');
    expect(await rename.run(database.db, { id: '999999999', firstName: 'x' })).toBe(0);
  });

  it('refuses parameters that would change the query shape or are missing', async () => {
    const shaped = compiledQuery((db, p: { includeDeleted: boolean }) => {
      const query = db.selectFrom('users').select('id');
      return p.includeDeleted ? query : query.where('deletedAt', 'is', null);
    });
    expect(() => shaped.sqlFor(database.db)).toThrow(/"includeDeleted" was read but is not bound/);
    const inlined = compiledQuery((db, p: { column: string }) => db.selectFrom('users').select(sql.ref<string>(p.column).as('x')));
    expect(() => inlined.sqlFor(database.db)).toThrow(/written into the SQL text/);
    const partOfConstant = compiledQuery((db, p: { name: string }) =>
      db.selectFrom('users').select('id').where('userName', '=', `prefix-${p.name}`),
    );
    expect(() => partOfConstant.sqlFor(database.db)).toThrow(/part of a constant/);
    await expect(
      findUser.first(database.db, { organizationId: organization.id } as { organizationId: string; id: string }),
    ).rejects.toThrow(/"id" is missing/);
    const listed = compiledQuery((db, p: { ids: string[] }) => db.selectFrom('users').select('id').where('id', 'in', p.ids));
    await expect(listed.all(database.db, { ids: ['1'] })).rejects.toThrow(/is a list/);
    await expect(listed.all(database.db.withPlugin(new RowCasePlugin()), { ids: ['1'] })).rejects.toThrow(/is a list/);
  });

  it('builds the ordinary way through a handle with other plugins, so that they see the query', async () => {
    const seen: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => {
        seen.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
    };
    const traced = database.db.withPlugin(recorder);
    const row = await findUser.first(traced, { organizationId: organization.id, id: users[1]!.id });
    expect(seen).toEqual(['SelectQueryNode']);
    expect(row).toEqual(await findUser.first(database.db, { organizationId: organization.id, id: users[1]!.id }));
  });
});

describe.skipIf(testDialect !== 'sqlite')('compiledQuery on SQLite', () => {
  it('prepares its statement once', async () => {
    const prepare = vi.spyOn(BetterSqlite3.prototype, 'prepare');
    try {
      await findUser.first(database.db, { organizationId: organization.id, id: users[0]!.id });
      prepare.mockClear();
      for (const user of users) await findUser.first(database.db, { organizationId: user.organizationId, id: user.id });
      expect(prepare).not.toHaveBeenCalled();
    } finally {
      prepare.mockRestore();
    }
  });

  it('reads at once past the driver, with the rows the driver would give', async () => {
    const run = vi.spyOn(BetterSqlite3.prototype, 'prepare');
    const acquire = vi.spyOn(database.db.getExecutor(), 'provideConnection');
    try {
      const rows = await listByRole.all(database.db, { organizationId: organization.id, role: 'ADMIN', limit: 10 });
      expect(acquire).not.toHaveBeenCalled();
      const built = await database.db
        .selectFrom('users')
        .innerJoin('organizations', 'organizations.id', 'users.organizationId')
        .select(['users.id', 'users.userName', 'users.active', 'organizations.isSystem', 'organizations.name as organizationName'])
        .where('users.organizationId', '=', organization.id)
        .where('users.role', '=', 'ADMIN')
        .where('users.deletedAt', 'is', null)
        .orderBy('users.id')
        .limit(10)
        .execute();
      expect(rows).toEqual(built);
      expect(rows.map((row) => Object.keys(row))).toEqual(built.map((row) => Object.keys(row)));
    } finally {
      run.mockRestore();
      acquire.mockRestore();
    }
  });

  it('never reads inside another request’s open transaction: the read waits for it and sees only what it committed', async () => {
    const user = users[1]!;
    let readDone = false;
    let seenInside: string | undefined;
    const read = (async () => {
      const row = await findUser.first(database.db, { organizationId: organization.id, id: user.id });
      readDone = true;
      return row?.firstName;
    })();
    await database.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('users').set({ firstName: 'Uncommitted' }).where('id', '=', user.id).execute();
        // Another request reads while this transaction is open.
        const outside = findUser.first(database.db, { organizationId: organization.id, id: user.id }).then((row) => row?.firstName);
        await new Promise((done) => setTimeout(done, 20));
        seenInside = (await findUser.first(trx, { organizationId: organization.id, id: user.id }))?.firstName;
        expect(await Promise.race([outside, new Promise((done) => setTimeout(() => done('waiting'), 20))])).toBe('waiting');
        void outside.then((name) => expect(name).toBe('First 1'));
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(seenInside).toBe('Uncommitted');
    expect(await read).toBe('First 1');
    expect(readDone).toBe(true);
    expect((await findUser.first(database.db, { organizationId: organization.id, id: user.id }))?.firstName).toBe('First 1');
  });
});

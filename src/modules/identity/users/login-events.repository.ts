import type { Kysely } from 'kysely';
import type { DB, UserRole } from '../../../db/schema.js';
import { num } from '../../../db/database.js';
import { pageWindow } from '../../../http/paging.js';
import type { PageRequest } from '../../../http/paging.js';
import type { UserRow } from './users.repository.js';

/** How many login events are kept per user; older ones are removed as new ones arrive. */
export const LOGIN_EVENTS_KEPT = 100;

export async function recordLogin(
  db: Kysely<DB>,
  user: UserRow,
  at: Date,
  client: { ipAddress: string | null; userAgent: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('loginEvents')
      .values({
        userId: user.id,
        organizationId: user.organizationId,
        at: at.toISOString(),
        ipAddress: client.ipAddress?.slice(0, 64) ?? null,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
      })
      .execute();
    await trx.updateTable('users').set({ lastLoginAt: at.toISOString() }).where('id', '=', user.id).execute();
    const stale = await trx
      .selectFrom('loginEvents')
      .select('id')
      .where('userId', '=', user.id)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .offset(LOGIN_EVENTS_KEPT)
      .limit(1000)
      .execute();
    if (stale.length > 0)
      await trx
        .deleteFrom('loginEvents')
        .where(
          'id',
          'in',
          stale.map((r) => r.id),
        )
        .execute();
  });
}

export function listLoginEvents(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('loginEvents')
    .select(['at', 'ipAddress', 'userAgent'])
    .where('userId', '=', userId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function listLastLogins(
  db: Kysely<DB>,
  organizationId: string,
  filter: { userName?: string; role?: UserRole[]; sort?: 'ID' | 'LAST_LOGIN_DATE'; order?: 'ASC' | 'DESC' },
  page: PageRequest,
): Promise<{ rows: UserRow[]; total: number }> {
  let query = db.selectFrom('users').where('organizationId', '=', organizationId).where('deletedAt', 'is', null).where('isBot', '=', false);
  if (filter.userName) {
    const name = filter.userName.toLowerCase();
    query = query.where((eb) => eb(eb.fn('lower', ['userName']), '=', name));
  }
  if (filter.role?.length) query = query.where('role', 'in', filter.role);
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const direction = filter.order === 'DESC' ? 'desc' : 'asc';
  const { offset, limit } = pageWindow(page);
  let ordered = query.selectAll();
  ordered = filter.sort === 'LAST_LOGIN_DATE' ? ordered.orderBy('lastLoginAt', direction) : ordered;
  const rows = await ordered.orderBy('id', direction).limit(limit).offset(offset).execute();
  return { rows, total: num(total as string | number) };
}

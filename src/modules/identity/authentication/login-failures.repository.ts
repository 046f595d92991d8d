import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { FailureState } from '../../../domain/auth/login-throttle.js';

export function findLoginFailures(db: Kysely<DB>, userName: string): Promise<FailureState | undefined> {
  return db
    .selectFrom('loginFailures')
    .select(['failures', 'lastFailureAt', 'lockedUntil'])
    .where('userName', '=', userName.toLowerCase())
    .executeTakeFirst();
}

export async function saveLoginFailures(db: Kysely<DB>, userName: string, state: FailureState): Promise<void> {
  await db
    .insertInto('loginFailures')
    .values({ userName: userName.toLowerCase(), ...state })
    .onConflict((oc) => oc.column('userName').doUpdateSet(state))
    .execute();
}

export async function clearLoginFailures(db: Kysely<DB>, userName: string): Promise<void> {
  await db.deleteFrom('loginFailures').where('userName', '=', userName.toLowerCase()).execute();
}

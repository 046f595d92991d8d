import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';

/**
 * The owner a language resource (a TM, a term base) is given by `owner: {id}` (uid or numeric
 * id): a user of the organization who is an ADMIN or a PROJECT_MANAGER; 400 otherwise.
 */
export async function resolveResourceOwner(db: Kysely<DB>, organizationId: Id, key: string, what: string): Promise<Id> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'role'])
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('uid', '=', key), ...(/^\d{1,18}$/.test(key) ? [eb('id', '=', key)] : [])]))
    .executeTakeFirst();
  if (!user) throw errors.ReferenceNotFound({ what: 'user', key, keyName: 'id', field: 'owner' });
  if (user.role !== 'ADMIN' && user.role !== 'PROJECT_MANAGER') {
    throw errors.InvalidArguments({
      reason: `The owner of a ${what} must be an ADMIN or a PROJECT_MANAGER.`,
      details: [{ field: 'owner', message: 'not an ADMIN or PROJECT_MANAGER' }],
    });
  }
  return user.id;
}

import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { hashPassword } from '../credentials/index.js';
import { assertTimezone, checkPassword, findUserByUserName, insertUser } from '../users/index.js';
import type { UserRow } from '../users/index.js';
import { findOrganizationByUid, insertOrganization, updateOrganization } from '../organizations/index.js';
import type { OrganizationRow } from '../organizations/index.js';
import type { CreateOrganizationBody, EditOrganizationBody } from './organization-admin.schemas.js';

/** Creates an organization with its first ADMIN, together or not at all (409 when the user name is taken). */
export async function createOrganization(deps: AppDeps, body: CreateOrganizationBody): Promise<{ row: OrganizationRow; user: UserRow }> {
  const { admin, ...organization } = body;
  checkPassword(admin.password, admin.userName);
  const timezone = admin.timezone ?? 'UTC';
  assertTimezone(timezone, 'admin.timezone');
  const passwordHash = await hashPassword(admin.password);
  return deps.database.db.transaction().execute(async (trx) => {
    if (await findUserByUserName(trx, admin.userName)) {
      throw errors.UserNameAlreadyExists({ userName: admin.userName, field: 'admin.userName' });
    }
    const row = await insertOrganization(trx, organization);
    const user = await insertUser(trx, { organizationId: row.id, ...admin, timezone, role: 'ADMIN', passwordHash });
    return { row, user };
  });
}

/** An organization (not the system one), or 404. */
export async function getOrganization(deps: AppDeps, uid: string): Promise<OrganizationRow> {
  const row = await findOrganizationByUid(deps.database.db, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Organization' });
  return row;
}

/** Changes the name and settings given; the others stay. */
export async function editOrganization(deps: AppDeps, uid: string, body: EditOrganizationBody): Promise<OrganizationRow> {
  const row = await getOrganization(deps, uid);
  const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return Object.keys(changes).length > 0 ? updateOrganization(deps.database.db, row.id, changes) : row;
}

import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';
import { idReferenceNotFound, isNumericId, REFERENCE_LABEL, resolveReferenceList } from '../../organization-setup/setup-records/index.js';

/**
 * References a project body gives as the spec's `IdReference` (`{id}`) beyond the setup records
 * (those resolve in setup-records' id-references.ts): workflow steps in workflow order, the owner
 * and the vendor. Numeric ids and uids are both accepted.
 */

export { idReferenceNotFound as projectReferenceNotFound };
export type { SetupReferenceKind as ProjectReferenceKind } from '../../organization-setup/setup-records/index.js';
export { resolveReference, resolveReferenceList } from '../../organization-setup/setup-records/index.js';

const matches = (row: { id: Id; uid: string }, key: string) => row.uid === key || row.id === key;

/**
 * Global workflow steps in the organization's workflow order (the steps' `order`, then id): a
 * project's levels follow that order whatever order the body lists them in, as in Phrase.
 */
export async function resolveWorkflowSteps(
  db: Kysely<DB>,
  organizationId: string,
  field: string,
  refs: readonly { id: string }[],
): Promise<string[]> {
  const ids = await resolveReferenceList(db, organizationId, 'workflowStep', field, refs);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('workflowSteps').select(['id', 'orderIndex']).where('id', 'in', ids).execute();
  return rows.sort((a, b) => a.orderIndex - b.orderIndex || Number(a.id) - Number(b.id)).map((r) => r.id);
}

/**
 * A project owner: an active ADMIN or PROJECT_MANAGER of the organization ("Owner must be Admin
 * or PM", EditProjectV2Dto), not a bot (description: bots cannot be project owners).
 */
export async function resolveOwner(db: Kysely<DB>, organizationId: string, field: string, ref: { id: string }): Promise<string> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'uid', 'role', 'isBot', 'active'])
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('uid', '=', ref.id), ...(isNumericId(ref.id) ? [eb('id', '=', ref.id)] : [])]))
    .execute();
  const user = rows.find((r) => matches(r, ref.id));
  if (!user) throw idReferenceNotFound(field, REFERENCE_LABEL.owner, ref.id);
  if ((user.role !== 'ADMIN' && user.role !== 'PROJECT_MANAGER') || bool(user.isBot)) {
    throw errors.InvalidArguments({
      reason: 'The project owner must be an ADMIN or a PROJECT_MANAGER (not a bot).',
      details: [{ field, message: 'not an ADMIN or PROJECT_MANAGER' }],
    });
  }
  return user.id;
}

/** A vendor of the organization (a buyer-side link in `vendors`), by its id or uid. */
export async function resolveVendor(db: Kysely<DB>, organizationId: string, field: string, ref: { id: string }): Promise<string> {
  const rows = await db
    .selectFrom('vendors')
    .select(['id', 'uid'])
    .where('buyerOrganizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', '=', ref.id), ...(isNumericId(ref.id) ? [eb('id', '=', ref.id)] : [])]))
    .execute();
  const vendor = rows.find((r) => matches(r, ref.id));
  if (!vendor) throw idReferenceNotFound(field, REFERENCE_LABEL.vendor, ref.id);
  return vendor.id;
}

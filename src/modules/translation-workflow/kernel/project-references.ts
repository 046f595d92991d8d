import type { Kysely } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';

/**
 * References a project body gives as the spec's `IdReference` (`{id}`): client, business unit,
 * domain, subdomain, cost center, workflow steps, owner and vendor. The published DTOs say `id`;
 * scripts written against Phrase send either the numeric id or the uid there, so both are
 * accepted. A reference to a record the organization does not have is 400 ReferenceNotFound.
 */

export type ProjectReferenceKind = 'client' | 'businessUnit' | 'domain' | 'subDomain' | 'costCenter' | 'workflowStep';

const TABLE = {
  client: 'clients',
  businessUnit: 'businessUnits',
  domain: 'domains',
  subDomain: 'subDomains',
  costCenter: 'costCenters',
  workflowStep: 'workflowSteps',
} as const;

const LABEL: Record<ProjectReferenceKind | 'owner' | 'vendor', string> = {
  client: 'client',
  businessUnit: 'business unit',
  domain: 'domain',
  subDomain: 'subdomain',
  costCenter: 'cost center',
  workflowStep: 'workflow step',
  owner: 'user',
  vendor: 'vendor',
};

export const projectReferenceNotFound = (field: string, what: string, key: string) =>
  errors.ReferenceNotFound({ what, key, keyName: 'id', field });

const isNumericId = (value: string) => /^\d{1,18}$/.test(value);

type Lookup = { id: Id; uid: string };

/** The referenced tables, as far as this file reads them (the columns every one of them has). */
interface ReferencedRow {
  id: Id;
  uid: string;
  organizationId: Id;
  deletedAt: string | null;
}
type ReferencedTables = Record<(typeof TABLE)[ProjectReferenceKind], ReferencedRow>;

async function lookup(db: Kysely<DB>, organizationId: string, kind: ProjectReferenceKind, keys: readonly string[]): Promise<Lookup[]> {
  if (keys.length === 0) return [];
  const ids = keys.filter(isNumericId);
  let query = (db as unknown as Kysely<ReferencedTables>)
    .selectFrom(TABLE[kind] as 'clients')
    .select(['id', 'uid'])
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or([eb('uid', 'in', [...keys]), ...(ids.length ? [eb('id', 'in', ids)] : [])]));
  // Cost centers are soft deleted: a deleted one is not there any more.
  if (kind === 'costCenter') query = query.where('deletedAt', 'is', null);
  return query.execute();
}

const matches = (row: Lookup, key: string) => row.uid === key || row.id === key;

/** The id of the record `ref` names, or 400 ReferenceNotFound naming `field`. */
export async function resolveReference(
  db: Kysely<DB>,
  organizationId: string,
  kind: ProjectReferenceKind,
  field: string,
  ref: { id: string },
): Promise<string> {
  const rows = await lookup(db, organizationId, kind, [ref.id]);
  const row = rows.find((r) => matches(r, ref.id));
  if (!row) throw projectReferenceNotFound(field, LABEL[kind], ref.id);
  return row.id;
}

/** The ids of the records `refs` name, in the order given without repeats. */
export async function resolveReferenceList(
  db: Kysely<DB>,
  organizationId: string,
  kind: ProjectReferenceKind,
  field: string,
  refs: readonly { id: string }[],
): Promise<string[]> {
  const keys = refs.map((r) => r.id);
  const rows = await lookup(db, organizationId, kind, keys);
  const ids: string[] = [];
  for (const key of keys) {
    const row = rows.find((r) => matches(r, key));
    if (!row) throw projectReferenceNotFound(field, LABEL[kind], key);
    if (!ids.includes(row.id)) ids.push(row.id);
  }
  return ids;
}

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
  if (!user) throw projectReferenceNotFound(field, LABEL.owner, ref.id);
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
  if (!vendor) throw projectReferenceNotFound(field, LABEL.vendor, ref.id);
  return vendor.id;
}

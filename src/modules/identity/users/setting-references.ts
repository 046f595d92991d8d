import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { parseRoleSettings, withoutReferences } from '../../../domain/users/role-settings.js';
import type { ReferenceKind } from '../../../domain/users/role-settings.js';

/**
 * The records that users' role settings point at (clients, domains, subdomains, business units,
 * workflow steps, a linguist's net rate scheme and price list), which the settings hold by uid
 * inside the `role_settings` JSON: looking them up for validation and display, and removing a
 * deleted record from every user's settings.
 */

/** The table of each kind that exists; kinds missing here (automation widgets) have no records yet. */
const REFERENCE_TABLES: Partial<Record<ReferenceKind, string>> = {
  client: 'clients',
  domain: 'domains',
  subDomain: 'sub_domains',
  businessUnit: 'business_units',
  workflowStep: 'workflow_steps',
  netRateScheme: 'net_rate_schemes',
  priceList: 'price_lists',
};

export interface ReferencedRecord {
  id: string;
  uid: string;
  name: string;
}

/** Whether records of `kind` can exist (its table has been built). */
export function hasReferenceTable(kind: ReferenceKind): boolean {
  return REFERENCE_TABLES[kind] !== undefined;
}

/** The organization's live records of `kind` among `uids`, by uid. */
export async function findReferencedRecords(
  db: Kysely<DB>,
  organizationId: string,
  kind: ReferenceKind,
  uids: Iterable<string>,
): Promise<Map<string, ReferencedRecord>> {
  const table = REFERENCE_TABLES[kind];
  const wanted = [...new Set(uids)];
  if (!table || wanted.length === 0) return new Map();
  const rows = await sql<{ id: Id; uid: string; name: string }>`
    select id, uid, name from ${sql.table(table)}
    where organization_id = ${organizationId} and uid in (${sql.join(wanted)})`.execute(db);
  return new Map(rows.rows.map((r) => [r.uid, { id: r.id, uid: r.uid, name: r.name }]));
}

/** Every referenced record of the given kinds and uids, by kind then uid. */
export async function findAllReferencedRecords(
  db: Kysely<DB>,
  organizationId: string,
  byKind: Map<ReferenceKind, Set<string>>,
): Promise<Map<ReferenceKind, Map<string, ReferencedRecord>>> {
  const entries = await Promise.all(
    [...byKind].map(async ([kind, uids]) => [kind, await findReferencedRecords(db, organizationId, kind, uids)] as const),
  );
  return new Map(entries);
}

/**
 * Removes references of `kind` to `uids` from the role settings of every user of the
 * organization (a deleted client leaves the project managers' client lists). Run it in the
 * delete's transaction.
 */
export async function forgetSettingReferences(trx: Kysely<DB>, organizationId: string, kind: ReferenceKind, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  const keys = new Set(uids);
  // Uids are random 22-character strings: a text search finds the few users that can hold one.
  const candidates = await trx
    .selectFrom('users')
    .select(['id', 'role', 'roleSettings'])
    .where('organizationId', '=', organizationId)
    .where((eb) => eb.or(uids.map((uid) => eb('roleSettings', 'like', `%"${uid}"%`))))
    .execute();
  for (const user of candidates) {
    const changed = withoutReferences(user.role, parseRoleSettings(user.role, user.roleSettings), kind, keys);
    if (changed)
      await trx
        .updateTable('users')
        .set({ roleSettings: JSON.stringify(changed) })
        .where('id', '=', user.id)
        .execute();
  }
}

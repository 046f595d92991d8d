import type { Kysely } from 'kysely';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';

/**
 * References a request body gives as the spec's `IdReference` (`{id}`) to the organization's setup
 * records: client, business unit, domain, subdomain, cost center, workflow steps. The published
 * DTOs say `id`; scripts written against Phrase send either the numeric id or the uid there, so
 * both are accepted. A reference to a record the organization does not have is 400
 * ReferenceNotFound. Projects, templates and translation memories resolve their references here.
 */

export type SetupReferenceKind = 'client' | 'businessUnit' | 'domain' | 'subDomain' | 'costCenter' | 'workflowStep';

const TABLE = {
  client: 'clients',
  businessUnit: 'businessUnits',
  domain: 'domains',
  subDomain: 'subDomains',
  costCenter: 'costCenters',
  workflowStep: 'workflowSteps',
} as const;

export const REFERENCE_LABEL: Record<SetupReferenceKind | 'owner' | 'vendor', string> = {
  client: 'client',
  businessUnit: 'business unit',
  domain: 'domain',
  subDomain: 'subdomain',
  costCenter: 'cost center',
  workflowStep: 'workflow step',
  owner: 'user',
  vendor: 'vendor',
};

export const idReferenceNotFound = (field: string, what: string, key: string) =>
  errors.ReferenceNotFound({ what, key, keyName: 'id', field });

export const isNumericId = (value: string) => /^\d{1,18}$/.test(value);

type Lookup = { id: Id; uid: string };

/** The referenced tables, as far as this file reads them (the columns every one of them has). */
interface ReferencedRow {
  id: Id;
  uid: string;
  organizationId: Id;
  deletedAt: string | null;
}
type ReferencedTables = Record<(typeof TABLE)[SetupReferenceKind], ReferencedRow>;

async function lookup(db: Kysely<DB>, organizationId: string, kind: SetupReferenceKind, keys: readonly string[]): Promise<Lookup[]> {
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
  kind: SetupReferenceKind,
  field: string,
  ref: { id: string },
): Promise<string> {
  const rows = await lookup(db, organizationId, kind, [ref.id]);
  const row = rows.find((r) => matches(r, ref.id));
  if (!row) throw idReferenceNotFound(field, REFERENCE_LABEL[kind], ref.id);
  return row.id;
}

/** The ids of the records `refs` name, in the order given without repeats. */
export async function resolveReferenceList(
  db: Kysely<DB>,
  organizationId: string,
  kind: SetupReferenceKind,
  field: string,
  refs: readonly { id: string }[],
): Promise<string[]> {
  const keys = refs.map((r) => r.id);
  const rows = await lookup(db, organizationId, kind, keys);
  const ids: string[] = [];
  for (const key of keys) {
    const row = rows.find((r) => matches(r, key));
    if (!row) throw idReferenceNotFound(field, REFERENCE_LABEL[kind], key);
    if (!ids.includes(row.id)) ids.push(row.id);
  }
  return ids;
}

/** The setup references a language resource (a TM, a term base) carries, as columns. */
export interface ResourceReferenceColumns {
  clientId: Id | null;
  businessUnitId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
}

const RESOURCE_REFERENCES = [
  ['client', 'clientId'],
  ['businessUnit', 'businessUnitId'],
  ['domain', 'domainId'],
  ['subDomain', 'subDomainId'],
] as const;

/** The columns of `body`'s client, business unit, domain and subdomain (`{id}`: uid or numeric id); omitted or null clears. */
export async function resolveResourceReferences(
  db: Kysely<DB>,
  organizationId: Id,
  body: Partial<Record<'client' | 'businessUnit' | 'domain' | 'subDomain', { id: string } | null | undefined>>,
): Promise<ResourceReferenceColumns> {
  const columns: ResourceReferenceColumns = { clientId: null, businessUnitId: null, domainId: null, subDomainId: null };
  for (const [field, column] of RESOURCE_REFERENCES) {
    const ref = body[field];
    if (ref) columns[column] = await resolveReference(db, organizationId, field, field, ref);
  }
  return columns;
}

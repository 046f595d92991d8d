import type { Kysely, SqlBool } from 'kysely';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { bool } from '../../../db/database.js';
import type { DB, Id } from '../../../db/schema.js';
import { errors } from '../../../errors/index.js';

/**
 * References from vendor links and services to the organization's own setup records (clients,
 * domains, subdomains, workflow steps): resolving `[{uid}]` lists from request bodies, and loading
 * the referenced rows back for responses. Those tables belong to other modules; this file reads
 * them with plain queries on the columns every one of them has.
 */

interface ReferencedRow {
  id: Id;
  uid: string;
  organizationId: Id;
  name: string;
}

interface WorkflowStepRow extends ReferencedRow {
  abbr: string;
  /** The spec's `order`. */
  orderIndex: number;
  lqaEnabled: SqlBool;
}

/** The referenced tables, as far as this file reads them. */
interface ReferencedTables {
  clients: ReferencedRow;
  domains: ReferencedRow;
  subDomains: ReferencedRow;
  workflowSteps: WorkflowStepRow;
}

export type ReferenceKind = 'client' | 'domain' | 'subDomain' | 'workflowStep';

const TABLE = { client: 'clients', domain: 'domains', subDomain: 'subDomains', workflowStep: 'workflowSteps' } as const;
const LABEL = { client: 'client', domain: 'domain', subDomain: 'subdomain', workflowStep: 'workflow step' } as const;

/** A transaction is a Kysely too; the referenced tables are read through their common columns. */
const referenced = (db: Kysely<DB>) => db as unknown as Kysely<ReferencedTables>;

/** Spec definitions ClientReference, DomainReference, SubDomainReference. */
export const NamedReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() });
export type NamedReference = Static<typeof NamedReference>;

/** Spec definition `WorkflowStepReference`. */
export const WorkflowStepReference = Type.Object(
  { id: Type.String(), uid: Type.String(), name: Type.String(), order: Type.Integer(), lqaEnabled: Type.Boolean() },
  { title: 'WorkflowStepReference' },
);
export type WorkflowStepReference = Static<typeof WorkflowStepReference>;

/** Spec definition `UidReference`, as request bodies give references. */
export const UidReference = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

/** The 400 for a reference by uid to no record of the organization; `field` is where the body named it. */
export const referenceNotFound = (field: string, what: string, key: string) => errors.ReferenceNotFound({ what, key, field });

/**
 * The ids of the records `refs` name, in the order given without repeats; 400
 * `ReferenceNotFound` naming `field` when one is not a record of the organization.
 */
export async function resolveReferences(
  db: Kysely<DB>,
  organizationId: string,
  kind: ReferenceKind,
  field: string,
  refs: readonly { uid: string }[],
): Promise<string[]> {
  const uids = [...new Set(refs.map((r) => r.uid))];
  if (uids.length === 0) return [];
  const rows = await referenced(db)
    .selectFrom(TABLE[kind])
    .select(['id', 'uid'])
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', uids)
    .execute();
  const byUid = new Map(rows.map((r) => [r.uid, r.id]));
  const missing = uids.find((uid) => !byUid.has(uid));
  if (missing !== undefined) throw referenceNotFound(field, LABEL[kind], missing);
  return uids.map((uid) => byUid.get(uid)!);
}

/** Client, domain or subdomain references by id, in the order of `ids`. */
export async function namedReferences(
  db: Kysely<DB>,
  kind: Exclude<ReferenceKind, 'workflowStep'>,
  ids: readonly Id[],
): Promise<Map<string, NamedReference>> {
  if (ids.length === 0) return new Map();
  const rows = await referenced(db)
    .selectFrom(TABLE[kind])
    .select(['id', 'uid', 'name'])
    .where('id', 'in', [...new Set(ids.map(String))])
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, uid: r.uid, name: r.name }]));
}

/** Workflow step references by id. */
export async function workflowStepReferences(db: Kysely<DB>, ids: readonly Id[]): Promise<Map<string, WorkflowStepReference>> {
  if (ids.length === 0) return new Map();
  const rows = await referenced(db)
    .selectFrom('workflowSteps')
    .select(['id', 'uid', 'name', 'orderIndex', 'lqaEnabled'])
    .where('id', 'in', [...new Set(ids.map(String))])
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, uid: r.uid, name: r.name, order: r.orderIndex, lqaEnabled: bool(r.lqaEnabled) }]));
}

/** Workflow steps in the organization's workflow order (the spec's `order`, then id). */
export function inWorkflowOrder(steps: WorkflowStepReference[]): WorkflowStepReference[] {
  return [...steps].sort((a, b) => a.order - b.order || Number(a.id) - Number(b.id));
}

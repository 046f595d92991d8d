import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Records that a path parameter may name by their numeric `id` as well as by their `uid`, as
 * older clients do (`GET /api2/v1/projectTemplates/14`): every kind whose wire shape shows both.
 * `scope` is the column that must hold the caller's organization, so that the id of another
 * organization's record finds nothing (and the route answers 404 as for an unknown uid):
 *  - `null` for projects: the workflow kernel decides who reaches a project (a vendor reaches the
 *    buyer's projects shared with it), and every route naming a project declares it to the kernel,
 *    which answers 404 for a project the caller may not see, whatever named it;
 *  - `null` for organizations: only the system administrator addresses them.
 */
export const ID_RECORDS = {
  projects: { table: 'projects', scope: null },
  projectTemplates: { table: 'projectTemplates', scope: 'organizationId' },
  clients: { table: 'clients', scope: 'organizationId' },
  domains: { table: 'domains', scope: 'organizationId' },
  subDomains: { table: 'subDomains', scope: 'organizationId' },
  businessUnits: { table: 'businessUnits', scope: 'organizationId' },
  costCenters: { table: 'costCenters', scope: 'organizationId' },
  users: { table: 'users', scope: 'organizationId' },
  webhooks: { table: 'webhooks', scope: 'organizationId' },
  services: { table: 'services', scope: 'organizationId' },
  workflowSteps: { table: 'workflowSteps', scope: 'organizationId' },
  emailTemplates: { table: 'emailTemplates', scope: 'organizationId' },
  dueDateSchemes: { table: 'dueDateSchemes', scope: 'organizationId' },
  serviceAccounts: { table: 'serviceAccounts', scope: 'organizationId' },
  apiTokens: { table: 'apiTokens', scope: 'organizationId' },
  organizations: { table: 'organizations', scope: null },
  transMemories: { table: 'transMemories', scope: 'organizationId' },
  termBases: { table: 'termBases', scope: 'organizationId' },
  glossaries: { table: 'glossaries', scope: 'organizationId' },
  mtSettings: { table: 'mtSettings', scope: 'organizationId' },
  segmentationRules: { table: 'segmentationRules', scope: 'organizationId' },
  /** A vendor as its buyer sees it (`/v1/vendors/{vendorUid}`). */
  vendors: { table: 'vendors', scope: 'buyerOrganizationId' },
  /** The same link as the vendor sees it (`/v1/buyers/{buyerUid}`). */
  buyers: { table: 'vendors', scope: 'vendorOrganizationId' },
} as const satisfies Record<string, { table: keyof DB; scope: string | null }>;

export type IdRecord = keyof typeof ID_RECORDS;

/** A numeric id as records have them (1 to 18 digits, so that it fits a bigint); anything else is a uid. */
export const NUMERIC_ID = /^[0-9]{1,18}$/;

/** Every table above has a numeric `id`, a `uid` and its scope column. */
type IdTable = { id: string; uid: string } & Record<string, string>;

/** The uid of record `id` of kind `record` within the caller's organization, or undefined. */
export async function uidOfNumericId(db: Kysely<DB>, record: IdRecord, id: string, organizationId: string): Promise<string | undefined> {
  const { table, scope } = ID_RECORDS[record];
  const loose = db as unknown as Kysely<Record<string, IdTable>>;
  const row = await loose
    .selectFrom(table)
    .select('uid')
    .where('id', '=', id)
    .$if(scope !== null, (query) => query.where(scope!, '=', organizationId))
    .executeTakeFirst();
  return row?.uid;
}

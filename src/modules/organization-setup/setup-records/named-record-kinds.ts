import type { Kysely, Transaction } from 'kysely';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { roles } from '../../../http/access.js';
import type { Access } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { forgetSettingReferences } from '../../identity/users/index.js';
import type { KindContext, NamedRecordKind } from './named-record-kit.js';
import { findNamedRecordsByIds, findNamedRecordsByUids } from './named-records.repository.js';
import type { NamedRow } from './named-records.repository.js';
import { pricingReferenceColumn, pricingReferenceLookup } from './pricing-references.js';
import { clearCostCenterReferences } from './reference-clearing.js';
import {
  BusinessUnitBody,
  BusinessUnitSchema,
  ClientBody,
  ClientSchema,
  CostCenterBody,
  CostCenterSchema,
  DomainBody,
  DomainSchema,
  SubDomainBody,
  SubDomainSchema,
} from './setup-records.schemas.js';

/**
 * The five kinds of named setup records and their rules (description, "Behaviour of other
 * operations" 1-3 and "Access rules"; docs/setup-records.md).
 */

const INTERNAL = roles('ADMIN', 'PROJECT_MANAGER');
const withRight = (right: NonNullable<Access['right']>): Access => ({ roles: ['ADMIN', 'PROJECT_MANAGER'], right });
/** Setup records that need the setup-server right to change (cost centers, business units). */
const SETUP: NamedRecordKind['access'] = {
  read: INTERNAL,
  create: withRight('setupServer'),
  edit: withRight('setupServer'),
  delete: withRight('setupServer'),
};

const referenceNotFound = (field: string, what: string, key: string) => errors.ReferenceNotFound({ what, key, field });

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

interface ClientBodyValue {
  name?: string;
  externalId?: string | null;
  note?: string | null;
  displayNoteInProject?: boolean | null;
  priceList?: { id: string } | null;
  netRateScheme?: { id: string } | null;
  contacts?: { name: string; email?: string | null; phone?: string | null }[] | null;
}

async function clientColumns(
  ctx: KindContext,
  db: Kysely<DB>,
  body: ClientBodyValue,
  existing: NamedRow | null,
): Promise<Record<string, unknown>> {
  const organizationId = ctx.caller.organizationId;
  const columns: Record<string, unknown> = {};
  // Fields left out keep their values on edit; null clears them (for priceList and netRateScheme:
  // description, "Behaviour of other operations" 1). A list or scheme the organization does not
  // have is 400 ReferenceNotFound (by id or uid, as the spec's IdReference).
  if (body.externalId !== undefined || !existing) columns.externalId = body.externalId ?? null;
  if (body.note !== undefined || !existing) columns.note = body.note ?? null;
  if (body.displayNoteInProject !== undefined || !existing) columns.displayNoteInProject = body.displayNoteInProject ?? false;
  const priceListId = await pricingReferenceColumn(db, organizationId, 'priceList', 'priceList', body.priceList);
  if (priceListId !== undefined) columns.priceListId = priceListId;
  const netRateSchemeId = await pricingReferenceColumn(db, organizationId, 'netRateScheme', 'netRateScheme', body.netRateScheme);
  if (netRateSchemeId !== undefined) columns.netRateSchemeId = netRateSchemeId;
  return columns;
}

async function writeContacts(_ctx: KindContext, trx: Transaction<DB>, row: NamedRow, body: ClientBodyValue): Promise<void> {
  if (body.contacts === undefined) return;
  await trx.deleteFrom('clientContacts').where('clientId', '=', row.id).execute();
  const contacts = body.contacts ?? [];
  if (contacts.length === 0) return;
  await trx
    .insertInto('clientContacts')
    .values(contacts.map((c, position) => ({ clientId: row.id, position, name: c.name, email: c.email ?? null, phone: c.phone ?? null })))
    .execute();
}

async function clientViews(ctx: KindContext, rows: NamedRow[]) {
  const ids = rows.map((r) => r.id);
  const pricing = await pricingReferenceLookup(
    ctx.deps.database.db,
    ctx.caller.organizationId,
    rows.map((r) => ({ priceListId: r.priceListId as string | null, netRateSchemeId: r.netRateSchemeId as string | null })),
  );
  const contacts =
    ids.length === 0
      ? []
      : await ctx.deps.database.db
          .selectFrom('clientContacts')
          .selectAll()
          .where('clientId', 'in', ids)
          .orderBy('clientId')
          .orderBy('position')
          .execute();
  return (row: NamedRow) => ({
    externalId: (row.externalId as string | null) ?? null,
    note: (row.note as string | null) ?? null,
    displayNoteInProject: bool(row.displayNoteInProject as number | boolean),
    priceList: pricing.priceList(row.priceListId as string | null),
    netRateScheme: pricing.netRateScheme(row.netRateSchemeId as string | null),
    contacts: contacts.filter((c) => c.clientId === row.id).map((c) => ({ name: c.name, email: c.email, phone: c.phone })),
  });
}

/** Deleting a client deletes its contacts and business units (foreign keys) and takes both out of users' settings. */
async function beforeClientDelete(ctx: KindContext, trx: Transaction<DB>, row: NamedRow): Promise<void> {
  const units = await trx.selectFrom('businessUnits').select('uid').where('clientId', '=', row.id).execute();
  await forgetSettingReferences(trx, ctx.caller.organizationId, 'client', [row.uid]);
  await forgetSettingReferences(
    trx,
    ctx.caller.organizationId,
    'businessUnit',
    units.map((u) => u.uid),
  );
}

export const CLIENTS: NamedRecordKind<ClientBodyValue> = {
  table: 'clients',
  softDelete: false,
  label: 'Client',
  plural: 'clients',
  tag: 'Client',
  path: '/v1/clients',
  uidParam: 'clientUid',
  operationIds: { list: 'listClients', create: 'createClient', get: 'getClient', update: 'updateClient', delete: 'deleteClient' },
  uniqueNames: true,
  partialEdit: false,
  access: { read: INTERNAL, create: withRight('clientCreate'), edit: INTERNAL, delete: INTERNAL },
  othersRights: { view: 'clientViewOther', edit: 'clientEditOther', delete: 'clientDeleteOther' },
  body: ClientBody,
  dto: ClientSchema,
  columns: clientColumns,
  afterWrite: writeContacts,
  views: clientViews,
  beforeDelete: beforeClientDelete,
};

// ---------------------------------------------------------------------------------------------
// Business units
// ---------------------------------------------------------------------------------------------

async function assertBusinessUnitsEnabled(ctx: KindContext): Promise<void> {
  const organization = await ctx.deps.database.db
    .selectFrom('organizations')
    .select('businessUnitsEnabled')
    .where('id', '=', ctx.caller.organizationId)
    .executeTakeFirst();
  if (!organization || !bool(organization.businessUnitsEnabled)) {
    throw errors.BusinessUnitsDisabled();
  }
}

const CLIENT_TABLE = { table: 'clients', softDelete: false } as const;

async function businessUnitColumns(
  ctx: KindContext,
  db: Kysely<DB>,
  body: { client?: { uid: string } | null },
): Promise<Record<string, unknown>> {
  if (body.client === undefined) return {};
  if (body.client === null) return { clientId: null };
  const [client] = await findNamedRecordsByUids(db, CLIENT_TABLE, ctx.caller.organizationId, [body.client.uid]);
  if (!client) throw referenceNotFound('client', 'client', body.client.uid);
  return { clientId: client.id };
}

async function businessUnitViews(ctx: KindContext, rows: NamedRow[]) {
  const ids = [
    ...new Set(
      rows
        .map((r) => r.clientId)
        .filter((id) => id !== null && id !== undefined)
        .map(String),
    ),
  ];
  const clients = new Map(
    (await findNamedRecordsByIds(ctx.deps.database.db, CLIENT_TABLE, ctx.caller.organizationId, ids)).map((c) => [c.id, c]),
  );
  return (row: NamedRow) => {
    const client = row.clientId === null || row.clientId === undefined ? undefined : clients.get(String(row.clientId));
    return { client: client ? { id: client.id, uid: client.uid, name: client.name } : null };
  };
}

export const BUSINESS_UNITS: NamedRecordKind<{ client?: { uid: string } | null }> = {
  table: 'businessUnits',
  softDelete: false,
  label: 'Business unit',
  plural: 'business units',
  tag: 'Business Unit',
  path: '/v1/businessUnits',
  uidParam: 'businessUnitUid',
  operationIds: {
    list: 'listBusinessUnits',
    create: 'createBusinessUnit',
    get: 'getBusinessUnit',
    update: 'updateBusinessUnit',
    delete: 'deleteBusinessUnit',
  },
  uniqueNames: true,
  partialEdit: false,
  access: SETUP,
  assertEnabled: assertBusinessUnitsEnabled,
  body: BusinessUnitBody,
  dto: BusinessUnitSchema,
  columns: businessUnitColumns,
  views: businessUnitViews,
  beforeDelete: (ctx, trx, row) => forgetSettingReferences(trx, ctx.caller.organizationId, 'businessUnit', [row.uid]),
};

// ---------------------------------------------------------------------------------------------
// Cost centers, domains, subdomains
// ---------------------------------------------------------------------------------------------

export const COST_CENTERS: NamedRecordKind = {
  table: 'costCenters',
  softDelete: true,
  label: 'Cost center',
  plural: 'cost centers',
  tag: 'Cost Center',
  path: '/v1/costCenters',
  uidParam: 'costCenterUid',
  operationIds: {
    list: 'listCostCenters',
    create: 'createCostCenter',
    get: 'getCostCenter',
    update: 'updateCostCenter',
    delete: 'deleteCostCenter',
  },
  uniqueNames: true,
  partialEdit: true,
  access: SETUP,
  body: CostCenterBody,
  dto: CostCenterSchema,
  // A soft delete keeps the row, so the foreign keys do not clear the references: do it here.
  beforeDelete: (_ctx, trx, row) => clearCostCenterReferences(trx, row.id),
};

export const DOMAINS: NamedRecordKind = {
  table: 'domains',
  softDelete: false,
  label: 'Domain',
  plural: 'domains',
  tag: 'Domain',
  path: '/v1/domains',
  uidParam: 'domainUid',
  operationIds: { list: 'listDomains', create: 'createDomain', get: 'getDomain', update: 'updateDomain', delete: 'deleteDomain' },
  // The description makes client, business unit, subdomain and cost center names unique, not domain names.
  uniqueNames: false,
  partialEdit: false,
  access: { read: INTERNAL, create: withRight('clientDomainSubDomainCreate'), edit: INTERNAL, delete: INTERNAL },
  othersRights: {
    view: 'clientDomainSubDomainViewOther',
    edit: 'clientDomainSubDomainEditOther',
    delete: 'clientDomainSubDomainDeleteOther',
  },
  body: DomainBody,
  dto: DomainSchema,
  beforeDelete: (ctx, trx, row) => forgetSettingReferences(trx, ctx.caller.organizationId, 'domain', [row.uid]),
};

export const SUB_DOMAINS: NamedRecordKind = {
  table: 'subDomains',
  softDelete: false,
  label: 'Subdomain',
  plural: 'subdomains',
  tag: 'SubDomain',
  path: '/v1/subDomains',
  uidParam: 'subDomainUid',
  operationIds: {
    list: 'listSubDomains',
    create: 'createSubDomain',
    get: 'getSubDomain',
    update: 'updateSubDomain',
    delete: 'deleteSubDomain',
  },
  uniqueNames: true,
  partialEdit: false,
  // Description, "Access rules": subDomainCreate to create; the client rights for others' subdomains.
  access: { read: INTERNAL, create: withRight('subDomainCreate'), edit: INTERNAL, delete: INTERNAL },
  othersRights: { view: 'clientViewOther', edit: 'clientEditOther', delete: 'clientDeleteOther' },
  body: SubDomainBody,
  dto: SubDomainSchema,
  beforeDelete: (ctx, trx, row) => forgetSettingReferences(trx, ctx.caller.organizationId, 'subDomain', [row.uid]),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const NAMED_RECORD_KINDS: NamedRecordKind<any>[] = [CLIENTS, BUSINESS_UNITS, COST_CENTERS, DOMAINS, SUB_DOMAINS];

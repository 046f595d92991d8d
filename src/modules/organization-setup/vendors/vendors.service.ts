import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { bool } from '../../../db/database.js';
import { assertLanguages } from '../../../domain/languages/language-validation.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { ProjectManagerRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import type { PageRequest } from '../../../http/paging.js';
import { assertTimezone, findUserByUid } from '../../identity/users/index.js';
import { pricingReferenceColumn, referenceNotFound, resolveReferences } from '../setup-records/index.js';
import {
  deleteLinks,
  findLink,
  findLinksByUids,
  insertLink,
  insertLinkReferences,
  linkExists,
  listLinks,
  organizationByVendorToken,
  updateLink,
} from './vendors.repository.js';
import type { VendorLinkRow, VendorRow } from './vendors.repository.js';
import type { CreateVendorBody, UpdateBuyerBody } from './vendors.schemas.js';

/** A new link starts in the vendor's default time zone until the vendor sets its own (updateBuyer). */
export const DEFAULT_VENDOR_TIMEZONE = 'Europe/London';

/** Roles that can own a buyer's work at the vendor (they receive the buyer's projects). */
const OWNER_ROLES = new Set(['ADMIN', 'PROJECT_MANAGER']);

/** Project managers touch vendors others created only with the matching right; ADMIN holds every right. */
function mayTouch(caller: Caller, row: VendorRow, right: ProjectManagerRight): boolean {
  if (caller.role !== 'PROJECT_MANAGER') return true;
  if (row.createdById !== null && row.createdById === caller.userId) return true;
  return hasRight(caller.role, caller.settings, right);
}

const alreadyLinked = (name: string) => errors.VendorAlreadyExists({ name });

/** Project managers without vendorViewOther see only the vendors they linked. */
export function listVendors(
  deps: AppDeps,
  caller: Caller,
  filter: { name?: string | undefined },
  page: PageRequest,
): Promise<{ rows: VendorLinkRow[]; total: number }> {
  const ownOnly = caller.role === 'PROJECT_MANAGER' && !hasRight(caller.role, caller.settings, 'vendorViewOther');
  return listLinks(
    deps.database.db,
    'buyer',
    caller.organizationId,
    { name: filter.name, ...(ownOnly ? { createdById: caller.userId } : {}) },
    page,
  );
}

/**
 * Links the organization whose vendor token is given as a vendor, with references to the
 * caller's own records (clients, domains, subdomains, workflow steps, a price list and a net rate
 * scheme, by uid; 400 ReferenceNotFound for one the organization does not have).
 */
export async function createVendor(deps: AppDeps, caller: Caller, body: Static<typeof CreateVendorBody>): Promise<VendorLinkRow> {
  const db = deps.database.db;
  const sourceLocales = assertLanguages('sourceLocales', body.sourceLocales ?? []);
  const targetLocales = assertLanguages('targetLocales', body.targetLocales ?? []);
  const vendor = await organizationByVendorToken(db, body.vendorToken);
  if (!vendor) {
    throw errors.InvalidVendorToken();
  }
  if (vendor.id === caller.organizationId) {
    throw errors.CannotLinkOwnOrganization();
  }
  const now = deps.clock().toISOString();
  let uid: string;
  try {
    uid = await db.transaction().execute(async (trx) => {
      if (await linkExists(trx, caller.organizationId, vendor.id)) throw alreadyLinked(vendor.name);
      const priceListId = await pricingReferenceColumn(trx, caller.organizationId, 'priceList', 'priceList', body.priceList);
      const netRateSchemeId = await pricingReferenceColumn(
        trx,
        caller.organizationId,
        'netRateScheme',
        'netRateScheme',
        body.netRateScheme,
      );
      const refs = {
        clients: await resolveReferences(trx, caller.organizationId, 'client', 'clients', body.clients ?? []),
        domains: await resolveReferences(trx, caller.organizationId, 'domain', 'domains', body.domains ?? []),
        subDomains: await resolveReferences(trx, caller.organizationId, 'subDomain', 'subDomains', body.subDomains ?? []),
        workflowSteps: await resolveReferences(trx, caller.organizationId, 'workflowStep', 'workflowSteps', body.workflowSteps ?? []),
      };
      const row = await insertLink(trx, {
        buyerOrganizationId: caller.organizationId,
        vendorOrganizationId: vendor.id,
        vendorToken: body.vendorToken,
        priceListId: priceListId ?? null,
        netRateSchemeId: netRateSchemeId ?? null,
        sourceLocales: JSON.stringify(sourceLocales),
        targetLocales: JSON.stringify(targetLocales),
        active: true,
        buyerOwnerId: null,
        timezone: DEFAULT_VENDOR_TIMEZONE,
        createdAt: now,
        createdById: caller.userId,
        lastModifiedAt: now,
        lastModifiedById: caller.userId,
      });
      await insertLinkReferences(trx, row.id, refs);
      return row.uid;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyLinked(vendor.name);
    throw error;
  }
  return (await findLink(db, 'buyer', caller.organizationId, uid))!;
}

/** A vendor the caller sees (project managers: their own, or all with vendorViewOther), or 404. */
export async function getVendor(deps: AppDeps, caller: Caller, uid: string): Promise<VendorLinkRow> {
  const row = await findLink(deps.database.db, 'buyer', caller.organizationId, uid);
  if (!row || !mayTouch(caller, row, 'vendorViewOther')) throw errors.ResourceNotFound({ what: 'Vendor' });
  return row;
}

/** Unlinks the vendors, all or none: 404 when one is not a vendor the caller sees, 403 when one may not be deleted. */
export async function deleteVendors(deps: AppDeps, caller: Caller, requested: string[]): Promise<void> {
  const db = deps.database.db;
  const uids = [...new Set(requested)];
  const rows = await findLinksByUids(db, caller.organizationId, uids);
  const visible = new Map(rows.filter((r) => mayTouch(caller, r, 'vendorViewOther')).map((r) => [r.uid, r]));
  const missing = uids.filter((uid) => !visible.has(uid));
  if (missing.length) {
    throw errors.ResourceNotFound({ what: 'Vendor', uids: missing, field: 'vendors' });
  }
  if ([...visible.values()].some((r) => !mayTouch(caller, r, 'vendorDeleteOther')))
    throw errors.AccessDenied({ reason: 'Deleting vendors linked by other users needs the vendorDeleteOther right.' });
  await deleteLinks(
    db,
    [...visible.values()].map((r) => r.id),
  );
}

/**
 * The vendor side of a link: `active`, `buyerOwner` (an active ADMIN or PROJECT_MANAGER of the
 * vendor; null clears) and `timezone`. Fields left out keep their values.
 */
export async function updateBuyer(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  body: Static<typeof UpdateBuyerBody>,
): Promise<VendorLinkRow> {
  const db = deps.database.db;
  const link = await findLink(db, 'vendor', caller.organizationId, uid);
  if (!link) throw errors.ResourceNotFound({ what: 'Buyer' });
  const changes: { active?: boolean; buyerOwnerId?: string | null; timezone?: string } = {};
  if (body.active !== undefined) changes.active = body.active;
  if (body.timezone !== undefined) {
    assertTimezone(body.timezone);
    changes.timezone = body.timezone;
  }
  if (body.buyerOwner === null) changes.buyerOwnerId = null;
  else if (body.buyerOwner !== undefined) {
    const owner = await findUserByUid(db, caller.organizationId, body.buyerOwner.uid);
    if (!owner || owner.deletedAt !== null || !bool(owner.active) || !OWNER_ROLES.has(owner.role))
      throw referenceNotFound('buyerOwner', 'active administrator or project manager', body.buyerOwner.uid);
    changes.buyerOwnerId = owner.id;
  }
  if (Object.keys(changes).length > 0) {
    await updateLink(db, link.id, { ...changes, lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId });
  }
  return (await findLink(db, 'vendor', caller.organizationId, link.uid))!;
}

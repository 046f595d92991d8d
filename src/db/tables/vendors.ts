import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Table types of vendors, buyers (vendor links between organizations) and services (see src/db/schema.ts for the conventions). */

/** Each organization's vendor token: what a buyer organization presents to link it as a vendor. */
export interface OrganizationVendorTokensTable {
  organizationId: Id;
  /** Random, URL-safe, about 190 bits; unique across organizations. */
  token: string;
  createdAt: Timestamp;
}

/**
 * A vendor link: the buyer organization works with the vendor organization. The buyer sees it as
 * a vendor (VendorDto), the vendor as a buyer (BuyerDto); one uid for both views.
 */
export interface VendorsTable {
  id: Generated<Id>;
  uid: string;
  buyerOrganizationId: Id;
  vendorOrganizationId: Id;
  /** The vendor token the buyer presented when linking. */
  vendorToken: string;
  /** Price lists and net rate schemes are later records; null until then. */
  priceListId: Id | null;
  netRateSchemeId: Id | null;
  /** JSON arrays of canonical language codes. */
  sourceLocales: string;
  targetLocales: string;
  /** Vendor-side settings (updateBuyer): whether the vendor accepts work from the buyer… */
  active: Generated<SqlBool>;
  /** …the vendor's user who owns the buyer's work (the buyer sees them as `buyerOwner`)… */
  buyerOwnerId: Id | null;
  /** …and the vendor's time zone for this buyer. */
  timezone: string;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

export interface VendorClientsTable {
  vendorId: Id;
  clientId: Id;
}

export interface VendorDomainsTable {
  vendorId: Id;
  domainId: Id;
}

export interface VendorSubDomainsTable {
  vendorId: Id;
  subDomainId: Id;
}

export interface VendorWorkflowStepsTable {
  vendorId: Id;
  workflowStepId: Id;
}

export interface ServicesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  description: string | null;
  active: Generated<SqlBool>;
  /** Price lists are later records; null until then. */
  priceListId: Id | null;
  projectTemplateId: Id | null;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

export interface ServiceWorkflowStepsTable {
  serviceId: Id;
  workflowStepId: Id;
}

export interface VendorTables {
  organizationVendorTokens: OrganizationVendorTokensTable;
  vendors: VendorsTable;
  vendorClients: VendorClientsTable;
  vendorDomains: VendorDomainsTable;
  vendorSubDomains: VendorSubDomainsTable;
  vendorWorkflowSteps: VendorWorkflowStepsTable;
  services: ServicesTable;
  serviceWorkflowSteps: ServiceWorkflowStepsTable;
}

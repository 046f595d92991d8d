import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/**
 * Table types of the organization's named setup records (clients are in schema.ts), and the
 * first columns of project templates. See src/db/schema.ts for the conventions.
 */

/** Columns every named setup record has (the record kit in src/modules/organization-setup/setup-records relies on them). */
export interface NamedRecordColumns {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface ClientContactsTable {
  id: Generated<Id>;
  clientId: Id;
  /** Order of the contact in the client's list. */
  position: number;
  name: string;
  email: string | null;
  phone: string | null;
}

export interface BusinessUnitsTable extends NamedRecordColumns {
  /** The client the unit belongs to, if any (OpenTMS extension); deleting the client deletes the unit. */
  clientId: Id | null;
}

export interface CostCentersTable extends NamedRecordColumns {
  /** Cost centers are soft deleted (description, "Behaviour of other operations" 3). */
  deletedAt: Timestamp | null;
}

export type DomainsTable = NamedRecordColumns;
export type SubDomainsTable = NamedRecordColumns;

/** Project templates: issue 6 adds the rest of their columns. References clear on delete (SET NULL). */
export interface ProjectTemplatesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  createdAt: Timestamp;
  createdById: Id | null;
  clientId: Id | null;
  businessUnitId: Id | null;
  costCenterId: Id | null;
  domainId: Id | null;
  subDomainId: Id | null;
  // Issue 6 (migration T1800, see src/db/tables/projects.ts):
  /** The name projects made from the template get (`ProjectTemplate.name`); `name` is the template's own (`templateName`). */
  projectName: string | null;
  sourceLang: string | null;
  /** JSON array of language codes. */
  targetLangs: Generated<string>;
  note: string | null;
  useDynamicTitle: Generated<SqlBool>;
  dynamicTitle: string | null;
  ownerId: Id | null;
  vendorId: Id | null;
  fileHandover: Generated<SqlBool>;
  /** JSON object of settings documents the service stores and returns (see ProjectSettings). */
  settings: Generated<string>;
  lastModifiedAt: Timestamp | null;
  lastModifiedById: Id | null;
}

export interface SetupRecordTables {
  clientContacts: ClientContactsTable;
  businessUnits: BusinessUnitsTable;
  costCenters: CostCentersTable;
  domains: DomainsTable;
  subDomains: SubDomainsTable;
  projectTemplates: ProjectTemplatesTable;
}

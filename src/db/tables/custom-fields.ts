import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Table types of custom fields and their options (see src/db/schema.ts for the conventions). */

export type CustomFieldTypeColumn = 'MULTI_SELECT' | 'SINGLE_SELECT' | 'STRING' | 'NUMBER' | 'URL' | 'DATE';

export interface CustomFieldsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  /** Unique in the organization, ignoring case. */
  name: string;
  type: CustomFieldTypeColumn;
  /** JSON array of entity names (`["PROJECT"]`). */
  allowedEntities: string;
  required: Generated<SqlBool>;
  /** When the field last became required; null while it is not required. */
  requiredFrom: Timestamp | null;
  description: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp;
  lastModifiedById: Id | null;
}

/** Options of SINGLE_SELECT / MULTI_SELECT fields; deleted with their field. */
export interface CustomFieldOptionsTable {
  id: Generated<Id>;
  uid: string;
  fieldId: Id;
  /** Unique in the field, ignoring case. */
  value: string;
  deprecated: Generated<SqlBool>;
  createdAt: Timestamp;
}

export interface CustomFieldTables {
  customFields: CustomFieldsTable;
  customFieldOptions: CustomFieldOptionsTable;
}

import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Migration 2026-11-30T1100_import_settings_and_file_types (docs/import-settings-and-file-types.md). */
export interface ImportSettingsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  /** The FileImportSettings document as stored (JSON): the FileImportSettingsCreateDto sent. */
  settings: string;
  /** The organization this row is the default of; null on named import settings. */
  defaultForOrganizationId: Id | null;
  /** The document has an `xml` section with rules (named rows so marked are XML assistant profiles). */
  hasXmlRules: Generated<SqlBool>;
  createdAt: Timestamp;
  createdById: Id | null;
  updatedAt: Timestamp;
  updatedById: Id | null;
}

/** A file-name pattern, the file type it picks and its own import settings document. */
export interface CustomFileTypesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  filenamePattern: string;
  /** Phrase's file type: html, json, xml, multiling_xml, txt. */
  type: string;
  /** The FileImportSettings document as stored (JSON). */
  settings: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface ImportSettingsTables {
  importSettings: ImportSettingsTable;
  customFileTypes: CustomFileTypesTable;
}

import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { Db } from '../../../queue/types.js';
import { assertSegmentationRuleIds } from '../segmentation-rules/index.js';
import { parseImportSettingsDocument, xmlRulesOf } from './import-settings-document.js';
import type { ImportSettingsDocument } from './import-settings-document.js';
import {
  deleteImportSettingsRow,
  ensureDefaultImportSettings,
  findDefaultImportSettings,
  findImportSettings,
  insertImportSettings,
  updateImportSettingsRow,
} from './import-settings.repository.js';
import type { ImportSettingsRow } from './import-settings.repository.js';
import type { CreateImportSettingsBody, EditDefaultImportSettingsBody, EditImportSettingsBody } from './import-settings.schemas.js';

/** Import settings use cases (docs/import-settings-and-file-types.md). */

function assertName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
  return trimmed;
}

/**
 * A FileImportSettingsCreateDto as stored: checked (the segmentation rules it names must be
 * rules of the organization: 400 ReferenceNotFound) and kept as sent; defaults apply on reading.
 */
export async function storableDocument(
  db: Db,
  organizationId: string,
  document: ImportSettingsDocument | undefined,
): Promise<ImportSettingsDocument> {
  const value = document ?? {};
  await assertSegmentationRuleIds(db, organizationId, value);
  return value;
}

export async function requireImportSettings(db: Db, organizationId: string, uid: string): Promise<ImportSettingsRow> {
  const row = await findImportSettings(db, organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Import settings' });
  return row;
}

export async function createImportSettings(deps: AppDeps, caller: Caller, body: CreateImportSettingsBody): Promise<ImportSettingsRow> {
  const db = deps.database.db;
  const name = assertName(body.name);
  const document = await storableDocument(db, caller.organizationId, body.fileImportSettings as ImportSettingsDocument);
  return insertImportSettings(db, {
    organizationId: caller.organizationId,
    name,
    settings: JSON.stringify(document),
    hasXmlRules: xmlRulesOf(document) !== null,
    now: deps.clock().toISOString(),
    userId: caller.userId,
  });
}

/** Replaces the name and the whole document (sections left out take the system defaults again). */
export async function editImportSettings(deps: AppDeps, caller: Caller, body: EditImportSettingsBody): Promise<ImportSettingsRow> {
  const db = deps.database.db;
  const row = await requireImportSettings(db, caller.organizationId, body.uid);
  const name = assertName(body.name);
  return replaceDocument(deps, caller, row, name, body.fileImportSettings as ImportSettingsDocument);
}

export async function deleteImportSettings(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const db = deps.database.db;
  const row = await requireImportSettings(db, caller.organizationId, uid);
  if (row.defaultForOrganizationId !== null)
    throw errors.ImportSettingsInUse({ name: row.name, usedAs: "the organization's default import settings" });
  await deleteImportSettingsRow(db, row.id);
}

export function defaultImportSettings(deps: AppDeps, caller: Caller): Promise<ImportSettingsRow> {
  return ensureDefaultImportSettings(deps.database.db, caller.organizationId, deps.clock().toISOString(), caller.userId);
}

/**
 * Replaces the organization's default document: the body is the FileImportSettingsCreateDto, or
 * the envelope `{name?, fileImportSettings}` (schemas: EditDefaultImportSettingsBody).
 */
export async function editDefaultImportSettings(
  deps: AppDeps,
  caller: Caller,
  body: EditDefaultImportSettingsBody,
): Promise<ImportSettingsRow> {
  const row = await defaultImportSettings(deps, caller);
  const { name, fileImportSettings, ...rest } = body;
  const document = (fileImportSettings ?? rest) as ImportSettingsDocument;
  return replaceDocument(deps, caller, row, name === undefined ? row.name : assertName(name), document);
}

async function replaceDocument(
  deps: AppDeps,
  caller: Caller,
  row: ImportSettingsRow,
  name: string,
  given: ImportSettingsDocument,
): Promise<ImportSettingsRow> {
  const db = deps.database.db;
  const document = await storableDocument(db, caller.organizationId, given);
  return updateImportSettingsRow(db, row.id, {
    name,
    settings: JSON.stringify(document),
    hasXmlRules: xmlRulesOf(document) !== null,
    updatedAt: deps.clock().toISOString(),
    updatedById: caller.userId,
  });
}

/**
 * The organization's default import settings document, or null while the organization has never
 * stored one (then the system defaults apply). A new project starts from it.
 */
export async function organizationDefaultImportSettings(db: Db, organizationId: string): Promise<ImportSettingsDocument | null> {
  const row = await findDefaultImportSettings(db, organizationId);
  return row ? parseImportSettingsDocument(row.settings) : null;
}

/**
 * The document of the organization's named import settings that a reference (`{uid}` or `{id}`)
 * names, for createJob's `importSettings` and `xmlAssistantProfile` (an XML assistant profile is
 * named import settings with XML rules: docs/import-settings-and-file-types.md); a 400 naming
 * `field` for a reference without a uid or to settings the organization does not have.
 */
export async function referencedImportSettings(
  db: Db,
  organizationId: string,
  reference: Readonly<Record<string, unknown>>,
  field: string,
): Promise<ImportSettingsDocument> {
  const key = reference['uid'] ?? reference['id'];
  if (typeof key !== 'string' || key === '') {
    throw errors.InvalidArguments({ reason: `${field} names import settings by their uid.`, details: [{ field, message: 'needs a uid' }] });
  }
  const row = await findImportSettings(db, organizationId, key);
  if (!row) throw errors.ReferenceNotFound({ what: 'import settings', key, field });
  return parseImportSettingsDocument(row.settings);
}

import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import type { Caller } from '../../../http/access.js';
import type { Db } from '../../../queue/types.js';
import { FILE_IMPORT_SETTINGS_DEFAULTS, parseImportSettingsDocument, storableDocument } from '../import-settings/index.js';
import type { ImportSettingsDocument } from '../import-settings/index.js';
import { compileFilenamePattern } from './filename-pattern.js';
import {
  customFileTypePatterns,
  deleteCustomFileTypeRows,
  findCustomFileType,
  findCustomFileTypeById,
  findCustomFileTypes,
  insertCustomFileType,
  updateCustomFileTypeRow,
} from './custom-file-types.repository.js';
import type { CustomFileTypeRow } from './custom-file-types.repository.js';
import type { CreateCustomFileTypeBody, CustomFileTypeName, UpdateCustomFileTypeBody } from './custom-file-types.schemas.js';

/** Custom file type use cases (docs/import-settings-and-file-types.md). */

/**
 * The file filter (src/formats, FormatFilter.name) each Phrase file type imports with. Multilingual
 * XML has no filter of its own yet: a file of that type is imported as the job import finds it
 * (by extension and content) with the type's settings.
 */
export const FILE_FORMAT_OF_TYPE: Record<CustomFileTypeName, string> = {
  html: 'html',
  json: 'json',
  xml: 'xml',
  multiling_xml: 'multilingual-xml',
  txt: 'plain-text',
};

/**
 * `supportsContinuousJob` "is derived from the file type" (Phrase): the key-addressed formats,
 * whose units an updated file can be matched against by key (JSON, XML, multilingual XML), do;
 * HTML and plain text, addressed by position only, do not.
 */
export function supportsContinuousJob(type: string): boolean {
  return type === 'json' || type === 'xml' || type === 'multiling_xml';
}

function trimmedNotBlank(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '')
    throw errors.InvalidArguments({ reason: `${field} must not be blank.`, details: [{ field, message: 'must not be blank' }] });
  return trimmed;
}

export async function requireCustomFileType(db: Db, organizationId: string, uid: string): Promise<CustomFileTypeRow> {
  const row = await findCustomFileType(db, organizationId, uid);
  if (!row) throw errors.ResourceNotFound({ what: 'Custom file type' });
  return row;
}

export async function createCustomFileType(deps: AppDeps, caller: Caller, body: CreateCustomFileTypeBody): Promise<CustomFileTypeRow> {
  const db = deps.database.db;
  const name = trimmedNotBlank(body.name, 'name');
  const filenamePattern = trimmedNotBlank(body.filenamePattern, 'filenamePattern');
  const document = await storableDocument(db, caller.organizationId, body.fileImportSettings as ImportSettingsDocument | undefined);
  return insertCustomFileType(db, {
    organizationId: caller.organizationId,
    name,
    filenamePattern,
    type: body.type,
    settings: JSON.stringify(document),
    createdAt: deps.clock().toISOString(),
    createdById: caller.userId,
  });
}

/** Fields given replace the type's (`fileImportSettings` the whole document); fields left out keep their values. */
export async function updateCustomFileType(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  body: UpdateCustomFileTypeBody,
): Promise<CustomFileTypeRow> {
  const db = deps.database.db;
  const row = await requireCustomFileType(db, caller.organizationId, uid);
  const values: Parameters<typeof updateCustomFileTypeRow>[2] = {};
  if (body.name !== undefined) values.name = trimmedNotBlank(body.name, 'name');
  if (body.filenamePattern !== undefined) values.filenamePattern = trimmedNotBlank(body.filenamePattern, 'filenamePattern');
  if (body.type !== undefined) values.type = body.type;
  if (body.fileImportSettings !== undefined)
    values.settings = JSON.stringify(await storableDocument(db, caller.organizationId, body.fileImportSettings as ImportSettingsDocument));
  return Object.keys(values).length === 0 ? row : updateCustomFileTypeRow(db, row.id, values);
}

export async function deleteCustomFileType(deps: AppDeps, caller: Caller, uid: string): Promise<void> {
  const row = await requireCustomFileType(deps.database.db, caller.organizationId, uid);
  await deleteCustomFileTypeRows(deps.database.db, [row.id]);
}

/** Deletes all the types named, or none: an unknown uid is 404 naming it. */
export async function deleteCustomFileTypes(deps: AppDeps, caller: Caller, uids: readonly string[]): Promise<void> {
  const db = deps.database.db;
  const wanted = [...new Set(uids)];
  const rows = await findCustomFileTypes(db, caller.organizationId, wanted);
  const found = new Set(rows.map((r) => r.uid));
  const missing = wanted.filter((uid) => !found.has(uid));
  if (missing.length) throw errors.ResourceNotFound({ what: 'Custom file type', uids: missing, field: 'customFileTypes' });
  await deleteCustomFileTypeRows(
    db,
    rows.map((r) => r.id),
  );
}

/**
 * The organization's custom file type for a file name, or undefined: of the types whose pattern
 * matches, the most specific (the most characters that are not wildcards), then the oldest.
 */
export async function matchingCustomFileType(db: Db, organizationId: string, filename: string): Promise<CustomFileTypeRow | undefined> {
  let best: { id: string; literalCount: number } | null = null;
  for (const candidate of await customFileTypePatterns(db, organizationId)) {
    const matcher = compileFilenamePattern(candidate.filenamePattern);
    if (!matcher.test(filename)) continue;
    if (best === null || matcher.literalCount > best.literalCount) best = { id: String(candidate.id), literalCount: matcher.literalCount };
  }
  return best ? findCustomFileTypeById(db, best.id) : undefined;
}

/** What the job import needs from a custom file type (customFileTypeFor). */
export interface CustomFileTypeChoice {
  /** The file filter to import with (src/formats FormatFilter.name): FILE_FORMAT_OF_TYPE. */
  fileFormat: string;
  /** Phrase's file type the custom file type names (`html`, `json`, `xml`, `multiling_xml`, `txt`). */
  type: string;
  /** The custom file type's uid. */
  customFileTypeUid: string;
  /**
   * Its import settings document over the top-level system defaults, as a job's file keeps it
   * (`job_sources.import_settings`: segmentation rule ids included).
   */
  importSettings: ImportSettingsDocument;
}

/**
 * The custom file type of the organization matching `filename` (the most specific, then the
 * oldest), as the job import uses it, or null when none matches.
 */
export async function customFileTypeFor(db: Db, organizationId: string, filename: string): Promise<CustomFileTypeChoice | null> {
  const row = await matchingCustomFileType(db, organizationId, filename);
  if (!row) return null;
  return {
    fileFormat: FILE_FORMAT_OF_TYPE[row.type as CustomFileTypeName] ?? row.type,
    type: row.type,
    customFileTypeUid: row.uid,
    importSettings: { ...FILE_IMPORT_SETTINGS_DEFAULTS, ...parseImportSettingsDocument(row.settings) },
  };
}

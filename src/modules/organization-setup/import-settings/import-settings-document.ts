import type { Db } from '../../../queue/types.js';
import { segRuleReferencesOf } from '../segmentation-rules/index.js';

/**
 * The FileImportSettings document model shared by every holder of import settings (the
 * organization's named settings and its default, custom file types; projects, templates and job
 * files read the same defaults through the translation-workflow kernel).
 */

/** Top-level defaults of FileImportSettingsCreateDto ("default: …" notes of the spec). */
export const FILE_IMPORT_SETTINGS_DEFAULTS = {
  inputCharset: 'UTF-8',
  outputCharset: 'UTF-8',
  zipCharset: 'UTF-8',
  autodetectMultilingualFiles: true,
  targetLength: false,
  targetLengthMax: 1000,
  targetLengthPercent: false,
  targetLengthPercentValue: 130,
} as const;

export type ImportSettingsDocument = Record<string, unknown>;

/** A stored document (JSON text) as an object; anything unreadable is the empty document. */
export function parseImportSettingsDocument(json: string | null | undefined): ImportSettingsDocument {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ImportSettingsDocument) : {};
  } catch {
    return {};
  }
}

/**
 * FileImportSettingsDto of a stored document: the document over the defaults, with `segRule` and
 * `targetSegRule` naming the segmentation rules its `segmentationRuleId` and
 * `targetSegmentationRuleId` keep (left out when none, or a deleted rule).
 */
export async function fileImportSettingsView(
  db: Db,
  organizationId: string,
  document: ImportSettingsDocument,
): Promise<ImportSettingsDocument> {
  const { segmentationRuleId: _s, targetSegmentationRuleId: _t, segRule: _r, targetSegRule: _tr, ...stored } = document;
  const { segRule, targetSegRule } = await segRuleReferencesOf(db, organizationId, document);
  return { ...FILE_IMPORT_SETTINGS_DEFAULTS, ...stored, ...(segRule ? { segRule } : {}), ...(targetSegRule ? { targetSegRule } : {}) };
}

/** The document's `xml` section when it holds at least one rule field (an XML assistant profile's rules). */
export function xmlRulesOf(document: ImportSettingsDocument): Record<string, unknown> | null {
  const xml = document.xml;
  if (!xml || typeof xml !== 'object' || Array.isArray(xml)) return null;
  return Object.values(xml).some((value) => value !== undefined && value !== null && value !== '')
    ? (xml as Record<string, unknown>)
    : null;
}

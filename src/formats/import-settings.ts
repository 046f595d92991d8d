import type { FilterOptions } from './types.js';

/**
 * The filter options a file's import settings ask for. Import settings are Phrase's
 * `FileImportSettings` document, one section per format (`txt`, `json`, `xlf`, …), stored with each
 * uploaded file; the import and the write-back of target files both read their options here, so
 * that a target file is written with the units and tags the import saw.
 */
export const SECTION_OF_FILTER: Readonly<Record<string, string>> = {
  'plain-text': 'txt',
  json: 'json',
  xliff12: 'xlf',
  mxliff: 'xlf',
  'gettext-po': 'po',
  'java-properties': 'properties',
  xliff2: 'xlf2',
  yaml: 'yaml',
  'ios-strings': 'mac',
  csv: 'csv',
  tsv: 'csv',
  'multilingual-csv': 'multilingualCsv',
  xml: 'xml',
  'android-strings': 'android',
  resx: 'resx',
  'ios-stringsdict': 'mac',
  html: 'html',
  markdown: 'md',
  docx: 'doc',
  pptx: 'ppt',
  xlsx: 'xls',
  odt: 'doc',
  ods: 'xls',
  odp: 'ppt',
};

export function filterOptionsFromImportSettings(
  filterName: string,
  importSettingsJson: string | null | undefined,
  limits: { maxDepth?: number; maxTagsPerSegment?: number } = {},
): FilterOptions {
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(importSettingsJson ?? '{}');
    if (parsed && typeof parsed === 'object') settings = parsed as Record<string, unknown>;
  } catch {
    // Unreadable settings: the filter's defaults.
  }
  const sectionName = SECTION_OF_FILTER[filterName];
  const section = sectionName === undefined ? undefined : settings[sectionName];
  // The installation's nesting limit (OPENTMS_IMPORT_MAX_DEPTH), not a per-file setting.
  const options: FilterOptions = limits.maxDepth === undefined ? {} : { maxDepth: limits.maxDepth };
  // And its tags-per-segment limit, which lets the XLIFF filter refuse a hopeless unit early.
  if (limits.maxTagsPerSegment !== undefined) options.maxTagsPerSegment = limits.maxTagsPerSegment;
  if (!section || typeof section !== 'object') return options;
  // The filter reads the fields of its own DTO (docs/file-formats.md, "Settings").
  options.formatSettings = section as Record<string, unknown>;
  const { tagRegexp, importNotes } = section as Record<string, unknown>;
  if (typeof tagRegexp === 'string' && tagRegexp !== '') options.tagRegexp = tagRegexp;
  if (typeof importNotes === 'boolean') options.importNotes = importNotes;
  return options;
}

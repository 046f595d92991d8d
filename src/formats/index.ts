import { arbFilter } from './arb.js';
import { gettextPoFilter } from './gettext-po.js';
import { iosStringsFilter } from './ios-strings.js';
import { javaPropertiesFilter } from './java-properties.js';
import { jsonFilter } from './json.js';
import { mxliffJobFilter } from './mxliff-job.js';
import { plainTextFilter } from './plain-text.js';
import { srtFilter } from './srt.js';
import { tmxJobFilter } from './tmx-job.js';
import type { FormatFilter } from './types.js';
import { webvttFilter } from './webvtt.js';
import { xliff12Filter } from './xliff12.js';
import { xliff2Filter } from './xliff2.js';
import { yamlFilter } from './yaml.js';

export { FormatError, FORMAT_SNIFF_BYTES } from './types.js';
export type { FilterOptions, FormatFilter, InlineTag, InlineTagKind, TextUnit, UnitTranslation } from './types.js';

/**
 * The filters in the order content detection tries them: specific vocabularies before general
 * ones (MXLIFF and XLIFF 2 before XLIFF 1.2, ARB before JSON), plain text last (it never claims
 * content). Where several claim an extension (`xlf`: XLIFF 2 and 1.2), the last of them is the
 * fallback.
 */
export const FORMAT_FILTERS: readonly FormatFilter[] = [
  mxliffJobFilter,
  xliff2Filter,
  xliff12Filter,
  tmxJobFilter,
  gettextPoFilter,
  arbFilter,
  jsonFilter,
  yamlFilter,
  iosStringsFilter,
  srtFilter,
  webvttFilter,
  javaPropertiesFilter,
  plainTextFilter,
];

/** The filter named `name` (as stored with an imported file), or null. */
export function filterNamed(name: string | null | undefined): FormatFilter | null {
  return FORMAT_FILTERS.find((filter) => filter.name === name) ?? null;
}

/** A file name's extension, lower-case, without the dot ('' when none). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/**
 * The filter for a file: by the file name's extension (case-insensitive; where several filters
 * claim it, the first whose content detection recognizes the file, else the last of them, the
 * general one), else by content (the first FORMAT_SNIFF_BYTES bytes), else null (the import
 * reports an unsupported file type).
 */
export function filterFor(filename: string, firstBytes: Buffer): FormatFilter | null {
  const extension = extensionOf(filename);
  const claiming = FORMAT_FILTERS.filter((filter) => filter.extensions.includes(extension));
  if (claiming.length === 1) return claiming[0]!;
  if (claiming.length > 1) return claiming.find((filter) => filter.detect?.(firstBytes) ?? false) ?? claiming[claiming.length - 1]!;
  return FORMAT_FILTERS.find((filter) => filter.detect?.(firstBytes) ?? false) ?? null;
}

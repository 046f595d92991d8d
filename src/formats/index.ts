import { jsonFilter } from './json.js';
import { plainTextFilter } from './plain-text.js';
import type { FormatFilter } from './types.js';
import { xliff12Filter } from './xliff12.js';

export { FormatError, FORMAT_SNIFF_BYTES } from './types.js';
export type { FilterOptions, FormatFilter, InlineTag, InlineTagKind, TextUnit, UnitTranslation } from './types.js';

/** The filters in the order content detection tries them. */
export const FORMAT_FILTERS: readonly FormatFilter[] = [xliff12Filter, jsonFilter, plainTextFilter];

/**
 * The filter for a file: by the file name's extension (case-insensitive), else by content (the
 * first FORMAT_SNIFF_BYTES bytes), else null (the import reports an unsupported file type).
 */
export function filterFor(filename: string, firstBytes: Buffer): FormatFilter | null {
  const dot = filename.lastIndexOf('.');
  const extension = dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
  const byExtension = FORMAT_FILTERS.find((filter) => filter.extensions.includes(extension));
  if (byExtension) return byExtension;
  return FORMAT_FILTERS.find((filter) => filter.detect?.(firstBytes) ?? false) ?? null;
}

import { androidStringsFilter } from './android-strings.js';
import { arbFilter } from './arb.js';
import { csvFilter, multilingualCsvFilter, tsvFilter } from './csv.js';
import { docxFilter } from './docx.js';
import { gettextPoFilter } from './gettext-po.js';
import { htmlFilter } from './html.js';
import { iosStringsdictFilter } from './ios-stringsdict.js';
import { iosStringsFilter } from './ios-strings.js';
import { javaPropertiesFilter } from './java-properties.js';
import { jsonFilter } from './json.js';
import { markdownFilter } from './markdown.js';
import { mxliffJobFilter } from './mxliff-job.js';
import { odpFilter, odsFilter, odtFilter } from './opendocument.js';
import { plainTextFilter } from './plain-text.js';
import { pptxFilter } from './pptx.js';
import { qtTsFilter } from './qt-ts.js';
import { resxFilter } from './resx.js';
import { srtFilter } from './srt.js';
import { tmxJobFilter } from './tmx-job.js';
import type { FormatFilter } from './types.js';
import { webvttFilter } from './webvtt.js';
import { xliff12Filter } from './xliff12.js';
import { xliff2Filter } from './xliff2.js';
import { xlsxFilter } from './xlsx.js';
import { xmlRulesFilter } from './xml-rules.js';
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
  docxFilter,
  pptxFilter,
  xlsxFilter,
  odtFilter,
  odsFilter,
  odpFilter,
  mxliffJobFilter,
  xliff2Filter,
  xliff12Filter,
  tmxJobFilter,
  androidStringsFilter,
  resxFilter,
  qtTsFilter,
  iosStringsdictFilter,
  htmlFilter,
  markdownFilter,
  gettextPoFilter,
  arbFilter,
  jsonFilter,
  yamlFilter,
  iosStringsFilter,
  srtFilter,
  webvttFilter,
  javaPropertiesFilter,
  tsvFilter,
  csvFilter,
  xmlRulesFilter,
  plainTextFilter,
];

/**
 * Filters chosen by import settings rather than by the file (a multilingual CSV is a `.csv` whose
 * settings name its language columns): not part of extension or content detection.
 */
export const SETTINGS_CHOSEN_FILTERS: readonly FormatFilter[] = [multilingualCsvFilter];

/** The filter named `name` (as stored with an imported file), or null. */
export function filterNamed(name: string | null | undefined): FormatFilter | null {
  return [...FORMAT_FILTERS, ...SETTINGS_CHOSEN_FILTERS].find((filter) => filter.name === name) ?? null;
}

/** A file name's extension, lower-case, without the dot ('' when none). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/**
 * Extensions that say only "some XML": a file named so goes to the XML vocabulary its content
 * shows (XLIFF, TMX, Android strings…) before the rule-driven XML filter.
 */
const GENERIC_EXTENSIONS = new Set(['xml']);

/**
 * The filter for a file: by the file name's extension (case-insensitive; where several filters
 * claim it, the first whose content detection recognizes the file, else the last of them, the
 * general one; a generic extension such as `.xml` goes to whichever filter recognizes the content
 * first), else by content (the first FORMAT_SNIFF_BYTES bytes), else null (the import reports an
 * unsupported file type).
 */
export function filterFor(filename: string, firstBytes: Buffer): FormatFilter | null {
  const extension = extensionOf(filename);
  const claiming = FORMAT_FILTERS.filter((filter) => filter.extensions.includes(extension));
  const recognizing = (filters: readonly FormatFilter[]) => filters.find((filter) => filter.detect?.(firstBytes) ?? false);
  if (GENERIC_EXTENSIONS.has(extension)) return recognizing(FORMAT_FILTERS) ?? claiming[claiming.length - 1] ?? null;
  if (claiming.length === 1) return claiming[0]!;
  if (claiming.length > 1) return recognizing(claiming) ?? claiming[claiming.length - 1]!;
  return recognizing(FORMAT_FILTERS) ?? null;
}

import type { Readable, Writable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import {
  flag,
  mainPart,
  paragraphOptions,
  paragraphUnits,
  prefixFor,
  qualify,
  readRelationships,
  relationshipKind,
  settingsOf,
  writeParagraphParts,
} from './ooxml-text.js';
import type { Dialect, TextPart } from './ooxml-text.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import { ZipPackage, leadingEntryNames, looksLikeZip, withZipPackage } from './zip-package.js';
import type { ZipLimits } from './zip-package.js';

/**
 * Word documents (`.docx`, `.docm`, `.dotx`, `.dotm`): every `w:p` paragraph with text of the main
 * document, headers and footers (`headerFooter`), footnotes, endnotes and comments (`comments`)
 * is a unit. See docs/formats/office.md.
 */

export const WORDPROCESSINGML_NAMESPACES = [
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
];

const dialects = new Map<string, Dialect>();

/** Run properties compared without revision ids, language and proofing flags (and more with joinSimilarRuns). */
function normalizeRunProperties(rpr: string, joinSimilar: boolean): string {
  if (rpr === '') return '';
  let s = rpr
    .replace(/\s[\w.-]+:rsid\w*\s*=\s*"[^"]*"/g, '')
    .replace(/<[\w.-]+:(?:lang|noProof|webHidden)\b[^>]*>/g, '')
    .replace(/>\s+</g, '><');
  if (joinSimilar) s = s.replace(/<[\w.-]+:(?:sz|szCs|spacing|kern|position|w|rFonts|bCs|iCs|highlight)\b[^>]*>/g, '');
  if (/^<[\w.-]+:rPr\s*\/>$/.test(s) || /^<[\w.-]+:rPr\s*><\/[\w.-]+:rPr>$/.test(s)) return '';
  return s;
}

function isHiddenRun(rpr: string): boolean {
  const match = /<[\w.-]+:vanish\b([^>]*)>/.exec(rpr);
  if (!match) return false;
  return !/:val\s*=\s*"(?:0|false|off)"/.test(match[1]!);
}

export function wordDialect(prefix: string): Dialect {
  let dialect = dialects.get(prefix);
  if (dialect) return dialect;
  const q = (local: string): string => qualify(prefix, local);
  dialect = {
    paragraph: q('p'),
    paragraphProperties: q('pPr'),
    run: q('r'),
    runProperties: q('rPr'),
    text: q('t'),
    containers: new Set(['hyperlink', 'smartTag', 'customXml', 'fldSimple', 'ins', 'moveTo', 'dir', 'bdo'].map(q)),
    contentControl: q('sdt'),
    contentControlContent: q('sdtContent'),
    dropped: new Set(['proofErr', 'lastRenderedPageBreak'].map(q)),
    normalize: normalizeRunProperties,
    isHidden: isHiddenRun,
    textStartTag: `<${q('t')} xml:space="preserve">`,
    bareText: false,
  };
  dialects.set(prefix, dialect);
  return dialect;
}

function partDialect(root: SaxesTagPlain): Dialect | null {
  const prefix = prefixFor(root.attributes, WORDPROCESSINGML_NAMESPACES);
  return prefix === null ? null : wordDialect(prefix);
}

/** The parts whose paragraphs are units, in the order their units come. */
async function textParts(zip: ZipPackage, settings: Readonly<Record<string, unknown>>): Promise<TextPart[]> {
  const main = await mainPart(zip, 'a Word document', 'word/document.xml');
  const parts: TextPart[] = [{ name: main, dialect: partDialect }];
  const rels = await readRelationships(zip, main);
  const ofKind = (...kinds: string[]): TextPart[] =>
    rels
      .filter((rel) => !rel.external && kinds.includes(relationshipKind(rel.type)) && zip.entry(rel.target))
      .map((rel) => rel.target)
      .filter((name, index, all) => all.indexOf(name) === index)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((name) => ({ name, dialect: partDialect }));
  if (flag(settings, 'headerFooter', true)) parts.push(...ofKind('header', 'footer'));
  parts.push(...ofKind('footnotes', 'endnotes'));
  if (flag(settings, 'comments', false)) parts.push(...ofKind('comments'));
  return parts;
}

/** The container limits: `zipLimits` on the options when the caller sets them (not part of FilterOptions yet), else the defaults. */
export function limitsOf(options: FilterOptions): ZipLimits | undefined {
  const limits = (options as { zipLimits?: ZipLimits }).zipLimits;
  return limits && typeof limits === 'object' ? limits : undefined;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = settingsOf(options);
  const paragraph = paragraphOptions(options, settings);
  const zip = await ZipPackage.open(input, limitsOf(options));
  try {
    const parts = await textParts(zip, settings);
    yield* paragraphUnits(zip, parts, options, paragraph);
  } finally {
    await zip.close();
  }
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const settings = settingsOf(options);
  const paragraph = paragraphOptions(options, settings);
  // A failed write leaves `output` to the caller (it is destroyed only when the failure came while writing it).
  await withZipPackage(original, limitsOf(options), async (zip) => {
    const parts = await textParts(zip, settings);
    await writeParagraphParts(zip, parts, translations, output, options, paragraph);
  });
}

export const docxFilter: FormatFilter = {
  name: 'docx',
  extensions: ['docx', 'docm', 'dotx', 'dotm'],
  detect(firstBytes) {
    return looksLikeZip(firstBytes) && leadingEntryNames(firstBytes).some((name) => name.startsWith('word/'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

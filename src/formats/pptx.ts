import type { Readable, Writable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import { limitsOf } from './docx.js';
import {
  flag,
  mainPart,
  paragraphOptions,
  paragraphUnits,
  prefixFor,
  qualify,
  readElements,
  readRelationships,
  relationshipKind,
  settingsOf,
  writeParagraphParts,
} from './ooxml-text.js';
import type { Dialect, TextPart } from './ooxml-text.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import { ZipPackage, leadingEntryNames, looksLikeZip, withZipPackage } from './zip-package.js';

/**
 * PowerPoint presentations (`.pptx`, `.pptm`, `.potx`, `.ppsx`): every DrawingML `a:p` paragraph
 * with text of the slides in presentation order, each slide followed by its notes (`notes`), then
 * the masters and layouts (`masterSlides`). Hidden slides (`show="0"`) only with `hiddenSlides`.
 * See docs/formats/office.md.
 */

export const DRAWINGML_NAMESPACES = ['http://schemas.openxmlformats.org/drawingml/2006/main', 'http://purl.oclc.org/ooxml/drawingml/main'];

const dialects = new Map<string, Dialect>();

/** DrawingML run properties compared without language, spelling and revision attributes. */
function normalizeRunProperties(rpr: string, joinSimilar: boolean): string {
  if (rpr === '') return '';
  let s = rpr.replace(/\s(?:lang|altLang|dirty|err|noProof|smtClean|smtId|bmk)\s*=\s*"[^"]*"/g, '').replace(/>\s+</g, '><');
  if (joinSimilar) s = s.replace(/\s(?:kern|spc|baseline)\s*=\s*"[^"]*"/g, '');
  if (/^<[\w.-]+:rPr\s*\/>$/.test(s) || /^<[\w.-]+:rPr\s*><\/[\w.-]+:rPr>$/.test(s)) return '';
  return s;
}

export function drawingDialect(prefix: string): Dialect {
  let dialect = dialects.get(prefix);
  if (dialect) return dialect;
  const q = (local: string): string => qualify(prefix, local);
  dialect = {
    paragraph: q('p'),
    paragraphProperties: q('pPr'),
    run: q('r'),
    runProperties: q('rPr'),
    text: q('t'),
    containers: new Set(),
    contentControl: null,
    contentControlContent: null,
    dropped: new Set(),
    normalize: normalizeRunProperties,
    isHidden: () => false,
    textStartTag: `<${q('t')}>`,
    bareText: false,
  };
  dialects.set(prefix, dialect);
  return dialect;
}

function partDialect(root: SaxesTagPlain): Dialect | null {
  const prefix = prefixFor(root.attributes, DRAWINGML_NAMESPACES);
  return prefix === null ? null : drawingDialect(prefix);
}

function isHiddenSlide(root: SaxesTagPlain): boolean {
  const show = root.attributes['show'];
  return show === '0' || show === 'false';
}

async function textParts(zip: ZipPackage, settings: Readonly<Record<string, unknown>>): Promise<TextPart[]> {
  const main = await mainPart(zip, 'a PowerPoint presentation', 'ppt/presentation.xml');
  const hiddenSlides = flag(settings, 'hiddenSlides', false);
  const notes = flag(settings, 'notes', false);
  const rels = await readRelationships(zip, main);
  const byId = new Map(rels.filter((rel) => !rel.external).map((rel) => [rel.id, rel]));
  // Slides in the order of presentation.xml's sldIdLst.
  const slideIds: string[] = [];
  const presentation = zip.entry(main)!;
  readElements(await zip.readText(presentation, 64 * 1024 * 1024), main, (tag, path) => {
    if (tag.name.endsWith('sldId') && path[path.length - 1]?.endsWith('sldIdLst')) {
      const id = Object.entries(tag.attributes).find(([name]) => name.endsWith(':id') && name !== 'id')?.[1];
      if (id !== undefined) slideIds.push(id);
    }
  });
  const parts: TextPart[] = [];
  const seen = new Set<string>();
  const skip = hiddenSlides ? undefined : isHiddenSlide;
  for (const id of slideIds) {
    const rel = byId.get(id);
    if (!rel || seen.has(rel.target) || !zip.entry(rel.target)) continue;
    seen.add(rel.target);
    parts.push({ name: rel.target, dialect: partDialect, ...(skip ? { skip } : {}) });
    if (notes) {
      const slideRels = await readRelationships(zip, rel.target);
      const note = slideRels.find((r) => !r.external && relationshipKind(r.type) === 'notesSlide' && zip.entry(r.target));
      if (note && !seen.has(note.target)) {
        seen.add(note.target);
        // A hidden slide's notes go with it: the notes part's own root carries no show flag.
        const hidden = !hiddenSlides && (await slideIsHidden(zip, rel.target));
        parts.push({ name: note.target, dialect: partDialect, note: 'speaker notes', ...(hidden ? { skip: () => true } : {}) });
      }
    }
  }
  if (flag(settings, 'masterSlides', false)) {
    const masters = zip.entries
      .map((entry) => entry.name)
      .filter((name) => /^ppt\/(?:slideMasters\/slideMaster|slideLayouts\/slideLayout)\d+\.xml$/.test(name) && !seen.has(name))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const name of masters) parts.push({ name, dialect: partDialect });
  }
  return parts;
}

/** Whether a slide's root element says `show="0"` (read from its first 4 KiB). */
async function slideIsHidden(zip: ZipPackage, name: string): Promise<boolean> {
  const entry = zip.entry(name);
  if (!entry) return false;
  let head = '';
  for await (const chunk of zip.read(entry)) {
    head += chunk.toString('utf8');
    if (head.length > 4096) break;
  }
  const root = /<(?:[\w.-]+:)?sld\b[^>]*>/.exec(head)?.[0] ?? '';
  return /\sshow\s*=\s*["'](?:0|false)["']/.test(root);
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = settingsOf(options);
  const paragraph = paragraphOptions(options, settings);
  const zip = await ZipPackage.open(input, limitsOf(options));
  try {
    yield* paragraphUnits(zip, await textParts(zip, settings), options, paragraph);
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
    await writeParagraphParts(zip, await textParts(zip, settings), translations, output, options, paragraph);
  });
}

export const pptxFilter: FormatFilter = {
  name: 'pptx',
  extensions: ['pptx', 'pptm', 'potx', 'potm', 'ppsx', 'ppsm'],
  detect(firstBytes) {
    return looksLikeZip(firstBytes) && leadingEntryNames(firstBytes).some((name) => name.startsWith('ppt/'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

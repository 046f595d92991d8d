import type { Readable, Writable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import { limitsOf } from './docx.js';
import { decodeStream } from './encoding.js';
import { compileTagRegexp, inlineTag, splitTokens } from './inline-tags.js';
import { SpliceScanner, flag, parseFragment, prefixFor, qualify, settingsOf, splicePart } from './ooxml-text.js';
import type { SpliceHandler, XNode } from './ooxml-text.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';
import { parseSpecifiedColumns } from './xlsx.js';
import { ZipPackage, leadingEntryNames, looksLikeZip, withZipPackage } from './zip-package.js';
import type { EntryRewrite } from './zip-package.js';
import { escapeXmlText, hasNonXmlCharacter } from './xml.js';

/**
 * OpenDocument text (`.odt`, `.ott`), spreadsheets (`.ods`, `.ots`) and presentations (`.odp`,
 * `.otp`): every `text:p` / `text:h` with text is a unit. See docs/formats/opendocument.md.
 *
 * Parts stream through the splice scanner of ooxml-text.ts (saxes, raw text kept only from the
 * start of the outermost paragraph being read, DOCTYPE refused, depth limited). A paragraph's raw
 * markup becomes a unit: text (white space collapsed as ODF renders it), `text:span`, `text:a`
 * and `text:meta` as tag pairs, every other element (spaces `text:s`, tabs, line breaks, notes,
 * frames, fields, bookmarks, annotations) as a standalone tag whose original is its exact markup.
 * Writing splices the rebuilt paragraph (start tag, the markup around the unit, the translation
 * with its tags restored) into the part; every other byte and entry is copied as it was.
 */

const NS = {
  office: 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  text: 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
  table: 'urn:oasis:names:tc:opendocument:xmlns:table:1.0',
  draw: 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0',
  style: 'urn:oasis:names:tc:opendocument:xmlns:style:1.0',
  presentation: 'urn:oasis:names:tc:opendocument:xmlns:presentation:1.0',
  dc: 'http://purl.org/dc/elements/1.1/',
  meta: 'urn:oasis:names:tc:opendocument:xmlns:meta:1.0',
} as const;

type Vocabulary = keyof typeof NS;

/** Qualified names of one part, with the prefixes its root element declares (the usual ones when it declares none). */
class Names {
  private readonly prefixes: Record<Vocabulary, string>;

  constructor(attributes: Record<string, string>) {
    const prefixes = {} as Record<Vocabulary, string>;
    for (const vocabulary of Object.keys(NS) as Vocabulary[]) {
      prefixes[vocabulary] = prefixFor(attributes, [NS[vocabulary]]) ?? vocabulary;
    }
    this.prefixes = prefixes;
  }

  q(vocabulary: Vocabulary, local: string): string {
    return qualify(this.prefixes[vocabulary], local);
  }
}

/** The element names the paragraph model needs, for one part. */
interface ParagraphNames {
  /** Pairs (`text:span`, `text:a`, `text:meta`). */
  pairs: ReadonlySet<string>;
  /** Dropped on rebuild and not shown (`text:soft-page-break`). */
  noise: ReadonlySet<string>;
  space: string;
  /** `text:c`, the count of spaces of a `text:s`. */
  spaceCount: string;
  tab: string;
  lineBreak: string;
  /** Plain text elements (meta.xml): no white-space collapsing or elements for spaces. */
  plain: boolean;
}

const paragraphNamesCache = new Map<string, ParagraphNames>();

function paragraphNames(names: Names, plain: boolean): ParagraphNames {
  const t = (local: string): string => names.q('text', local);
  const key = `${t('')}\u0000${plain}`;
  let known = paragraphNamesCache.get(key);
  if (!known) {
    known = {
      pairs: new Set([t('span'), t('a'), t('meta')]),
      noise: new Set([t('soft-page-break')]),
      space: t('s'),
      spaceCount: t('c'),
      tab: t('tab'),
      lineBreak: t('line-break'),
      plain,
    };
    paragraphNamesCache.set(key, known);
  }
  return known;
}

// ---------------------------------------------------------------------------------------------
// Paragraph model
// ---------------------------------------------------------------------------------------------

type Item =
  | { k: 'text'; text: string; start: number; end: number }
  | { k: 'code'; start: number; end: number }
  | { k: 'open' | 'close'; pair: number; start: number; end: number }
  | { k: 'noise'; start: number; end: number };

type Plan = { k: 'markup'; markup: string } | { k: 'literal'; text: string };

export interface OdfParagraph {
  source: string;
  tags: InlineTag[];
  head: string;
  tail: string;
  plans: Map<string, Plan>;
  /** Whether the unit starts the paragraph's rendered text (a leading space would be dropped). */
  atStart: boolean;
  names: ParagraphNames;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** ODF white-space processing: runs of space, tab, CR, LF are one space. */
function collapse(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) continue;
    let j = i + 1;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    if (j - i > 1 || text.charCodeAt(i) !== 0x20) {
      out += text.slice(last, i) + ' ';
      last = j;
    }
    i = j - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

function leadingSpaces(raw: string, from: number, to: number): number {
  let n = 0;
  while (from + n < to && isSpace(raw.charCodeAt(from + n))) n++;
  return n;
}

function trailingSpaces(raw: string, from: number, to: number): number {
  let n = 0;
  while (to - n > from && isSpace(raw.charCodeAt(to - n - 1))) n++;
  return n;
}

function collectItems(nodes: readonly XNode[], names: ParagraphNames, items: Item[], pairs: { n: number }): void {
  for (const node of nodes) {
    if (node.kind === 'text') items.push({ k: 'text', text: node.text, start: node.start, end: node.end });
    else if (node.kind === 'other') items.push({ k: 'noise', start: node.start, end: node.end });
    else if (names.noise.has(node.name)) items.push({ k: 'noise', start: node.start, end: node.end });
    else if (names.pairs.has(node.name) && node.closeStart !== node.end && node.children.length > 0) {
      const pair = ++pairs.n;
      items.push({ k: 'open', pair, start: node.start, end: node.openEnd });
      collectItems(node.children, names, items, pairs);
      items.push({ k: 'close', pair, start: node.closeStart, end: node.end });
    } else items.push({ k: 'code', start: node.start, end: node.end });
  }
}

const isBlank = (item: Item): boolean => item.k === 'noise' || (item.k === 'text' && item.text.trim() === '');

/**
 * The unit of a paragraph (`raw`: its element's markup), or null when it holds no text. Codes,
 * blank text and pairs around all of the text stay outside the unit (in `head` and `tail`), and so
 * does white space at its edges.
 */
export function buildOdfParagraph(raw: string, names: ParagraphNames, tagRegexp: RegExp | null): OdfParagraph | null {
  const root = parseFragment(raw);
  const items: Item[] = [];
  collectItems(root.children, names, items, { n: 0 });
  let from = 0;
  let to = items.length;
  let headHasCode = false;
  for (;;) {
    while (from < to && (items[from]!.k === 'code' || isBlank(items[from]!))) {
      if (items[from]!.k === 'code') headHasCode = true;
      from++;
    }
    while (to > from && (items[to - 1]!.k === 'code' || isBlank(items[to - 1]!))) to--;
    const first = items[from];
    const last = items[to - 1];
    if (to - from >= 2 && first?.k === 'open' && last?.k === 'close' && first.pair === last.pair) {
      from++;
      to--;
      continue;
    }
    break;
  }
  if (from >= to) return null;
  if (!items.slice(from, to).some((item) => item.k === 'text' && item.text.trim() !== '')) return null;

  // White space at the unit's edges stays in the file.
  let bodyStart = items[from]!.start;
  let bodyEnd = items[to - 1]!.end;
  const firstItem = items[from]!;
  if (firstItem.k === 'text') {
    const n = leadingSpaces(raw, firstItem.start, firstItem.end);
    if (n > 0) {
      bodyStart += n;
      items[from] = { ...firstItem, text: firstItem.text.slice(n), start: firstItem.start + n };
    }
  }
  const lastItem = items[to - 1]!;
  if (lastItem.k === 'text') {
    const n = trailingSpaces(raw, lastItem.start, lastItem.end);
    if (n > 0) {
      bodyEnd -= n;
      items[to - 1] = { ...lastItem, text: lastItem.text.slice(0, lastItem.text.length - n), end: lastItem.end - n };
    }
  }

  const tags: InlineTag[] = [];
  const plans = new Map<string, Plan>();
  const pairIds = new Map<number, number>();
  let nextId = 1;
  let source = '';
  let codeStart = -1;
  let codes: string[] = [];
  const flushCodes = (): void => {
    if (codes.length === 0) return;
    const markup = codes.join('');
    const tag = inlineTag(nextId++, 'standalone', markup);
    tags.push(tag);
    plans.set(tag.display, { k: 'markup', markup });
    source += tag.display;
    codes = [];
    codeStart = -1;
  };
  const pushText = (text: string): void => {
    if (text === '') return;
    flushCodes();
    if (!tagRegexp) {
      source += text;
      return;
    }
    let last = 0;
    for (const match of text.matchAll(tagRegexp)) {
      if (match[0] === '') continue;
      const tag = inlineTag(nextId++, 'standalone', match[0]);
      tags.push(tag);
      plans.set(tag.display, { k: 'literal', text: match[0] });
      source += text.slice(last, match.index) + tag.display;
      last = match.index + match[0].length;
    }
    source += text.slice(last);
  };
  for (let i = from; i < to; i++) {
    const item = items[i]!;
    switch (item.k) {
      case 'noise':
        break;
      case 'text':
        pushText(names.plain ? item.text : collapse(item.text));
        break;
      case 'code':
        if (codeStart < 0) codeStart = item.start;
        codes.push(raw.slice(item.start, item.end));
        break;
      default: {
        flushCodes();
        let id = pairIds.get(item.pair);
        if (id === undefined) pairIds.set(item.pair, (id = nextId++));
        const markup = raw.slice(item.start, item.end);
        const tag = inlineTag(id, item.k, markup);
        tags.push(tag);
        plans.set(tag.display, { k: 'markup', markup });
        source += tag.display;
      }
    }
  }
  flushCodes();
  return {
    source,
    tags,
    head: raw.slice(0, bodyStart),
    tail: raw.slice(bodyEnd),
    plans,
    atStart: !headHasCode,
    names,
  };
}

/** Translation text as paragraph content: tabs, line breaks and runs of spaces as ODF elements. */
function encodeText(text: string, names: ParagraphNames, state: { space: boolean }, what: string): string {
  if (hasNonXmlCharacter(text)) throw new FormatError(`the translation of ${what} contains a character XML cannot hold`);
  if (names.plain) return escapeXmlText(text);
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) === 0x20) j++;
      const literal = state.space ? 0 : 1;
      const extra = j - i - literal;
      if (extra > 0) {
        out += escapeXmlText(text.slice(last, i + literal));
        out += extra === 1 ? `<${names.space}/>` : `<${names.space} ${names.spaceCount}="${extra}"/>`;
        last = j;
      }
      state.space = true;
      i = j - 1;
      continue;
    }
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      out += escapeXmlText(text.slice(last, i));
      if (c === 0x09) out += `<${names.tab}/>`;
      else {
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
        out += `<${names.lineBreak}/>`;
      }
      last = i + 1;
      state.space = true;
      continue;
    }
    state.space = false;
  }
  return out + escapeXmlText(text.slice(last));
}

/** The paragraph's markup with `translation` in place of its unit. Pairs must be balanced and nested. */
export function rebuildOdfParagraph(model: OdfParagraph, translation: string, what: string): string {
  const parts: string[] = [model.head];
  const state = { space: model.atStart };
  const open: number[] = [];
  for (const piece of splitTokens(translation, model.tags)) {
    if (!('tag' in piece)) {
      parts.push(encodeText(piece.text, model.names, state, what));
      continue;
    }
    const tag = piece.tag;
    if (tag.kind === 'open') open.push(tag.id);
    else if (tag.kind === 'close' && open.pop() !== tag.id) {
      throw new FormatError(`the translation of ${what} has misplaced or unbalanced tags`);
    }
    const plan = model.plans.get(tag.display)!;
    if (plan.k === 'literal') parts.push(encodeText(plan.text, model.names, state, what));
    else {
      parts.push(plan.markup);
      state.space = false;
    }
  }
  if (open.length > 0) throw new FormatError(`the translation of ${what} has misplaced or unbalanced tags`);
  parts.push(model.tail);
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Parts and their handlers
// ---------------------------------------------------------------------------------------------

type DocumentKind = 'text' | 'spreadsheet' | 'presentation';
type PartRole = 'content' | 'styles' | 'meta';

interface Settings {
  kind: DocumentKind;
  tagRegexp: RegExp | null;
  comments: boolean;
  hidden: boolean;
  headerFooter: boolean;
  index: boolean;
  properties: boolean;
  notes: boolean;
  masterSlides: boolean;
  columns: Set<number> | null;
  cellFlow: 'DownRight' | 'RightDown' | 'DownLeft' | 'LeftDown';
}

function settingsFrom(kind: DocumentKind, options: FilterOptions): Settings {
  const settings = settingsOf(options);
  const tagRegexp = typeof settings['tagRegexp'] === 'string' ? settings['tagRegexp'] : options.tagRegexp;
  const flow = settings['cellFlow'];
  return {
    kind,
    tagRegexp: compileTagRegexp(tagRegexp),
    comments: flag(settings, 'comments', false),
    hidden: flag(settings, kind === 'presentation' ? 'hiddenSlides' : 'hidden', false),
    headerFooter: flag(settings, 'headerFooter', true),
    index: flag(settings, 'index', true),
    properties: flag(settings, 'properties', false),
    notes: flag(settings, 'notes', false),
    masterSlides: flag(settings, 'masterSlides', false),
    columns: kind === 'spreadsheet' ? parseSpecifiedColumns(settings['specifiedColumns']) : null,
    cellFlow: flow === 'RightDown' || flow === 'DownLeft' || flow === 'LeftDown' ? flow : 'DownRight',
  };
}

/** The parts read, in the order their units come. */
function partsOf(settings: Settings): { name: string; role: PartRole }[] {
  const parts: { name: string; role: PartRole }[] = [{ name: 'content.xml', role: 'content' }];
  if (settings.kind === 'text' && settings.headerFooter) parts.push({ name: 'styles.xml', role: 'styles' });
  if (settings.kind === 'presentation' && settings.masterSlides) parts.push({ name: 'styles.xml', role: 'styles' });
  if (settings.kind === 'text' && settings.properties) parts.push({ name: 'meta.xml', role: 'meta' });
  return parts;
}

// Context bits of an element (inherited by its descendants).
const BODY = 1;
const MASTER = 2;
const ANNOTATION = 4;
const HIDDEN = 8;
const INDEX = 16;
const NOTES = 32;
const META = 64;

/** A sheet being read (ODS). */
interface SheetState {
  name: string;
  depth: number;
  hidden: boolean;
  row: number;
  rowRepeat: number;
  rowHidden: boolean;
  column: number;
  /** Hidden column ranges [start, end), in order (columns are never expanded). */
  hiddenColumns: number[];
  columnCount: number;
  /** The cell being read: its first column, repeat, whether it is a text cell, paragraphs so far. */
  cellColumn: number;
  cellRepeat: number;
  cellText: boolean;
  cellParagraphs: number;
  cellComments: number;
  units: { row: number; column: number; comment: boolean; unit: TextUnit }[];
}

interface Capture {
  /** False: counted (text locators count every paragraph) but not a unit. */
  unit: boolean;
  /** Spreadsheet cells: the locator (text and presentation locators are counted on close). */
  locator?: string;
  key?: string;
  note?: string;
  sheet?: SheetState;
  row?: number;
  column?: number;
  comment?: boolean;
}

function columnLetters(n: number): string {
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(0x41 + rest) + letters;
    n = (n - 1 - rest) / 26;
  }
  return letters;
}

function repeatOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 1 << 30) : 1;
}

function isHiddenColumn(ranges: readonly number[], column: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (column < ranges[2 * middle]!) high = middle - 1;
    else if (column >= ranges[2 * middle + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

function flowKey(flow: Settings['cellFlow'], row: number, column: number): [number, number] {
  const mirrored = flow === 'DownLeft' || flow === 'LeftDown';
  const c = mirrored ? -column : column;
  return flow === 'RightDown' || flow === 'LeftDown' ? [row, c] : [c, row];
}

class OdfHandler implements SpliceHandler {
  readonly units: TextUnit[] = [];
  changed = false;
  private names: Names | null = null;
  private pnames: ParagraphNames | null = null;
  private readonly bits: number[] = [];
  private ordinal = 0;
  /** Automatic styles that hide a table (`table:display="false"`) or a slide (`presentation:visibility="hidden"`). */
  private readonly hiddenStyles = new Set<string>();
  private styleName: string | null = null;
  private readonly sheets: SheetState[] = [];
  private readonly qn: Record<string, string> = {};

  constructor(
    private readonly part: { name: string; role: PartRole },
    private readonly settings: Settings,
    private readonly nextIndex: () => number,
    private readonly translations: ReadonlyMap<string, UnitTranslation> | null,
  ) {}

  private n(key: string): string {
    return this.qn[key]!;
  }

  private setNames(root: SaxesTagPlain): void {
    const names = new Names(root.attributes);
    this.names = names;
    this.pnames = paragraphNames(names, this.part.role === 'meta');
    const entries: [string, Vocabulary, string][] = [
      ['p', 'text', 'p'],
      ['h', 'text', 'h'],
      ['body', 'office', 'body'],
      ['masterStyles', 'office', 'master-styles'],
      ['annotation', 'office', 'annotation'],
      ['section', 'text', 'section'],
      ['display', 'text', 'display'],
      ['table', 'table', 'table'],
      ['tableName', 'table', 'name'],
      ['tableStyle', 'table', 'style-name'],
      ['row', 'table', 'table-row'],
      ['column', 'table', 'table-column'],
      ['cell', 'table', 'table-cell'],
      ['covered', 'table', 'covered-table-cell'],
      ['rowsRepeated', 'table', 'number-rows-repeated'],
      ['columnsRepeated', 'table', 'number-columns-repeated'],
      ['visibility', 'table', 'visibility'],
      ['formula', 'table', 'formula'],
      ['tableDisplay', 'table', 'display'],
      ['valueType', 'office', 'value-type'],
      ['style', 'style', 'style'],
      ['styleName', 'style', 'name'],
      ['tableProperties', 'style', 'table-properties'],
      ['pageProperties', 'style', 'drawing-page-properties'],
      ['presentationVisibility', 'presentation', 'visibility'],
      ['page', 'draw', 'page'],
      ['drawStyle', 'draw', 'style-name'],
      ['notes', 'presentation', 'notes'],
      ['officeMeta', 'office', 'meta'],
      ['title', 'dc', 'title'],
      ['subject', 'dc', 'subject'],
      ['description', 'dc', 'description'],
      ['keyword', 'meta', 'keyword'],
    ];
    for (const [key, vocabulary, local] of entries) this.qn[key] = names.q(vocabulary, local);
  }

  private sheet(): SheetState | undefined {
    return this.sheets[this.sheets.length - 1];
  }

  open(tag: SaxesTagPlain, path: readonly string[]): unknown {
    if (path.length === 0) {
      this.setNames(tag);
      this.bits.push(0);
      return null;
    }
    const name = tag.name;
    const attributes = tag.attributes;
    let bits = this.bits[this.bits.length - 1] ?? 0;
    const s = this.settings;
    let capture: Capture | null = null;

    if (name === this.n('p') || name === this.n('h')) {
      capture = this.paragraph(bits, path);
    } else if (name === this.n('body')) bits |= BODY;
    else if (name === this.n('masterStyles')) bits |= MASTER;
    else if (name === this.n('annotation')) bits |= ANNOTATION;
    else if (name === this.n('officeMeta')) bits |= META;
    else if (name === this.n('style')) this.styleName = attributes[this.n('styleName')] ?? null;
    else if (name === this.n('tableProperties')) {
      if (this.styleName !== null && attributes[this.n('tableDisplay')] === 'false') this.hiddenStyles.add(this.styleName);
    } else if (name === this.n('pageProperties')) {
      if (this.styleName !== null && attributes[this.n('presentationVisibility')] === 'hidden') this.hiddenStyles.add(this.styleName);
    } else if (name === this.n('section')) {
      if (attributes[this.n('display')] === 'none') bits |= HIDDEN;
    } else if (name.endsWith('index-body')) bits |= INDEX;
    else if (name === this.n('notes')) bits |= NOTES;
    else if (name === this.n('page')) {
      const style = attributes[this.n('drawStyle')];
      if (style !== undefined && this.hiddenStyles.has(style)) bits |= HIDDEN;
    } else if (s.kind === 'spreadsheet' && (bits & BODY) !== 0) this.tableElement(name, attributes, path.length);
    else if (bits & META && this.part.role === 'meta') {
      if (name === this.n('title') || name === this.n('subject') || name === this.n('description') || name === this.n('keyword')) {
        capture = { unit: true };
      }
    }
    this.bits.push(bits);
    return capture;
  }

  /** Which paragraph this is: a unit (with its locator) or not. */
  private paragraph(bits: number, path: readonly string[]): Capture {
    const s = this.settings;
    const skip: Capture = { unit: false };
    if (this.part.role === 'content' && (bits & BODY) === 0) return skip;
    if (this.part.role === 'styles' && (bits & MASTER) === 0) return skip;
    if (this.part.role === 'meta') return skip;
    if (bits & ANNOTATION && !s.comments) return skip;
    if (bits & HIDDEN && !s.hidden) return skip;
    if (bits & INDEX && !s.index) return skip;
    if (bits & NOTES && !s.notes) return skip;
    if (s.kind !== 'spreadsheet' || this.part.role !== 'content') return { unit: true, note: bits & NOTES ? 'speaker notes' : undefined };
    // Spreadsheets: paragraphs of text cells and of their annotations.
    const sheet = this.sheet();
    if (!sheet) return skip;
    const parent = path[path.length - 1];
    const inComment = parent === this.n('annotation') && path[path.length - 2] === this.n('cell');
    if (parent !== this.n('cell') && !inComment) return skip;
    if (!inComment && !sheet.cellText) return skip;
    if (!s.hidden && (sheet.hidden || sheet.rowHidden || isHiddenColumn(sheet.hiddenColumns, sheet.cellColumn))) return skip;
    if (s.columns && !s.columns.has(sheet.cellColumn + 1)) return skip;
    const ref = `${sheet.name}!${columnLetters(sheet.cellColumn + 1)}${sheet.row + 1}`;
    let locator: string;
    if (inComment) {
      sheet.cellComments += 1;
      locator = sheet.cellComments === 1 ? `${ref}#comment` : `${ref}#comment${sheet.cellComments}`;
    } else {
      sheet.cellParagraphs += 1;
      locator = sheet.cellParagraphs === 1 ? ref : `${ref}#${sheet.cellParagraphs}`;
    }
    return {
      unit: true,
      locator,
      key: ref,
      note: inComment ? 'comment' : undefined,
      sheet,
      row: sheet.row,
      column: sheet.cellColumn,
      comment: inComment,
    };
  }

  private tableElement(name: string, attributes: Record<string, string>, depth: number): void {
    if (name === this.n('table')) {
      const style = attributes[this.n('tableStyle')];
      this.sheets.push({
        name: attributes[this.n('tableName')] ?? `Sheet${this.sheets.length + 1}`,
        depth,
        hidden: style !== undefined && this.hiddenStyles.has(style),
        row: 0,
        rowRepeat: 1,
        rowHidden: false,
        column: 0,
        hiddenColumns: [],
        columnCount: 0,
        cellColumn: 0,
        cellRepeat: 1,
        cellText: false,
        cellParagraphs: 0,
        cellComments: 0,
        units: [],
      });
      return;
    }
    const sheet = this.sheet();
    if (!sheet) return;
    if (name === this.n('column')) {
      const repeat = repeatOf(attributes[this.n('columnsRepeated')]);
      const visibility = attributes[this.n('visibility')];
      if (visibility === 'collapse' || visibility === 'filter') {
        const ranges = sheet.hiddenColumns;
        if (ranges.length > 0 && ranges[ranges.length - 1] === sheet.columnCount) ranges[ranges.length - 1] = sheet.columnCount + repeat;
        else ranges.push(sheet.columnCount, sheet.columnCount + repeat);
      }
      sheet.columnCount += repeat;
    } else if (name === this.n('row')) {
      sheet.rowRepeat = repeatOf(attributes[this.n('rowsRepeated')]);
      const visibility = attributes[this.n('visibility')];
      sheet.rowHidden = visibility === 'collapse' || visibility === 'filter';
      sheet.column = 0;
    } else if (name === this.n('cell') || name === this.n('covered')) {
      sheet.cellColumn = sheet.column;
      sheet.cellRepeat = repeatOf(attributes[this.n('columnsRepeated')]);
      sheet.cellText =
        name === this.n('cell') && attributes[this.n('valueType')] === 'string' && attributes[this.n('formula')] === undefined;
      sheet.cellParagraphs = 0;
      sheet.cellComments = 0;
    }
  }

  close(name: string, path: readonly string[]): void {
    this.bits.pop();
    if (name === this.n('style')) this.styleName = null;
    const sheet = this.sheet();
    if (!sheet) return;
    if (name === this.n('cell') || name === this.n('covered')) sheet.column += sheet.cellRepeat;
    else if (name === this.n('row')) {
      sheet.row += sheet.rowRepeat;
      sheet.rowRepeat = 1;
      sheet.rowHidden = false;
    } else if (name === this.n('table') && path.length === sheet.depth) {
      this.sheets.pop();
      this.flushSheet(sheet);
    }
  }

  /** A sheet's units in `cellFlow` order, comments after the cells. */
  private flushSheet(sheet: SheetState): void {
    if (this.translations || sheet.units.length === 0) return;
    const flow = this.settings.cellFlow;
    const keyed = sheet.units.map((entry, order) => ({ entry, order, key: flowKey(flow, entry.row, entry.column) }));
    keyed.sort(
      (a, b) => Number(a.entry.comment) - Number(b.entry.comment) || a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.order - b.order,
    );
    for (const { entry } of keyed) {
      entry.unit.index = this.nextIndex();
      this.units.push(entry.unit);
    }
  }

  captured(raw: string, data: unknown): string | null {
    const capture = data as Capture;
    this.ordinal += 1;
    const spreadsheet = this.settings.kind === 'spreadsheet' && this.part.role === 'content';
    if (!capture.unit) return null;
    const locator = spreadsheet ? capture.locator! : `${this.part.name}#${this.ordinal}`;
    const names = this.pnames!;
    if (this.translations) {
      const translation = this.translations.get(locator);
      if (!translation) return null;
      const model = buildOdfParagraph(raw, names, this.settings.tagRegexp);
      if (!model || translation.text === model.source) return null;
      this.changed = true;
      return rebuildOdfParagraph(model, translation.text, `unit ${locator}`);
    }
    const model = buildOdfParagraph(raw, names, this.settings.tagRegexp);
    if (!model) return null;
    const unit: TextUnit = {
      index: 0,
      key: capture.key ?? null,
      locator,
      source: model.source,
      tags: model.tags,
      target: null,
      translatable: true,
      note: capture.note ?? null,
    };
    if (spreadsheet) capture.sheet!.units.push({ row: capture.row!, column: capture.column!, comment: capture.comment!, unit });
    else {
      unit.index = this.nextIndex();
      this.units.push(unit);
    }
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The filters
// ---------------------------------------------------------------------------------------------

const MIMETYPES: Record<DocumentKind, readonly string[]> = {
  text: [
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.text-template',
    // LibreOffice's Writer/Web saves HTML it converted with this type (and the `.odt` extension).
    'application/vnd.oasis.opendocument.text-web',
  ],
  spreadsheet: ['application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.spreadsheet-template'],
  presentation: ['application/vnd.oasis.opendocument.presentation', 'application/vnd.oasis.opendocument.presentation-template'],
};

/** The `mimetype` entry's content when it comes first and stored (as ODF requires), else null. */
export function leadingMimetype(firstBytes: Buffer): string | null {
  if (!looksLikeZip(firstBytes) || leadingEntryNames(firstBytes)[0] !== 'mimetype') return null;
  if (firstBytes.readUInt16LE(8) !== 0) return null;
  const size = firstBytes.readUInt32LE(18);
  const start = 30 + firstBytes.readUInt16LE(26) + firstBytes.readUInt16LE(28);
  if (size > 200 || start + size > firstBytes.length) return null;
  return firstBytes.subarray(start, start + size).toString('latin1');
}

async function* parseBatchesOf(kind: DocumentKind, input: Readable, options: FilterOptions): AsyncGenerator<TextUnit[]> {
  const settings = settingsFrom(kind, options);
  const zip = await ZipPackage.open(input, limitsOf(options));
  try {
    if (!zip.entry('content.xml')) throw new FormatError('the file is not an OpenDocument file (it has no content.xml)');
    let index = 0;
    const nextIndex = (): number => index++;
    for (const part of partsOf(settings)) {
      const entry = zip.entry(part.name);
      if (!entry) continue;
      const handler = new OdfHandler(part, settings, nextIndex, null);
      const { chunks } = await decodeStream(zip.read(entry), chooseXmlEncoding);
      const scanner = new SpliceScanner(handler, entry.name, { maxDepth: options.maxDepth });
      for await (const chunk of chunks) {
        scanner.push(chunk);
        if (handler.units.length > 0) yield handler.units.splice(0);
      }
      scanner.end();
      if (handler.units.length > 0) yield handler.units.splice(0);
    }
  } finally {
    await zip.close();
  }
}

async function writeOf(
  kind: DocumentKind,
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions,
): Promise<void> {
  const settings = settingsFrom(kind, options);
  await withZipPackage(original, limitsOf(options), async (zip) => {
    if (!zip.entry('content.xml')) throw new FormatError('the file is not an OpenDocument file (it has no content.xml)');
    const wanted = new Set<string>();
    for (const locator of translations.keys()) {
      const hash = locator.lastIndexOf('#');
      const part = hash > 0 ? locator.slice(0, hash) : '';
      if (part === 'styles.xml' || part === 'meta.xml') wanted.add(part);
      else wanted.add('content.xml');
    }
    const parts = new Map(partsOf(settings).map((part) => [part.name, part]));
    await zip.write(output, (entry): EntryRewrite | null => {
      const part = parts.get(entry.name);
      if (!part || !wanted.has(part.name)) return null;
      const handler = new OdfHandler(part, settings, () => 0, translations);
      return { content: splicePart(zip, entry, handler, options), unchanged: () => !handler.changed };
    });
  });
}

function makeFilter(kind: DocumentKind, name: string, extensions: readonly string[]): FormatFilter {
  const parseBatches = (input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> => parseBatchesOf(kind, input, options);
  return {
    name,
    extensions,
    detect(firstBytes) {
      const mimetype = leadingMimetype(firstBytes);
      return mimetype !== null && MIMETYPES[kind].includes(mimetype);
    },
    parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
    parseBatches,
    write: (original, translations, output, options = {}) => writeOf(kind, original, translations, output, options),
  };
}

export const odtFilter = makeFilter('text', 'odt', ['odt', 'ott']);
export const odsFilter = makeFilter('spreadsheet', 'ods', ['ods', 'ots']);
export const odpFilter = makeFilter('presentation', 'odp', ['odp', 'otp']);

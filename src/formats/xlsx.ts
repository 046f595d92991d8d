import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream } from './encoding.js';
import { limitsOf } from './docx.js';
import {
  SpliceScanner,
  buildParagraph,
  flag,
  mainPart,
  paragraphOptions,
  prefixFor,
  qualify,
  readElements,
  readRelationships,
  rebuildParagraph,
  relationshipKind,
  settingsOf,
  splicePart,
} from './ooxml-text.js';
import type { Dialect, ParagraphModel, ParagraphOptions, SpliceHandler } from './ooxml-text.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';
import { ZipPackage, leadingEntryNames, looksLikeZip, withZipPackage } from './zip-package.js';
import type { ZipEntry } from './zip-package.js';

/**
 * Excel workbooks (`.xlsx`, `.xlsm`, `.xltx`, `.xltm`): every cell holding a shared or inline
 * string is a unit, located `Sheet!A1`; numbers, booleans, errors and formula results are not.
 * Rich text runs become tag pairs. See docs/formats/office.md.
 *
 * Shared strings are read first into a temporary file (one raw `<si>` after another, offsets in
 * memory), so a sheet's cells can be ordered (`cellFlow`) and their strings fetched without
 * holding the strings in memory. A shared string used by several cells is rewritten in place
 * with the translation of the first cell (in workbook and document order) that uses it; a cell
 * whose translation differs from it (or that keeps the original while the first is translated)
 * gets a new shared string appended to the table, and its `<v>` index is changed.
 */

export const SPREADSHEETML_NAMESPACES = [
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
];

const dialects = new Map<string, Dialect>();

function sheetDialect(prefix: string, paragraph: string): Dialect {
  const key = `${prefix}\u0000${paragraph}`;
  let dialect = dialects.get(key);
  if (dialect) return dialect;
  const q = (local: string): string => qualify(prefix, local);
  dialect = {
    paragraph: q(paragraph),
    paragraphProperties: null,
    run: q('r'),
    runProperties: q('rPr'),
    text: q('t'),
    containers: new Set(),
    contentControl: null,
    contentControlContent: null,
    dropped: new Set(),
    normalize: (rpr) => (/^<[\w.:-]*rPr\s*\/>$/.test(rpr) ? '' : rpr.replace(/>\s+</g, '><')),
    isHidden: () => false,
    textStartTag: `<${q('t')} xml:space="preserve">`,
    bareText: true,
  };
  dialects.set(key, dialect);
  return dialect;
}

interface SheetInfo {
  name: string;
  part: string;
  hidden: boolean;
  comments: string | null;
}

interface WorkbookInfo {
  sheets: SheetInfo[];
  sharedStrings: string | null;
}

async function workbookInfo(zip: ZipPackage): Promise<WorkbookInfo> {
  const main = await mainPart(zip, 'an Excel workbook', 'xl/workbook.xml');
  const rels = await readRelationships(zip, main);
  const byId = new Map(rels.filter((rel) => !rel.external).map((rel) => [rel.id, rel]));
  const listed: { name: string; id: string; hidden: boolean }[] = [];
  readElements(await zip.readText(zip.entry(main)!, 64 * 1024 * 1024), main, (tag, path) => {
    const local = tag.name.slice(tag.name.indexOf(':') + 1);
    const parent = path[path.length - 1] ?? '';
    if (local !== 'sheet' || !(parent === 'sheets' || parent.endsWith(':sheets'))) return;
    const id = Object.entries(tag.attributes).find(([name]) => name.endsWith(':id'))?.[1];
    const name = tag.attributes['name'];
    if (id === undefined || name === undefined) return;
    const state = tag.attributes['state'];
    listed.push({ name, id, hidden: state === 'hidden' || state === 'veryHidden' });
  });
  const sheets: SheetInfo[] = [];
  for (const sheet of listed) {
    const rel = byId.get(sheet.id);
    if (!rel || relationshipKind(rel.type) !== 'worksheet' || !zip.entry(rel.target)) continue;
    const sheetRels = await readRelationships(zip, rel.target);
    const comments = sheetRels.find((r) => !r.external && relationshipKind(r.type) === 'comments' && zip.entry(r.target));
    sheets.push({ name: sheet.name, part: rel.target, hidden: sheet.hidden, comments: comments?.target ?? null });
  }
  const shared = rels.find((rel) => !rel.external && relationshipKind(rel.type) === 'sharedStrings' && zip.entry(rel.target));
  return { sheets, sharedStrings: shared?.target ?? null };
}

/** A growing list of numbers in a typed array (millions of cells cost 8 or 4 bytes each, not a boxed array's). */
class NumberList {
  private data: Float64Array | Uint32Array;
  length = 0;

  constructor(private readonly wide = true) {
    this.data = wide ? new Float64Array(1024) : new Uint32Array(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.wide ? new Float64Array(this.data.length * 2) : new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }
}

/** A cell's row and column in one number (rows < 2^21, columns < 2^15 in Excel): exact in a double. */
function cellKey(row: number, column: number): number {
  return row * 32768 + column;
}

/** Raw `<si>`/`<is>` markup kept in a temporary file (written in 4 MiB blocks), fetched by index. */
class StringStore {
  private readonly fd: number;
  /** Bytes written to the file so far. */
  private written = 0;
  private readonly block = Buffer.allocUnsafe(4 * 1024 * 1024);
  private used = 0;
  private readonly starts = new NumberList();
  private readonly lengths = new NumberList();

  constructor(path: string) {
    this.fd = openSync(path, 'w+');
  }

  get size(): number {
    return this.starts.length;
  }

  private flush(): void {
    if (this.used === 0) return;
    writeSync(this.fd, this.block, 0, this.used, this.written);
    this.written += this.used;
    this.used = 0;
  }

  add(raw: string): number {
    const length = Buffer.byteLength(raw, 'utf8');
    if (this.used + length > this.block.length) this.flush();
    this.starts.push(this.written + this.used);
    this.lengths.push(length);
    if (length > this.block.length) {
      const bytes = Buffer.from(raw, 'utf8');
      writeSync(this.fd, bytes, 0, length, this.written);
      this.written += length;
    } else this.used += this.block.write(raw, this.used, 'utf8');
    return this.starts.length - 1;
  }

  get(index: number): string {
    const length = this.lengths.at(index);
    const start = this.starts.at(index);
    if (start >= this.written) return this.block.toString('utf8', start - this.written, start - this.written + length);
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, start);
    return buffer.toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Column letters to a 1-based number (`A` 1, `AA` 27); 0 when not letters. */
function columnNumber(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) {
    const c = letters.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) return 0;
    n = n * 26 + (c - 0x60);
  }
  return n;
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

/** `specifiedColumns`: letters and ranges separated by commas, semicolons or spaces (`A,C:E`); null for all. */
export function parseSpecifiedColumns(value: unknown): Set<number> | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const columns = new Set<number>();
  for (const part of value.split(/[\s,;]+/)) {
    if (part === '') continue;
    const [from, to] = part.split(/[:-]/);
    const a = columnNumber(from ?? '');
    const b = to === undefined ? a : columnNumber(to);
    if (a === 0 || b === 0) continue;
    for (let c = Math.min(a, b); c <= Math.max(a, b) && columns.size < 16384; c++) columns.add(c);
  }
  return columns.size > 0 ? columns : null;
}

interface Settings {
  hidden: boolean;
  comments: boolean;
  columns: Set<number> | null;
  cellFlow: 'DownRight' | 'RightDown' | 'DownLeft' | 'LeftDown';
  paragraph: ParagraphOptions;
}

function settingsFrom(options: FilterOptions): Settings {
  const settings = settingsOf(options);
  const flow = settings['cellFlow'];
  return {
    hidden: flag(settings, 'hidden', false),
    comments: flag(settings, 'comments', false),
    columns: parseSpecifiedColumns(settings['specifiedColumns']),
    cellFlow: flow === 'RightDown' || flow === 'DownLeft' || flow === 'LeftDown' ? flow : 'DownRight',
    paragraph: paragraphOptions(options, settings),
  };
}

const NOT_A_CELL = 0;
const SHARED = 1;
const INLINE = 2;

/** One cell as the sheet scanner sees it. */
interface CellState {
  ref: string;
  row: number;
  column: number;
  type: number;
  formula: boolean;
  value: string;
  /** Whether its row or column is hidden (and hidden cells are left out). */
  hidden: boolean;
}

/**
 * Follows rows and cells of a worksheet: cell references (computed when `r` is missing), hidden
 * rows and columns, the value of `<v>`, formulas. Subclasses act on complete cells.
 */
abstract class SheetHandler implements SpliceHandler {
  protected prefix = '';
  protected cell: CellState | null = null;
  private row = 0;
  private column = 0;
  private rowHidden = false;
  private readonly hiddenColumns: [number, number][] = [];
  private inValue = false;

  constructor(protected readonly settings: Settings) {}

  private local(name: string): string {
    return this.prefix === '' ? name : name.startsWith(`${this.prefix}:`) ? name.slice(this.prefix.length + 1) : '';
  }

  open(tag: SaxesTagPlain, path: readonly string[]): unknown {
    if (path.length === 0) {
      this.prefix = prefixFor(tag.attributes, SPREADSHEETML_NAMESPACES) ?? '';
      return null;
    }
    const local = this.local(tag.name);
    switch (local) {
      case 'col': {
        const hidden = tag.attributes['hidden'];
        if (hidden === '1' || hidden === 'true') {
          this.hiddenColumns.push([Number(tag.attributes['min'] ?? 0), Number(tag.attributes['max'] ?? 0)]);
        }
        return null;
      }
      case 'row': {
        const r = Number(tag.attributes['r']);
        this.row = Number.isInteger(r) && r > 0 ? r : this.row + 1;
        this.column = 0;
        const hidden = tag.attributes['hidden'];
        this.rowHidden = hidden === '1' || hidden === 'true';
        return null;
      }
      case 'c': {
        let ref = tag.attributes['r'];
        let row = this.row;
        let column = this.column + 1;
        const match = ref === undefined ? null : /^([A-Za-z]{1,3})([0-9]{1,7})$/.exec(ref);
        if (match) {
          column = columnNumber(match[1]!);
          row = Number(match[2]);
        } else ref = `${columnLetters(column)}${row}`;
        this.column = column;
        const t = tag.attributes['t'];
        const hidden = !this.settings.hidden && (this.rowHidden || this.hiddenColumns.some(([min, max]) => column >= min && column <= max));
        this.cell = {
          ref: ref!.toUpperCase(),
          row,
          column,
          type: t === 's' ? SHARED : t === 'inlineStr' ? INLINE : NOT_A_CELL,
          formula: false,
          value: '',
          hidden,
        };
        return null;
      }
      case 'f':
        if (this.cell) this.cell.formula = true;
        return null;
      case 'v':
        this.inValue = this.cell !== null;
        return this.valueCapture();
      case 'is':
        return this.cell ? this.inlineCapture(this.cell) : null;
      default:
        return null;
    }
  }

  text(text: string): void {
    if (this.inValue && this.cell) this.cell.value += text;
  }

  close(name: string): void {
    const local = this.local(name);
    if (local === 'v') this.inValue = false;
    else if (local === 'c' && this.cell) {
      this.cellDone(this.cell);
      this.cell = null;
    }
  }

  /** Whether the cell's text is a unit (shown, in a selected column, no formula). */
  protected isUnitCell(cell: CellState): boolean {
    if (cell.formula || cell.hidden) return false;
    return this.settings.columns === null || this.settings.columns.has(cell.column);
  }

  protected valueCapture(): unknown {
    return null;
  }
  protected abstract inlineCapture(cell: CellState): unknown;
  protected abstract cellDone(cell: CellState): void;
  abstract captured(raw: string, data: unknown): string | null;
}

/** Parse side: records each unit cell's string (index into the store). */
class SheetReader extends SheetHandler {
  /** Per unit cell: cellKey(row, column), and the index of its string in the store. */
  readonly cells = new NumberList();
  readonly strings = new NumberList(false);
  private inline = -1;

  constructor(
    settings: Settings,
    private readonly store: StringStore,
    private readonly sharedCount: number,
  ) {
    super(settings);
  }

  protected inlineCapture(cell: CellState): unknown {
    return cell.type === INLINE && this.isUnitCell(cell) ? cell : null;
  }

  captured(raw: string): string | null {
    this.inline = this.store.add(raw);
    return null;
  }

  protected cellDone(cell: CellState): void {
    let string = -1;
    if (cell.type === INLINE) string = this.inline;
    else if (cell.type === SHARED && this.isUnitCell(cell)) {
      const index = Number(cell.value.trim());
      if (Number.isInteger(index) && index >= 0 && index < this.sharedCount) string = index;
    }
    this.inline = -1;
    if (string < 0) return;
    this.cells.push(cellKey(cell.row, cell.column));
    this.strings.push(string);
  }
}

/** Scans one part through a handler (reading). */
async function scanEntry(zip: ZipPackage, entry: ZipEntry, handler: SpliceHandler, options: FilterOptions): Promise<void> {
  const { chunks } = await decodeStream(zip.read(entry), chooseXmlEncoding);
  const scanner = new SpliceScanner(handler, entry.name, { maxDepth: options.maxDepth });
  for await (const chunk of chunks) scanner.push(chunk);
  scanner.end();
}

/** The shared string table into the store: returns how many strings it has. */
async function readSharedStrings(zip: ZipPackage, name: string | null, store: StringStore, options: FilterOptions): Promise<number> {
  if (name === null) return 0;
  let prefix = '';
  const handler: SpliceHandler = {
    open(tag, path) {
      if (path.length === 0) {
        prefix = prefixFor(tag.attributes, SPREADSHEETML_NAMESPACES) ?? '';
        return null;
      }
      return path.length === 1 && tag.name === qualify(prefix, 'si') ? true : null;
    },
    captured(raw) {
      store.add(raw);
      return null;
    },
  };
  await scanEntry(zip, zip.entry(name)!, handler, options);
  return store.size;
}

/** Order of a sheet's cells for `cellFlow` (document order is usually row by row, left to right). */
function cellOrder(reader: SheetReader, flow: Settings['cellFlow']): Uint32Array {
  const { cells } = reader;
  const count = cells.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const byRow = flow === 'RightDown' || flow === 'LeftDown';
  const mirrored = flow === 'DownLeft' || flow === 'LeftDown';
  const sortKey = (cell: number): number => {
    const row = Math.floor(cell / 32768);
    const column = mirrored ? 32768 - (cell % 32768) : cell % 32768;
    return byRow ? row * 32768 + column : column * 2097152 + row;
  };
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) if (sortKey(cells.at(i - 1)) > sortKey(cells.at(i))) sorted = false;
  if (sorted) return order;
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = sortKey(cells.at(i));
  return order.sort((a, b) => keys[a]! - keys[b]! || a - b);
}

/** A string's unit text and tags (what the cache keeps: a full model holds much more). */
interface UnitText {
  source: string;
  tags: ParagraphModel['tags'];
}

/** Unit texts of strings by store index, a bounded cache (shared strings recur). */
class ModelCache {
  private readonly models = new Map<number, UnitText | null>();

  constructor(
    private readonly store: StringStore,
    private readonly paragraph: ParagraphOptions,
  ) {}

  get(index: number): UnitText | null {
    const known = this.models.get(index);
    if (known !== undefined) return known;
    const raw = this.store.get(index);
    const model = buildParagraph(raw, dialectOfRaw(raw), this.paragraph);
    const text = model && { source: model.source, tags: model.tags };
    if (this.models.size >= 100_000) this.models.clear();
    this.models.set(index, text);
    return text;
  }
}

/** The dialect of a raw `<si>`/`<is>`/`<text>`: its prefix and element name from its start tag. */
function dialectOfRaw(raw: string): Dialect {
  const name = /^<([^\s/>]+)/.exec(raw)?.[1] ?? 'si';
  const colon = name.indexOf(':');
  return sheetDialect(colon < 0 ? '' : name.slice(0, colon), colon < 0 ? name : name.slice(colon + 1));
}

function cellLocator(sheet: string, ref: string): string {
  return `${sheet}!${ref}`;
}

/** Comments of a sheet: each `<comment ref>`'s `<text>`. */
class CommentsHandler implements SpliceHandler {
  private prefix = '';
  private ref: string | null = null;
  changed = false;
  readonly found: { ref: string; model: ParagraphModel }[] = [];

  constructor(
    private readonly paragraph: ParagraphOptions,
    private readonly sheet: string,
    private readonly translations: ReadonlyMap<string, UnitTranslation> | null,
  ) {}

  open(tag: SaxesTagPlain, path: readonly string[]): unknown {
    if (path.length === 0) {
      this.prefix = prefixFor(tag.attributes, SPREADSHEETML_NAMESPACES) ?? '';
      return null;
    }
    if (tag.name === qualify(this.prefix, 'comment')) this.ref = tag.attributes['ref'] ?? null;
    else if (tag.name === qualify(this.prefix, 'text') && this.ref !== null && path[path.length - 1] === qualify(this.prefix, 'comment')) {
      return this.ref;
    }
    return null;
  }

  captured(raw: string, data: unknown): string | null {
    const ref = data as string;
    const dialect = sheetDialect(this.prefix, 'text');
    const model = buildParagraph(raw, dialect, this.paragraph);
    if (!model) return null;
    const locator = `${cellLocator(this.sheet, ref)}#comment`;
    if (!this.translations) {
      this.found.push({ ref, model });
      return null;
    }
    const translation = this.translations.get(locator);
    if (!translation || translation.text === model.source) return null;
    this.changed = true;
    return rebuildParagraph(model, translation.text, dialect, `unit ${locator}`);
  }
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = settingsFrom(options);
  const zip = await ZipPackage.open(input, limitsOf(options));
  let store: StringStore | null = null;
  try {
    const info = await workbookInfo(zip);
    store = new StringStore(zip.tempPath('strings'));
    const sharedCount = await readSharedStrings(zip, info.sharedStrings, store, options);
    const models = new ModelCache(store, settings.paragraph);
    let index = 0;
    for (const sheet of info.sheets) {
      if (sheet.hidden && !settings.hidden) continue;
      const reader = new SheetReader(settings, store, sharedCount);
      await scanEntry(zip, zip.entry(sheet.part)!, reader, options);
      let batch: TextUnit[] = [];
      for (const i of cellOrder(reader, settings.cellFlow)) {
        const model = models.get(reader.strings.at(i));
        if (!model) continue;
        const cell = reader.cells.at(i);
        const locator = cellLocator(sheet.name, `${columnLetters(cell % 32768)}${Math.floor(cell / 32768)}`);
        batch.push({
          index: index++,
          key: locator,
          locator,
          source: model.source,
          tags: model.tags,
          target: null,
          translatable: true,
          note: null,
        });
        if (batch.length >= 1000) {
          yield batch;
          batch = [];
        }
      }
      if (settings.comments && sheet.comments) {
        const comments = new CommentsHandler(settings.paragraph, sheet.name, null);
        await scanEntry(zip, zip.entry(sheet.comments)!, comments, options);
        for (const { ref, model } of comments.found) {
          const locator = `${cellLocator(sheet.name, ref)}#comment`;
          batch.push({
            index: index++,
            key: locator,
            locator,
            source: model.source,
            tags: model.tags,
            target: null,
            translatable: true,
            note: 'comment',
          });
        }
      }
      if (batch.length > 0) yield batch;
    }
  } finally {
    store?.close();
    await zip.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Write
// ---------------------------------------------------------------------------------------------

const ORIGINAL = 1;
const TRANSLATED = 2;

/** What the shared strings become: each index's text (first use), and new strings for cells that differ. */
class SharedPlan {
  /** Per shared index: 0 unseen, ORIGINAL, TRANSLATED (text in `texts`). */
  readonly state: Uint8Array;
  readonly texts = new Map<number, string>();
  /** New strings appended: (index, text or null for the original) → new index. */
  readonly extras = new Map<string, { index: number; from: number; text: string | null }>();
  /** Per sheet part: cell ref → new shared index. */
  readonly moved = new Map<string, Map<string, number>>();

  constructor(readonly count: number) {
    this.state = new Uint8Array(count);
  }

  use(part: string, ref: string, index: number, text: string | null): void {
    const state = this.state[index]!;
    if (state === 0) {
      if (text === null) this.state[index] = ORIGINAL;
      else {
        this.state[index] = TRANSLATED;
        this.texts.set(index, text);
      }
      return;
    }
    const same = text === null ? state === ORIGINAL : state === TRANSLATED && this.texts.get(index) === text;
    if (same) return;
    const key = `${index}\u0000${text === null ? '\u0001' : `\u0002${text}`}`;
    let extra = this.extras.get(key);
    if (!extra) this.extras.set(key, (extra = { index: this.count + this.extras.size, from: index, text }));
    let moved = this.moved.get(part);
    if (!moved) this.moved.set(part, (moved = new Map()));
    moved.set(ref, extra.index);
  }
}

/** Write side, pass 1: the shared strings each cell uses, and whether a sheet has translated inline strings. */
class SheetPlanner extends SheetHandler {
  inlineTranslated = false;

  constructor(
    settings: Settings,
    private readonly sheet: SheetInfo,
    private readonly plan: SharedPlan,
    private readonly models: ModelCache,
    private readonly translations: ReadonlyMap<string, UnitTranslation>,
    private readonly include: boolean,
  ) {
    super(settings);
  }

  protected inlineCapture(): unknown {
    return null;
  }

  captured(): string | null {
    return null;
  }

  protected cellDone(cell: CellState): void {
    const unit = this.include && this.isUnitCell(cell);
    if (cell.type === INLINE) {
      if (unit && this.translations.has(cellLocator(this.sheet.name, cell.ref))) this.inlineTranslated = true;
      return;
    }
    if (cell.type !== SHARED) return;
    const index = Number(cell.value.trim());
    if (!Number.isInteger(index) || index < 0 || index >= this.plan.count) return;
    let text: string | null = null;
    if (unit) {
      const translation = this.translations.get(cellLocator(this.sheet.name, cell.ref));
      if (translation) {
        const model = this.models.get(index);
        if (model && translation.text !== model.source) text = translation.text;
      }
    }
    this.plan.use(this.sheet.part, cell.ref, index, text);
  }
}

/** Write side, pass 2: a sheet with translated inline strings and moved shared-string indexes. */
class SheetWriter extends SheetHandler {
  changed = false;

  constructor(
    settings: Settings,
    private readonly sheet: SheetInfo,
    private readonly moved: Map<string, number> | undefined,
    private readonly translations: ReadonlyMap<string, UnitTranslation>,
    /** Whether the sheet's cells are units (a hidden sheet's are not, unless the hidden setting says so). */
    private readonly include: boolean,
  ) {
    super(settings);
  }

  protected override valueCapture(): unknown {
    const cell = this.cell;
    if (!cell || cell.type !== SHARED || !this.moved) return null;
    const index = this.moved.get(cell.ref);
    return index === undefined ? null : { value: index };
  }

  protected inlineCapture(cell: CellState): unknown {
    return this.include && cell.type === INLINE && this.isUnitCell(cell) ? { inline: cell.ref } : null;
  }

  captured(raw: string, data: unknown): string | null {
    const d = data as { value?: number; inline?: string };
    if (d.value !== undefined) {
      this.changed = true;
      const name = /^<([^\s/>]+)/.exec(raw)?.[1] ?? 'v';
      return `<${name}>${d.value}</${name}>`;
    }
    const locator = cellLocator(this.sheet.name, d.inline!);
    const translation = this.translations.get(locator);
    if (!translation) return null;
    const dialect = dialectOfRaw(raw);
    const model = buildParagraph(raw, dialect, this.settings.paragraph);
    if (!model || translation.text === model.source) return null;
    this.changed = true;
    return rebuildParagraph(model, translation.text, dialect, `unit ${locator}`);
  }

  protected cellDone(): void {}
}

/** Write side: the shared string table with translated strings replaced and new ones appended. */
class SharedStringsWriter implements SpliceHandler {
  private prefix = '';
  private index = -1;
  changed = false;
  /** Raw markup of the strings new strings are made from. */
  private readonly sources = new Map<number, string>();

  constructor(
    private readonly plan: SharedPlan,
    private readonly paragraph: ParagraphOptions,
  ) {
    for (const extra of plan.extras.values()) this.sources.set(extra.from, '');
  }

  private rebuild(raw: string, text: string, index: number): string {
    const dialect = dialectOfRaw(raw);
    const model = buildParagraph(raw, dialect, this.paragraph);
    return model ? rebuildParagraph(model, text, dialect, `shared string ${index}`) : raw;
  }

  open(tag: SaxesTagPlain, path: readonly string[]): unknown {
    if (path.length === 0) {
      this.prefix = prefixFor(tag.attributes, SPREADSHEETML_NAMESPACES) ?? '';
      return null;
    }
    return path.length === 1 && tag.name === qualify(this.prefix, 'si') ? true : null;
  }

  replaceStartTag(tag: SaxesTagPlain, raw: string, path: readonly string[]): string | null {
    if (path.length !== 0 || this.plan.extras.size === 0) return null;
    const unique = this.plan.count + this.plan.extras.size;
    this.changed = true;
    if (/\suniqueCount\s*=\s*"[^"]*"/.test(raw)) return raw.replace(/(\suniqueCount\s*=\s*")[^"]*"/, `$1${unique}"`);
    return raw;
  }

  captured(raw: string): string | null {
    this.index += 1;
    if (this.sources.has(this.index)) this.sources.set(this.index, raw);
    if (this.plan.state[this.index] !== TRANSLATED) return null;
    this.changed = true;
    return this.rebuild(raw, this.plan.texts.get(this.index)!, this.index);
  }

  insertBeforeEnd(_name: string, path: readonly string[]): string | null {
    if (path.length !== 0 || this.plan.extras.size === 0) return null;
    const added: string[] = [];
    for (const extra of this.plan.extras.values()) {
      const raw = this.sources.get(extra.from)!;
      added.push(extra.text === null ? raw : this.rebuild(raw, extra.text, extra.from));
    }
    return added.join('');
  }
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const settings = settingsFrom(options);
  // A failed write leaves `output` to the caller (it is destroyed only when the failure came while writing it).
  await withZipPackage(original, limitsOf(options), async (zip) => {
    const info = await workbookInfo(zip);
    const store = new StringStore(zip.tempPath('strings'));
    try {
      const sharedCount = await readSharedStrings(zip, info.sharedStrings, store, options);
      const models = new ModelCache(store, settings.paragraph);
      const plan = new SharedPlan(sharedCount);
      const inlineSheets = new Set<string>();
      if (translations.size > 0) {
        // Every sheet counts, hidden or not: a shared string shown in a hidden sheet must keep showing the same text there.
        for (const sheet of info.sheets) {
          const planner = new SheetPlanner(settings, sheet, plan, models, translations, !sheet.hidden || settings.hidden);
          await scanEntry(zip, zip.entry(sheet.part)!, planner, options);
          if (planner.inlineTranslated) inlineSheets.add(sheet.part);
        }
      }
      const sheetsByPart = new Map(info.sheets.map((sheet) => [sheet.part, sheet]));
      const commentsByPart = new Map(
        info.sheets
          .filter((sheet) => settings.comments && sheet.comments && (!sheet.hidden || settings.hidden))
          .map((sheet) => [sheet.comments!, sheet]),
      );
      const commentSheets = new Set<string>();
      for (const key of translations.keys()) if (key.endsWith('#comment')) commentSheets.add(key.slice(0, key.lastIndexOf('!')));
      await zip.write(output, (entry) => {
        if (entry.name === info.sharedStrings && (plan.texts.size > 0 || plan.extras.size > 0)) {
          const handler = new SharedStringsWriter(plan, settings.paragraph);
          return { content: splicePart(zip, entry, handler, options), unchanged: () => !handler.changed };
        }
        const sheet = sheetsByPart.get(entry.name);
        if (sheet && (inlineSheets.has(sheet.part) || plan.moved.has(sheet.part))) {
          const handler = new SheetWriter(settings, sheet, plan.moved.get(sheet.part), translations, !sheet.hidden || settings.hidden);
          return { content: splicePart(zip, entry, handler, options), unchanged: () => !handler.changed };
        }
        const commented = commentsByPart.get(entry.name);
        if (commented && commentSheets.has(commented.name)) {
          const handler = new CommentsHandler(settings.paragraph, commented.name, translations);
          return { content: splicePart(zip, entry, handler, options), unchanged: () => !handler.changed };
        }
        return null;
      });
    } finally {
      store.close();
    }
  });
}

export const xlsxFilter: FormatFilter = {
  name: 'xlsx',
  extensions: ['xlsx', 'xlsm', 'xltx', 'xltm'],
  detect(firstBytes) {
    return looksLikeZip(firstBytes) && leadingEntryNames(firstBytes).some((name) => name.startsWith('xl/'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

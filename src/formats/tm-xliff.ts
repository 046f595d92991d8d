import type { Readable } from 'node:stream';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream } from './encoding.js';
import { inlineTag } from './inline-tags.js';
import { canonicalLanguage, tmxDate } from './tmx.js';
import type { TmxStamps } from './tmx.js';
import type { TmReadOptions, TmUnit, TmVariant } from './tm-formats.js';
import type { InlineTag, InlineTagKind } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';
import { escapeXmlAttribute, escapeXmlText, XmlScanner } from './xml.js';

/**
 * XLIFF 1.2 (and Memsource's MXLIFF dialect of it) as a translation-memory source: a streaming
 * reader giving the same units as the TMX reader (`readTmx`), one per `<trans-unit>` with a
 * `<source>` and a non-empty `<target>`, in the languages of its `<file>`.
 *
 * Inline tags are numbered as the job filter (xliff12.ts) numbers them: the source's in order of
 * appearance, a target tag taking the number of the source tag with the same element and id.
 * `<g>`/`<mrk>` become a pair around their text (`{1>`…`<1}`); `<x/>`, `<ph>`, `<it>`, an empty
 * `<g/>` and foreign elements one standalone tag each; `<bpt>`/`<ept>` (and `<bx/>`/`<ex/>`) pair
 * up by `rid` (else `id`). A tag's `original` is the element re-serialized (content included
 * for code elements), not the file's raw bytes.
 *
 * MXLIFF writes its tags into the text as Phrase display tokens (`{1>`, `<1}`, `{1}`) and the
 * native code in `<m:tunit-metadata>`: those tokens become tags, with originals `<bpt>code</bpt>`,
 * `<ept/>` and `<ph>code</ph>` (TMX's canonical forms, which both the TMX writer and XLIFF 1.2
 * hold). Letter tokens (`{b>bold<b}`) stay text.
 *
 * A `<file>` whose source or target language is missing, malformed or unknown is skipped with a
 * warning; units without a target, with an empty one or with `translate="no"` are skipped
 * silently (counted in `options.stats`). Malformed XML is a FormatError with line and column.
 */

export interface XliffTmStats {
  /** Every `<trans-unit>` read. */
  transUnits: number;
  /** Units yielded. */
  units: number;
  /** Skipped: no `<target>`, or an empty one (or no source text). */
  withoutTarget: number;
  /** Skipped with `confirmedOnly`: the translation is not confirmed. */
  notConfirmed: number;
  /** Skipped: `translate="no"`. */
  untranslatable: number;
  /** Units in `<file>` elements skipped for their languages. */
  inSkippedFiles: number;
}

export type XliffTmReadOptions = Omit<TmReadOptions, 'sourceLang'>;

const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:1.2';
const MEMSOURCE_NS = 'http://www.memsource.com/mxlf/2.0';
const DEFAULT_BATCH = 5000;
/** A `<trans-unit>` holding more characters than this is refused: units are held in memory whole. */
export const MAX_TM_TRANS_UNIT_CHARS = 10_000_000;
/** Elements whose whole markup (content included) becomes one tag. */
const CODE_ELEMENTS = new Set(['x', 'bx', 'ex', 'bpt', 'ept', 'ph', 'it']);
/** Elements whose start and end tags become a tag pair around text. */
const PAIR_ELEMENTS = new Set(['g', 'mrk']);
/** Target states that count as a confirmed translation. */
const CONFIRMED_STATES = new Set(['translated', 'signed-off', 'final']);
/** Phrase display tokens with a number, as MXLIFF writes them into the text. */
const TOKEN = /\{(\d{1,6})>|<(\d{1,6})\}|\{(\d{1,6})\}/g;

function serializeAttributes(attributes: Record<string, string>): string {
  let out = '';
  for (const name in attributes) out += ` ${name}="${escapeXmlAttribute(attributes[name]!)}"`;
  return out;
}

/**
 * Tags for the display tokens (`{1>`, `<1}`, `{1}`) written as plain text in `text`, e.g. a TM
 * spreadsheet's cell or an MXLIFF segment. Every token with a number becomes a tag; its original
 * is a TMX inline element holding `code(id)` (the native code, when known): `<bpt>code</bpt>`,
 * `<ept/>`, `<ph>code</ph>` (`<bpt/>`, `<ph/>` without code). The text itself is unchanged.
 */
export function tagsOfDisplayTokens(text: string, code?: (id: number) => string | undefined): InlineTag[] {
  const tags: InlineTag[] = [];
  if (!text.includes('{') && !text.includes('<')) return tags;
  const seen = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const kind: InlineTagKind = match[1] !== undefined ? 'open' : match[2] !== undefined ? 'close' : 'standalone';
    const digits = match[1] ?? match[2] ?? match[3]!;
    // `{01}` is no token the tag scanner recognizes: it stays text.
    if (digits.length > 1 && digits.startsWith('0')) continue;
    if (seen.has(match[0])) continue;
    seen.add(match[0]);
    const id = Number(digits);
    const native = kind === 'close' ? undefined : code?.(id);
    const element = kind === 'open' ? 'bpt' : kind === 'close' ? 'ept' : 'ph';
    const original = native ? `<${element}>${escapeXmlText(native)}</${element}>` : `<${element}/>`;
    tags.push(inlineTag(id, kind, original));
  }
  return tags;
}

/** A source or target being read: text with display tokens, and its tags. */
class Content {
  readonly parts: string[] = [];
  readonly tags: InlineTag[] = [];
  /** Open bpt/bx occurrences waiting for their ept/ex, by pairing key. */
  readonly openPairs = new Map<string, number>();
  /** Target: keys already numbered in it (a second use gets a fresh number). */
  readonly usedKeys = new Set<string>();
  /** Code element being serialized (its original), and how deep inside it the parser is. */
  code: { parts: string[]; depth: number } | null = null;
  elements = 0;

  constructor(readonly isTarget: boolean) {}

  get text(): string {
    return this.parts.join('');
  }

  add(id: number, kind: InlineTagKind, original: string): void {
    const tag = inlineTag(id, kind, original);
    this.tags.push(tag);
    this.parts.push(tag.display);
  }
}

/** Numbers the tags of one unit: the source's in order, a target tag reusing its source tag's number. */
class TagNumbering {
  private next = 1;
  private readonly sourceKeys = new Map<string, number>();

  number(content: Content, key: string): number {
    if (!content.isTarget) {
      const id = this.next++;
      if (!this.sourceKeys.has(key)) this.sourceKeys.set(key, id);
      return id;
    }
    if (!content.usedKeys.has(key)) {
      content.usedKeys.add(key);
      const fromSource = this.sourceKeys.get(key);
      if (fromSource !== undefined) return fromSource;
    }
    return this.next++;
  }
}

interface Frame {
  name: string;
  local: string;
  /** An element of XLIFF's namespace. */
  xliff: boolean;
  selfClosing: boolean;
  role: 'code' | 'pair' | 'inner' | 'skip' | null;
  tagId: number;
  /** bpt/ept and bx/ex: the pairing key. */
  pairKey: string | null;
  /** Its `id` attribute (code elements). */
  id: string;
}

interface FileState {
  sourceLang: string | null;
  targetLang: string | null;
  /** The raw target-language (absent: each target's `xml:lang`). */
  rawTargetLang: string | undefined;
  skip: boolean;
}

interface UnitState {
  id: string;
  resname: string | undefined;
  depth: number;
  line: number;
  chars: number;
  translatable: boolean;
  approved: boolean;
  mConfirmed: boolean;
  stamps: TmxStamps;
  numbering: TagNumbering;
  source: Content | null;
  target: Content | null;
  targetState: string | undefined;
  targetLang: string | undefined;
  notes: string[];
  capture: { kind: 'source' | 'target' | 'note' | 'mark'; content: Content | null; depth: number; parts: string[] } | null;
  /** MXLIFF `<m:mark id>` contents, from `<m:tunit-metadata>` and `<m:tunit-target-metadata>`. */
  marks: { source: Map<number, string>; target: Map<number, string> } | null;
  markBlock: 'source' | 'target' | null;
  markId: number | null;
}

function memsourceStamps(attributes: Record<string, string>, prefix: string): TmxStamps {
  const out: TmxStamps = {};
  const date = (name: string): string | undefined => {
    const value = attributes[`${prefix}:${name}`];
    if (value === undefined || !/^\d+$/.test(value) || value === '0') return undefined;
    return tmxDate(new Date(Number(value))) ?? undefined;
  };
  const who = (name: string): string | undefined => attributes[`${prefix}:${name}`] || undefined;
  const created = date('created-at');
  const modified = date('modified-at');
  const createdBy = who('created-by');
  const modifiedBy = who('modified-by');
  if (created) out.creationDate = created;
  if (createdBy) out.creationId = createdBy;
  if (modified) out.changeDate = modified;
  if (modifiedBy) out.changeId = modifiedBy;
  return out;
}

/** Feeds decoded text to saxes; complete units collect in `units`. */
class XliffTmScanner extends XmlScanner {
  readonly units: TmUnit[] = [];
  private readonly stack: Frame[] = [];
  private readonly warnedLanguages = new Set<string>();
  /** The prefix naming XLIFF's namespace (`''` when it is the default or no namespace is declared). */
  private xliffPrefix = '';
  /** Memsource's prefix when the root declares its namespace (MXLIFF). */
  private memsourcePrefix: string | null = null;
  private file: FileState | null = null;
  private unit: UnitState | null = null;

  constructor(
    private readonly options: XliffTmReadOptions,
    private readonly stats: XliffTmStats,
  ) {
    super(options);
  }

  private count(length: number): void {
    const unit = this.unit;
    if (!unit) return;
    unit.chars += length;
    if (unit.chars > MAX_TM_TRANS_UNIT_CHARS) {
      this.fail(`trans-unit "${unit.id}" (line ${unit.line}) is larger than ${MAX_TM_TRANS_UNIT_CHARS} characters`);
    }
  }

  protected onText(text: string): void {
    const capture = this.unit?.capture;
    if (!capture) return;
    this.count(text.length);
    const content = capture.content;
    if (!content) capture.parts.push(text);
    else if (content.code) content.code.parts.push(escapeXmlText(text));
    else if (text !== '') content.parts.push(text);
  }

  private language(raw: string | undefined, what: string): string | null {
    if (raw === undefined || raw.trim() === '') {
      this.warn(`a <file> without a ${what} language is skipped`);
      return null;
    }
    const lang = canonicalLanguage(raw);
    if (lang === null && !this.warnedLanguages.has(raw)) {
      if (this.warnedLanguages.size < 1000) this.warnedLanguages.add(raw);
      this.warn(`unknown or invalid language code "${raw}": its <file> is skipped`);
    }
    return lang;
  }

  protected onOpen(tag: SaxesTagPlain): void {
    if (this.stack.length >= this.maxDepth) return this.fail(`elements are nested deeper than ${this.maxDepth} levels`);
    const name = tag.name;
    const attributes = tag.attributes as Record<string, string>;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = colon < 0 ? name : name.slice(colon + 1);
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (local !== 'xliff') return this.fail(`not an XLIFF document: the root element is <${name}>`);
      this.xliffPrefix = prefix;
      const ns = attributes[prefix ? `xmlns:${prefix}` : 'xmlns'];
      const version = attributes['version'] ?? '';
      if ((ns !== undefined && ns !== XLIFF_NS) || version.startsWith('2')) {
        return this.fail(`only XLIFF 1.2 is supported (version "${version || ns}")`);
      }
      for (const attribute in attributes) {
        if (attribute.startsWith('xmlns:') && attributes[attribute] === MEMSOURCE_NS) this.memsourcePrefix = attribute.slice(6);
      }
    }
    const frame: Frame = {
      name,
      local,
      xliff: prefix === this.xliffPrefix,
      selfClosing: tag.isSelfClosing,
      role: null,
      tagId: 0,
      pairKey: null,
      id: '',
    };
    this.stack.push(frame);
    const depth = this.stack.length;
    const unit = this.unit;
    if (unit) {
      this.count(name.length + 2);
      if (unit.capture) return this.openInCapture(unit, frame, attributes);
      if (depth === unit.depth + 1 && frame.xliff) return this.openUnitChild(unit, frame, attributes);
      if (unit.marks) this.openMetadata(unit, frame, attributes, prefix);
      return;
    }
    if (!frame.xliff) return;
    if (local === 'file') {
      const sourceLang = this.language(attributes['source-language'], 'source');
      const rawTargetLang = attributes['target-language'];
      const targetLang = rawTargetLang === undefined ? null : this.language(rawTargetLang, 'target');
      this.file = {
        sourceLang,
        targetLang,
        rawTargetLang,
        skip: sourceLang === null || (rawTargetLang !== undefined && targetLang === null),
      };
    } else if (local === 'group') {
      frame.role = attributes['translate'] === 'no' ? 'skip' : null;
    } else if (local === 'trans-unit') {
      const translate = attributes['translate'];
      const inNoGroup = this.stack.some((f) => f.local === 'group' && f.role === 'skip');
      const m = this.memsourcePrefix;
      this.unit = {
        id: attributes['id'] ?? '',
        resname: attributes['resname'] || undefined,
        depth,
        line: this.parser.line,
        chars: 0,
        translatable: translate === 'no' ? false : translate === 'yes' ? true : !inNoGroup,
        approved: attributes['approved'] === 'yes',
        mConfirmed: m !== null && (attributes[`${m}:confirmed`] === '1' || attributes[`${m}:confirmed`] === 'true'),
        stamps: m !== null ? memsourceStamps(attributes, m) : {},
        numbering: new TagNumbering(),
        source: null,
        target: null,
        targetState: undefined,
        targetLang: undefined,
        notes: [],
        capture: null,
        marks: m !== null ? { source: new Map(), target: new Map() } : null,
        markBlock: null,
        markId: null,
      };
    }
  }

  private openUnitChild(unit: UnitState, frame: Frame, attributes: Record<string, string>): void {
    const depth = this.stack.length;
    if (frame.local === 'source') {
      if (unit.source) return this.fail(`trans-unit "${unit.id}" has two <source> elements`);
      unit.source = new Content(false);
      unit.capture = { kind: 'source', content: unit.source, depth, parts: [] };
    } else if (frame.local === 'target') {
      if (unit.target) return this.fail(`trans-unit "${unit.id}" has two <target> elements`);
      if (!unit.source) return this.fail(`trans-unit "${unit.id}" has a <target> before its <source>`);
      unit.target = new Content(true);
      unit.targetState = attributes['state'];
      unit.targetLang = attributes['xml:lang'];
      unit.capture = { kind: 'target', content: unit.target, depth, parts: [] };
    } else if (frame.local === 'note') {
      unit.capture = { kind: 'note', content: null, depth, parts: [] };
    }
  }

  /** MXLIFF: `<m:tunit-metadata>` / `<m:tunit-target-metadata>` and their `<m:mark id>`'s `<m:content>`. */
  private openMetadata(unit: UnitState, frame: Frame, attributes: Record<string, string>, prefix: string): void {
    if (prefix !== this.memsourcePrefix) return;
    const depth = this.stack.length;
    if (depth === unit.depth + 1) {
      unit.markBlock = frame.local === 'tunit-metadata' ? 'source' : frame.local === 'tunit-target-metadata' ? 'target' : null;
    } else if (unit.markBlock && depth === unit.depth + 2 && frame.local === 'mark') {
      const id = attributes['id'];
      unit.markId = id !== undefined && /^\d{1,6}$/.test(id) ? Number(id) : null;
    } else if (unit.markBlock && unit.markId !== null && depth === unit.depth + 3 && frame.local === 'content') {
      unit.capture = { kind: 'mark', content: null, depth, parts: [] };
    }
  }

  private openInCapture(unit: UnitState, frame: Frame, attributes: Record<string, string>): void {
    const content = unit.capture?.content;
    if (!content) {
      frame.role = 'skip';
      return;
    }
    content.elements += 1;
    const code = content.code;
    if (code) {
      frame.role = 'inner';
      code.depth += 1;
      code.parts.push(`<${frame.name}${serializeAttributes(attributes)}${frame.selfClosing ? '/>' : '>'}`);
      return;
    }
    const local = frame.local;
    const known = frame.xliff && (CODE_ELEMENTS.has(local) || PAIR_ELEMENTS.has(local));
    if (known && PAIR_ELEMENTS.has(local) && !frame.selfClosing) {
      frame.role = 'pair';
      frame.tagId = unit.numbering.number(content, `${local}:${attributes[local === 'mrk' ? 'mid' : 'id'] ?? ''}`);
      content.add(frame.tagId, 'open', `<${frame.name}${serializeAttributes(attributes)}>`);
      return;
    }
    // Code elements, empty pair elements and foreign elements: the whole element is one tag.
    frame.role = 'code';
    const id = attributes['id'] ?? '';
    frame.id = id;
    if (known && (local === 'bpt' || local === 'ept' || local === 'bx' || local === 'ex')) {
      frame.pairKey = `${local === 'bpt' || local === 'ept' ? 'bpt' : 'bx'}:${attributes['rid'] ?? id}`;
    }
    if (local !== 'ept' && local !== 'ex') {
      frame.tagId = unit.numbering.number(content, known ? `${local}:${id}` : `foreign:${frame.name}:${id}`);
    } else if (!known) frame.tagId = unit.numbering.number(content, `foreign:${frame.name}:${id}`);
    else frame.tagId = 0;
    content.code = { parts: [`<${frame.name}${serializeAttributes(attributes)}${frame.selfClosing ? '/>' : '>'}`], depth: 1 };
  }

  protected onClose(): void {
    const frame = this.stack.pop();
    const unit = this.unit;
    if (!frame || !unit) return;
    const depth = this.stack.length + 1;
    const capture = unit.capture;
    if (capture && depth > capture.depth) return this.closeInCapture(unit, frame);
    if (capture && depth === capture.depth) {
      unit.capture = null;
      if (capture.kind === 'note') unit.notes.push(capture.parts.join(''));
      else if (capture.kind === 'mark' && unit.marks && unit.markBlock && unit.markId !== null) {
        unit.marks[unit.markBlock].set(unit.markId, capture.parts.join(''));
      }
      return;
    }
    if (depth === unit.depth + 1) unit.markBlock = null;
    else if (depth === unit.depth + 2) unit.markId = null;
    if (depth === unit.depth) this.finishUnit(unit);
  }

  private closeInCapture(unit: UnitState, frame: Frame): void {
    const content = unit.capture?.content;
    if (!content || frame.role === 'skip') return;
    const code = content.code;
    if (frame.role === 'inner' && code) {
      code.depth -= 1;
      if (!frame.selfClosing) code.parts.push(`</${frame.name}>`);
      return;
    }
    if (frame.role === 'pair') {
      content.add(frame.tagId, 'close', `</${frame.name}>`);
      return;
    }
    if (frame.role !== 'code' || !code) return;
    content.code = null;
    if (!frame.selfClosing) code.parts.push(`</${frame.name}>`);
    const original = code.parts.join('');
    const local = frame.local;
    if (frame.pairKey !== null) {
      if (local === 'bpt' || local === 'bx') {
        content.openPairs.set(frame.pairKey, frame.tagId);
        content.add(frame.tagId, 'open', original);
      } else {
        const id = content.openPairs.get(frame.pairKey);
        content.openPairs.delete(frame.pairKey);
        if (id !== undefined) content.add(id, 'close', original);
        else content.add(unit.numbering.number(content, `${local}:${frame.id}`), 'standalone', original);
      }
    } else content.add(frame.tagId, 'standalone', original);
  }

  /** MXLIFF: a content without XML tags whose text holds display tokens gets its tags from them. */
  private mxliffTags(content: Content, marks: Map<number, string>, fallback: Map<number, string>): InlineTag[] {
    if (content.elements > 0) return content.tags;
    return tagsOfDisplayTokens(content.text, (id) => marks.get(id) ?? fallback.get(id));
  }

  private finishUnit(unit: UnitState): void {
    this.unit = null;
    const stats = this.stats;
    stats.transUnits += 1;
    const file = this.file;
    if (!file || file.skip) {
      stats.inSkippedFiles += 1;
      return;
    }
    if (!unit.translatable) {
      stats.untranslatable += 1;
      return;
    }
    const source = unit.source;
    const target = unit.target;
    if (!source || !target) {
      stats.withoutTarget += 1;
      return;
    }
    const sourceText = source.text;
    const targetText = target.text;
    if (sourceText.trim() === '' || targetText.trim() === '') {
      stats.withoutTarget += 1;
      return;
    }
    const state = unit.targetState;
    const confirmed = unit.approved || unit.mConfirmed || (state !== undefined && CONFIRMED_STATES.has(state));
    if (this.options.confirmedOnly && !confirmed) {
      stats.notConfirmed += 1;
      return;
    }
    let targetLang = file.targetLang;
    if (targetLang === null) {
      // No target-language on the <file>: the target's own xml:lang.
      targetLang = unit.targetLang === undefined ? null : canonicalLanguage(unit.targetLang);
      if (targetLang === null) {
        this.warn(
          unit.targetLang === undefined
            ? `trans-unit "${unit.id}" (line ${unit.line}) has no target language: skipped`
            : `unknown or invalid language code "${unit.targetLang}" in trans-unit "${unit.id}": skipped`,
        );
        stats.inSkippedFiles += 1;
        return;
      }
    }
    const sourceLang = file.sourceLang!;
    const marks = unit.marks;
    const sourceTags = marks ? this.mxliffTags(source, marks.source, marks.target) : source.tags;
    const targetTags = marks ? this.mxliffTags(target, marks.target, marks.source) : target.tags;
    const targetVariant: TmVariant = { lang: targetLang, text: targetText, tags: targetTags, confirmed };
    if (state !== undefined) targetVariant.state = state;
    const result: TmUnit = {
      sourceLang,
      variants: [{ lang: sourceLang, text: sourceText, tags: sourceTags }, targetVariant],
      ...unit.stamps,
    };
    if (unit.id !== '') result.tuid = unit.id;
    if (unit.resname !== undefined) result.contextKey = unit.resname;
    if (unit.notes.length) result.notes = unit.notes;
    stats.units += 1;
    this.units.push(result);
  }
}

export function emptyXliffTmStats(): XliffTmStats {
  return { transUnits: 0, units: 0, withoutTarget: 0, notConfirmed: 0, untranslatable: 0, inSkippedFiles: 0 };
}

/**
 * Reads an XLIFF 1.2 or MXLIFF file as batches of TM units (at most `batchSize` each), one per
 * translated `<trans-unit>`: the source and the target variant. Warnings go to
 * `options.warnings`, counts to `options.stats`; a malformed file rejects with FormatError.
 */
export async function* readXliffTm(input: Readable, options: XliffTmReadOptions = {}): AsyncGenerator<TmUnit[]> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const stats = options.stats ?? emptyXliffTmStats();
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  const scanner = new XliffTmScanner(options, stats);
  function* drain(): Generator<TmUnit[]> {
    while (scanner.units.length > 0) yield scanner.units.splice(0, batchSize);
  }
  for await (const chunk of chunks) {
    scanner.push(chunk);
    yield* drain();
  }
  scanner.end();
  yield* drain();
}

import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SaxesTagPlain } from 'saxes';
import { escapeXmlAttribute, escapeXmlText, hasNonXmlCharacter, XmlScanner } from './xml.js';
import { decodeStream } from './encoding.js';
import { inlineTag, splitTokens } from './inline-tags.js';
import { FormatError } from './types.js';
import type { InlineTag, InlineTagKind } from './types.js';
import { chooseXmlEncoding } from './xliff12.js';

/**
 * TMX (translation memory exchange): a streaming, lenient reader and a strict TMX 1.4 writer.
 * No database code: the translation-memory import and export feed and drain these.
 *
 * Reading streams the file through saxes, one `<tu>` at a time; memory is bounded by the largest
 * `<tu>` plus the batch being yielded. Text carries inline tags as Phrase display tokens
 * (`{1>`, `<1}`, `{1}`) as the job filters do, numbered per `<tuv>` in order of appearance; a
 * `<bpt>` and the `<ept>` with the same `i` share a number. Each tag's `original` is the TMX
 * element in a canonical form **without** its `i`/`x` attributes (the writer renumbers them):
 * `<bpt type="bold">&lt;b&gt;</bpt>`, `<ph/>`, `<it pos="begin">…</it>`, `<hi type="x">` and
 * `</hi>` for a highlight (its content stays text). `<ut>` (deprecated) is read as `<ph>`;
 * unknown elements inside a `<seg>` become a standalone tag holding their markup.
 *
 * Lenient: TMX 1.1–1.4b, `lang` where `xml:lang` belongs, `srclang="*all*"`, `en_US` for
 * `en-US`. A `<tuv>` in a language that is not a well-formed BCP 47 tag, or one no locale data
 * knows, is skipped and reported in `options.warnings` (not fatal). Malformed XML is a
 * FormatError with line and column.
 *
 * Writing emits TMX 1.4 as its DTD and schema require (checked against OmegaT's tmx14.xsd and
 * tmx14.dtd in the tests): every required header attribute, `xml:lang` on `<tuv>`, tags as
 * `<bpt i x>`/`<ept i>`/`<ph x>` (`<it pos>` for one half of a pair without the other, `<hi>` when
 * it was a well-nested highlight), text escaped. A tag whose original is no TMX element (a job's
 * XLIFF `<g id="1">`, say) is written as its native code inside `<bpt>`/`<ept>`/`<ph>`.
 */

export interface TmxProp {
  type: string;
  value: string;
}

/** Authorship attributes of a `<tu>` or `<tuv>`, as written in the file (TMX dates: `YYYYMMDDThhmmssZ`). */
export interface TmxStamps {
  creationDate?: string;
  creationId?: string;
  changeDate?: string;
  changeId?: string;
}

export interface TmxVariant extends TmxStamps {
  /** The language, canonicalized (`en_us` → `en-US`). */
  lang: string;
  /** The segment text with inline tags as display tokens. */
  text: string;
  tags: InlineTag[];
  props?: TmxProp[];
  notes?: string[];
}

export interface TmxUnit extends TmxStamps {
  tuid?: string;
  /** The `<tu>`'s srclang, else the header's; with `*all*` (or none) the first variant's language. */
  sourceLang: string;
  variants: TmxVariant[];
  /** `<prop type="x-context-prev">` / `x-context-next`: the previous and next source text. */
  contextPrev?: string;
  contextNext?: string;
  /** The other `<prop>`s of the `<tu>`. */
  props?: TmxProp[];
  notes?: string[];
}

export interface TmxHeaderInfo {
  version: string;
  srcLang: string | null;
  attributes: Record<string, string>;
}

export interface TmxWarning {
  message: string;
  line?: number;
}

export interface TmxReadOptions {
  /** Warnings are pushed here (unknown languages, units without their source language…). */
  warnings?: TmxWarning[];
  /** At most this many warnings are kept (default 1,000); the rest are counted in one last warning. */
  maxWarnings?: number;
  /** Called once with the `<header>`'s attributes. */
  onHeader?: (header: TmxHeaderInfo) => void;
  /** Largest batch yielded (default 5,000 units). */
  batchSize?: number;
  /** Elements nested deeper than this are a FormatError (default 512). */
  maxDepth?: number;
}

const DEFAULT_BATCH = 5000;
/** A `<tu>` holding more characters than this is refused: units are held in memory whole. */
export const MAX_TU_CHARS = 10_000_000;
const CODE_ELEMENTS = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);
/** Attributes each TMX inline element keeps in a tag's original (`i`, `x` are renumbered on write). */
const KEPT_ATTRIBUTES: Record<string, readonly string[]> = {
  bpt: ['type'],
  ept: [],
  ph: ['type', 'assoc'],
  it: ['pos', 'type'],
  hi: ['type'],
};

function serializeAttributes(attributes: Record<string, string>, keep?: readonly string[]): string {
  let out = '';
  if (keep) {
    for (const name of keep) if (attributes[name] !== undefined) out += ` ${name}="${escapeXmlAttribute(attributes[name])}"`;
  } else {
    for (const name in attributes) out += ` ${name}="${escapeXmlAttribute(attributes[name]!)}"`;
  }
  return out;
}

const languageCache = new Map<string, string | null>();
const LANGUAGE_CACHE_MAX = 10_000;
let displayNames: Intl.DisplayNames | null = null;

/** The canonical BCP 47 form of a language code, or null when it is malformed or unknown. */
export function canonicalLanguage(code: string): string | null {
  const cached = languageCache.get(code);
  if (cached !== undefined) return cached;
  let result: string | null = null;
  const cleaned = code.trim().replace(/_/g, '-');
  if (/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(cleaned)) {
    try {
      const canonical = Intl.getCanonicalLocales(cleaned)[0] ?? null;
      displayNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
      const primary = canonical?.split('-')[0];
      // An unknown primary language (`xx`) has no name in the locale data.
      if (canonical && primary && displayNames.of(primary) !== undefined) result = canonical;
    } catch {
      result = null;
    }
  }
  if (languageCache.size < LANGUAGE_CACHE_MAX) languageCache.set(code, result);
  return result;
}

type Role = 'seg' | 'hi' | 'code' | 'inner' | 'other';

interface Frame {
  name: string;
  role: Role;
  selfClosing: boolean;
  tagId: number;
}

interface Code {
  element: string;
  attributes: string;
  pairKey: string | undefined;
  parts: string[];
  depth: number;
  known: boolean;
}

class Segment {
  readonly parts: string[] = [];
  readonly tags: InlineTag[] = [];
  next = 1;
  readonly openPairs = new Map<string, number>();
  code: Code | null = null;

  add(id: number, kind: InlineTagKind, original: string): void {
    const tag = inlineTag(id, kind, original);
    this.tags.push(tag);
    this.parts.push(tag.display);
  }
}

interface TuState {
  stamps: TmxStamps;
  tuid: string | undefined;
  srcLang: string | undefined;
  line: number;
  variants: TmxVariant[];
  props: TmxProp[];
  notes: string[];
  contextPrev: string | undefined;
  contextNext: string | undefined;
  chars: number;
}

interface TuvState {
  stamps: TmxStamps;
  rawLang: string | undefined;
  props: TmxProp[];
  notes: string[];
  variant: TmxVariant | null;
}

function stamps(attributes: Record<string, string>): TmxStamps {
  const out: TmxStamps = {};
  if (attributes['creationdate'] !== undefined) out.creationDate = attributes['creationdate'];
  if (attributes['creationid'] !== undefined) out.creationId = attributes['creationid'];
  if (attributes['changedate'] !== undefined) out.changeDate = attributes['changedate'];
  if (attributes['changeid'] !== undefined) out.changeId = attributes['changeid'];
  return out;
}

/** Feeds decoded text to saxes; complete units collect in `units`. */
class TmxScanner extends XmlScanner {
  readonly units: TmxUnit[] = [];
  private readonly stack: Frame[] = [];
  private readonly warnedLanguages = new Set<string>();
  private version = '';
  private headerSrcLang: string | null = null;
  private tu: TuState | null = null;
  private tuv: TuvState | null = null;
  private seg: Segment | null = null;
  private capture: { kind: 'prop' | 'note'; type: string; parts: string[]; depth: number } | null = null;

  constructor(private readonly options: TmxReadOptions) {
    super(options);
  }

  private count(length: number): void {
    const tu = this.tu;
    if (!tu) return;
    tu.chars += length;
    if (tu.chars > MAX_TU_CHARS) this.fail(`a <tu> (line ${tu.line}) is larger than ${MAX_TU_CHARS} characters`);
  }

  protected onText(text: string): void {
    const seg = this.seg;
    if (seg) {
      this.count(text.length);
      if (seg.code) seg.code.parts.push(escapeXmlText(text));
      else if (text !== '') seg.parts.push(text);
    } else if (this.capture) {
      this.count(text.length);
      this.capture.parts.push(text);
    }
  }

  protected onOpen(tag: SaxesTagPlain): void {
    if (this.stack.length >= this.maxDepth) return this.fail(`elements are nested deeper than ${this.maxDepth} levels`);
    const name = tag.name;
    const attributes = tag.attributes as Record<string, string>;
    const frame: Frame = { name, role: 'other', selfClosing: tag.isSelfClosing, tagId: 0 };
    this.stack.push(frame);
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (name !== 'tmx') return this.fail(`not a TMX document: the root element is <${name}>`);
      this.version = attributes['version'] ?? '';
      return;
    }
    const seg = this.seg;
    if (seg) {
      // Markup counts towards the <tu>'s size too (a <seg> of a million empty tags has no text).
      this.count(name.length + 2);
      return this.openInSeg(seg, frame, name, attributes);
    }
    if (this.capture) {
      frame.role = 'inner';
      return;
    }
    switch (name) {
      case 'header': {
        const srcLang = attributes['srclang'];
        if (srcLang !== undefined && srcLang !== '*all*') {
          this.headerSrcLang = canonicalLanguage(srcLang);
          if (this.headerSrcLang === null) this.warnLanguage(srcLang);
        }
        this.options.onHeader?.({ version: this.version, srcLang: this.headerSrcLang, attributes: { ...attributes } });
        return;
      }
      case 'tu':
        if (this.tu) return this.fail('a <tu> inside a <tu>');
        this.tu = {
          tuid: attributes['tuid'],
          srcLang: attributes['srclang'],
          line: this.parser.line,
          variants: [],
          props: [],
          notes: [],
          contextPrev: undefined,
          contextNext: undefined,
          chars: 0,
          stamps: stamps(attributes),
        };
        return;
      case 'tuv':
        if (!this.tu || this.tuv) return this.fail('a <tuv> outside a <tu>');
        this.tuv = {
          rawLang: attributes['xml:lang'] ?? attributes['lang'] ?? attributes['xml:Lang'],
          props: [],
          notes: [],
          variant: null,
          stamps: stamps(attributes),
        };
        return;
      case 'seg':
        if (!this.tuv) return this.fail('a <seg> outside a <tuv>');
        if (this.tuv.variant) return this.fail('a <tuv> with two <seg> elements');
        frame.role = 'seg';
        this.seg = new Segment();
        return;
      case 'prop':
      case 'note':
        if (this.tu) this.capture = { kind: name, type: attributes['type'] ?? '', parts: [], depth: this.stack.length };
        return;
      default:
        return;
    }
  }

  private openInSeg(seg: Segment, frame: Frame, name: string, attributes: Record<string, string>): void {
    const code = seg.code;
    if (code) {
      frame.role = 'inner';
      code.depth += 1;
      code.parts.push(`<${name}${serializeAttributes(attributes)}${frame.selfClosing ? '/>' : '>'}`);
      return;
    }
    if (name === 'hi' && !frame.selfClosing) {
      frame.role = 'hi';
      frame.tagId = seg.next++;
      seg.add(frame.tagId, 'open', `<hi${serializeAttributes(attributes, KEPT_ATTRIBUTES['hi'])}>`);
      return;
    }
    frame.role = 'code';
    const known = CODE_ELEMENTS.has(name) || name === 'hi';
    const element = name === 'ut' ? 'ph' : name;
    const keep = KEPT_ATTRIBUTES[element];
    seg.code = {
      element,
      attributes: serializeAttributes(attributes, known ? (keep ?? []) : undefined),
      pairKey: name === 'bpt' || name === 'ept' ? (attributes['i'] ?? '') : undefined,
      parts: [],
      depth: 1,
      known,
    };
  }

  protected onClose(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    const seg = this.seg;
    if (seg && frame.role !== 'seg') return this.closeInSeg(seg, frame);
    if (this.capture && frame.role === 'inner') return;
    switch (frame.name) {
      case 'seg':
        if (seg && this.tuv) {
          this.seg = null;
          const lang = this.tuv.rawLang;
          this.tuv.variant = { lang: lang ?? '', text: seg.parts.join(''), tags: seg.tags };
        }
        return;
      case 'tuv':
        return this.closeTuv();
      case 'tu':
        return this.closeTu();
      case 'prop':
      case 'note':
        return this.closeCapture();
      default:
        return;
    }
  }

  private closeInSeg(seg: Segment, frame: Frame): void {
    const code = seg.code;
    if (frame.role === 'inner' && code) {
      code.depth -= 1;
      if (!frame.selfClosing) code.parts.push(`</${frame.name}>`);
      return;
    }
    if (frame.role === 'hi') {
      seg.add(frame.tagId, 'close', '</hi>');
      return;
    }
    if (frame.role !== 'code' || !code) return;
    seg.code = null;
    const content = code.parts.join('');
    const original = code.known
      ? content === ''
        ? `<${code.element}${code.attributes}/>`
        : `<${code.element}${code.attributes}>${content}</${code.element}>`
      : frame.selfClosing
        ? `<${code.element}${code.attributes}/>`
        : `<${code.element}${code.attributes}>${content}</${code.element}>`;
    if (code.element === 'bpt') {
      const id = seg.next++;
      seg.openPairs.set(code.pairKey ?? '', id);
      seg.add(id, 'open', original);
    } else if (code.element === 'ept') {
      const id = seg.openPairs.get(code.pairKey ?? '');
      if (id !== undefined) {
        seg.openPairs.delete(code.pairKey ?? '');
        seg.add(id, 'close', original);
      } else seg.add(seg.next++, 'standalone', original);
    } else seg.add(seg.next++, 'standalone', original);
  }

  private warnLanguage(raw: string): void {
    if (this.warnedLanguages.has(raw)) return;
    if (this.warnedLanguages.size < 1000) this.warnedLanguages.add(raw);
    this.warn(`unknown or invalid language code "${raw}": its variants are skipped`);
  }

  private closeTuv(): void {
    const tuv = this.tuv;
    const tu = this.tu;
    this.tuv = null;
    if (!tuv || !tu) return;
    if (!tuv.variant) return this.warn('a <tuv> without a <seg> is skipped');
    if (tuv.rawLang === undefined) return this.warn('a <tuv> without a language is skipped');
    const lang = canonicalLanguage(tuv.rawLang);
    if (lang === null) return this.warnLanguage(tuv.rawLang);
    const variant: TmxVariant = { ...tuv.variant, lang, ...tuv.stamps };
    if (tuv.props.length) variant.props = tuv.props;
    if (tuv.notes.length) variant.notes = tuv.notes;
    tu.variants.push(variant);
  }

  private closeCapture(): void {
    const capture = this.capture;
    if (!capture || capture.depth !== this.stack.length + 1) return;
    this.capture = null;
    const value = capture.parts.join('');
    const target = this.tuv ?? this.tu;
    if (!target) return;
    if (capture.kind === 'note') target.notes.push(value);
    else if (target === this.tu && capture.type === 'x-context-prev') this.tu.contextPrev = value;
    else if (target === this.tu && capture.type === 'x-context-next') this.tu.contextNext = value;
    else target.props.push({ type: capture.type, value });
  }

  private closeTu(): void {
    const tu = this.tu;
    this.tu = null;
    if (!tu) return;
    if (tu.variants.length === 0) return;
    let sourceLang: string | null = null;
    if (tu.srcLang !== undefined && tu.srcLang !== '*all*') {
      sourceLang = canonicalLanguage(tu.srcLang);
      if (sourceLang === null) {
        this.warnLanguage(tu.srcLang);
        return;
      }
    } else sourceLang = this.headerSrcLang;
    sourceLang ??= tu.variants[0]!.lang;
    if (!tu.variants.some((variant) => variant.lang === sourceLang)) {
      this.warn(
        `a <tu>${tu.tuid ? ` (tuid "${tu.tuid}")` : ''} at line ${tu.line} has no variant in its source language ${sourceLang}: skipped`,
      );
      return;
    }
    const unit: TmxUnit = { sourceLang, variants: tu.variants, ...tu.stamps };
    if (tu.tuid !== undefined) unit.tuid = tu.tuid;
    if (tu.contextPrev !== undefined) unit.contextPrev = tu.contextPrev;
    if (tu.contextNext !== undefined) unit.contextNext = tu.contextNext;
    if (tu.props.length) unit.props = tu.props;
    if (tu.notes.length) unit.notes = tu.notes;
    this.units.push(unit);
  }
}

/**
 * Reads a TMX file as batches of units (at most `batchSize` each, one or more per chunk of the
 * file). Warnings go to `options.warnings`; a malformed file rejects with FormatError.
 */
export async function* readTmx(input: Readable, options: TmxReadOptions = {}): AsyncGenerator<TmxUnit[]> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  const scanner = new TmxScanner(options);
  function* drain(): Generator<TmxUnit[]> {
    while (scanner.units.length > 0) yield scanner.units.splice(0, batchSize);
  }
  for await (const chunk of chunks) {
    scanner.push(chunk);
    yield* drain();
  }
  scanner.end();
  yield* drain();
}

// ---------------------------------------------------------------------------------------------
// Writer

export interface TmxWriteHeader {
  /** The header's source language (`*all*` allowed). */
  srcLang: string;
  creationTool?: string;
  creationToolVersion?: string;
  segType?: 'block' | 'paragraph' | 'sentence' | 'phrase';
  oTmf?: string;
  adminLang?: string;
  dataType?: string;
  creationDate?: Date | string;
  creationId?: string;
  props?: TmxProp[];
  notes?: string[];
}

function checkedText(text: string, what: string): string {
  if (hasNonXmlCharacter(text)) throw new FormatError(`${what} contains a character XML cannot hold`);
  return escapeXmlText(text);
}

function checkedAttribute(value: string, what: string): string {
  if (hasNonXmlCharacter(value)) throw new FormatError(`${what} contains a character XML cannot hold`);
  return escapeXmlAttribute(value);
}

/** A date as TMX writes it (`YYYYMMDDThhmmssZ`); a value already in that form is kept. */
export function tmxDate(value: Date | string): string | null {
  if (typeof value === 'string') {
    if (/^\d{8}T\d{6}Z$/.test(value)) return value;
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime())) return null;
    value = parsed;
  }
  if (Number.isNaN(value.getTime())) return null;
  return value
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

const ORIGINAL = /^<(bpt|ept|ph|it|hi)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/>|>([\s\S]*)<\/\1>|>)$/;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** The markup a TMX code element's content may hold, at a `<` (sticky): `<sub>` and the inline elements a `<sub>` holds. */
const CONTENT_TAG = /<(\/?)(sub|bpt|ept|it|ph|hi|ut)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
/** A reference XML knows without a DTD, at a `&` (sticky). */
const REFERENCE = /&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/y;

/** Whether `content` is text (references only of the predefined kinds) and well-nested `<sub>`/inline elements. */
function wellFormedContent(content: string): boolean {
  if (hasNonXmlCharacter(content)) return false;
  const stack: string[] = [];
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 0x26 /* & */) {
      REFERENCE.lastIndex = i;
      if (!REFERENCE.test(content)) return false;
      i = REFERENCE.lastIndex - 1;
    } else if (c === 0x3c /* < */) {
      CONTENT_TAG.lastIndex = i;
      const match = CONTENT_TAG.exec(content);
      if (!match) return false;
      const [, closing, name, attributes, selfClosing] = match;
      if (closing) {
        if (attributes || selfClosing || stack.pop() !== name) return false;
      } else if (!selfClosing) stack.push(name!);
      if (attributes && !wellFormedAttributes(attributes)) return false;
      i = CONTENT_TAG.lastIndex - 1;
    }
  }
  return stack.length === 0;
}

/** Attribute values hold no `<` (the patterns exclude it) and only predefined references. */
function wellFormedAttributes(attributes: string): boolean {
  for (let at = attributes.indexOf('&'); at >= 0; at = attributes.indexOf('&', at + 1)) {
    REFERENCE.lastIndex = at;
    if (!REFERENCE.test(attributes)) return false;
  }
  return true;
}

interface ParsedOriginal {
  element: string;
  attributes: string;
  content: string;
  hasClose: boolean;
}

function parseOriginal(original: string): ParsedOriginal | null {
  if (original === '</hi>') return { element: '/hi', attributes: '', content: '', hasClose: false };
  const match = ORIGINAL.exec(original);
  if (!match) return null;
  const element = match[1]!;
  const ending = match[3]!;
  const content = match[4] ?? '';
  if (element === 'hi' ? ending !== '>' : ending === '>') return null;
  if (!wellFormedContent(content) || !wellFormedAttributes(match[2] ?? '')) return null;
  const keep = KEPT_ATTRIBUTES[element]!;
  let attributes = '';
  for (const attribute of (match[2] ?? '').matchAll(ATTRIBUTE)) {
    const name = attribute[1]!;
    if (keep.includes(name)) attributes += ` ${name}="${attribute[2] ?? (attribute[3] ?? '').replace(/"/g, '&quot;')}"`;
  }
  return { element, attributes, content, hasClose: ending !== '/>' };
}

function codeElement(name: string, attributes: string, content: string): string {
  return content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;
}

/** A variant's segment content: text escaped, tags as TMX inline elements with `i`/`x` from their numbers. */
export function segmentXml(text: string, tags: readonly InlineTag[], what = 'a segment'): string {
  const pieces = splitTokens(text, tags);
  // Which pairs are complete (open before close), and which highlights nest properly.
  const openAt = new Map<number, number>();
  const closed = new Set<number>();
  const hiOk = new Set<number>();
  const hiStack: number[] = [];
  /** Where each open highlight is in hiStack (so a misnested close truncates without a search). */
  const hiAt = new Map<number, number>();
  /** Highlights whose open or close token occurs twice: written as `<it>` (a `<hi>` would not balance). */
  const hiRepeated = new Set<number>();
  const hiSeen = new Set<string>();
  const parsed: (ParsedOriginal | null)[] = pieces.map((piece) => ('tag' in piece ? parseOriginal(piece.tag.original) : null));
  pieces.forEach((piece, index) => {
    if (!('tag' in piece)) return;
    const { tag } = piece;
    const p = parsed[index];
    if (tag.kind === 'open') {
      if (!openAt.has(tag.id)) openAt.set(tag.id, index);
      if (p?.element === 'hi') {
        if (hiSeen.has(`o${tag.id}`)) hiRepeated.add(tag.id);
        hiSeen.add(`o${tag.id}`);
        hiAt.set(tag.id, hiStack.length);
        hiStack.push(tag.id);
      }
    } else if (tag.kind === 'close') {
      if (openAt.has(tag.id)) closed.add(tag.id);
      if (p?.element === '/hi') {
        if (hiSeen.has(`c${tag.id}`)) hiRepeated.add(tag.id);
        hiSeen.add(`c${tag.id}`);
        const at = hiAt.get(tag.id);
        if (at !== undefined && hiStack[at] === tag.id) {
          if (at === hiStack.length - 1) hiOk.add(tag.id);
          // Everything opened after it (misnested) is dropped from the stack: each entry is dropped once.
          for (let k = at; k < hiStack.length; k++) hiAt.delete(hiStack[k]!);
          hiStack.length = at;
        }
      }
    }
  });
  let out = '';
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index]!;
    if (!('tag' in piece)) {
      out += checkedText(piece.text, what);
      continue;
    }
    const { tag } = piece;
    const p = parsed[index] ?? null;
    const native = checkedText(tag.original, what);
    const paired = closed.has(tag.id);
    const n = tag.id;
    if (p?.element === 'hi' || p?.element === '/hi') {
      if (paired && hiOk.has(n) && !hiRepeated.has(n)) {
        out += p.element === 'hi' ? `<hi x="${n}"${p.attributes}>` : '</hi>';
        continue;
      }
      out += `<it pos="${tag.kind === 'close' ? 'end' : 'begin'}" x="${n}"/>`;
      continue;
    }
    const content = p ? p.content : native;
    if (tag.kind === 'open') {
      const type = p?.element === 'bpt' ? p.attributes : '';
      out += paired ? codeElement('bpt', ` i="${n}" x="${n}"${type}`, content) : codeElement('it', ` pos="begin" x="${n}"${type}`, content);
    } else if (tag.kind === 'close') {
      out += paired ? codeElement('ept', ` i="${n}"`, content) : codeElement('it', ` pos="end" x="${n}"`, content);
    } else if (p?.element === 'it') {
      const pos = /\spos="(begin|end)"/.exec(p.attributes)?.[1] ?? 'begin';
      const type = /\stype="[^"]*"/.exec(p.attributes)?.[0] ?? '';
      out += codeElement('it', ` pos="${pos}" x="${n}"${type}`, content);
    } else {
      out += codeElement('ph', ` x="${n}"${p?.element === 'ph' ? p.attributes : ''}`, content);
    }
  }
  return out;
}

function stampAttributes(source: TmxStamps, what: string): string {
  let out = '';
  const date = (name: string, value: string | undefined) => {
    if (value === undefined) return;
    const formatted = tmxDate(value);
    if (formatted !== null) out += ` ${name}="${formatted}"`;
  };
  date('creationdate', source.creationDate);
  if (source.creationId !== undefined) out += ` creationid="${checkedAttribute(source.creationId, what)}"`;
  date('changedate', source.changeDate);
  if (source.changeId !== undefined) out += ` changeid="${checkedAttribute(source.changeId, what)}"`;
  return out;
}

function propsAndNotes(props: readonly TmxProp[] | undefined, notes: readonly string[] | undefined, indent: string, what: string): string {
  let out = '';
  for (const note of notes ?? []) out += `${indent}<note>${checkedText(note, what)}</note>\n`;
  for (const prop of props ?? []) {
    out += `${indent}<prop type="${checkedAttribute(prop.type, what)}">${checkedText(prop.value, what)}</prop>\n`;
  }
  return out;
}

function languageOf(code: string, what: string): string {
  const lang = canonicalLanguage(code);
  if (lang === null) throw new FormatError(`${what}: "${code}" is not a known language code`);
  return lang;
}

function unitXml(unit: TmxUnit, index: number): string {
  const what = `unit ${unit.tuid ?? index + 1}`;
  const sourceLang = languageOf(unit.sourceLang, what);
  if (unit.variants.length === 0) throw new FormatError(`${what} has no variants`);
  let out = '    <tu';
  if (unit.tuid !== undefined) out += ` tuid="${checkedAttribute(unit.tuid, what)}"`;
  out += ` srclang="${sourceLang}"${stampAttributes(unit, what)}>\n`;
  const props: TmxProp[] = [];
  if (unit.contextPrev !== undefined) props.push({ type: 'x-context-prev', value: unit.contextPrev });
  if (unit.contextNext !== undefined) props.push({ type: 'x-context-next', value: unit.contextNext });
  if (unit.props) props.push(...unit.props);
  out += propsAndNotes(props, unit.notes, '      ', what);
  for (const variant of unit.variants) {
    const lang = languageOf(variant.lang, what);
    out += `      <tuv xml:lang="${lang}"${stampAttributes(variant, what)}>\n`;
    out += propsAndNotes(variant.props, variant.notes, '        ', what);
    out += `        <seg>${segmentXml(variant.text, variant.tags, `${what} (${lang})`)}</seg>\n      </tuv>\n`;
  }
  return `${out}    </tu>\n`;
}

function headerXml(header: TmxWriteHeader): string {
  const what = 'the TMX header';
  const srcLang = header.srcLang === '*all*' ? '*all*' : languageOf(header.srcLang, what);
  const attr = (value: string) => checkedAttribute(value, what);
  let out =
    `  <header creationtool="${attr(header.creationTool ?? 'OpenTMS')}" creationtoolversion="${attr(header.creationToolVersion ?? '1.0')}"` +
    ` segtype="${header.segType ?? 'sentence'}" o-tmf="${attr(header.oTmf ?? 'OpenTMS')}"` +
    ` adminlang="${languageOf(header.adminLang ?? 'en', what)}" srclang="${srcLang}" datatype="${attr(header.dataType ?? 'plaintext')}"`;
  const created = header.creationDate === undefined ? null : tmxDate(header.creationDate);
  if (created !== null) out += ` creationdate="${created}"`;
  if (header.creationId !== undefined) out += ` creationid="${attr(header.creationId)}"`;
  if (!header.props?.length && !header.notes?.length) return `${out}/>\n`;
  return `${out}>\n${propsAndNotes(header.props, header.notes, '    ', what)}  </header>\n`;
}

const FLUSH_CHARS = 64 * 1024;

/**
 * Writes units (or batches of units) as a TMX 1.4 document in UTF-8, streaming with backpressure;
 * ends `output`. Rejects with FormatError for something TMX cannot hold (an unknown language,
 * a character XML forbids), leaving `output` destroyed.
 */
export async function writeTmx(
  units: AsyncIterable<TmxUnit | TmxUnit[]> | Iterable<TmxUnit | TmxUnit[]>,
  output: Writable,
  header: TmxWriteHeader,
): Promise<void> {
  async function* document(): AsyncGenerator<Buffer> {
    let buffer = `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n${headerXml(header)}  <body>\n`;
    let index = 0;
    for await (const item of units) {
      const batch = Array.isArray(item) ? item : [item];
      for (const unit of batch) {
        buffer += unitXml(unit, index++);
        if (buffer.length >= FLUSH_CHARS) {
          yield Buffer.from(buffer, 'utf8');
          buffer = '';
        }
      }
    }
    yield Buffer.from(`${buffer}  </body>\n</tmx>\n`, 'utf8');
  }
  await pipeline(document(), output);
}

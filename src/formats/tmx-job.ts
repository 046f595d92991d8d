import type { Readable, Writable } from 'node:stream';
import { escapeXmlAttribute } from './xml.js';
import type { TextEncoding } from './encoding.js';
import { splitTokens } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, InlineTagKind, TextUnit, UnitTranslation } from './types.js';
import {
  assertWellFormed,
  chooseXmlEncoding,
  Content,
  isXmlSpace,
  RawXmlScanner,
  rewriteXml,
  scanBatches,
  TagNumbering,
  xmlEscaper,
} from './xliff-stream.js';
import type { RawEdit, Tag } from './xliff-stream.js';

/**
 * A TMX file as a job file (`.tmx`): each `<tu>` is a unit whose source is the `<tuv>` of the
 * source language and whose target is the `<tuv>` of the target language, read and written back
 * byte-faithfully on the streaming scanner of xliff-stream.ts (one `<tu>` held at a time). The
 * translation-memory import (tmx.ts) is a different reader: it canonicalizes the markup, which
 * write-back into the same file must not do (docs/formats/xliff2-and-tmx.md).
 */

/** A `<tu>` larger than this is refused: units are held in memory whole. */
export const MAX_TMX_TU_CHARS = 10_000_000;

/** Normalized language code: lower case, `_` as `-`, trimmed. */
function normalizedLanguage(code: string): string {
  return code.trim().replace(/_/g, '-').toLowerCase();
}

/**
 * The index of the variant whose language is `wanted`: the same code (case and `_`/`-` aside),
 * else one that is a prefix of the other at a subtag boundary (`de` and `de-DE`), else, when
 * `samePrimary`, one with the same primary language (`en-GB` for `en-US`). -1 when none.
 */
export function matchLanguage(languages: readonly string[], wanted: string, samePrimary: boolean): number {
  const want = normalizedLanguage(wanted);
  const normalized = languages.map(normalizedLanguage);
  const exact = normalized.indexOf(want);
  if (exact >= 0) return exact;
  const prefix = normalized.findIndex((lang) => lang.startsWith(`${want}-`) || want.startsWith(`${lang}-`));
  if (prefix >= 0 || !samePrimary) return prefix;
  const primary = want.split('-')[0];
  return normalized.findIndex((lang) => lang.split('-')[0] === primary);
}

/** A piece of a `<seg>` as read: text, or a tag not numbered yet (that needs to know which variant is the source). */
type SegPiece =
  | { text: string }
  | {
      /** Numbering key: element and its `x` (else `i`). */
      kind: string;
      rest: string;
      original: string;
      role: 'open' | 'close' | 'standalone';
      /** `<bpt>`/`<ept>`: the `i` pairing them. */
      pair: string | undefined;
    };

interface Variant {
  lang: string;
  /** `xml:lang` or `lang`, as the file writes it. */
  langAttribute: string;
  start: number;
  end: number;
  /** White space before `<tuv`. */
  indent: string;
  /** White space before `<seg` and between `</seg>` and `</tuv>`, for a new variant shaped like this one. */
  beforeSeg: string;
  afterSeg: string;
  seg: { start: number; startTagEnd: number; contentEnd: number; end: number; selfClosing: boolean } | null;
  pieces: SegPiece[];
  notes: string[];
}

export interface ScannedTu {
  unit: TextUnit | null;
  start: number;
  end: number;
  source: Variant | null;
  target: Variant | null;
  /** After the last `</tuv>`: where a new target variant goes. */
  lastVariantEnd: number;
}

interface TuState {
  number: number;
  tuid: string | undefined;
  srcLang: string | undefined;
  start: number;
  depth: number;
  lastChildEnd: number;
  lastVariantEnd: number;
  variants: Variant[];
  notes: string[];
}

interface Frame {
  name: string;
  start: number;
  end: number;
  selfClosing: boolean;
  role: 'code' | 'hi' | 'skip' | undefined;
}

/** Reads TMX into `units` (one entry per `<tu>`). */
export class TmxJobScanner extends RawXmlScanner<ScannedTu> {
  private readonly stack: Frame[] = [];
  private headerSrcLang: string | undefined;
  private tu: TuState | null = null;
  private variant: Variant | null = null;
  private segDepth = -1;
  private codeStart = -1;
  private codeDepth = 0;
  private noteDepth = -1;
  private note: string[] = [];
  private tuCount = 0;
  private index = 0;

  constructor(private readonly options: FilterOptions = {}) {
    super(options.maxDepth, MAX_TMX_TU_CHARS);
  }

  protected heldUnitName(): string {
    return `the <tu> number ${this.tu?.number ?? ''}`;
  }

  protected onText(text: string): void {
    if (this.noteDepth >= 0) this.note.push(text);
    else if (this.variant && this.segDepth >= 0 && this.codeDepth === 0 && text !== '') this.variant.pieces.push({ text });
  }

  protected onOpen(tag: Tag, start: number, end: number, depth: number): void {
    const frame: Frame = { name: tag.name, start, end, selfClosing: tag.isSelfClosing, role: undefined };
    this.stack.push(frame);
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (tag.name !== 'tmx') this.fail(`not a TMX document: the root element is <${tag.name}>`);
      return;
    }
    const variant = this.variant;
    if (variant && this.segDepth >= 0) return this.openInSeg(variant, frame, tag);
    if (this.noteDepth >= 0) return;
    const tu = this.tu;
    switch (tag.name) {
      case 'header':
        if (depth === 2) this.headerSrcLang = tag.attributes['srclang'];
        return;
      case 'tu':
        if (tu) return this.fail('a <tu> inside a <tu>');
        this.tuCount += 1;
        this.holdFrom = start;
        this.tu = {
          number: this.tuCount,
          tuid: tag.attributes['tuid'],
          srcLang: tag.attributes['srclang'],
          start,
          depth,
          lastChildEnd: end,
          lastVariantEnd: -1,
          variants: [],
          notes: [],
        };
        return;
      case 'tuv': {
        if (!tu || depth !== tu.depth + 1) return this.fail('a <tuv> outside a <tu>');
        const langAttribute = tag.attributes['xml:lang'] !== undefined ? 'xml:lang' : 'lang';
        const before = this.raw.slice(tu.lastChildEnd, start);
        this.variant = {
          lang: tag.attributes[langAttribute] ?? '',
          langAttribute,
          start,
          end,
          indent: isXmlSpace(before) ? before : '',
          beforeSeg: '',
          afterSeg: '',
          seg: null,
          pieces: [],
          notes: [],
        };
        this.lastVariantChildEnd = end;
        return;
      }
      case 'seg':
        if (!variant || depth !== tu!.depth + 2) return;
        if (variant.seg) return this.fail('a <tuv> with two <seg> elements');
        {
          const before = this.raw.slice(this.lastVariantChildEnd, start);
          variant.beforeSeg = isXmlSpace(before) ? before : '';
        }
        variant.seg = { start, startTagEnd: end, contentEnd: end, end, selfClosing: tag.isSelfClosing };
        this.segDepth = depth;
        return;
      case 'note':
        if (tu) {
          this.noteDepth = depth;
          this.note = [];
        }
        return;
      default:
        return;
    }
  }

  /** End of the last element read inside the current `<tuv>` (its start tag when none). */
  private lastVariantChildEnd = 0;

  private openInSeg(variant: Variant, frame: Frame, tag: Tag): void {
    if (this.codeDepth > 0) {
      this.codeDepth += 1;
      frame.role = 'skip';
      return;
    }
    if (tag.name === 'hi' && !tag.isSelfClosing) {
      frame.role = 'hi';
      const x = tag.attributes['x'] ?? '';
      variant.pieces.push({ kind: 'hi', rest: x, original: this.raw.slice(frame.start, frame.end), role: 'open', pair: undefined });
      return;
    }
    frame.role = 'code';
    this.codeStart = frame.start;
    this.codeDepth = 1;
  }

  protected onClose(end: number, depth: number): void {
    const frame = this.stack.pop();
    if (!frame) return;
    const variant = this.variant;
    if (variant && this.segDepth >= 0 && depth > this.segDepth) return this.closeInSeg(variant, frame, end);
    if (this.noteDepth >= 0) {
      if (depth === this.noteDepth) {
        this.noteDepth = -1;
        const text = this.note.join('');
        if (this.options.importNotes !== false) (variant ?? this.tu)?.notes.push(text);
        this.lastVariantChildEnd = end;
        if (this.tu && !variant) this.tu.lastChildEnd = end;
      }
      return;
    }
    const tu = this.tu;
    if (!tu) return;
    if (variant && depth === this.segDepth) {
      this.segDepth = -1;
      if (variant.seg) {
        variant.seg.end = end;
        variant.seg.contentEnd = frame.selfClosing ? end : this.markupStart(end);
        if (frame.selfClosing) variant.seg.startTagEnd = end;
      }
      this.lastVariantChildEnd = end;
      return;
    }
    if (variant && depth === tu.depth + 1) {
      this.variant = null;
      variant.end = end;
      const after = variant.seg ? this.raw.slice(variant.seg.end, this.markupStart(end)) : '';
      variant.afterSeg = isXmlSpace(after) ? after : '';
      tu.variants.push(variant);
      tu.lastChildEnd = end;
      tu.lastVariantEnd = end;
      return;
    }
    if (variant && depth === tu.depth + 2) {
      this.lastVariantChildEnd = end;
      return;
    }
    if (depth === tu.depth + 1) {
      tu.lastChildEnd = end;
      return;
    }
    if (depth === tu.depth) this.finishTu(tu, end);
  }

  private closeInSeg(variant: Variant, frame: Frame, end: number): void {
    if (frame.role === 'skip') {
      this.codeDepth -= 1;
      return;
    }
    if (frame.role === 'hi') {
      variant.pieces.push({ kind: 'hi', rest: '', original: this.raw.slice(this.markupStart(end), end), role: 'close', pair: undefined });
      return;
    }
    if (frame.role !== 'code') return;
    this.codeDepth = 0;
    const original = this.raw.slice(this.codeStart, end);
    const name = frame.name;
    const attributes = this.codeAttributes(original);
    const x = attributes.x;
    if (name === 'bpt' || name === 'ept') {
      variant.pieces.push({
        kind: name === 'bpt' ? 'bpt' : 'ept',
        rest: x ?? attributes.i ?? '',
        original,
        role: name === 'bpt' ? 'open' : 'close',
        pair: attributes.i ?? '',
      });
    } else {
      variant.pieces.push({ kind: name, rest: x ?? '', original, role: 'standalone', pair: undefined });
    }
  }

  /** The `i` and `x` attributes of a code element's raw markup (read again from the start tag saxes already checked). */
  private codeAttributes(original: string): { i: string | undefined; x: string | undefined } {
    const tagEnd = original.indexOf('>');
    const startTag = tagEnd < 0 ? original : original.slice(0, tagEnd);
    const i = /\si\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(startTag);
    const x = /\sx\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(startTag);
    return { i: i ? (i[1] ?? i[2]) : undefined, x: x ? (x[1] ?? x[2]) : undefined };
  }

  private finishTu(tu: TuState, end: number): void {
    this.releaseHold(end);
    this.tu = null;
    const languages = tu.variants.map((variant) => variant.lang);
    const wanted =
      this.options.sourceLanguage ??
      (tu.srcLang && tu.srcLang !== '*all*' ? tu.srcLang : undefined) ??
      (this.headerSrcLang && this.headerSrcLang !== '*all*' ? this.headerSrcLang : undefined);
    let sourceIndex = wanted === undefined ? (languages.length > 0 ? 0 : -1) : matchLanguage(languages, wanted, true);
    if (sourceIndex >= 0 && !tu.variants[sourceIndex]!.seg) sourceIndex = -1;
    const source = sourceIndex >= 0 ? tu.variants[sourceIndex]! : null;
    let target: Variant | null = null;
    if (source && this.options.targetLanguage) {
      const others = tu.variants.filter((variant) => variant !== source);
      const targetIndex = matchLanguage(
        others.map((variant) => variant.lang),
        this.options.targetLanguage,
        false,
      );
      target = targetIndex >= 0 ? others[targetIndex]! : null;
    }
    let unit: TextUnit | null = null;
    if (source) {
      const numbering = new TagNumbering();
      const sourceContent = contentOf(source.pieces, numbering, false);
      const targetContent = target?.seg ? contentOf(target.pieces, numbering, true) : null;
      let tags: InlineTag[] = sourceContent.tags;
      if (targetContent && targetContent.tags.length > 0) {
        const displays = new Set(tags.map((tag) => tag.display));
        tags = [...tags, ...targetContent.tags.filter((tag) => !displays.has(tag.display))];
      }
      const notes = [...tu.notes, ...source.notes];
      unit = {
        index: this.index++,
        key: tu.tuid ?? null,
        locator: String(tu.number),
        source: sourceContent.text,
        tags,
        target: targetContent ? targetContent.text : null,
        translatable: true,
        note: notes.length > 0 ? notes.join('\n') : null,
      };
    }
    this.units.push({ unit, start: tu.start, end, source, target, lastVariantEnd: tu.lastVariantEnd });
  }
}

/** A `<seg>`'s pieces numbered: pairs (`<bpt>`/`<ept>` by `i`, `<hi>`) whose other half is missing are standalone. */
function contentOf(pieces: readonly SegPiece[], numbering: TagNumbering, isTarget: boolean): Content {
  const content = new Content(isTarget);
  // Which bpt pieces have their ept later on (and which ept their bpt before): one pass.
  const roles: InlineTagKind[] = pieces.map((piece) => ('role' in piece ? piece.role : 'standalone'));
  const openBpt = new Map<string, number>();
  pieces.forEach((piece, at) => {
    if (!('role' in piece)) return;
    if (piece.kind === 'bpt') {
      roles[at] = 'standalone';
      openBpt.set(piece.pair ?? '', at);
    } else if (piece.kind === 'ept') {
      const opener = openBpt.get(piece.pair ?? '');
      if (opener !== undefined) {
        openBpt.delete(piece.pair ?? '');
        roles[opener] = 'open';
        roles[at] = 'close';
      } else roles[at] = 'standalone';
    }
  });
  const pairNumbers = new Map<string, number>();
  const hiNumbers: number[] = [];
  pieces.forEach((piece, at) => {
    if (!('role' in piece)) {
      content.append(piece.text);
      return;
    }
    const role = roles[at]!;
    if (piece.kind === 'hi') {
      if (piece.role === 'open') {
        const id = numbering.number(content, 'hi', piece.rest);
        hiNumbers.push(id);
        content.add(id, 'open', piece.original);
      } else content.add(hiNumbers.pop() ?? numbering.number(content, 'hi-end', ''), 'close', piece.original);
      return;
    }
    if (role === 'close') {
      content.add(pairNumbers.get(piece.pair ?? '') ?? numbering.number(content, piece.kind, piece.rest), 'close', piece.original);
      return;
    }
    const id = numbering.number(content, piece.kind, piece.rest);
    if (role === 'open') pairNumbers.set(piece.pair ?? '', id);
    content.add(id, role, piece.original);
  });
  return content;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  yield* scanBatches(input, new TmxJobScanner(options), (scanned) => (scanned.unit ? [scanned.unit] : []));
}

function translationBody(unit: TextUnit, translation: UnitTranslation, enc: TextEncoding): string {
  const escape = xmlEscaper(enc.maxCodePoint, `the translation of unit ${unit.locator}`);
  if (unit.tags.length === 0) return escape(translation.text);
  let body = '';
  const opened = new Set<number>();
  for (const piece of splitTokens(translation.text, unit.tags)) {
    if (!('tag' in piece)) {
      body += escape(piece.text);
      continue;
    }
    const { tag } = piece;
    // A <bpt>/<ept> pair is two whole elements: XML would not notice the end before the start.
    if (tag.kind === 'open') opened.add(tag.id);
    else if (tag.kind === 'close' && !opened.has(tag.id)) {
      throw new FormatError(`the translation of unit ${unit.locator} has misplaced or unbalanced tags`);
    }
    body += tag.original;
  }
  // Standalone tags are whole elements: only pairs can be misnested.
  if (opened.size > 0) assertWellFormed(body, unit.locator);
  return body;
}

function edits(scanned: ScannedTu, translation: UnitTranslation, enc: TextEncoding, options: FilterOptions): RawEdit[] {
  const { unit, source, target } = scanned;
  if (!unit || !source) return [];
  const body = translationBody(unit, translation, enc);
  if (target?.seg) {
    const seg = target.seg;
    if (seg.selfClosing) return [{ start: seg.start, end: seg.end, text: `<seg>${body}</seg>` }];
    return [{ start: seg.startTagEnd, end: seg.contentEnd, text: body }];
  }
  const lang = options.targetLanguage;
  if (!lang)
    throw new FormatError(`unit ${unit.locator} has no variant in the target language, and no target language was given to add one`);
  if (target) throw new FormatError(`unit ${unit.locator}: the <tuv> of the target language has no <seg>`);
  const variant =
    `${source.indent}<tuv ${source.langAttribute}="${escapeXmlAttribute(lang)}">` +
    `${source.beforeSeg}<seg>${body}</seg>${source.afterSeg}</tuv>`;
  return [{ start: scanned.lastVariantEnd, end: scanned.lastVariantEnd, text: variant }];
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const scanner = new TmxJobScanner(options);
  await rewriteXml(original, output, scanner, (enc) => {
    const out: RawEdit[] = [];
    for (const scanned of scanner.units.splice(0)) {
      const translation = scanned.unit ? translations.get(scanned.unit.locator) : undefined;
      if (translation) out.push(...edits(scanned, translation, enc, options));
    }
    return out;
  });
}

function detect(firstBytes: Buffer): boolean {
  let head: string;
  try {
    const enc = chooseXmlEncoding(firstBytes);
    const body = firstBytes.subarray(enc.bom.length);
    head = enc.name === 'latin1' ? body.toString('latin1') : new TextDecoder(enc.name).decode(body);
  } catch {
    return false;
  }
  return /<tmx\s[^>]*\bversion\s*=\s*["'][0-9.]+[a-z]?["']/.test(head);
}

export const tmxJobFilter: FormatFilter = {
  name: 'tmx-job',
  extensions: ['tmx'],
  detect,
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

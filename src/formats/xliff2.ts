import type { Readable, Writable } from 'node:stream';
import { escapeXmlText, hasNonXmlCharacter } from './xml.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, splitTokens } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import {
  assertWellFormed,
  chooseXmlEncoding,
  Content,
  isXmlSpace,
  RawXmlScanner,
  rewriteXml,
  scanBatches,
  setRawAttributes,
  TagNumbering,
} from './xliff-stream.js';
import type { RawEdit, Tag } from './xliff-stream.js';

/**
 * XLIFF 2.0 and 2.1 (`urn:oasis:names:tc:xliff:document:2.0`), streaming on saxes like XLIFF 1.2
 * (xliff-stream.ts): one `<unit>` at a time is held, as raw text, so that write-back changes only
 * the targets and the segments' `state` and copies every other byte. Each `<segment>` is one
 * TextUnit (docs/formats/xliff2-and-tmx.md).
 */

const XLIFF2_NS = 'urn:oasis:names:tc:xliff:document:2.0';
/** One `<unit>` larger than this is refused: units are held in memory whole. */
export const MAX_XLIFF2_UNIT_CHARS = 10_000_000;

/** The `xlf2` section of Phrase's import settings (Xlf2SettingsDto), the fields this filter implements. */
export interface Xlf2Settings {
  importNotes: boolean;
  respectTranslateAttr: boolean;
  copySourceToTargetIfNotImported: boolean;
  skipImportRules: AttributeRule[];
  importAsConfirmedRules: AttributeRule[];
  importAsLockedRules: AttributeRule[];
  exportAttrsWhenConfirmedAndLocked: [string, string][];
  exportAttrsWhenConfirmedAndNotLocked: [string, string][];
  exportAttrsWhenNotConfirmedAndLocked: [string, string][];
  exportAttrsWhenNotConfirmedAndNotLocked: [string, string][];
  tagRegexp: string | undefined;
}

/** `name=value` (value `*`: any value) or a bare `name` (the attribute is present). */
export interface AttributeRule {
  name: string;
  value: string | null;
}

/** Splits a rules setting (`state=final, translate=no`; commas, semicolons or line breaks between rules). */
function rulePairs(text: unknown): [string, string | null][] {
  if (typeof text !== 'string') return [];
  const pairs: [string, string | null][] = [];
  for (const part of text.split(/[,;\n]/)) {
    const rule = part.trim();
    if (rule === '') continue;
    const eq = rule.indexOf('=');
    const name = (eq < 0 ? rule : rule.slice(0, eq)).trim();
    let value = eq < 0 ? null : rule.slice(eq + 1).trim();
    if (value !== null && value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    if (/^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/.test(name)) pairs.push([name, value]);
  }
  return pairs;
}

function rules(text: unknown): AttributeRule[] {
  return rulePairs(text).map(([name, value]) => ({ name, value }));
}

/** Attributes to write on a segment: `name=value` pairs of unprefixed attribute names (the segment allows no others). */
function exportAttributes(text: unknown, fallback: string): [string, string][] {
  const pairs = rulePairs(typeof text === 'string' ? text : fallback);
  return pairs.filter((pair): pair is [string, string] => pair[1] !== null && !pair[0].includes(':'));
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** The settings from `options.formatSettings` (the `xlf2` section), Phrase's defaults for what is absent or mistyped. */
export function xlf2Settings(options: FilterOptions = {}): Xlf2Settings {
  const s = options.formatSettings ?? {};
  const tagRegexp = typeof s['tagRegexp'] === 'string' && s['tagRegexp'] !== '' ? s['tagRegexp'] : options.tagRegexp;
  return {
    importNotes: bool(s['importNotes'], options.importNotes ?? true),
    respectTranslateAttr: bool(s['respectTranslateAttr'], true),
    // Phrase's default is true; here only an explicit true copies (an untouched download stays byte for byte the upload).
    copySourceToTargetIfNotImported: s['copySourceToTargetIfNotImported'] === true,
    skipImportRules: rules(s['skipImportRules']),
    importAsConfirmedRules: rules(typeof s['importAsConfirmedRules'] === 'string' ? s['importAsConfirmedRules'] : 'state=final'),
    importAsLockedRules: rules(s['importAsLockedRules']),
    exportAttrsWhenConfirmedAndLocked: exportAttributes(s['exportAttrsWhenConfirmedAndLocked'], 'state=final'),
    exportAttrsWhenConfirmedAndNotLocked: exportAttributes(s['exportAttrsWhenConfirmedAndNotLocked'], 'state=final'),
    exportAttrsWhenNotConfirmedAndLocked: exportAttributes(s['exportAttrsWhenNotConfirmedAndLocked'], 'state=translated'),
    exportAttrsWhenNotConfirmedAndNotLocked: exportAttributes(s['exportAttrsWhenNotConfirmedAndNotLocked'], 'state=translated'),
    tagRegexp,
  };
}

function matchesRule(ruleList: readonly AttributeRule[], ...elements: Record<string, string>[]): boolean {
  for (const rule of ruleList) {
    for (const attributes of elements) {
      const value = attributes[rule.name];
      if (value === undefined) continue;
      if (rule.value === null || rule.value === '*' || rule.value === value) return true;
      break; // The innermost element that has the attribute decides.
    }
  }
  return false;
}

/** A locator part: `%` and `/` escaped, so that `/` only separates (ids are NMTOKENs, which hold neither). */
function locatorPart(id: string): string {
  return id.includes('%') || id.includes('/') ? id.replace(/%/g, '%25').replace(/\//g, '%2F') : id;
}

interface Frame {
  local: string;
  /** In the XLIFF 2 namespace. */
  xliff: boolean;
  translate: boolean;
  start: number;
  end: number;
  selfClosing: boolean;
  /** What closing this element means inside captured content. */
  role: 'code' | 'pair' | 'skip' | undefined;
  tagId: number | undefined;
}

/** The offsets of a `<target>` in the raw text. */
interface TargetRange {
  start: number;
  /** After its start tag. */
  startTagEnd: number;
  /** After its end tag. */
  end: number;
  selfClosing: boolean;
}

export interface ScannedSegment {
  unit: TextUnit;
  /** `<segment` … `>`: where its start tag lies (its attributes are set on write). */
  start: number;
  startTagEnd: number;
  /** After `</source>`: where a new target goes; the source's content lies in [sourceContentStart, sourceContentEnd). */
  sourceEnd: number;
  sourceContentStart: number;
  sourceContentEnd: number;
  /** White space before `<source>`, repeated before an inserted target. */
  indent: string;
  /** `target` with the source's prefix. */
  targetName: string;
  target: TargetRange | null;
}

interface ScannedUnit {
  start: number;
  end: number;
  segments: ScannedSegment[];
}

interface SegmentState {
  index: number;
  start: number;
  startTagEnd: number;
  depth: number;
  attributes: Record<string, string>;
  lastChildEnd: number;
  indent: string;
  targetName: string;
  numbering: TagNumbering;
  source: Content | null;
  target: Content | null;
  sourceEnd: number;
  sourceContentStart: number;
  sourceContentEnd: number;
  targetRange: TargetRange | null;
}

interface UnitState {
  id: string;
  key: string;
  locator: string;
  translatable: boolean;
  attributes: Record<string, string>;
  depth: number;
  start: number;
  notes: string[];
  segmentCount: number;
  segments: ScannedSegment[];
  segment: SegmentState | null;
}

interface Capture {
  kind: 'source' | 'target' | 'note';
  content: Content | null;
  depth: number;
  /** Opening codes (`<sc>`, `<sm>`) waiting for their end (`<ec>`, `<em>`), by `sc:id` / `sm:id`. */
  pending: Map<string, { tagIndex: number; partIndex: number; id: number }> | null;
  note: string[];
}

/** Inline elements whose start and end tags are a pair around translatable text. */
const PAIR_ELEMENTS = new Set(['pc', 'mrk']);
/** Inline elements that are one standalone tag (their whole markup). */
const STANDALONE_ELEMENTS = new Set(['ph', 'cp']);

/** Reads XLIFF 2 into `units` (one entry per `<unit>`, with its segments). */
export class Xliff2Scanner extends RawXmlScanner<ScannedUnit> {
  private readonly settings: Xlf2Settings;
  private readonly tagPattern: RegExp | null;
  private readonly maxTagRun: number;
  private readonly stack: Frame[] = [];
  private fileId = '';
  private readonly fileIds = new Set<string>();
  private unitIdsInFile = new Set<string>();
  private unit: UnitState | null = null;
  private capture: Capture | null = null;
  private index = 0;
  /** Where `trgLang="…"` would go on the root start tag (after its last attribute), when the root has none. */
  rootTagStart = -1;
  rootTagEnd = -1;
  rootHasTrgLang = false;

  constructor(options: FilterOptions = {}) {
    super(options.maxDepth, MAX_XLIFF2_UNIT_CHARS);
    this.settings = xlf2Settings(options);
    this.tagPattern = compileTagRegexp(this.settings.tagRegexp);
    this.maxTagRun = options.maxTagsPerSegment === undefined ? Infinity : 2 * options.maxTagsPerSegment;
  }

  protected heldUnitName(): string {
    return `unit "${this.unit?.id ?? ''}"`;
  }

  protected onText(text: string): void {
    const capture = this.capture;
    if (!capture) return;
    if (capture.kind === 'note') {
      capture.note.push(text);
      return;
    }
    const content = capture.content;
    if (!content || content.codeDepth > 0 || text === '') return;
    if (this.tagPattern) return this.textWithPattern(content, text, this.tagPattern);
    content.append(text);
    content.run = 0;
  }

  /** Text with every match of the tagRegexp setting as a standalone tag (its original: the match, escaped). */
  private textWithPattern(content: Content, text: string, pattern: RegExp): void {
    const segment = this.unit?.segment;
    if (!segment) return;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match[0] === '') continue;
      if (match.index > last) {
        content.append(text.slice(last, match.index));
        content.run = 0;
      }
      content.add(segment.numbering.number(content, '#regexp', match[0]), 'standalone', escapeXmlText(match[0]));
      last = match.index + match[0].length;
    }
    if (last < text.length) {
      content.append(text.slice(last));
      content.run = 0;
    }
  }

  protected onOpen(tag: Tag, start: number, end: number, depth: number): void {
    const parent = this.stack[this.stack.length - 1];
    const xliff = tag.uri === XLIFF2_NS;
    const frame: Frame = {
      local: tag.local,
      xliff,
      translate: parent?.translate ?? true,
      start,
      end,
      selfClosing: tag.isSelfClosing,
      role: undefined,
      tagId: undefined,
    };
    this.stack.push(frame);
    if (!this.sawRoot) return this.openRoot(tag, start, end);
    const capture = this.capture;
    if (capture) return this.openInCapture(capture, frame, tag);
    const unit = this.unit;
    if (!xliff) return;
    const translate = this.settings.respectTranslateAttr ? tag.attributes['translate'] : undefined;
    if (translate === 'no') frame.translate = false;
    else if (translate === 'yes') frame.translate = true;
    if (!unit) {
      if (tag.local === 'file') this.openFile(tag);
      else if (tag.local === 'unit') this.openUnit(tag, start, depth, frame.translate);
      return;
    }
    const segment = unit.segment;
    if (tag.local === 'segment' && depth === unit.depth + 1) {
      unit.segmentCount += 1;
      unit.segment = {
        index: unit.segmentCount,
        start,
        startTagEnd: end,
        depth,
        attributes: tag.attributes,
        lastChildEnd: end,
        indent: '',
        targetName: 'target',
        numbering: new TagNumbering(),
        source: null,
        target: null,
        sourceEnd: -1,
        sourceContentStart: -1,
        sourceContentEnd: -1,
        targetRange: null,
      };
    } else if (segment && depth === segment.depth + 1) {
      this.openSegmentChild(unit, segment, tag, start, end, depth);
    } else if (tag.local === 'note' && depth === unit.depth + 2 && this.stack[depth - 2]?.local === 'notes') {
      this.capture = { kind: 'note', content: null, depth, pending: null, note: [] };
    }
  }

  private openRoot(tag: Tag, start: number, end: number): void {
    this.sawRoot = true;
    if (tag.local !== 'xliff') return this.fail(`not an XLIFF document: the root element is <${tag.name}>`);
    const version = tag.attributes['version'] ?? '';
    if (tag.uri !== XLIFF2_NS || !/^2\.\d+$/.test(version)) {
      return this.fail(`only XLIFF 2.x is read here (version "${version}", namespace "${tag.uri}"); XLIFF 1.2 has a filter of its own`);
    }
    this.rootTagStart = start;
    this.rootTagEnd = end;
    this.rootHasTrgLang = tag.attributes['trgLang'] !== undefined;
  }

  private openFile(tag: Tag): void {
    const id = tag.attributes['id'];
    if (id === undefined || id === '') return this.fail('a <file> without an id');
    if (this.fileIds.has(id)) return this.fail(`file id "${id}" is used twice`);
    this.fileIds.add(id);
    this.fileId = id;
    this.unitIdsInFile = new Set();
  }

  private openUnit(tag: Tag, start: number, depth: number, translate: boolean): void {
    const id = tag.attributes['id'];
    if (id === undefined || id === '') return this.fail('a <unit> without an id');
    if (this.unitIdsInFile.has(id)) return this.fail(`unit id "${id}" is used twice in <file id="${this.fileId}">`);
    this.unitIdsInFile.add(id);
    this.holdFrom = start;
    this.unit = {
      id,
      key: tag.attributes['name'] || id,
      locator: `${locatorPart(this.fileId)}/${locatorPart(id)}`,
      translatable: translate,
      attributes: tag.attributes,
      depth,
      start,
      notes: [],
      segmentCount: 0,
      segments: [],
      segment: null,
    };
  }

  private openSegmentChild(unit: UnitState, segment: SegmentState, tag: Tag, start: number, end: number, depth: number): void {
    if (tag.local === 'source') {
      if (segment.source) return this.fail(`a segment of unit "${unit.id}" has two <source> elements`);
      const before = this.raw.slice(segment.lastChildEnd, start);
      segment.indent = isXmlSpace(before) ? before : '';
      segment.targetName = tag.prefix ? `${tag.prefix}:target` : 'target';
      segment.source = new Content(false);
      segment.sourceContentStart = end;
      this.capture = { kind: 'source', content: segment.source, depth, pending: null, note: [] };
    } else if (tag.local === 'target') {
      if (segment.target) return this.fail(`a segment of unit "${unit.id}" has two <target> elements`);
      if (!segment.source) return this.fail(`a segment of unit "${unit.id}" has a <target> before its <source>`);
      segment.target = new Content(true);
      segment.targetRange = { start, startTagEnd: end, end, selfClosing: tag.isSelfClosing };
      this.capture = { kind: 'target', content: segment.target, depth, pending: null, note: [] };
    }
  }

  private openInCapture(capture: Capture, frame: Frame, tag: Tag): void {
    const content = capture.content;
    const segment = this.unit?.segment;
    if (!content || !segment) {
      frame.role = 'skip';
      return;
    }
    if (content.codeDepth > 0) {
      content.codeDepth += 1;
      frame.role = 'skip';
      return;
    }
    const local = tag.local;
    const attributes = tag.attributes;
    const known = frame.xliff && (PAIR_ELEMENTS.has(local) || STANDALONE_ELEMENTS.has(local) || /^(?:sc|ec|sm|em)$/.test(local));
    const id = attributes['id'] ?? '';
    const protectedMarker = local === 'mrk' && this.settings.respectTranslateAttr && attributes['translate'] === 'no';
    if (known && PAIR_ELEMENTS.has(local) && !frame.selfClosing && !protectedMarker) {
      frame.role = 'pair';
      frame.tagId = segment.numbering.number(content, local, id);
      content.add(frame.tagId, 'open', this.raw.slice(frame.start, frame.end));
      this.checkTagRun(content);
      return;
    }
    if (known && frame.selfClosing && (local === 'sc' || local === 'sm' || local === 'ec' || local === 'em')) {
      frame.role = 'skip';
      const original = this.raw.slice(frame.start, frame.end);
      const isolated = attributes['isolated'] === 'yes';
      if (local === 'sc' || local === 'sm') {
        const number = segment.numbering.number(content, local, id);
        if (!isolated) {
          capture.pending ??= new Map();
          capture.pending.set(`${local}:${id}`, { tagIndex: content.tags.length, partIndex: content.partCount, id: number });
          content.add(number, 'open', original);
        } else content.add(number, 'standalone', original);
      } else {
        const startRef = attributes['startRef'];
        const opener = local === 'ec' ? 'sc' : 'sm';
        const pending = !isolated && startRef !== undefined ? capture.pending?.get(`${opener}:${startRef}`) : undefined;
        if (pending) {
          capture.pending!.delete(`${opener}:${startRef}`);
          content.add(pending.id, 'close', original);
        } else content.add(segment.numbering.number(content, local, id || (startRef ?? '')), 'standalone', original);
      }
      this.checkTagRun(content);
      return;
    }
    // <ph>, <cp>, a protected <mrk>, an empty pair, foreign elements: the whole element is one tag.
    frame.role = 'code';
    frame.tagId = known ? segment.numbering.number(content, local, id) : segment.numbering.number(content, '#foreign', `${tag.name}:${id}`);
    content.codeStart = frame.start;
    content.codeDepth = 1;
  }

  private checkTagRun(content: Content): void {
    const unit = this.unit;
    if (content.run <= this.maxTagRun || content.isTarget || !unit || !unit.translatable) return;
    const where = unit.key !== unit.id ? `unit ${unit.locator} ("${unit.key}")` : `unit ${unit.locator}`;
    this.fail(
      `${where} has ${content.run} inline tags in a row, more than twice the import's limit of ${this.maxTagRun / 2} tags per segment ` +
        '(a segment would hold at least half of them)',
    );
  }

  protected onClose(end: number, depth: number): void {
    const frame = this.stack.pop();
    const unit = this.unit;
    if (!frame || !unit) return;
    const capture = this.capture;
    if (capture && depth > capture.depth) return this.closeInCapture(capture, frame, end);
    const segment = unit.segment;
    if (capture && depth === capture.depth) {
      this.capture = null;
      if (capture.kind === 'note') {
        if (this.settings.importNotes) unit.notes.push(capture.note.join(''));
        return;
      }
      if (!segment) return;
      segment.lastChildEnd = end;
      this.demoteUnpaired(capture);
      if (capture.kind === 'source') {
        segment.sourceEnd = end;
        segment.sourceContentEnd = frame.selfClosing ? end : this.markupStart(end);
        if (frame.selfClosing) segment.sourceContentStart = end;
      } else if (segment.targetRange) segment.targetRange.end = end;
      return;
    }
    if (segment && depth === segment.depth) return this.finishSegment(unit, segment);
    if (segment && depth === segment.depth + 1) segment.lastChildEnd = end;
    if (depth === unit.depth) this.finishUnit(unit, end);
  }

  private closeInCapture(capture: Capture, frame: Frame, end: number): void {
    const content = capture.content;
    if (!content || frame.role === 'skip') {
      if (content && content.codeDepth > 0) content.codeDepth -= 1;
      return;
    }
    if (frame.role === 'pair' && frame.tagId !== undefined) {
      content.add(frame.tagId, 'close', this.raw.slice(this.markupStart(end), end));
    } else if (frame.role === 'code' && frame.tagId !== undefined) {
      content.codeDepth = 0;
      content.add(frame.tagId, 'standalone', this.raw.slice(content.codeStart, end));
    }
    this.checkTagRun(content);
  }

  /** `<sc>`/`<sm>` whose end is not in the same source or target (another segment's, or none): standalone. */
  private demoteUnpaired(capture: Capture): void {
    if (!capture.pending || !capture.content) return;
    for (const pending of capture.pending.values()) capture.content.demote(pending.tagIndex, pending.partIndex);
    capture.pending = null;
  }

  private finishSegment(unit: UnitState, segment: SegmentState): void {
    unit.segment = null;
    if (!segment.source) return this.fail(`a segment of unit "${unit.id}" has no <source>`);
    const sourceTags = segment.source.tags;
    let tags: InlineTag[] = sourceTags;
    if (segment.target && segment.target.tags.length > 0) {
      const sourceDisplays = new Set(sourceTags.map((tag) => tag.display));
      tags = [...sourceTags, ...segment.target.tags.filter((tag) => !sourceDisplays.has(tag.display))];
    }
    const settings = this.settings;
    const translatable = unit.translatable && !matchesRule(settings.skipImportRules, segment.attributes, unit.attributes);
    const textUnit: TextUnit = {
      index: this.index++,
      key: unit.key,
      locator: `${unit.locator}/${segment.index}`,
      source: segment.source.text,
      tags,
      target: segment.target ? segment.target.text : null,
      translatable,
      note: unit.notes.length > 0 ? unit.notes.join('\n') : null,
    };
    if (segment.target) textUnit.targetConfirmed = matchesRule(settings.importAsConfirmedRules, segment.attributes, unit.attributes);
    if (settings.importAsLockedRules.length > 0 && matchesRule(settings.importAsLockedRules, segment.attributes, unit.attributes)) {
      textUnit.locked = true;
    }
    unit.segments.push({
      unit: textUnit,
      start: segment.start,
      startTagEnd: segment.startTagEnd,
      sourceEnd: segment.sourceEnd,
      sourceContentStart: segment.sourceContentStart,
      sourceContentEnd: segment.sourceContentEnd,
      indent: segment.indent,
      targetName: segment.targetName,
      target: segment.targetRange,
    });
  }

  private finishUnit(unit: UnitState, end: number): void {
    this.releaseHold(end);
    this.unit = null;
    if (unit.segmentCount === 0) return this.fail(`unit "${unit.id}" has no <segment>`);
    this.units.push({ start: unit.start, end, segments: unit.segments });
  }
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  yield* scanBatches(input, new Xliff2Scanner(options), (scanned) => scanned.segments.map((segment) => segment.unit));
}

/**
 * Text for XLIFF 2 content: `&`, `<`, `>` escaped; a character XML cannot hold (most C0 controls)
 * as `<cp hex="…"/>`, as XLIFF 2 prescribes; one the file's encoding cannot hold as a reference.
 */
function xliff2Escaper(enc: TextEncoding, cpName: string): (text: string) => string {
  return (text) => {
    let out = escapeXmlText(text);
    if (hasNonXmlCharacter(out) || enc.maxCodePoint < 0x10ffff) {
      let escaped = '';
      for (const char of out) {
        const code = char.codePointAt(0) ?? 0;
        if (hasNonXmlCharacter(char)) escaped += `<${cpName} hex="${code.toString(16).toUpperCase().padStart(4, '0')}"/>`;
        else if (code > enc.maxCodePoint) escaped += `&#x${code.toString(16).toUpperCase()};`;
        else escaped += char;
      }
      out = escaped;
    }
    return out;
  };
}

/** The translation's content: text escaped, tags as their original markup; misplaced tags refused. */
function targetBody(segment: ScannedSegment, text: string, enc: TextEncoding): string {
  const { locator, tags } = segment.unit;
  const prefix = segment.targetName.includes(':') ? segment.targetName.slice(0, segment.targetName.indexOf(':') + 1) : '';
  const escape = xliff2Escaper(enc, `${prefix}cp`);
  if (tags.length === 0) return escape(text);
  let body = '';
  const opened = new Set<number>();
  for (const piece of splitTokens(text, tags)) {
    if (!('tag' in piece)) {
      body += escape(piece.text);
      continue;
    }
    const { tag } = piece;
    // <sc>/<ec> and <sm>/<em> are empty elements, so XML would not notice an end before its start.
    if (tag.kind === 'open') opened.add(tag.id);
    else if (tag.kind === 'close' && !opened.has(tag.id)) {
      throw new FormatError(`the translation of unit ${locator} has misplaced or unbalanced tags`);
    }
    body += tag.original;
  }
  // Standalone tags are whole elements: only pairs can be misnested.
  if (opened.size > 0) assertWellFormed(body, locator);
  return body;
}

function segmentEdits(
  scanned: ScannedSegment,
  body: string,
  stateAttributes: readonly [string, string][],
  raw: (s: number, e: number) => string,
): RawEdit[] {
  const edits: RawEdit[] = [];
  if (stateAttributes.length > 0) {
    const startTag = raw(scanned.start, scanned.startTagEnd);
    edits.push({ start: scanned.start, end: scanned.startTagEnd, text: setRawAttributes(startTag, stateAttributes) });
  }
  const target = scanned.target;
  if (!target) {
    edits.push({
      start: scanned.sourceEnd,
      end: scanned.sourceEnd,
      text: `${scanned.indent}<${scanned.targetName}>${body}</${scanned.targetName}>`,
    });
  } else if (target.selfClosing) {
    const startTag = raw(target.start, target.end).replace(/\s*\/>$/, '>');
    const name = /^<([^\s/>]+)/.exec(startTag)?.[1] ?? scanned.targetName;
    edits.push({ start: target.start, end: target.end, text: `${startTag}${body}</${name}>` });
  } else {
    const contentEnd = raw(target.startTagEnd, target.end).lastIndexOf('<') + target.startTagEnd;
    edits.push({ start: target.startTagEnd, end: contentEnd, text: body });
  }
  return edits;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const scanner = new Xliff2Scanner(options);
  const settings = xlf2Settings(options);
  // trgLang only when something is written: an empty map gives back the file byte for byte.
  let rootDone = !options.targetLanguage || translations.size === 0;
  const raw = (start: number, end: number) => scanner.raw.slice(start, end);
  await rewriteXml(original, output, scanner, (enc) => {
    const edits: RawEdit[] = [];
    if (!rootDone && scanner.rootTagEnd >= 0) {
      rootDone = true;
      if (!scanner.rootHasTrgLang) {
        const tag = raw(scanner.rootTagStart, scanner.rootTagEnd);
        edits.push({
          start: scanner.rootTagStart,
          end: scanner.rootTagEnd,
          text: setRawAttributes(tag, [['trgLang', options.targetLanguage!]]),
        });
      }
    }
    for (const unit of scanner.units.splice(0)) {
      for (const segment of unit.segments) {
        const translation = translations.get(segment.unit.locator);
        if (segment.unit.translatable) {
          if (!translation) continue;
          const body = targetBody(segment, translation.text, enc);
          const locked = segment.unit.locked === true;
          const attributes = translation.confirmed
            ? locked
              ? settings.exportAttrsWhenConfirmedAndLocked
              : settings.exportAttrsWhenConfirmedAndNotLocked
            : locked
              ? settings.exportAttrsWhenNotConfirmedAndLocked
              : settings.exportAttrsWhenNotConfirmedAndNotLocked;
          edits.push(...segmentEdits(segment, body, attributes, raw));
        } else if (settings.copySourceToTargetIfNotImported && !segment.target) {
          edits.push(...segmentEdits(segment, raw(segment.sourceContentStart, segment.sourceContentEnd), [], raw));
        }
      }
    }
    return edits;
  });
}

/** Whether the first bytes are XLIFF 2: an `<xliff>` root with version 2.x or the XLIFF 2 namespace. */
function detect(firstBytes: Buffer): boolean {
  let head: string;
  try {
    const enc = chooseXmlEncoding(firstBytes);
    const body = firstBytes.subarray(enc.bom.length);
    head = enc.name === 'latin1' ? body.toString('latin1') : new TextDecoder(enc.name).decode(body);
  } catch {
    return false;
  }
  return /<(?:[\w.-]+:)?xliff\b[^>]*\bversion\s*=\s*["']2\.\d+["']/.test(head) || head.includes(XLIFF2_NS);
}

export const xliff2Filter: FormatFilter = {
  name: 'xliff2',
  extensions: ['xlf', 'xliff'],
  detect,
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

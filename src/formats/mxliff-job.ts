import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { inlineTag } from './inline-tags.js';
import { MXLIFF_NAMESPACE } from './mxliff.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import { DEFAULT_MAX_XML_DEPTH, escapeXmlText, hasNonXmlCharacter, shapedSaxesParser } from './xml.js';

/**
 * MXLIFF as a job file (`.mxliff`, `.mxlf`; docs/formats/mxliff.md): a bilingual file from Phrase
 * (or from another OpenTMS) imported as the source of a new job. Each `<trans-unit>` is a unit
 * whose text holds Phrase's brace tags (`{1>`, `<1}`, `{1}`) as text; they become inline tags
 * whose original is the token itself, so that a target file writes them back as MXLIFF does. The
 * unit carries the file's state: `m:confirmed` (not 0) → targetConfirmed, `m:locked`,
 * `m:score`, `m:trans-origin`; the key comes from the x-key context.
 *
 * Write-back replaces the `<target>` content (or inserts one after `</source>`) and sets
 * `m:confirmed` by the translation's confirmation; everything else stays byte for byte. The file is
 * held decoded in memory, bounded by `maxJsonBytes`' sibling `MAX_MXLIFF_BYTES` (200 MiB).
 */

export const MAX_MXLIFF_BYTES = 200 * 1024 * 1024;
const BRACE_TOKEN = /\{(\d{1,6})>|<(\d{1,6})\}|\{(\d{1,6})\}/g;

/** Brace tokens of MXLIFF text as tags (the original is the token: it is text in the file). */
export function braceTags(text: string): InlineTag[] {
  const tags: InlineTag[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(BRACE_TOKEN)) {
    const [token, open, close, standalone] = match;
    if (seen.has(token)) continue;
    seen.add(token);
    const id = Number(open ?? close ?? standalone);
    tags.push(inlineTag(id, open !== undefined ? 'open' : close !== undefined ? 'close' : 'standalone', token));
  }
  return tags;
}

interface ScannedUnit {
  id: string;
  /** Offsets in the decoded text: the trans-unit's start tag. */
  startTag: [number, number];
  source: string;
  target: string | null;
  /** Where the target's content is ([start, end) of the content), or null when there is none. */
  targetContent: [number, number] | null;
  /** A self-closing `<target/>`: its whole tag. */
  emptyTarget: [number, number] | null;
  /** Just after `</source>` (where a missing target goes), and the white space before `<source>`. */
  afterSource: number;
  sourceIndent: string;
  attributes: Record<string, string>;
  key: string | null;
}

interface Scan {
  text: string;
  enc: TextEncoding;
  prefix: string;
  units: ScannedUnit[];
}

async function scan(input: Readable, options: FilterOptions): Promise<Scan> {
  const decoded = await decodeStream(input, (head) => encodingFromBom(head) ?? encoding('utf-8'), {
    limitBytes: MAX_MXLIFF_BYTES,
    tooLarge: `the MXLIFF file is larger than ${MAX_MXLIFF_BYTES} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of decoded.chunks) parts.push(chunk);
  const text = parts.join('');
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
  const parser = shapedSaxesParser();
  const units: ScannedUnit[] = [];
  let failure: FormatError | null = null;
  const fail = (message: string) => {
    failure ??= new FormatError(message, { line: parser.line, column: parser.column + 1 });
  };
  let prefix: string | null = null;
  let depth = 0;
  let sawRoot = false;
  let unit: ScannedUnit | null = null;
  let unitDepth = 0;
  let capture: 'source' | 'target' | 'key' | null = null;
  let captured: string[] = [];
  let contentStart = 0;
  const tagStart = (end: number) => text.lastIndexOf('<', end - 1);
  parser.on('error', (error) => fail(`malformed XML: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`));
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) fail('a DOCTYPE with an internal subset (entity declarations) is refused');
  });
  parser.on('text', (value) => {
    if (capture) captured.push(value);
  });
  parser.on('cdata', (value) => {
    if (capture) captured.push(value);
  });
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth > maxDepth) return fail(`elements are nested deeper than ${maxDepth} levels`);
    if (capture) return fail(`the ${capture} of trans-unit "${unit?.id ?? ''}" holds markup; MXLIFF writes tags as {1>, <1} and {1}`);
    for (const name in tag.attributes) {
      if (name.startsWith('xmlns:') && tag.attributes[name] === MXLIFF_NAMESPACE) prefix = name.slice(6);
    }
    const colon = tag.name.indexOf(':');
    const local = colon < 0 ? tag.name : tag.name.slice(colon + 1);
    const end = parser.position;
    if (!sawRoot) {
      sawRoot = true;
      if (local !== 'xliff' || prefix === null) fail(`not an MXLIFF file: the root must be <xliff> declaring ${MXLIFF_NAMESPACE}`);
      return;
    }
    if (local === 'trans-unit') {
      unit = {
        id: tag.attributes['id'] ?? '',
        startTag: [tagStart(end), end],
        source: '',
        target: null,
        targetContent: null,
        emptyTarget: null,
        afterSource: -1,
        sourceIndent: '',
        attributes: tag.attributes as Record<string, string>,
        key: null,
      };
      unitDepth = depth;
      if (unit.id === '') fail('a trans-unit without id');
    } else if (unit && depth === unitDepth + 1 && (local === 'source' || local === 'target')) {
      const start = tagStart(end);
      if (local === 'source') {
        const lineStart = text.lastIndexOf('\n', start - 1);
        unit.sourceIndent = lineStart >= 0 && /^[ \t]*$/.test(text.slice(lineStart + 1, start)) ? text.slice(lineStart, start) : '';
      }
      if (tag.isSelfClosing) {
        if (local === 'target') {
          unit.emptyTarget = [start, end];
          unit.target = '';
        } else unit.afterSource = end;
        return;
      }
      capture = local;
      captured = [];
      contentStart = end;
    } else if (unit && local === 'context' && tag.attributes['context-type'] === 'x-key' && !tag.isSelfClosing) {
      capture = 'key';
      captured = [];
    }
  });
  parser.on('closetag', () => {
    if (capture && unit) {
      const value = captured.join('');
      if (capture === 'source') {
        unit.source = value;
        unit.afterSource = parser.position;
      } else if (capture === 'target') {
        unit.target = value;
        unit.targetContent = [contentStart, tagStart(parser.position)];
      } else unit.key = value;
      capture = null;
    } else if (unit && depth === unitDepth) {
      units.push(unit);
      unit = null;
    }
    depth -= 1;
  });
  const STEP = 1 << 20;
  for (let at = 0; at < text.length && !failure; at += STEP) parser.write(text.slice(at, at + STEP));
  if (!failure) parser.close();
  if (failure) throw failure;
  if (!sawRoot) throw new FormatError('the file has no root element');
  return { text, enc: decoded.encoding, prefix: prefix!, units };
}

function unitOf(scanned: ScannedUnit, index: number, prefix: string): TextUnit {
  const m = (name: string) => scanned.attributes[`${prefix}:${name}`];
  const tags = braceTags(scanned.target === null ? scanned.source : `${scanned.source}${scanned.target}`);
  const unit: TextUnit = {
    index,
    key: scanned.key,
    locator: scanned.id,
    source: scanned.source,
    tags,
    target: scanned.target === '' ? null : scanned.target,
    translatable: true,
    note: null,
  };
  const confirmed = m('confirmed');
  if (confirmed !== undefined && unit.target !== null) unit.targetConfirmed = confirmed !== '0' && confirmed !== 'false';
  if (m('locked') === 'true') unit.locked = true;
  const score = Number(m('score'));
  if (m('score') !== undefined && Number.isFinite(score) && score > 0) unit.matchScore = score;
  const origin = m('trans-origin');
  if (origin !== undefined && origin !== 'null' && origin !== '') unit.origin = origin;
  return unit;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { units, prefix } = await scan(input, options);
  const seen = new Set<string>();
  const batch: TextUnit[] = [];
  for (const [index, scanned] of units.entries()) {
    if (seen.has(scanned.id)) throw new FormatError(`the trans-unit id "${scanned.id}" occurs twice`);
    seen.add(scanned.id);
    batch.push(unitOf(scanned, index, prefix));
    if (batch.length >= 1024) yield batch.splice(0);
  }
  if (batch.length > 0) yield batch;
}

function targetXml(translation: UnitTranslation, unit: ScannedUnit): string {
  if (hasNonXmlCharacter(translation.text))
    throw new FormatError(`the translation of trans-unit "${unit.id}" holds a character XML cannot hold`);
  return escapeXmlText(translation.text);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { text, enc, prefix, units } = await scan(original, options);
  const pieces: string[] = [];
  let at = 0;
  const copyTo = (offset: number) => {
    pieces.push(text.slice(at, offset));
    at = offset;
  };
  for (const unit of units) {
    const translation = translations.get(unit.id);
    if (!translation) continue;
    if (translation.confirmed !== undefined) {
      const [start, end] = unit.startTag;
      const startTag = text.slice(start, end);
      const name = `${prefix}:confirmed`;
      const value = translation.confirmed ? '1' : '0';
      const attribute = new RegExp(`(\\s${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*)(["'])[^"']*\\2`);
      const changed = attribute.test(startTag)
        ? startTag.replace(attribute, `$1$2${value}$2`)
        : startTag.replace(/(\/?>)$/, ` ${name}="${value}"$1`);
      copyTo(start);
      pieces.push(changed);
      at = end;
    }
    const content = targetXml(translation, unit);
    if (unit.targetContent) {
      copyTo(unit.targetContent[0]);
      pieces.push(content);
      at = unit.targetContent[1];
    } else if (unit.emptyTarget) {
      copyTo(unit.emptyTarget[0]);
      const selfClosing = text.slice(unit.emptyTarget[0], unit.emptyTarget[1]);
      pieces.push(`${selfClosing.replace(/\s*\/>$/, '>')}${content}</${selfClosing.slice(1).match(/^[^\s/>]+/)![0]}>`);
      at = unit.emptyTarget[1];
    } else if (unit.afterSource >= 0) {
      copyTo(unit.afterSource);
      pieces.push(`${unit.sourceIndent}<target>${content}</target>`);
    }
  }
  pieces.push(text.slice(at));
  const out = pieces.join('');
  async function* bytes() {
    yield encodeText(out, enc);
  }
  await pipeline(bytes(), output);
}

export const mxliffJobFilter: FormatFilter = {
  name: 'mxliff',
  extensions: ['mxliff', 'mxlf'],
  detect(firstBytes) {
    const head = firstBytes.toString('utf8');
    return head.includes('<xliff') && head.includes(MXLIFF_NAMESPACE);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

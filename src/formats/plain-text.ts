import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * Plain text (`.txt`). UTF-8 with or without BOM, UTF-16LE/BE with BOM. By default every
 * non-blank line is one unit (Phrase imports TXT line by line; segmentation then splits
 * sentences); with `plainTextUnit: 'paragraph'` a unit is a run of non-blank lines ended by a
 * blank line. A unit's leading and trailing white space stays in the file, outside the unit.
 * The locator is the unit's first line number (1-based).
 */

/** A paragraph longer than this is refused: it would have to be held in memory whole. */
export const MAX_PLAIN_TEXT_UNIT_CHARS = 1_000_000;

interface Line {
  number: number;
  content: string;
  /** `\r\n`, `\n`, `\r`, or '' for a last line without a terminator. */
  eol: string;
}

async function* lines(chunks: AsyncIterable<string>): AsyncGenerator<Line> {
  let pending = '';
  let number = 0;
  const LINE = /\r\n|\n|\r/g;
  for await (const chunk of chunks) {
    // What is pending holds no line break (but maybe a trailing \r): only the new part is searched,
    // so a long line costs linear time however many chunks it spans.
    const resumeAt = Math.max(0, pending.length - 1);
    pending += chunk;
    LINE.lastIndex = resumeAt;
    let start = 0;
    for (let match = LINE.exec(pending); match; match = LINE.exec(pending)) {
      // A trailing \r may be the first half of \r\n split across chunks.
      if (match[0] === '\r' && match.index === pending.length - 1) break;
      yield { number: ++number, content: pending.slice(start, match.index), eol: match[0] };
      start = match.index + match[0].length;
    }
    pending = pending.slice(start);
    if (pending.length > MAX_PLAIN_TEXT_UNIT_CHARS) {
      throw new FormatError(`a line is longer than ${MAX_PLAIN_TEXT_UNIT_CHARS} characters`, { line: number + 1 });
    }
  }
  if (pending.endsWith('\r')) {
    yield { number: ++number, content: pending.slice(0, -1), eol: '\r' };
  } else if (pending !== '') {
    yield { number: ++number, content: pending, eol: '' };
  }
}

/** A unit's lines with the white space around it kept aside. */
interface Block {
  /** Lines of the unit (one in line mode). */
  lines: Line[];
  leading: string;
  trailing: string;
  /** Unit text: the lines' contents joined by \n, outer white space removed. */
  text: string;
}

type Piece = { kind: 'verbatim'; line: Line } | { kind: 'unit'; block: Block };

function blockOf(group: Line[]): Block {
  const joined = group.map((line) => line.content).join('\n');
  const leading = /^\s*/u.exec(joined)?.[0] ?? '';
  const trailing = /\s*$/u.exec(joined.slice(leading.length))?.[0] ?? '';
  return { lines: group, leading, trailing, text: joined.slice(leading.length, joined.length - trailing.length) };
}

/** The file as blank lines (kept verbatim) and units, in order. */
async function* pieces(chunks: AsyncIterable<string>, mode: 'line' | 'paragraph'): AsyncGenerator<Piece> {
  let group: Line[] = [];
  let groupChars = 0;
  for await (const line of lines(chunks)) {
    const blank = line.content.trim() === '';
    if (mode === 'line' || blank) {
      if (group.length) yield { kind: 'unit', block: blockOf(group) };
      group = [];
      groupChars = 0;
      yield blank ? { kind: 'verbatim', line } : { kind: 'unit', block: blockOf([line]) };
      continue;
    }
    group.push(line);
    groupChars += line.content.length + 1;
    if (groupChars > MAX_PLAIN_TEXT_UNIT_CHARS) {
      throw new FormatError(`a paragraph is longer than ${MAX_PLAIN_TEXT_UNIT_CHARS} characters`, { line: group[0]?.number });
    }
  }
  if (group.length) yield { kind: 'unit', block: blockOf(group) };
}

function chooseTextEncoding(head: Buffer): TextEncoding {
  return encodingFromBom(head) ?? encoding('utf-8');
}

function locatorOf(block: Block): string {
  return String(block.lines[0]?.number ?? 0);
}

async function* parse(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { chunks } = await decodeStream(input, chooseTextEncoding);
  let index = 0;
  for await (const piece of pieces(chunks, options.plainTextUnit ?? 'line')) {
    if (piece.kind !== 'unit') continue;
    const { source, tags } = tagsByPattern(piece.block.text, pattern);
    yield { index: index++, key: null, locator: locatorOf(piece.block), source, tags, target: null, translatable: true, note: null };
  }
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { encoding: enc, chunks } = await decodeStream(original, chooseTextEncoding);
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    for await (const piece of pieces(chunks, options.plainTextUnit ?? 'line')) {
      if (piece.kind === 'verbatim') {
        yield encodeText(piece.line.content + piece.line.eol, enc);
        continue;
      }
      const { block } = piece;
      const last = block.lines[block.lines.length - 1];
      const translation = translations.get(locatorOf(block));
      if (!translation || !last) {
        yield encodeText(block.lines.map((line) => line.content + line.eol).join(''), enc);
        continue;
      }
      const { tags } = tagsByPattern(block.text, pattern);
      // Line breaks inside the translation take the file's own line ending.
      const eol = block.lines[0]?.eol || '\n';
      const text = restoreTags(translation.text, tags).replace(/\r\n|\n|\r/g, eol);
      yield encodeText(block.leading + text + block.trailing + last.eol, enc);
    }
  }
  await pipeline(rewritten(), output);
}

export const plainTextFilter: FormatFilter = {
  name: 'plain-text',
  extensions: ['txt'],
  parse,
  write,
};

import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
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

/** Cuts decoded text into lines as it comes; each piece of text gives the lines it completes. */
class LineSplitter {
  /** The start of a line not complete yet, in parts (joined once, when the line ends). */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The text so far ends with \r: the first half of \r\n, or a line break of its own. */
  private carriageReturn = false;
  private number = 0;

  /** The lines `text` completes, in order. Each character is looked at once. */
  push(text: string, into: Line[]): void {
    let start = 0;
    if (this.carriageReturn) {
      this.carriageReturn = false;
      const crlf = text.charCodeAt(0) === 0x0a;
      this.emit('', crlf ? '\r\n' : '\r', into);
      start = crlf ? 1 : 0;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 0x0a && code !== 0x0d) continue;
      if (code === 0x0d && i === text.length - 1) {
        this.keep(text.slice(start, i), 1);
        this.carriageReturn = true;
        return;
      }
      const eol = code === 0x0a ? '\n' : text.charCodeAt(i + 1) === 0x0a ? '\r\n' : '\r';
      this.emit(text.slice(start, i), eol, into);
      i += eol.length - 1;
      start = i + 1;
    }
    this.keep(text.slice(start), 0);
  }

  /** The last line, when the text does not end with a line break. */
  end(into: Line[]): void {
    if (this.carriageReturn) this.emit('', '\r', into);
    else if (this.pendingChars > 0) this.emit('', '', into);
  }

  /** `carriageReturns`: a \r held back, which counts towards the line's length as it did. */
  private keep(part: string, carriageReturns: number): void {
    if (part !== '') this.pending.push(part);
    this.pendingChars += part.length;
    if (this.pendingChars + carriageReturns > MAX_PLAIN_TEXT_UNIT_CHARS) {
      throw new FormatError(`a line is longer than ${MAX_PLAIN_TEXT_UNIT_CHARS} characters`, { line: this.number + 1 });
    }
  }

  private emit(last: string, eol: string, into: Line[]): void {
    const content = this.pending.length === 0 ? last : this.pending.join('') + last;
    this.pending = [];
    this.pendingChars = 0;
    into.push({ number: ++this.number, content, eol });
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

/** `trimmed` is `joined.trim()` when the caller has it. */
function blockOf(group: Line[], trimmed?: string): Block {
  const joined = group.length === 1 ? group[0]!.content : group.map((line) => line.content).join('\n');
  // trim() removes what \s matches (white space and line terminators).
  const text = trimmed ?? joined.trim();
  const leading = text.length === joined.length ? '' : joined.slice(0, joined.length - joined.trimStart().length);
  const trailing = joined.slice(leading.length + text.length);
  return { lines: group, leading, trailing, text };
}

/** Characters of text per batch of pieces. */
const BATCH_CHARS = 4096;

/** Groups lines into blank lines (kept verbatim) and units, in order. */
class PieceBuilder {
  private group: Line[] = [];
  private groupChars = 0;

  constructor(private readonly mode: 'line' | 'paragraph') {}

  add(line: Line, into: Piece[]): void {
    const trimmed = line.content.trim();
    const blank = trimmed === '';
    if (this.mode === 'line' || blank) {
      this.flush(into);
      into.push(blank ? { kind: 'verbatim', line } : { kind: 'unit', block: blockOf([line], trimmed) });
      return;
    }
    this.group.push(line);
    this.groupChars += line.content.length + 1;
    if (this.groupChars > MAX_PLAIN_TEXT_UNIT_CHARS) {
      throw new FormatError(`a paragraph is longer than ${MAX_PLAIN_TEXT_UNIT_CHARS} characters`, { line: this.group[0]?.number });
    }
  }

  flush(into: Piece[]): void {
    if (this.group.length) into.push({ kind: 'unit', block: blockOf(this.group) });
    this.group = [];
    this.groupChars = 0;
  }
}

/**
 * The file as blank lines (kept verbatim) and units, in order, in batches (one per decoded chunk):
 * the work per line is synchronous, only the chunks are awaited.
 */
async function* pieces(chunks: AsyncIterable<string>, mode: 'line' | 'paragraph'): AsyncGenerator<Piece[]> {
  const splitter = new LineSplitter();
  const builder = new PieceBuilder(mode);
  const toPieces = (lines: Line[]): Piece[] => {
    const batch: Piece[] = [];
    for (const line of lines) builder.add(line, batch);
    return batch;
  };
  for await (const chunk of chunks) {
    // In slices, so that a batch stays small (its objects die young, without promotion to the
    // old generation) however many lines a chunk holds.
    for (let at = 0; at < chunk.length; at += BATCH_CHARS) {
      const lines: Line[] = [];
      splitter.push(chunk.length <= BATCH_CHARS ? chunk : chunk.slice(at, at + BATCH_CHARS), lines);
      yield toPieces(lines);
    }
  }
  const lines: Line[] = [];
  splitter.end(lines);
  const last = toPieces(lines);
  builder.flush(last);
  yield last;
}

function chooseTextEncoding(head: Buffer): TextEncoding {
  return encodingFromBom(head) ?? encoding('utf-8');
}

function locatorOf(block: Block): string {
  return String(block.lines[0]?.number ?? 0);
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { chunks } = await decodeStream(input, chooseTextEncoding);
  let index = 0;
  for await (const batch of pieces(chunks, options.plainTextUnit ?? 'line')) {
    const units: TextUnit[] = [];
    for (const piece of batch) {
      if (piece.kind !== 'unit') continue;
      const { source, tags } = pattern ? tagsByPattern(piece.block.text, pattern) : { source: piece.block.text, tags: [] };
      units.push({
        index: index++,
        key: null,
        locator: locatorOf(piece.block),
        source,
        tags,
        target: null,
        translatable: true,
        note: null,
      });
    }
    if (units.length > 0) yield units;
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
    for await (const batch of pieces(chunks, options.plainTextUnit ?? 'line')) {
      yield* rewrittenBatch(batch);
    }
  }
  function* rewrittenBatch(batch: Piece[]): Generator<Buffer> {
    for (const piece of batch) {
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
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

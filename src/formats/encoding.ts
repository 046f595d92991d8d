import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FormatError } from './types.js';

/**
 * Text encodings of the filters. Files are decoded strictly (an invalid byte sequence is a
 * FormatError, never a silent U+FFFD), so decoding and re-encoding an untouched part gives back
 * the very same bytes; the BOM is kept aside and written back as it was.
 */
export type EncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

export interface TextEncoding {
  name: EncodingName;
  /** The byte order mark found at the start of the file (empty when there was none). */
  bom: Buffer;
  /** The highest code point the encoding holds (XML escapes anything above as a character reference). */
  maxCodePoint: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);
const UTF16BE_BOM = Buffer.from([0xfe, 0xff]);

export function encoding(name: EncodingName, bom: Buffer = Buffer.alloc(0), maxCodePoint?: number): TextEncoding {
  return { name, bom, maxCodePoint: maxCodePoint ?? (name === 'latin1' ? 0xff : 0x10ffff) };
}

/** The encoding named by a byte order mark, or null. */
export function encodingFromBom(head: Buffer): TextEncoding | null {
  if (head.subarray(0, 3).equals(UTF8_BOM)) return encoding('utf-8', UTF8_BOM);
  if (head.subarray(0, 2).equals(UTF16LE_BOM)) return encoding('utf-16le', UTF16LE_BOM);
  if (head.subarray(0, 2).equals(UTF16BE_BOM)) return encoding('utf-16be', UTF16BE_BOM);
  return null;
}

interface ChunkDecoder {
  decode(bytes: Buffer, final: boolean): string;
}

function decoderFor(enc: TextEncoding): ChunkDecoder {
  if (enc.name === 'latin1') {
    // Buffer's latin1 is ISO-8859-1 byte for byte; TextDecoder('latin1') would be windows-1252.
    return { decode: (bytes) => bytes.toString('latin1') };
  }
  const decoder = new TextDecoder(enc.name, { fatal: true, ignoreBOM: true });
  return {
    decode(bytes, final) {
      try {
        return decoder.decode(bytes, { stream: !final });
      } catch {
        throw new FormatError(`the file is not valid ${enc.name.toUpperCase()} text`);
      }
    },
  };
}

export function encodeText(text: string, enc: TextEncoding): Buffer {
  switch (enc.name) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    case 'utf-16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'latin1':
      return Buffer.from(text, 'latin1');
  }
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new FormatError('the file stream yielded something other than bytes');
}

export interface DecodedText {
  encoding: TextEncoding;
  /** The decoded text in chunks, BOM removed. */
  chunks: AsyncGenerator<string>;
}

/**
 * Reads the first `headBytes` bytes of `input`, lets `choose` name the encoding, and decodes the
 * rest as it streams by. `limitBytes` bounds the total size (FormatError past it).
 */
export async function decodeStream(
  input: AsyncIterable<unknown>,
  choose: (head: Buffer) => TextEncoding,
  options: { headBytes?: number; limitBytes?: number; tooLarge?: string } = {},
): Promise<DecodedText> {
  const headBytes = options.headBytes ?? 1024;
  const iterator = input[Symbol.asyncIterator]();
  const headParts: Buffer[] = [];
  let headLength = 0;
  let exhausted = false;
  let total = 0;
  const count = (bytes: Buffer): Buffer => {
    total += bytes.length;
    if (options.limitBytes !== undefined && total > options.limitBytes) {
      throw new FormatError(options.tooLarge ?? `the file is larger than ${options.limitBytes} bytes`);
    }
    return bytes;
  };
  while (headLength < headBytes) {
    const next = await iterator.next();
    if (next.done) {
      exhausted = true;
      break;
    }
    const bytes = count(toBuffer(next.value));
    headParts.push(bytes);
    headLength += bytes.length;
  }
  const head = Buffer.concat(headParts);
  const chosen = choose(head);
  const decoder = decoderFor(chosen);
  async function* chunks(): AsyncGenerator<string> {
    try {
      const first = decoder.decode(head.subarray(chosen.bom.length), exhausted);
      if (first) yield first;
      if (exhausted) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const text = decoder.decode(count(toBuffer(next.value)), false);
        if (text) yield text;
      }
      const rest = decoder.decode(Buffer.alloc(0), true);
      if (rest) yield rest;
    } finally {
      // Stop reading (and release the file) when the consumer stops early or fails.
      await iterator.return?.();
    }
  }
  return { encoding: chosen, chunks: chunks() };
}

/** A replacement of `text.slice(start, end)` by `text`, for writeEdits. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

const EDIT_CHUNK_CHARS = 64 * 1024;

/**
 * Writes `text` with `edits` (in order, not overlapping) spliced in, in `enc` with its BOM, to
 * `output` (and ends it), in chunks of about 64 K characters: the write-back of the filters that
 * hold the decoded file whole and know where each unit sits. `edits` may be produced lazily.
 */
export async function writeEdits(text: string, edits: Iterable<TextEdit>, enc: TextEncoding, output: Writable): Promise<void> {
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    let copied = 0;
    let pending = '';
    for (const edit of edits) {
      pending += text.slice(copied, edit.start) + edit.text;
      copied = edit.end;
      if (pending.length >= EDIT_CHUNK_CHARS) {
        yield encodeText(pending, enc);
        pending = '';
      }
    }
    yield encodeText(pending + text.slice(copied), enc);
  }
  await pipeline(rewritten(), output);
}

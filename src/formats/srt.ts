import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, InlineTagKind, TextUnit, UnitTranslation } from './types.js';

/**
 * SubRip subtitles (`.srt`). A cue is an optional number line, a timing line
 * (`00:00:01,000 --> 00:00:04,000`, with optional `X1:… Y2:…` coordinates) and text lines up to a
 * blank line. Each cue's text (lines joined with `\n`) is a unit; locator = the cue's ordinal in
 * the file (1-based, empty cues counted), key = its number as written. `<i>`, `<b>`, `<u>`,
 * `<font …>` and any other `<…>` markup are tags (pairs when an end tag closes them), ASS override
 * codes such as `{\an8}` standalone tags.
 *
 * The file is read whole (bounded by `maxSubtitleBytes`, default 50 MiB), UTF-8 with or without
 * BOM or UTF-16 by BOM; write-back replaces only the text lines of translated cues, with the
 * cue's own line ending, and keeps every other byte. The shared pieces (lines, markup tags,
 * cue text write-back) serve the WebVTT filter too.
 */

export const DEFAULT_MAX_SUBTITLE_BYTES = 50 * 1024 * 1024;
/** A cue's text longer than this is refused (a subtitle is a line or two). */
export const MAX_CUE_CHARS = 1_000_000;

export interface SubtitleFilterOptions extends FilterOptions {
  maxSubtitleBytes?: number;
}

export interface Line {
  /** Offsets of the content (line ending excluded) in the text. */
  start: number;
  end: number;
  /** `\r\n`, `\n`, `\r`, or '' on a last line without one. */
  eol: string;
}

/** The lines of `text`, in one pass. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x0a && code !== 0x0d) continue;
    const eol = code === 0x0a ? '\n' : text.charCodeAt(i + 1) === 0x0a ? '\r\n' : '\r';
    lines.push({ start, end: i, eol });
    i += eol.length - 1;
    start = i + 1;
  }
  if (start < text.length) lines.push({ start, end: text.length, eol: '' });
  return lines;
}

export function isBlank(text: string, line: Line): boolean {
  for (let i = line.start; i < line.end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0xfeff) return false;
  }
  return true;
}

/** A cue's text lines (`first` … `last`, inclusive; `last < first` when it has none). */
export interface Cue {
  ordinal: number;
  key: string | null;
  first: number;
  last: number;
  /** The timing line, for the tests' validation. */
  timing: string;
}

export interface SubtitleFile {
  enc: TextEncoding;
  text: string;
  lines: Line[];
  cues: Cue[];
}

export async function readSubtitleText(
  input: Readable,
  options: SubtitleFilterOptions,
  what: string,
): Promise<{ enc: TextEncoding; text: string }> {
  const limit = options.maxSubtitleBytes ?? DEFAULT_MAX_SUBTITLE_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, (head) => encodingFromBom(head) ?? encoding('utf-8'), {
    limitBytes: limit,
    tooLarge: `the ${what} file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

const SRT_TIME = String.raw`\d{1,4}:\d{1,2}:\d{1,2}[,.]\d{1,3}`;
const SRT_TIMING = new RegExp(String.raw`^[ \t]*${SRT_TIME}[ \t]*-->[ \t]*${SRT_TIME}(?:[ \t][^\r\n]*)?$`);
const CUE_NUMBER = /^[ \t]*\d{1,12}[ \t]*$/;

function lineText(text: string, line: Line | undefined): string {
  return line ? text.slice(line.start, line.end) : '';
}

export function checkCueLength(lines: Line[], first: number, last: number): void {
  if (last >= first && lines[last]!.end - lines[first]!.start > MAX_CUE_CHARS) {
    throw new FormatError(`a cue's text is longer than ${MAX_CUE_CHARS} characters`, { line: first + 1 });
  }
}

/** The cues of an SRT file; FormatError (with the line) where a cue should start and none does. */
export function scanSrt(text: string, lines: Line[]): Cue[] {
  const cues: Cue[] = [];
  const isTiming = (i: number): boolean => i < lines.length && SRT_TIMING.test(lineText(text, lines[i]));
  const startsCue = (i: number): boolean => isTiming(i) || (CUE_NUMBER.test(lineText(text, lines[i])) && isTiming(i + 1));
  let i = 0;
  while (i < lines.length) {
    if (isBlank(text, lines[i]!)) {
      i += 1;
      continue;
    }
    let key: string | null = null;
    if (!isTiming(i)) {
      if (!startsCue(i)) {
        throw new FormatError('malformed SubRip file: expected a cue number or a timing line (00:00:01,000 --> 00:00:02,000)', {
          line: i + 1,
          column: 1,
        });
      }
      key = lineText(text, lines[i]).trim();
      i += 1;
    }
    const timing = lineText(text, lines[i]);
    i += 1;
    const first = i;
    while (i < lines.length && !isBlank(text, lines[i]!) && !startsCue(i)) i += 1;
    checkCueLength(lines, first, i - 1);
    cues.push({ ordinal: cues.length + 1, key, first, last: i - 1, timing: timing.trim() });
  }
  return cues;
}

// ---------------------------------------------------------------------------------------------
// Markup tags of subtitle text.

interface MarkupToken {
  start: number;
  end: number;
  /** Element name for pairing (`i`, `font`, `c`, `v`); '' for a standalone code. */
  name: string;
  kind: InlineTagKind;
}

const TAG_NAME = /^<\/?([A-Za-z][A-Za-z0-9]*)/;

/**
 * `<…>` markup, and `{\…}` ASS override codes (SRT), in the text. The next `<`, `>`, `{`, `}` are
 * looked up once each and reused, so text full of unmatched brackets stays linear.
 */
function markupTokens(text: string, assCodes: boolean): MarkupToken[] {
  const tokens: MarkupToken[] = [];
  let nextLess = text.indexOf('<');
  let nextBrace = assCodes ? text.indexOf('{') : -1;
  if (nextLess === -1 && nextBrace === -1) return tokens;
  let nextGreater = -2;
  let nextClosingBrace = -2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x3c) {
      if (nextGreater !== -1 && nextGreater <= i) nextGreater = text.indexOf('>', i + 1);
      const end = nextGreater;
      if (end === -1) break;
      if (nextLess !== -1 && nextLess <= i) nextLess = text.indexOf('<', i + 1);
      if (nextLess !== -1 && nextLess < end) continue; // `a < b <i>`: the first `<` is text
      const markup = text.slice(i, end + 1);
      const name = TAG_NAME.exec(markup);
      const timestamp = /^<\d/.test(markup);
      if (!name && !timestamp) continue;
      tokens.push({
        start: i,
        end: end + 1,
        name: name ? name[1]!.toLowerCase() : '',
        kind: timestamp ? 'standalone' : markup[1] === '/' ? 'close' : markup.endsWith('/>') ? 'standalone' : 'open',
      });
      i = end;
    } else if (assCodes && code === 0x7b && text.charCodeAt(i + 1) === 0x5c) {
      if (nextClosingBrace !== -1 && nextClosingBrace <= i) nextClosingBrace = text.indexOf('}', i + 2);
      const end = nextClosingBrace;
      if (end === -1) continue;
      if (nextBrace !== -1 && nextBrace <= i) nextBrace = text.indexOf('{', i + 1);
      if (nextBrace !== -1 && nextBrace < end) continue;
      tokens.push({ start: i, end: end + 1, name: '', kind: 'standalone' });
      i = end;
    }
  }
  return tokens;
}

/**
 * A cue's text as a unit: markup as tags (an open tag and the end tag that closes it as a pair,
 * anything unpaired standalone), text through `decode` (WebVTT entities), `custom` matches of the
 * text standalone tags too.
 */
export function markupUnit(
  text: string,
  options: { assCodes: boolean; decode?: (text: string) => string; custom: RegExp | null },
): { source: string; tags: InlineTag[] } {
  const tokens = markupTokens(text, options.assCodes);
  if (tokens.length === 0 && !options.custom) return { source: options.decode ? options.decode(text) : text, tags: [] };
  // Pairing: a close tag pairs with the open tag on top of the stack when the names agree.
  const partner: number[] = tokens.map(() => -1);
  const stack: number[] = [];
  tokens.forEach((token, t) => {
    if (token.kind === 'open') stack.push(t);
    else if (token.kind === 'close') {
      const top = stack[stack.length - 1];
      if (top !== undefined && tokens[top]!.name === token.name) {
        stack.pop();
        partner[top] = t;
        partner[t] = top;
      }
    }
  });
  const tags: InlineTag[] = [];
  const ids: number[] = tokens.map(() => 0);
  let next = 1;
  let source = '';
  const addText = (piece: string): void => {
    const decoded = options.decode ? options.decode(piece) : piece;
    if (!options.custom) {
      source += decoded;
      return;
    }
    let last = 0;
    for (const match of decoded.matchAll(options.custom)) {
      if (match[0] === '') continue;
      const tag = inlineTag(next++, 'standalone', match[0]);
      tags.push(tag);
      source += decoded.slice(last, match.index) + tag.display;
      last = match.index + match[0].length;
    }
    source += decoded.slice(last);
  };
  let last = 0;
  tokens.forEach((token, t) => {
    addText(text.slice(last, token.start));
    last = token.end;
    const paired = partner[t]! !== -1;
    const kind: InlineTagKind = paired ? token.kind : 'standalone';
    const id = kind === 'close' ? ids[partner[t]!]! : next++;
    ids[t] = id;
    const tag = inlineTag(id, kind, text.slice(token.start, token.end));
    tags.push(tag);
    source += tag.display;
  });
  addText(text.slice(last));
  return { source, tags };
}

export function customTagPattern(options: FilterOptions): RegExp | null {
  const setting = options.formatSettings?.tagRegexp;
  return compileTagRegexp(options.tagRegexp ?? (typeof setting === 'string' ? setting : undefined));
}

/** The raw text of a cue (its lines joined with `\n`). */
export function cueText(file: SubtitleFile, cue: Cue): string {
  if (cue.last < cue.first) return '';
  const raw = file.text.slice(file.lines[cue.first]!.start, file.lines[cue.last]!.end);
  return raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
}

/** Characters of output collected before a chunk is encoded and written. */
const WRITE_CHUNK_CHARS = 64 * 1024;

const BATCH_UNITS = 1024;

/** The units of the cues with text, in batches. */
export function* subtitleUnits(file: SubtitleFile, unitOf: (raw: string) => { source: string; tags: InlineTag[] }): Generator<TextUnit[]> {
  let batch: TextUnit[] = [];
  let index = 0;
  for (const cue of file.cues) {
    const raw = cueText(file, cue);
    if (raw.trim() === '') continue;
    const { source, tags } = unitOf(raw);
    batch.push({ index: index++, key: cue.key, locator: String(cue.ordinal), source, tags, target: null, translatable: true, note: null });
    if (batch.length >= BATCH_UNITS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Writes the file with the translated cues' text lines replaced: line breaks of a translation take
 * the cue's line ending; blank lines are left out (a blank line would end the cue). `render` turns
 * the translation into cue text (tags back, escapes).
 */
export async function writeSubtitles(
  file: SubtitleFile,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  unitOf: (raw: string) => { source: string; tags: InlineTag[] },
  render: (translation: string, tags: readonly InlineTag[], cue: Cue) => string,
): Promise<void> {
  const { enc, text, lines } = file;
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    let copied = 0;
    let pending = '';
    for (const cue of file.cues) {
      const translation = translations.get(String(cue.ordinal));
      if (!translation || cue.last < cue.first) continue;
      const raw = cueText(file, cue);
      if (raw.trim() === '') continue;
      const { source, tags } = unitOf(raw);
      if (translation.text === source) continue;
      const eol = lines[cue.first]!.eol || lines[cue.first - 1]?.eol || '\n';
      const rendered = render(translation.text, tags, cue)
        .split(/\r\n|\n|\r/)
        .filter((line) => line.trim() !== '')
        .join(eol);
      pending += text.slice(copied, lines[cue.first]!.start) + rendered;
      copied = lines[cue.last]!.end;
      if (pending.length >= WRITE_CHUNK_CHARS) {
        yield encodeText(pending, enc);
        pending = '';
      }
    }
    yield encodeText(pending + text.slice(copied), enc);
  }
  await pipeline(rewritten(), output);
}

async function readSrt(input: Readable, options: SubtitleFilterOptions): Promise<SubtitleFile> {
  const { enc, text } = await readSubtitleText(input, options, 'SubRip');
  const lines = splitLines(text);
  return { enc, text, lines, cues: scanSrt(text, lines) };
}

async function* parseBatches(input: Readable, options: SubtitleFilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const custom = customTagPattern(options);
  const file = await readSrt(input, options);
  yield* subtitleUnits(file, (raw) => markupUnit(raw, { assCodes: true, custom }));
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: SubtitleFilterOptions = {},
): Promise<void> {
  const custom = customTagPattern(options);
  const file = await readSrt(original, options);
  await writeSubtitles(
    file,
    translations,
    output,
    (raw) => markupUnit(raw, { assCodes: true, custom }),
    (translation, tags, cue) => {
      const text = restoreTags(translation, tags);
      // A line with `-->` would read as the timing of a new cue.
      if (text.includes('-->')) throw new FormatError(`cue ${cue.ordinal}: a subtitle line cannot contain "-->"`);
      return text;
    },
  );
}

export const srtFilter: FormatFilter = {
  name: 'srt',
  extensions: ['srt'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    const head = firstBytes.subarray(enc?.bom.length ?? 0).toString('utf8');
    return /^(?:[ \t]*\r?\n)*[ \t]*\d{1,12}[ \t]*\r?\n[ \t]*\d{1,4}:\d{1,2}:\d{1,2}[,.]\d{1,3}[ \t]*-->/.test(head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

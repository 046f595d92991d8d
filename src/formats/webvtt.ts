import type { Readable, Writable } from 'node:stream';
import { restoreTags } from './inline-tags.js';
import {
  checkCueLength,
  customTagPattern,
  isBlank,
  markupUnit,
  readSubtitleText,
  splitLines,
  subtitleUnits,
  writeSubtitles,
} from './srt.js';
import type { Cue, Line, SubtitleFile, SubtitleFilterOptions } from './srt.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FormatFilter, TextUnit, UnitTranslation } from './types.js';
import { encodingFromBom } from './encoding.js';

/**
 * WebVTT subtitles (`.vtt`). The file starts with `WEBVTT`; header lines run to the first blank
 * line; then blocks separated by blank lines: `NOTE`, `STYLE` and `REGION` blocks (never units)
 * and cues — an optional identifier line, a timing line (`00:01.000 --> 00:04.000` plus cue
 * settings) and payload lines. Each cue's payload (lines joined with `\n`) is a unit; locator =
 * the cue's ordinal (1-based), key = its identifier or null. Cue markup (`<c.class>`, `<v Bob>`,
 * `<i>`, `<b>`, `<u>`, `<ruby>`, `<rt>`, `<lang en>`) becomes tags — pairs where an end tag closes
 * them, else standalone (`<v Bob>` usually has none) — and cue timestamps (`<00:00:02.500>`)
 * standalone tags. Character references (`&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&lrm;`, `&rlm;`,
 * numeric) are decoded in the unit; translations get `&`, `<`, `>` escaped.
 */

const VTT_TIME = String.raw`(?:\d{2,9}:)?\d{2}:\d{2}\.\d{3}`;
const VTT_TIMING = new RegExp(String.raw`^[ \t]*${VTT_TIME}[ \t]+-->[ \t]+${VTT_TIME}(?:[ \t][^\r\n]*)?$`);
const HEADER = /^WEBVTT(?:[ \t]|$)/;
const NON_CUE_BLOCK = /^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

/** Decodes the character references of cue text; anything else with `&` stays as it is. */
export function decodeVtt(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

export function escapeVtt(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

function lineText(text: string, line: Line | undefined): string {
  return line ? text.slice(line.start, line.end) : '';
}

export function scanVtt(text: string, lines: Line[]): Cue[] {
  if (lines.length === 0 || !HEADER.test(lineText(text, lines[0]))) {
    throw new FormatError('malformed WebVTT file: it does not start with "WEBVTT"', { line: 1, column: 1 });
  }
  const cues: Cue[] = [];
  const hasArrow = (i: number): boolean => i < lines.length && lineText(text, lines[i]).includes('-->');
  let i = 1;
  while (i < lines.length && !isBlank(text, lines[i]!)) i += 1; // the header
  while (i < lines.length) {
    if (isBlank(text, lines[i]!)) {
      i += 1;
      continue;
    }
    const first = lineText(text, lines[i]);
    if (NON_CUE_BLOCK.test(first) && !first.includes('-->')) {
      while (i < lines.length && !isBlank(text, lines[i]!)) i += 1;
      continue;
    }
    let key: string | null = null;
    if (!first.includes('-->')) {
      key = first;
      i += 1;
    }
    const timing = lineText(text, lines[i]);
    if (!VTT_TIMING.test(timing)) {
      throw new FormatError('malformed WebVTT file: expected a cue timing line (00:00:01.000 --> 00:00:02.000)', {
        line: i + 1,
        column: 1,
      });
    }
    i += 1;
    const start = i;
    // The payload ends at a blank line, or at a line with `-->` (which starts the next cue).
    while (i < lines.length && !isBlank(text, lines[i]!) && !hasArrow(i)) i += 1;
    checkCueLength(lines, start, i - 1);
    cues.push({ ordinal: cues.length + 1, key, first: start, last: i - 1, timing: timing.trim() });
  }
  return cues;
}

async function readVtt(input: Readable, options: SubtitleFilterOptions): Promise<SubtitleFile> {
  const { enc, text } = await readSubtitleText(input, options, 'WebVTT');
  const lines = splitLines(text);
  return { enc, text, lines, cues: scanVtt(text, lines) };
}

function unitOf(options: SubtitleFilterOptions): (raw: string) => ReturnType<typeof markupUnit> {
  const custom = customTagPattern(options);
  return (raw) => markupUnit(raw, { assCodes: false, decode: decodeVtt, custom });
}

async function* parseBatches(input: Readable, options: SubtitleFilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const unit = unitOf(options);
  yield* subtitleUnits(await readVtt(input, options), unit);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: SubtitleFilterOptions = {},
): Promise<void> {
  const file = await readVtt(original, options);
  await writeSubtitles(file, translations, output, unitOf(options), (translation, tags) => restoreTags(translation, tags, escapeVtt));
}

export const webvttFilter: FormatFilter = {
  name: 'webvtt',
  extensions: ['vtt'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    return /^WEBVTT(?:[ \t\r\n]|$)/.test(firstBytes.subarray(enc?.bom.length ?? 0).toString('utf8'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

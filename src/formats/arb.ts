import type { Readable, Writable } from 'node:stream';
import { decodeStream, encoding, encodingFromBom, writeEdits } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags, tagsByPattern } from './inline-tags.js';
import type { InlineTagKind } from './types.js';
import { DEFAULT_MAX_JSON_BYTES, JsonScanner } from './json.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';

/**
 * Flutter / Google Application Resource Bundles (`.arb`): a JSON object whose keys not starting
 * with `@` are messages. Each message with a non-blank string value is a unit: key = the message
 * name, locator = its JSON pointer (`/greeting`), note = `@greeting.description`, context =
 * `@greeting.context`. `@@locale` is set to the target language on write (when anything is
 * translated); other `@…` entries are metadata, never units.
 *
 * Messages are ICU MessageFormat as Flutter's gen-l10n reads it (apostrophes are plain text, as
 * with its default `use-escaping: false`): a placeholder `{name}` or `{name, number, …}` is a
 * standalone tag; a `plural`/`select`/`selectordinal` stays one unit whose syntax becomes paired
 * tags — `{count, plural,` … `}` around the whole, ` =0{` … `}` around each branch — and `#` in a
 * plural branch is a standalone tag, so translators edit only the branch texts. A value that is
 * not well-formed ICU is read as plain text with `{name}` placeholders as tags.
 */

/** Nesting of plural/select inside each other beyond which a message is read as plain text. */
const MAX_ICU_DEPTH = 32;

interface ArbMessage {
  key: string;
  locator: string;
  value: string;
  start: number;
  end: number;
}

interface ArbFile {
  enc: TextEncoding;
  text: string;
  messages: ArbMessage[];
  notes: Map<string, string>;
  contexts: Map<string, string>;
  locale: { start: number; end: number } | null;
}

type IcuPiece = { text: string } | { kind: InlineTagKind; original: string };

class IcuSyntaxError extends Error {}

const IDENTIFIER_CHAR = /[^\s{},#]/;
const PLACEHOLDER_ONLY = /\{[A-Za-z_][A-Za-z0-9_]*\}/gu;

/** Reads an ICU message into text and tag pieces; throws IcuSyntaxError when it is not well-formed. */
class IcuReader {
  private at = 0;
  readonly pieces: IcuPiece[] = [];

  constructor(private readonly text: string) {}

  read(): IcuPiece[] {
    this.message(0, false);
    if (this.at < this.text.length) throw new IcuSyntaxError('unbalanced }');
    return this.pieces;
  }

  private pushText(text: string): void {
    if (text === '') return;
    const last = this.pieces[this.pieces.length - 1];
    if (last && 'text' in last) last.text += text;
    else this.pieces.push({ text });
  }

  /** Text and arguments up to an unmatched `}` (or the end). */
  private message(depth: number, inPlural: boolean): void {
    const text = this.text;
    let start = this.at;
    while (this.at < text.length) {
      const char = text[this.at];
      if (char === '}') break;
      if (char === '{') {
        this.pushText(text.slice(start, this.at));
        this.argument(depth);
        start = this.at;
        continue;
      }
      if (char === '#' && inPlural) {
        this.pushText(text.slice(start, this.at));
        this.pieces.push({ kind: 'standalone', original: '#' });
        this.at += 1;
        start = this.at;
        continue;
      }
      this.at += 1;
    }
    this.pushText(text.slice(start, this.at));
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at += 1;
  }

  private word(): string {
    const start = this.at;
    while (this.at < this.text.length && IDENTIFIER_CHAR.test(this.text[this.at]!)) this.at += 1;
    if (this.at === start) throw new IcuSyntaxError('expected a name');
    return this.text.slice(start, this.at);
  }

  /** `{name}`, `{name, type[, style]}`, or a plural/select; `at` is on the `{`. */
  private argument(depth: number): void {
    const text = this.text;
    const start = this.at;
    this.at += 1;
    this.skipSpace();
    this.word();
    this.skipSpace();
    if (text[this.at] === '}') {
      this.at += 1;
      this.pieces.push({ kind: 'standalone', original: text.slice(start, this.at) });
      return;
    }
    if (text[this.at] !== ',') throw new IcuSyntaxError('expected , or }');
    this.at += 1;
    this.skipSpace();
    const type = this.word();
    this.skipSpace();
    if (type !== 'plural' && type !== 'select' && type !== 'selectordinal') {
      // {name, number} or {name, date, style}: the style runs to the closing brace.
      const close = text.indexOf('}', this.at);
      const open = text.indexOf('{', this.at);
      if (close === -1 || (open !== -1 && open < close)) throw new IcuSyntaxError('bad argument style');
      this.at = close + 1;
      this.pieces.push({ kind: 'standalone', original: text.slice(start, this.at) });
      return;
    }
    if (depth >= MAX_ICU_DEPTH) throw new IcuSyntaxError('nested too deeply');
    if (text[this.at] !== ',') throw new IcuSyntaxError('expected ,');
    this.at += 1;
    this.skipSpace();
    if (text.startsWith('offset:', this.at)) {
      this.at += 'offset:'.length;
      this.skipSpace();
      this.word();
      this.skipSpace();
    }
    // The open tag holds everything up to the first selector (the spaces before it go with the branch).
    let head = this.at;
    while (head > start && /\s/.test(text[head - 1]!)) head -= 1;
    this.pieces.push({ kind: 'open', original: text.slice(start, head) });
    let branchStart = head;
    let branches = 0;
    for (;;) {
      this.skipSpace();
      if (text[this.at] === '}') break;
      this.word();
      this.skipSpace();
      if (text[this.at] !== '{') throw new IcuSyntaxError('expected { after a selector');
      this.at += 1;
      this.pieces.push({ kind: 'open', original: text.slice(branchStart, this.at) });
      this.message(depth + 1, type !== 'select');
      if (text[this.at] !== '}') throw new IcuSyntaxError('unterminated branch');
      this.pieces.push({ kind: 'close', original: '}' });
      this.at += 1;
      branchStart = this.at;
      branches += 1;
    }
    if (branches === 0) throw new IcuSyntaxError('no branches');
    this.at += 1;
    this.pieces.push({ kind: 'close', original: text.slice(branchStart, this.at) });
  }
}

function isIcu(value: string): boolean {
  try {
    new IcuReader(value).read();
    return true;
  } catch (error) {
    if (error instanceof IcuSyntaxError) return false;
    throw error;
  }
}

/** The unit text of a message, tags as display tokens. */
export function icuUnit(value: string, custom: RegExp | null): { source: string; tags: InlineTag[] } {
  let pieces: IcuPiece[];
  try {
    pieces = new IcuReader(value).read();
  } catch (error) {
    if (!(error instanceof IcuSyntaxError)) throw error;
    return tagsByPattern(value, custom ? new RegExp(`${PLACEHOLDER_ONLY.source}|(?:${custom.source})`, 'gu') : PLACEHOLDER_ONLY);
  }
  const tags: InlineTag[] = [];
  const openIds: number[] = [];
  let source = '';
  let next = 1;
  for (const piece of pieces) {
    if ('text' in piece) {
      if (!custom) {
        source += piece.text;
        continue;
      }
      // tagRegexp applies to the text between the ICU syntax.
      let last = 0;
      for (const match of piece.text.matchAll(custom)) {
        if (match[0] === '') continue;
        const tag = inlineTag(next++, 'standalone', match[0]);
        tags.push(tag);
        source += piece.text.slice(last, match.index) + tag.display;
        last = match.index + match[0].length;
      }
      source += piece.text.slice(last);
      continue;
    }
    let id: number;
    if (piece.kind === 'close') id = openIds.pop()!;
    else {
      id = next++;
      if (piece.kind === 'open') openIds.push(id);
    }
    const tag = inlineTag(id, piece.kind, piece.original);
    tags.push(tag);
    source += tag.display;
  }
  return { source, tags };
}

function decodePointerName(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

async function readWhole(input: Readable, options: FilterOptions): Promise<{ enc: TextEncoding; text: string }> {
  const limit = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, (head) => encodingFromBom(head) ?? encoding('utf-8'), {
    limitBytes: limit,
    tooLarge: `the ARB file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

async function readArb(input: Readable, options: FilterOptions): Promise<ArbFile> {
  const { enc, text } = await readWhole(input, options);
  const scanner = new JsonScanner(text, options.maxDepth);
  const messages: ArbMessage[] = [];
  const notes = new Map<string, string>();
  const contexts = new Map<string, string>();
  let locale: ArbFile['locale'] = null;
  let at = 0;
  while (at < text.length && /\s/.test(text[at]!)) at += 1;
  if (at < text.length && text[at] !== '{') throw new FormatError('an ARB file is a JSON object');
  for (let string = scanner.next(); string; string = scanner.next()) {
    const segments = string.pointer.split('/').slice(1).map(decodePointerName);
    if (segments.length === 1) {
      const name = segments[0]!;
      if (name === '@@locale') locale = { start: string.start, end: string.end };
      if (name.startsWith('@') || string.value.trim() === '') continue;
      messages.push({ key: name, locator: string.pointer, value: string.value, start: string.start, end: string.end });
    } else if (segments.length === 2 && segments[0]!.startsWith('@') && !segments[0]!.startsWith('@@')) {
      const name = segments[0]!.slice(1);
      if (segments[1] === 'description' && string.value.trim() !== '') notes.set(name, string.value);
      if (segments[1] === 'context' && string.value.trim() !== '') contexts.set(name, string.value);
    }
  }
  return { enc, text, messages, notes, contexts, locale };
}

function customPattern(options: FilterOptions): RegExp | null {
  const setting = options.formatSettings?.tagRegexp;
  return compileTagRegexp(options.tagRegexp ?? (typeof setting === 'string' ? setting : undefined));
}

const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const custom = customPattern(options);
  const { messages, notes, contexts } = await readArb(input, options);
  for (let at = 0; at < messages.length; at += BATCH_UNITS) {
    yield messages.slice(at, at + BATCH_UNITS).map((message, i) => {
      const { source, tags } = icuUnit(message.value, custom);
      const unit: TextUnit = {
        index: at + i,
        key: message.key,
        locator: message.locator,
        source,
        tags,
        target: null,
        translatable: true,
        note: notes.get(message.key) ?? null,
      };
      const context = contexts.get(message.key);
      if (context !== undefined) unit.context = context;
      return unit;
    });
  }
}

/** A language code as Flutter names locales: `pt_BR`, `zh_Hant_TW`. */
export function flutterLocale(language: string): string {
  const [lang = '', ...rest] = language.split(/[-_]/);
  const subtags = rest.map((part) =>
    part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : /^[a-zA-Z]{2}$/.test(part) ? part.toUpperCase() : part,
  );
  return [lang.toLowerCase(), ...subtags].join('_');
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const custom = customPattern(options);
  const { enc, text, messages, locale } = await readArb(original, options);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const message of messages) {
    const translation = translations.get(message.locator);
    if (!translation) continue;
    const { tags } = icuUnit(message.value, custom);
    const value = restoreTags(translation.text, tags);
    if (value === message.value) continue;
    if (tags.some((tag) => tag.kind !== 'standalone') && !isIcu(value)) {
      throw new FormatError(`message ${message.key}: the translation's plural/select tags do not form a well-formed ICU message`);
    }
    if (value !== message.value) edits.push({ start: message.start, end: message.end, text: JSON.stringify(value) });
  }
  // Only a file that changes gets the target locale: writing the sources back gives the original.
  if (locale && options.targetLanguage && edits.length > 0) {
    edits.push({ start: locale.start, end: locale.end, text: JSON.stringify(flutterLocale(options.targetLanguage)) });
    edits.sort((a, b) => a.start - b.start);
  }
  await writeEdits(text, edits, enc, output);
}

export const arbFilter: FormatFilter = {
  name: 'arb',
  extensions: ['arb'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    return /^\s*\{\s*"@@/.test(firstBytes.subarray(enc?.bom.length ?? 0).toString('utf8'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * JSON key-value files (`.json`). Every non-blank string value is a unit; numbers, booleans,
 * nulls and keys are not translated. The key is the path of names joined by dots (`\.` for a dot
 * and `\\` for a backslash inside a name; array items by index, `menu.items.0`); the locator is the
 * RFC 6901 JSON pointer (`/menu/items/0`).
 *
 * The file is scanned by a small tokenizer that remembers where each string literal sits, so
 * write-back replaces exactly those literals and leaves every other byte (white space, key order,
 * number spelling, escapes in untouched strings) as it was. The whole file is read into memory,
 * so it is bounded by `maxJsonBytes` (default 50 MiB).
 */

export const DEFAULT_MAX_JSON_BYTES = 50 * 1024 * 1024;
/** Default for FilterOptions.maxDepth: deeper nesting is refused rather than risking the stack. */
export const DEFAULT_MAX_JSON_DEPTH = 512;
/**
 * Nesting refused whatever maxDepth says (OPENTMS_IMPORT_MAX_DEPTH goes up to 1,000): the scanner
 * needs no call stack, but a path this deep is no translatable file.
 */
const MAX_READABLE_DEPTH = 10_000;
/** A key path (names joined) longer than this is refused: every unit stores its key. */
export const MAX_JSON_KEY_CHARS = 1_000;
/**
 * All key paths of a file together may hold this many characters per character of the file (plus
 * a megabyte): keys repeat their parents' names, so without it a small file of deeply nested or
 * long names could make the import store far more than the file itself.
 */
const KEY_CHARS_PER_FILE_CHAR = 4;

interface JsonString {
  /** The dotted key (`dottedKey` of the path). */
  key: string;
  /** The JSON pointer (`jsonPointer` of the path). */
  pointer: string;
  start: number;
  end: number;
  value: string;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

function keyName(name: string): string {
  return name.includes('\\') || name.includes('.') ? name.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : name;
}

function pointerName(name: string): string {
  return name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name;
}

/** An object or array being read, with the key and pointer of its own path (built once, not per value). */
interface Container {
  isArray: boolean;
  /** Names in the container's path (its depth). */
  depth: number;
  key: string;
  pointer: string;
  /** Characters of the path's names plus one per name (what MAX_JSON_KEY_CHARS bounds). */
  pathChars: number;
  /** Object: the keys seen (duplicates are refused). */
  keys: Set<string> | null;
  /** The name of the value being read: the property name, or the array index. */
  name: string;
  index: number;
}

/**
 * Reads the string values of a JSON document one at a time (`next`), with their key, pointer and
 * raw position, in document order: nothing is held but the stack of open containers, so a file of
 * millions of strings streams. Iterative, so nesting costs no call stack.
 */
export class JsonScanner {
  private at = 0;
  private readonly stack: Container[] = [];
  /** Whether a value starts at `at` (else a value just ended). */
  private expectValue = true;
  private finished = false;
  private keyBudget: number;

  constructor(
    private readonly text: string,
    private readonly maxDepth = DEFAULT_MAX_JSON_DEPTH,
  ) {
    this.keyBudget = text.length * KEY_CHARS_PER_FILE_CHAR + 1_000_000;
  }

  /** The next string value, or null at the end of the document. Throws FormatError. */
  next(): JsonString | null {
    while (!this.finished) {
      if (!this.expectValue) this.afterValue();
      else {
        this.expectValue = false;
        const found = this.value();
        if (found) return found;
      }
    }
    return null;
  }

  private fail(message: string): never {
    throw new FormatError(`malformed JSON: ${message}`, positionOf(this.text, this.at));
  }

  /** A well-formed file over one of the import's limits. */
  private refuse(message: string): never {
    throw new FormatError(`the JSON file is refused: ${message}`, positionOf(this.text, this.at));
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private readString(): { value: string; start: number; end: number } {
    // A loop, not a regular expression: a regex over a megabyte-long literal overflows the stack.
    const text = this.text;
    const start = this.at;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code) || code < 0x20) {
        this.at = start;
        return this.fail('bad string literal');
      }
      if (code === 0x22) break;
      if (code === 0x5c) {
        escaped = true;
        const escape = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(escape) && escape !== '') i += 2;
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          this.at = start;
          return this.fail('bad string literal');
        }
        continue;
      }
      i += 1;
    }
    this.at = i + 1;
    // Without escapes the literal's content is its value.
    const value = escaped ? (JSON.parse(text.slice(start, this.at)) as string) : text.slice(start + 1, i);
    return { value, start, end: this.at };
  }

  /** Reads `"name":` in an object; the value comes next. */
  private readProperty(container: Container): void {
    this.skipWhitespace();
    if (this.text[this.at] !== '"') this.fail('expected a property name');
    const keyAt = this.at;
    const { value: name } = this.readString();
    if (container.keys!.has(name)) {
      this.at = keyAt;
      this.fail(`duplicate key "${name}"`);
    }
    container.keys!.add(name);
    container.name = name;
    this.skipWhitespace();
    if (this.text[this.at] !== ':') this.fail('expected ":"');
    this.at += 1;
    this.expectValue = true;
  }

  /** Reads the value at `at`: a string is returned, a container is opened, anything else skipped. */
  private value(): JsonString | null {
    const text = this.text;
    const parent = this.stack[this.stack.length - 1];
    const depth = parent ? parent.depth + 1 : 0;
    if (depth > this.maxDepth) this.refuse(`nested deeper than ${this.maxDepth} levels (the import's nesting limit)`);
    if (depth > MAX_READABLE_DEPTH) throw new FormatError('the JSON file is refused: it is nested too deeply to be read');
    this.skipWhitespace();
    const char = text[this.at];
    if (char === '{' || char === '[') {
      const isArray = char === '[';
      this.at += 1;
      this.skipWhitespace();
      if (text[this.at] === (isArray ? ']' : '}')) {
        this.at += 1;
        return null;
      }
      const container: Container = {
        isArray,
        depth,
        key: parent ? this.childKey(parent) : '',
        pointer: parent ? `${parent.pointer}/${pointerName(parent.name)}` : '',
        pathChars: parent ? parent.pathChars + parent.name.length + 1 : 0,
        keys: isArray ? null : new Set(),
        name: '0',
        index: 0,
      };
      this.stack.push(container);
      if (isArray) this.expectValue = true;
      else this.readProperty(container);
      return null;
    }
    if (char === '"') {
      const keyChars = parent ? parent.pathChars + parent.name.length + 1 : 0;
      if (keyChars > MAX_JSON_KEY_CHARS) this.refuse(`a key path is longer than ${MAX_JSON_KEY_CHARS} characters`);
      this.keyBudget -= keyChars;
      if (this.keyBudget < 0) {
        this.refuse(`the key paths of the strings add up to more than ${KEY_CHARS_PER_FILE_CHAR} times the file's size`);
      }
      const key = parent ? this.childKey(parent) : '';
      const pointer = parent ? `${parent.pointer}/${pointerName(parent.name)}` : '';
      return { key, pointer, ...this.readString() };
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, this.at)) {
        this.at += literal.length;
        return null;
      }
    }
    NUMBER.lastIndex = this.at;
    if (NUMBER.exec(text)) {
      this.at = NUMBER.lastIndex;
      return null;
    }
    return this.fail(this.at >= text.length ? 'unexpected end of file' : `unexpected character "${char}"`);
  }

  private childKey(parent: Container): string {
    const name = keyName(parent.name);
    return parent.depth === 0 ? name : `${parent.key}.${name}`;
  }

  /** After a value: `,` and the next one, or the end of its container (or of the document). */
  private afterValue(): void {
    const container = this.stack[this.stack.length - 1];
    this.skipWhitespace();
    if (!container) {
      if (this.at < this.text.length) this.fail('unexpected text after the end of the document');
      this.finished = true;
      return;
    }
    const char = this.text[this.at];
    if (char === ',') {
      this.at += 1;
      if (container.isArray) {
        container.index += 1;
        container.name = String(container.index);
        this.expectValue = true;
      } else this.readProperty(container);
      return;
    }
    if (char === (container.isArray ? ']' : '}')) {
      this.at += 1;
      this.stack.pop();
      return;
    }
    this.fail(container.isArray ? 'expected "," or "]"' : 'expected "," or "}"');
  }
}

/** Every string value of the document, with its key, pointer and raw position, in document order. */
export function scanJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): JsonString[] {
  const scanner = new JsonScanner(text, maxDepth);
  const found: JsonString[] = [];
  for (let string = scanner.next(); string; string = scanner.next()) found.push(string);
  return found;
}

export function dottedKey(path: readonly string[]): string {
  return path.map(keyName).join('.');
}

export function jsonPointer(path: readonly string[]): string {
  return path.map((name) => `/${pointerName(name)}`).join('');
}

function chooseJsonEncoding(head: Buffer): TextEncoding {
  return encodingFromBom(head) ?? encoding('utf-8');
}

async function readWhole(input: Readable, options: FilterOptions): Promise<{ enc: TextEncoding; text: string }> {
  const limit = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, chooseJsonEncoding, {
    limitBytes: limit,
    tooLarge: `the JSON file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

function translatableStrings(text: string, options: FilterOptions): JsonString[] {
  return scanJson(text, options.maxDepth).filter((string) => string.value.trim() !== '');
}

/** Units per batch of `parseBatches`. */
const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { text } = await readWhole(input, options);
  const scanner = new JsonScanner(text, options.maxDepth);
  let index = 0;
  let batch: TextUnit[] = [];
  for (let string = scanner.next(); string; string = scanner.next()) {
    if (string.value.trim() === '') continue;
    const { source, tags } = tagsByPattern(string.value, pattern);
    batch.push({ index: index++, key: string.key, locator: string.pointer, source, tags, target: null, translatable: true, note: null });
    if (batch.length >= BATCH_UNITS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { enc, text } = await readWhole(original, options);
  const strings = translatableStrings(text, options);
  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    let copied = 0;
    for (const string of strings) {
      const translation = translations.get(string.pointer);
      if (!translation) continue;
      const { tags } = tagsByPattern(string.value, pattern);
      yield encodeText(text.slice(copied, string.start) + JSON.stringify(restoreTags(translation.text, tags)), enc);
      copied = string.end;
    }
    yield encodeText(text.slice(copied), enc);
  }
  await pipeline(rewritten(), output);
}

export const jsonFilter: FormatFilter = {
  name: 'json',
  extensions: ['json'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    const head = firstBytes
      .subarray(enc?.bom.length ?? 0)
      .toString('utf8')
      .trimStart();
    return head.startsWith('{') && /^\{\s*("|\})/.test(head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

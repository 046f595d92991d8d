import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeStream, encodeText, encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError } from './types.js';
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
/** A key path (names joined) longer than this is refused: every unit stores its key. */
export const MAX_JSON_KEY_CHARS = 1_000;
/**
 * All key paths of a file together may hold this many characters per character of the file (plus
 * a megabyte): keys repeat their parents' names, so without it a small file of deeply nested or
 * long names could make the import store far more than the file itself.
 */
const KEY_CHARS_PER_FILE_CHAR = 4;

interface JsonString {
  path: string[];
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

/** Every string value of the document, with its path and raw position, in document order. */
export function scanJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): JsonString[] {
  const found: JsonString[] = [];
  let at = 0;
  let keyBudget = text.length * KEY_CHARS_PER_FILE_CHAR + 1_000_000;
  const fail = (message: string): never => {
    throw new FormatError(`malformed JSON: ${message}`, positionOf(text, at));
  };
  /** A well-formed file over one of the import's limits. */
  const refuse = (message: string): never => {
    throw new FormatError(`the JSON file is refused: ${message}`, positionOf(text, at));
  };
  const skipWhitespace = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const readString = (): { value: string; start: number; end: number } => {
    // A loop, not a regular expression: a regex over a megabyte-long literal overflows the stack.
    const start = at;
    let i = at + 1;
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code) || code < 0x20) {
        at = start;
        return fail('bad string literal');
      }
      if (code === 0x22) break;
      if (code === 0x5c) {
        const escape = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(escape) && escape !== '') i += 2;
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          at = start;
          return fail('bad string literal');
        }
        continue;
      }
      i += 1;
    }
    at = i + 1;
    return { value: JSON.parse(text.slice(start, at)) as string, start, end: at };
  };
  const readValue = (path: string[]): void => {
    if (path.length > maxDepth) refuse(`nested deeper than ${maxDepth} levels (the import's nesting limit)`);
    skipWhitespace();
    const char = text[at];
    if (char === '{') {
      at += 1;
      skipWhitespace();
      const keys = new Set<string>();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[at] !== '"') fail('expected a property name');
        const keyAt = at;
        const { value: key } = readString();
        if (keys.has(key)) {
          at = keyAt;
          fail(`duplicate key "${key}"`);
        }
        keys.add(key);
        skipWhitespace();
        if (text[at] !== ':') fail('expected ":"');
        at += 1;
        readValue([...path, key]);
        skipWhitespace();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        if (text[at] === '}') {
          at += 1;
          return;
        }
        fail('expected "," or "}"');
      }
    }
    if (char === '[') {
      at += 1;
      skipWhitespace();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (let index = 0; ; index += 1) {
        readValue([...path, String(index)]);
        skipWhitespace();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        if (text[at] === ']') {
          at += 1;
          return;
        }
        fail('expected "," or "]"');
      }
    }
    if (char === '"') {
      let keyChars = path.length;
      for (const name of path) keyChars += name.length;
      if (keyChars > MAX_JSON_KEY_CHARS) refuse(`a key path is longer than ${MAX_JSON_KEY_CHARS} characters`);
      keyBudget -= keyChars;
      if (keyBudget < 0) refuse(`the key paths of the strings add up to more than ${KEY_CHARS_PER_FILE_CHAR} times the file's size`);
      found.push({ path, ...readString() });
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = at;
    if (NUMBER.exec(text)) {
      at = NUMBER.lastIndex;
      return;
    }
    fail(at >= text.length ? 'unexpected end of file' : `unexpected character "${char}"`);
  };
  try {
    readValue([]);
  } catch (error) {
    // Only a maxDepth far above OPENTMS_IMPORT_MAX_DEPTH's range gets here.
    if (error instanceof RangeError) throw new FormatError('the JSON file is refused: it is nested too deeply to be read');
    throw error;
  }
  skipWhitespace();
  if (at < text.length) fail('unexpected text after the end of the document');
  return found;
}

export function dottedKey(path: readonly string[]): string {
  return path.map((name) => name.replace(/\\/g, '\\\\').replace(/\./g, '\\.')).join('.');
}

export function jsonPointer(path: readonly string[]): string {
  return path.map((name) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
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

async function* parse(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit> {
  const pattern = compileTagRegexp(options.tagRegexp);
  const { text } = await readWhole(input, options);
  let index = 0;
  for (const string of translatableStrings(text, options)) {
    const { source, tags } = tagsByPattern(string.value, pattern);
    yield {
      index: index++,
      key: dottedKey(string.path),
      locator: jsonPointer(string.path),
      source,
      tags,
      target: null,
      translatable: true,
      note: null,
    };
  }
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
      const translation = translations.get(jsonPointer(string.path));
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
  parse,
  write,
};

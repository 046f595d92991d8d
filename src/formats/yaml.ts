import type { Readable, Writable } from 'node:stream';
import { Composer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { CST, Document, Node as YamlNode, Scalar } from 'yaml';
import { decodeStream, encoding, encodingFromBom, writeEdits } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, restoreTags, tagsByPattern } from './inline-tags.js';
import { dottedKey, jsonPointer } from './json.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from './types.js';

/**
 * YAML resource files (`.yml`, `.yaml`), Rails i18n locale files among them. Every string scalar
 * that is not blank is a unit: its key is the path of mapping keys and sequence indexes joined by
 * dots (json.ts's `dottedKey`), its locator the JSON pointer of the path (`/en/greeting`; documents
 * after the first are prefixed with their number, `2:/title`). A Rails file (one root key that is
 * a locale code, `en:`) has that key left out of the unit keys; with YamlSettingsDto
 * `updateRootElementLang` it is replaced by the target language on write.
 *
 * Parsing uses the `yaml` package (YAML 1.1 rules for what is a string, as Ruby's Psych reads
 * Rails files); nodes carry their source ranges, so write-back splices only the translated scalars
 * and every other byte (comments, quoting, anchors, aliases, order) stays as it was. Aliases are
 * never expanded: an aliased value is one unit, at its anchor.
 */

/** The largest file accepted (the `yaml` package builds a node tree of the whole document). */
export const DEFAULT_MAX_YAML_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_YAML_DEPTH = 512;
/** A key path longer than this is refused: every unit stores its key. */
export const MAX_YAML_KEY_CHARS = 1_000;
const KEY_CHARS_PER_FILE_CHAR = 4;

/**
 * Options of this filter beyond FilterOptions: `maxYamlBytes` (the import may pass it; default
 * DEFAULT_MAX_YAML_BYTES). The YamlSettingsDto fields come in `formatSettings`.
 */
export interface YamlFilterOptions extends FilterOptions {
  maxYamlBytes?: number;
}

/** Ruby i18n interpolations `%{name}` and format references `%<name>d`: code, so standalone tags. */
const RUBY_INTERPOLATION = String.raw`%\{[^{}\s]{1,200}\}|%<[^<>\s]{1,200}>[-+ 0#]{0,5}\d{0,5}(?:\.\d{1,5})?[a-zA-Z]`;

/** A locale code as Rails and most i18n libraries name their root key (`en`, `pt-BR`, `zh_Hant_TW`). */
const LOCALE_KEY = /^([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{2,8}){0,3}$/;
/** ISO 639-1 codes: a two-letter root key is a locale only when it is one of them (`ui:` is not). */
const ISO_639_1 = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es ' +
    'et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ' +
    'ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ' +
    'ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st ' +
    'su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
  ).split(' '),
);

/**
 * Whether a root key names a locale: an ISO 639-1 language (with optional script and region
 * subtags), or a three-letter code equal to the job's source language.
 */
function isLocaleName(name: string, sourceLanguage: string | undefined): boolean {
  const match = LOCALE_KEY.exec(name);
  if (!match) return false;
  const language = match[1]!.toLowerCase();
  if (language.length === 2) return ISO_639_1.has(language);
  const normalize = (code: string): string => code.toLowerCase().replace(/_/g, '-');
  return sourceLanguage !== undefined && normalize(sourceLanguage).split('-')[0] === language;
}

interface YamlSettings {
  tagPattern: RegExp;
  includeKey: RegExp | null;
  excludeValue: RegExp | null;
  updateRootElementLang: boolean;
  localeFormat: string | null;
}

function fullMatchRegexp(source: unknown, name: string): RegExp | null {
  if (typeof source !== 'string' || source === '') return null;
  try {
    return new RegExp(`^(?:${source})$`, 'u');
  } catch {
    throw new FormatError(`${name} is not a valid regular expression: ${source}`);
  }
}

function settingsOf(options: FilterOptions): YamlSettings {
  const section = options.formatSettings ?? {};
  const tagRegexp = options.tagRegexp ?? (typeof section.tagRegexp === 'string' ? section.tagRegexp : undefined);
  const custom = compileTagRegexp(tagRegexp);
  return {
    tagPattern: new RegExp(custom ? `${RUBY_INTERPOLATION}|(?:${custom.source})` : RUBY_INTERPOLATION, 'gu'),
    includeKey: fullMatchRegexp(section.includeKeyRegexp, 'includeKeyRegexp'),
    excludeValue: fullMatchRegexp(section.excludeValueRegexp, 'excludeValueRegexp'),
    updateRootElementLang: section.updateRootElementLang === true,
    localeFormat: typeof section.localeFormat === 'string' ? section.localeFormat : null,
  };
}

/** One translatable string scalar of the file. */
interface YamlString {
  key: string;
  locator: string;
  /** The unit's text: the value, without the line breaks a block scalar ends with (`trailing`). */
  value: string;
  trailing: string;
  note: string | null;
  /** Source range of the scalar (props such as `&anchor` and `!!str` excluded). */
  start: number;
  end: number;
  type: Scalar.Type;
  inFlow: boolean;
}

interface YamlFile {
  enc: TextEncoding;
  text: string;
  strings: YamlString[];
  /** Rails root keys (`en:`) of the documents, for updateRootElementLang. */
  localeRoots: Array<{ start: number; end: number; type: Scalar.Type; inFlow: boolean }>;
}

async function readWhole(input: Readable, options: YamlFilterOptions): Promise<{ enc: TextEncoding; text: string }> {
  const limit = options.maxYamlBytes ?? DEFAULT_MAX_YAML_BYTES;
  const { encoding: enc, chunks } = await decodeStream(input, (head) => encodingFromBom(head) ?? encoding('utf-8'), {
    limitBytes: limit,
    tooLarge: `the YAML file is larger than ${limit} bytes`,
  });
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { enc, text: parts.join('') };
}

/**
 * The deepest nesting of the CST, walked without recursion: the `yaml` composer recurses per
 * level, and near the end of the stack V8 can abort the whole process (a regular expression
 * compiled there fails as "out of memory"), so depth is checked before composing.
 */
function checkDepth(tokens: readonly CST.Token[], maxDepth: number, lines: LineCounter): void {
  const stack: Array<{ token: CST.Token; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (token.type === 'document') {
      if (token.value) stack.push({ token: token.value, depth });
      continue;
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > maxDepth) {
      const { line, col } = lines.linePos(token.offset);
      throw new FormatError(`the YAML file is refused: nested deeper than ${maxDepth} levels (the import's nesting limit)`, {
        line,
        column: col,
      });
    }
    for (const item of token.items) {
      if (item.key) stack.push({ token: item.key, depth: depth + 1 });
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
    }
  }
}

function keyNameOf(node: unknown, text: string): string {
  if (isScalar(node)) {
    if (node.type === 'PLAIN' && typeof node.source === 'string') return node.source;
    return String(node.value);
  }
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? text.slice(range[0], Math.min(range[1], range[0] + MAX_YAML_KEY_CHARS + 1)) : '';
}

function commentText(...comments: Array<string | null | undefined>): string | null {
  const lines = comments
    .filter((comment): comment is string => typeof comment === 'string')
    .flatMap((comment) => comment.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length ? lines.join('\n') : null;
}

function isStringScalar(node: Scalar): node is Scalar<string> {
  return typeof node.value === 'string' && (node.tag === undefined || node.tag === 'tag:yaml.org,2002:str');
}

function isLocaleRoot(doc: Document.Parsed, sourceLanguage: string | undefined): { key: Scalar } | null {
  const root = doc.contents;
  if (!isMap(root) || root.items.length !== 1) return null;
  const pair = root.items[0]!;
  if (!isScalar(pair.key) || !isMap(pair.value)) return null;
  const name = keyNameOf(pair.key, '');
  return isLocaleName(name, sourceLanguage) ? { key: pair.key } : null;
}

function readYaml(
  text: string,
  options: YamlFilterOptions,
  settings: YamlSettings,
): YamlString[] & { localeRoots: YamlFile['localeRoots'] } {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_YAML_DEPTH;
  const lines = new LineCounter();
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  checkDepth(tokens, maxDepth, lines);
  const docs = Array.from(new Composer({ version: '1.1', uniqueKeys: false, prettyErrors: false }).compose(tokens));
  const strings: YamlString[] = [];
  const localeRoots: YamlFile['localeRoots'] = [];
  let keyBudget = text.length * KEY_CHARS_PER_FILE_CHAR + 1_000_000;
  const fail = (message: string, offset: number): never => {
    const { line, col } = lines.linePos(offset);
    throw new FormatError(message, { line, column: col });
  };

  docs.forEach((doc, docIndex) => {
    const error = doc.errors[0];
    if (error) fail(`malformed YAML: ${error.message}`, error.pos[0]);
    const prefix = docIndex === 0 ? '' : `${docIndex + 1}:`;
    const localeRoot = isLocaleRoot(doc, options.sourceLanguage);
    const anchors = new Set<string>();
    if (localeRoot) {
      const range = localeRoot.key.range!;
      localeRoots.push({ start: range[0], end: range[1], type: localeRoot.key.type ?? 'PLAIN', inFlow: false });
    }
    /** `keyPath`: the dotted key (names after a Rails root); `pointer`: the full path's pointer. */
    const walk = (node: unknown, keyPath: string, keyChars: number, pointer: string, inFlow: boolean, note: string | null): void => {
      if (isAlias(node)) {
        // The composer accepts an alias to nothing (only resolving it would fail); so does not this filter.
        if (!anchors.has(node.source))
          fail(`malformed YAML: the alias *${node.source} refers to no anchor before it`, node.range?.[0] ?? 0);
        return;
      }
      const anchor = (node as YamlNode | null)?.anchor;
      if (anchor) anchors.add(anchor);
      if (isMap(node) || isSeq(node)) {
        const flow = inFlow || node.flow === true;
        const seen = isMap(node) ? new Set<string>() : null;
        node.items.forEach((item: unknown, index: number) => {
          let name: string;
          let value: unknown;
          let itemNote: string | null;
          if (seen) {
            const pair = item as { key: unknown; value: unknown };
            value = pair.value;
            // A merge key (`<<: *base`) refers to an alias: nothing of its own.
            if (isScalar(pair.key) && pair.key.value === undefined && pair.key.source === '<<') return;
            name = keyNameOf(pair.key, text);
            if (isAlias(pair.key)) walk(pair.key, keyPath, keyChars, pointer, flow, null);
            else if ((pair.key as YamlNode | null)?.anchor) anchors.add((pair.key as YamlNode).anchor!);
            const keyNode = pair.key as YamlNode | null;
            if (seen.has(name)) fail(`malformed YAML: duplicate key "${name}"`, keyNode?.range?.[0] ?? 0);
            seen.add(name);
            itemNote = commentText(index === 0 ? node.commentBefore : null, keyNode?.commentBefore, (value as YamlNode | null)?.comment);
          } else {
            value = item;
            name = String(index);
            itemNote = commentText(
              index === 0 ? node.commentBefore : null,
              (item as YamlNode | null)?.commentBefore,
              (item as YamlNode | null)?.comment,
            );
          }
          if (value === null || value === undefined) return;
          const childChars = keyChars + name.length + 1;
          if (childChars > MAX_YAML_KEY_CHARS) {
            fail(
              `the YAML file is refused: a key path is longer than ${MAX_YAML_KEY_CHARS} characters`,
              (value as YamlNode).range?.[0] ?? 0,
            );
          }
          const childKey = keyPath === '' ? dottedKey([name]) : `${keyPath}.${dottedKey([name])}`;
          walk(value, childKey, childChars, pointer + jsonPointer([name]), flow, itemNote);
        });
        return;
      }
      if (!isScalar(node) || !isStringScalar(node) || node.value.trim() === '') return;
      keyBudget -= keyChars;
      if (keyBudget < 0) {
        fail(
          `the YAML file is refused: the key paths of the strings add up to more than ${KEY_CHARS_PER_FILE_CHAR} times the file's size`,
          node.range![0],
        );
      }
      if (settings.includeKey && !settings.includeKey.test(keyPath)) return;
      if (settings.excludeValue?.test(node.value)) return;
      const range = node.range!;
      const type = node.type ?? 'PLAIN';
      let value = node.value;
      let trailing = '';
      if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
        let end = value.length;
        while (end > 0 && value.charCodeAt(end - 1) === 0x0a) end -= 1;
        trailing = value.slice(end);
        value = value.slice(0, end);
      }
      strings.push({ key: keyPath, locator: prefix + pointer, value, trailing, note, start: range[0], end: range[1], type, inFlow });
    };
    const root = doc.contents;
    if (localeRoot && isMap(root)) {
      const pair = root.items[0]!;
      walk(pair.value, '', 0, jsonPointer([keyNameOf(pair.key, text)]), false, null);
    } else walk(root, '', 0, '', false, commentText(doc.commentBefore));
  });
  strings.sort((a, b) => a.start - b.start);
  return Object.assign(strings, { localeRoots });
}

async function readFile(input: Readable, options: YamlFilterOptions, settings: YamlSettings): Promise<YamlFile> {
  const { enc, text } = await readWhole(input, options);
  const strings = readYaml(text, options, settings);
  return { enc, text, strings, localeRoots: strings.localeRoots };
}

const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: YamlFilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = settingsOf(options);
  const { strings } = await readFile(input, options, settings);
  let batch: TextUnit[] = [];
  strings.forEach((string, index) => {
    const { source, tags } = tagsByPattern(string.value, settings.tagPattern);
    batch.push({ index, key: string.key, locator: string.locator, source, tags, target: null, translatable: true, note: string.note });
  });
  for (let at = 0; at < batch.length; at += BATCH_UNITS) yield batch.slice(at, at + BATCH_UNITS);
  batch = [];
}

// ---------------------------------------------------------------------------------------------
// Rendering a translation as a YAML scalar that reads back as the same string.

/** Characters YAML may hold unescaped (c-printable), minus the line breaks of YAML 1.1 (NEL, LS, PS). */
function isPrintable(code: number): boolean {
  if (code === 0x09 || code === 0x0a || code === 0x0d) return true;
  if (code < 0x20 || code === 0x7f) return false;
  if (code >= 0x80 && code <= 0x9f) return false; // C1 controls, NEL (0x85) included
  if (code === 0x2028 || code === 0x2029 || code === 0xfeff) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false; // checked in pairs by the callers
  return code !== 0xfffe && code !== 0xffff;
}

/** Whether every character is printable (surrogates only in valid pairs) and none is a line break (unless `breaks`). */
function allPrintable(text: string, breaks: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 1;
        continue;
      }
      return false;
    }
    if (!isPrintable(code)) return false;
    if (!breaks && (code === 0x0a || code === 0x0d)) return false;
  }
  return true;
}

/** Words that a plain scalar would read as booleans or null (YAML 1.1 and 1.2). */
const RESERVED_PLAIN = new Set(['y', 'n', 'yes', 'no', 'true', 'false', 'on', 'off', 'null']);
/**
 * A plain scalar safe in any context: starts with a letter, holds no indicator that could end or
 * change it (`:` `#`, and in flow context `,[]{}`), no tab, no leading or trailing space.
 */
const PLAIN_BLOCK = /^\p{L}[^:#\t\n\r]*$/u;
const PLAIN_FLOW = /^\p{L}[^:#\t\n\r,[\]{}]*$/u;

function plainSafe(value: string, inFlow: boolean): boolean {
  if (!(inFlow ? PLAIN_FLOW : PLAIN_BLOCK).test(value)) return false;
  if (value.endsWith(' ') || RESERVED_PLAIN.has(value.toLowerCase())) return false;
  return allPrintable(value, false);
}

const DOUBLE_ESCAPES: Record<number, string> = {
  0x00: '\\0',
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x1b: '\\e',
  0x22: '\\"',
  0x5c: '\\\\',
  0x85: '\\N',
  0xa0: '\\_',
  0x2028: '\\L',
  0x2029: '\\P',
};

export function doubleQuoted(value: string): string {
  let out = '"';
  let last = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    let escape: string | undefined;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = value.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 1;
        continue;
      }
      escape = `\\u${code.toString(16).padStart(4, '0')}`;
    } else if (code === 0x22 || code === 0x5c || (code !== 0x09 && code !== 0xa0 && !isPrintable(code)) || code === 0x0a || code === 0x0d) {
      escape = DOUBLE_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
    }
    if (escape === undefined) continue;
    out += value.slice(last, i) + escape;
    last = i + 1;
  }
  return `${out + value.slice(last)}"`;
}

const BLOCK_HEADER = /^([|>])([1-9]?)([+-]?)([1-9]?)/;

/**
 * A block scalar (`|` or `>`) holding `value`, in the original's style and indentation, or null
 * when the value cannot be written that way (then double quotes are used).
 */
function blockScalar(value: string, original: string, folded: boolean): string | null {
  const header = BLOCK_HEADER.exec(original);
  if (!header || header[2] || header[4]) return null; // explicit indentation: keep it simple
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const firstBreak = original.indexOf('\n');
  if (firstBreak === -1) return null;
  const headerRest = original.slice(header[0].length, original[firstBreak - 1] === '\r' ? firstBreak - 1 : firstBreak);
  const contentLines = original.slice(firstBreak + 1).split('\n');
  const firstContent = contentLines.find((line) => line.trim() !== '');
  if (firstContent === undefined) return null;
  const indent = firstContent.length - firstContent.trimStart().length;
  if (indent === 0 || firstContent.slice(0, indent).includes('\t')) return null;
  // Blank lines at the end of the original that are not part of its value stay after the new one.
  let trailingBlank = 0;
  for (let i = contentLines.length - 2; i >= 0 && contentLines[i]!.trim() === ''; i--) trailingBlank += 1;

  let trailingBreaks = 0;
  while (value.endsWith('\n', value.length - trailingBreaks)) trailingBreaks += 1;
  const body = value.slice(0, value.length - trailingBreaks);
  if (body === '' || body.startsWith('\n') || body.startsWith(' ') || body.startsWith('\t')) return null;
  if (!allPrintable(body, true) || body.includes('\r')) return null;
  let lines = body.split('\n');
  if (folded) {
    if (lines.some((line) => line.startsWith(' ') || line.startsWith('\t'))) return null;
    lines = body.replace(/\n+/g, (breaks) => `\n${breaks}`).split('\n');
  }
  const chomp = trailingBreaks === 0 ? '-' : trailingBreaks === 1 ? '' : '+';
  const pad = ' '.repeat(indent);
  let out = `${header[1]}${chomp}${headerRest}${eol}`;
  out += lines.map((line) => (line === '' ? '' : pad + line)).join(eol) + eol;
  if (chomp === '+') out += eol.repeat(trailingBreaks - 1);
  else out += eol.repeat(trailingBlank);
  return out;
}

/** `value` as a scalar of the original's style where it reads back the same, else double-quoted. */
export function renderScalar(value: string, type: Scalar.Type, original: string, inFlow: boolean): string {
  switch (type) {
    case 'PLAIN':
      if (plainSafe(value, inFlow)) return value;
      break;
    case 'QUOTE_SINGLE':
      if (allPrintable(value, false)) return `'${value.replace(/'/g, "''")}'`;
      break;
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED': {
      const block = blockScalar(value, original, type === 'BLOCK_FOLDED');
      if (block !== null) return block;
      // A block scalar's range ends after its line break; a quoted one needs it back.
      const eol = original.endsWith('\r\n') ? '\r\n' : original.endsWith('\n') ? '\n' : '';
      return doubleQuoted(value) + eol;
    }
    default:
      break;
  }
  return doubleQuoted(value);
}

/** The target language as the root key: `localeFormat` RFC_5646 (`pt-BR`), MEMSOURCE (`pt_br`), else as given. */
function localeKey(language: string, format: string | null): string {
  const parts = language.split(/[-_]/);
  if (format === 'MEMSOURCE') return parts.map((part) => part.toLowerCase()).join('_');
  if (format === 'RFC_5646' || format === 'ANDROID_QUALIFIER' || format === 'ANDROID_QUALIFIER_BCP') {
    const [lang = '', ...rest] = parts;
    const subtags = rest.map((part) =>
      part.length === 4
        ? part[0]!.toUpperCase() + part.slice(1).toLowerCase()
        : part.length === 2
          ? part.toUpperCase()
          : part.toLowerCase(),
    );
    if (format === 'ANDROID_QUALIFIER_BCP') return ['b', lang.toLowerCase(), ...subtags].join('+');
    if (format === 'ANDROID_QUALIFIER') {
      return [lang.toLowerCase(), ...subtags.map((part) => (part.length === 2 ? `r${part}` : part))].join('-');
    }
    return [lang.toLowerCase(), ...subtags].join('-');
  }
  return language;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: YamlFilterOptions = {},
): Promise<void> {
  const settings = settingsOf(options);
  const { enc, text, strings, localeRoots } = await readFile(original, options, settings);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const string of strings) {
    const translation = translations.get(string.locator);
    if (!translation) continue;
    const { tags } = tagsByPattern(string.value, settings.tagPattern);
    let value = restoreTags(translation.text, tags);
    if (value === string.value) continue;
    if (!value.endsWith('\n')) value += string.trailing; // the original spelling stays
    const source = text.slice(string.start, string.end);
    edits.push({ start: string.start, end: string.end, text: renderScalar(value, string.type, source, string.inFlow) });
  }
  if (settings.updateRootElementLang && options.targetLanguage && edits.length > 0) {
    const name = localeKey(options.targetLanguage, settings.localeFormat);
    for (const root of localeRoots) {
      const source = text.slice(root.start, root.end);
      edits.push({
        start: root.start,
        end: root.end,
        text: LOCALE_KEY.test(name) && plainSafe(name, false) ? name : renderScalar(name, root.type, source, false),
      });
    }
    edits.sort((a, b) => a.start - b.start);
  }
  await writeEdits(text, edits, enc, output);
}

export const yamlFilter: FormatFilter = {
  name: 'yaml',
  extensions: ['yml', 'yaml'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    const head = firstBytes.subarray(enc?.bom.length ?? 0).toString('utf8');
    // A %YAML directive, or a Rails locale file: comments, then `en:` and an indented key.
    if (/^%YAML[ \t]+1\.\d/.test(head)) return true;
    return /^(?:#[^\n]*\n|[ \t]*\r?\n)*(?:---[ \t]*\r?\n)?["']?[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,3}["']?:[ \t]*\r?\n(?:[ \t]*#[^\n]*\n)*[ ]+["']?[\w-]+["']?:/.test(
      head,
    );
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

import type { Readable, Writable } from 'node:stream';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, splitTokens } from './inline-tags.js';
import { unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import {
  UnitBuilder,
  assertPairsNest,
  beyondEncoding,
  childElements,
  planPlurals,
  pluralCategories,
  pluralEdits,
  readXmlResource,
  scanXmlResource,
  sniffXmlRoot,
  tagRegexpSetting,
  writeEdited,
} from './xml-resource.js';
import type { Edit, PluralSlot, XmlElement, XmlNode, XmlOther } from './xml-resource.js';

/**
 * Android string resources (`res/values*\/strings.xml`): `<string name>`, `<plurals name>` with
 * one unit per `<item quantity>`, `<string-array name>` with one unit per `<item>`. The text of a
 * unit is the string Android shows: XML-decoded, then Android's own escapes and quoting resolved
 * (`\'`, `\"`, `\\`, `\n`, `\t`, `\@`, `\?`, `\uXXXX`, `"…"` keeping white space, runs of white space
 * collapsed to one space, leading and trailing white space dropped). Write-back encodes back the
 * same way. docs/formats/xml-resources.md.
 */

const RESOURCE_ELEMENTS = new Set(['string', 'plurals', 'string-array']);

/**
 * Java format specifiers (`%s`, `%1$d`, `%.2f`, `%%`, `%n`, `%tY`); the space flag is left out so
 * that "50% off" is no `% o`.
 */
const JAVA_FORMAT = /%(?:\d+\$)?[-#+0,(]*\d*(?:\.\d+)?(?:[tT][a-zA-Z]|[bBhHsScCdoxXeEfgGaA%n])/g;

interface AndroidUnit {
  unit: TextUnit;
  element: XmlElement;
  /** For plural items: the plurals element and the item's quantity. */
  plural?: { group: XmlElement; quantity: string };
}

interface Scanned {
  units: AndroidUnit[];
  plurals: { group: XmlElement; name: string; items: { quantity: string; element: XmlElement; locator: string | null }[] }[];
}

/** Android's decoding of a string's text, spanning the text pieces between inline tags. */
class AndroidDecoder {
  private quoted = false;
  private escape = false;
  /** Unquoted white space seen since the last output: one space if more content follows. */
  private pendingSpace = false;
  private started = false;

  feed(text: string): string {
    let out = '';
    /** Start of the run of plain characters being copied (-1: none). */
    let run = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const special = code === 0x5c || code === 0x22 || code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || this.escape;
      if (!special) {
        if (run < 0) {
          out += this.flush();
          run = i;
        }
        continue;
      }
      // A single space between two plain characters stays in the run (the common case).
      if (code === 0x20 && run >= 0 && !this.quoted && !this.escape && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next !== 0x5c && next !== 0x22 && next !== 0x20 && next !== 0x0a && next !== 0x09 && next !== 0x0d) continue;
      }
      if (run >= 0) {
        out += text.slice(run, i);
        run = -1;
      }
      const c = text[i]!;
      if (this.escape) {
        this.escape = false;
        let decoded: string;
        if (c === 'n') decoded = '\n';
        else if (c === 't') decoded = '\t';
        else if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
          decoded = String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
          i += 4;
        } else decoded = c;
        out += this.flush() + decoded;
      } else if (c === '\\') this.escape = true;
      else if (c === '"') this.quoted = !this.quoted;
      else if (!this.quoted) {
        if (this.started) this.pendingSpace = true;
      } else out += this.flush() + c;
    }
    if (run >= 0) out += run === 0 ? text : text.slice(run);
    return out;
  }

  /** Before an inline tag: the pending space, if any (a tag is content). */
  flush(): string {
    this.started = true;
    if (!this.pendingSpace) return '';
    this.pendingSpace = false;
    return ' ';
  }
}

/**
 * Encodes `text` for an Android string: `position` tells whether it starts the string and
 * whether the character before it (in the string, tags left out) was a space, `atEnd` whether
 * only tags follow it. A space that aapt would collapse or trim is written `\u0020`.
 */
function encodeAndroid(text: string, enc: TextEncoding, state: { first: boolean; afterSpace: boolean }, trailingFrom: number): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const first = state.first;
    state.first = false;
    const afterSpace = state.afterSpace;
    state.afterSpace = c === ' ';
    switch (c) {
      case ' ':
        out += first || afterSpace || i >= trailingFrom ? '\\u0020' : ' ';
        break;
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '"':
        out += '\\"';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\t':
        out += '\\t';
        break;
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '@':
      case '?':
        out += first ? `\\${c}` : c;
        break;
      default: {
        const code = c.charCodeAt(0);
        // Control characters (which XML cannot hold as they are) as Android escapes.
        out += code < 0x20 || code === 0x7f || code === 0xfffe || code === 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : c;
      }
    }
  }
  return beyondEncoding(out, enc);
}

/** A whole string (no tags) encoded: the original of a placeholder or `tagRegexp` tag. */
function encodeAlone(text: string, enc: TextEncoding): string {
  return encodeAndroid(text, enc, { first: true, afterSpace: false }, trailingSpaces(text));
}

/** Index from which `text` holds only spaces. */
function trailingSpaces(text: string): number {
  let at = text.length;
  while (at > 0 && text[at - 1] === ' ') at--;
  return at;
}

function isXliffG(name: string): boolean {
  return name === 'xliff:g' || name.endsWith(':g');
}

/** A resource reference (`@string/other`, `@android:string/ok`, `?attr/x`, `@null`) rather than text. */
function isReference(element: XmlElement): boolean {
  const only = element.children[0];
  if (element.children.length !== 1 || only?.kind !== 'text') return false;
  const value = only.text.trim();
  return /^[@?][\w.:]+(?:\/[\w.]+)?$/.test(value);
}

class AndroidUnitReader {
  constructor(
    private readonly text: string,
    private readonly enc: TextEncoding,
    private readonly pattern: RegExp | null,
  ) {}

  /** The unit text and tags of an element's content, or null when it is blank. */
  read(element: XmlElement): { source: string; tags: InlineTag[] } | null {
    const builder = new UnitBuilder();
    const decoder = new AndroidDecoder();
    const codes = (decoded: string): void =>
      builder.textWithCodes(decoded, [this.pattern, JAVA_FORMAT], (match) => encodeAlone(match, this.enc));
    this.nodes(element.children, builder, decoder, codes);
    if (builder.tags.length === 0 && !builder.hasText) return null;
    return { source: builder.source, tags: builder.tags };
  }

  private nodes(nodes: readonly XmlNode[], builder: UnitBuilder, decoder: AndroidDecoder, codes: (text: string) => void): void {
    for (const node of nodes) {
      if (node.kind === 'text') codes(decoder.feed(node.text));
      else if (node.kind !== 'element') {
        codes(decoder.flush());
        builder.standalone((node as XmlOther).raw);
      } else {
        codes(decoder.flush());
        const raw = this.text;
        if (node.selfClosing) {
          builder.standalone(raw.slice(node.start, node.end));
          continue;
        }
        const id = builder.open(raw.slice(node.start, node.openEnd));
        if (isXliffG(node.name)) {
          // Its content is code (a placeholder and its example): one tag, as it is in the file.
          if (node.closeStart > node.openEnd) builder.standalone(raw.slice(node.openEnd, node.closeStart));
        } else this.nodes(node.children, builder, decoder, codes);
        codes(decoder.flush());
        builder.close(id, raw.slice(node.closeStart, node.end));
      }
    }
  }
}

function scan(text: string, enc: TextEncoding, options: FilterOptions): Scanned {
  const reader = new AndroidUnitReader(text, enc, compileTagRegexp(tagRegexpSetting(options)));
  const scanned: Scanned = { units: [], plurals: [] };
  const locators = new Set<string>();
  let lastComment: XmlOther | null = null;
  let index = 0;
  const noteFor = (element: XmlElement): string | null => {
    if (!lastComment || text.slice(lastComment.end, element.start).trim() !== '') return null;
    const note = lastComment.raw.slice(4, -3).trim();
    return note === '' ? null : note;
  };
  scanXmlResource(
    text,
    {
      root(name, _attributes, s) {
        if (name !== 'resources') s.fail(`not an Android string resource file: the root element is <${name}>`);
      },
      capture: (name, _attributes, path) => path.length === 1 && RESOURCE_ELEMENTS.has(name),
      comment(comment, path) {
        if (path.length === 1) lastComment = comment;
      },
      captured(element, _path, s) {
        const name = element.attributes['name'];
        if (name === undefined || name === '') return s.fail(`a <${element.name}> without a name`);
        const product = element.attributes['product'];
        const base = `${element.name}:${name}${product ? `#${product}` : ''}`;
        const translatable = element.attributes['translatable'] !== 'false';
        const note = noteFor(element);
        const add = (locator: string, key: string, item: XmlElement, plural?: AndroidUnit['plural']): void => {
          if (locators.has(locator)) s.fail(`the resource ${locator} is defined twice`);
          locators.add(locator);
          const content = reader.read(item);
          if (!content) return;
          scanned.units.push({
            unit: {
              index: index++,
              key,
              locator,
              source: content.source,
              tags: content.tags,
              target: null,
              translatable: translatable && !isReference(item),
              note,
            },
            element: item,
            ...(plural ? { plural } : {}),
          });
        };
        if (element.name === 'string') add(base, name, element);
        else if (element.name === 'string-array') {
          childElements(element, 'item').forEach((item, i) => add(`${base}:${i}`, `${name}[${i}]`, item));
        } else {
          const group = { group: element, name, items: [] as Scanned['plurals'][number]['items'] };
          for (const item of childElements(element, 'item')) {
            const quantity = item.attributes['quantity'];
            if (quantity === undefined || !['zero', 'one', 'two', 'few', 'many', 'other'].includes(quantity)) {
              return s.fail(`plurals "${name}" has an item without a valid quantity`);
            }
            const before = scanned.units.length;
            add(`${base}:${quantity}`, `${name}[${quantity}]`, item, { group: element, quantity });
            group.items.push({ quantity, element: item, locator: scanned.units.length > before ? `${base}:${quantity}` : null });
          }
          scanned.plurals.push(group);
        }
        lastComment = null;
      },
    },
    options.maxDepth,
  );
  return scanned;
}

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const { enc, text } = await readXmlResource(input, 'Android strings', maxBytes(options));
  const { units } = scan(text, enc, options);
  for (let at = 0; at < units.length; at += 1024) yield units.slice(at, at + 1024).map((scanned) => scanned.unit);
}

function maxBytes(options: FilterOptions): number | undefined {
  const value = (options as { maxXmlResourceBytes?: unknown }).maxXmlResourceBytes;
  return typeof value === 'number' ? value : undefined;
}

/** The element content of a translation: tags restored, text encoded with Android's escapes. */
function encodeTranslation(translation: string, unit: TextUnit, enc: TextEncoding): string {
  const pieces = splitTokens(translation, unit.tags);
  assertPairsNest(pieces, `the translation of ${unit.locator}`);
  let plain = '';
  for (const piece of pieces) if ('text' in piece) plain += piece.text;
  const trailingFrom = trailingSpaces(plain);
  const state = { first: true, afterSpace: false };
  let at = 0;
  let out = '';
  for (const piece of pieces) {
    if ('tag' in piece) {
      out += piece.tag.original;
      // A placeholder is text to aapt: the white space rules start again after it.
      if (!piece.tag.original.startsWith('<')) {
        state.first = false;
        state.afterSpace = false;
      }
    } else {
      out += encodeAndroid(piece.text, enc, state, trailingFrom - at);
      at += piece.text.length;
    }
  }
  return out;
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const { enc, text } = await readXmlResource(original, 'Android strings', maxBytes(options));
  const scanned = scan(text, enc, options);
  const edits: Edit[] = [];
  /** Content edits by locator (dropped when a plural item is removed). */
  const contentEdits = new Map<string, Edit>();
  const dropped = new Set<string>();
  const written = new Map<string, string>();
  for (const { unit, element } of scanned.units) {
    const translation = translations.get(unit.locator);
    if (!translation || !unit.translatable) continue;
    // A translation equal to the source leaves the file's own spelling of it.
    if (translation.text === unit.source) {
      written.set(unit.locator, text.slice(element.openEnd, element.closeStart));
      continue;
    }
    const content = encodeTranslation(translation.text, unit, enc);
    written.set(unit.locator, content);
    contentEdits.set(unit.locator, { start: element.openEnd, end: element.closeStart, text: content });
  }
  const targetCategories = pluralCategories(options.targetLanguage);
  for (const group of scanned.plurals) {
    if (!group.items.some((item) => item.locator !== null && written.has(item.locator))) continue;
    if (group.group.attributes['translatable'] === 'false') continue;
    const slots: PluralSlot[] = group.items.map((item) => ({ category: item.quantity, start: item.element.start, end: item.element.end }));
    const plan = planPlurals(
      group.items.map((item) => item.quantity),
      targetCategories,
    );
    const other = group.items.find((item) => item.quantity === 'other') ?? group.items[group.items.length - 1]!;
    const otherContent =
      (other.locator !== null ? written.get(other.locator) : undefined) ?? text.slice(other.element.openEnd, other.element.closeStart);
    for (const item of group.items) {
      if (plan.remove.has(item.quantity) && item.locator !== null) dropped.add(item.locator);
    }
    edits.push(...pluralEdits(text, slots, plan, (category) => `<item quantity="${category}">${otherContent}</item>`));
  }
  for (const [locator, edit] of contentEdits) if (!dropped.has(locator)) edits.push(edit);
  await writeEdited(text, edits, enc, output);
}

export const androidStringsFilter: FormatFilter = {
  name: 'android-strings',
  // `strings.xml` shares `.xml` with every other XML file: found by content (detect), not by extension.
  extensions: [],
  detect(firstBytes) {
    const sniffed = sniffXmlRoot(firstBytes);
    return sniffed !== null && sniffed.root === 'resources' && /<(?:string|plurals|string-array)\s[^>]*\bname\s*=/.test(sniffed.head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

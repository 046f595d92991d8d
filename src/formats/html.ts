import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Token as Tokens, Tokenizer, TokenizerMode } from 'parse5';
import type { Token } from 'parse5';
import { encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';

/**
 * HTML (`.html`, `.htm`, `.xhtml`), on parse5's tokenizer (docs/formats/html-and-markdown.md).
 *
 * The file is cut into **runs** of inline content (text and inline elements) between block-level
 * tags; a run holding text is a unit, its inline elements become Phrase tags whose `original` is
 * the exact source markup. Translatable attributes (alt, title, placeholder, aria-label, meta
 * description, …) are units of their own. No tree is built: parse5's tree construction (implied
 * end tags, foster parenting, the adoption agency) moves nodes away from their source order and
 * costs four times the tokenizer's time, while a run only needs to know where the block
 * boundaries are. Write-back splices translations into the original text at the recorded offsets;
 * a unit whose translation equals its source is not rewritten, so the identity round trip gives
 * back the very bytes.
 */

export const DEFAULT_MAX_HTML_BYTES = 50 * 1024 * 1024;
/** Default for FilterOptions.maxDepth: inline elements open at once inside one run. */
export const DEFAULT_MAX_HTML_DEPTH = 512;
/** A unit longer than this (characters of its source) is refused. */
export const MAX_HTML_UNIT_CHARS = 10_000_000;

/** Elements that end a run (block-level and document structure). Anything else is inline. */
const BLOCK = new Set(
  (
    'address applet area article aside audio base basefont blockquote body canvas caption center col colgroup dd details dialog dir div dl dt ' +
    'embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe legend li link listing ' +
    'main map menu meta nav noembed noframes noscript object ol optgroup option p param plaintext pre script search section select source ' +
    'style summary table tbody td template textarea tfoot th thead title tr track ul video xmp'
  ).split(' '),
);
/** Inline elements known as such (others are inline only while unknownTagCreatesTag holds). */
const INLINE = new Set(
  (
    'a abbr acronym b bdi bdo big blink br button cite code data del dfn em font i img input ins kbd label mark meter nobr output picture ' +
    'progress q rp rt rtc ruby s samp slot small span strike strong sub sup time tt u var wbr'
  ).split(' '),
);
const VOID = new Set('area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr'.split(' '));
/** Never translated: their content is code or raw text. */
const ALWAYS_EXCLUDED = new Set('script style textarea xmp plaintext noscript noembed noframes iframe template'.split(' '));
/** Foreign content: skipped whole (an inline `<svg>` becomes one tag). */
const FOREIGN = new Set(['svg', 'math']);
/** Elements whose end tag may be left out, and the start tags that close them implicitly. */
const IMPLIED_END: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['li', new Set(['li'])],
  ['dt', new Set(['dt', 'dd'])],
  ['dd', new Set(['dt', 'dd'])],
  ['option', new Set(['option', 'optgroup'])],
  ['tr', new Set(['tr'])],
  ['td', new Set(['td', 'th', 'tr'])],
  ['th', new Set(['td', 'th', 'tr'])],
]);
/** `p` is closed by any block start tag but these. */
const P_NOT_CLOSED_BY = new Set(['html', 'body', 'head', 'title', 'meta', 'link', 'base', 'script', 'style', 'template', 'noscript']);
const DEFAULT_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label', 'label', 'summary', 'standby', 'abbr']);
const BUTTON_INPUT_TYPES = new Set(['button', 'submit', 'reset']);
const DEFAULT_META_NAMES = /^(?:description|keywords|(?:og|twitter):(?:title|description|image:alt|site_name))$/i;

export interface HtmlSettings {
  breakTagCreatesSegment: boolean;
  unknownTagCreatesTag: boolean;
  preserveWhitespace: boolean;
  importComments: boolean;
  excludeElements: ReadonlySet<string>;
  tagRegexp: RegExp | null;
  translateMetaTagRegexp: RegExp | null;
  importDefaultMetaTags: boolean;
  translatableAttributes: ReadonlySet<string>;
  importDefaultAttributes: boolean;
  nonTranslatableInlineElements: ReadonlySet<string>;
  translatableInlineElements: ReadonlySet<string>;
  updateLang: boolean;
  maxDepth: number;
  /**
   * Start tags at the beginning of a run stay outside the unit (their end tags become lone tags):
   * for HTML blocks in Markdown, which must go on starting with a tag to stay HTML blocks.
   */
  leadingTagsOutside?: boolean;
}

function nameList(value: unknown): Set<string> {
  if (typeof value !== 'string') return new Set();
  return new Set(
    value
      .split(/[\s,;]+/)
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function regexpSetting(value: unknown, name: string): RegExp | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    return new RegExp(value, 'iu');
  } catch {
    throw new FormatError(`${name} is not a valid regular expression: ${value}`);
  }
}

/** The filter's settings: Phrase's HtmlSettingsDto (`options.formatSettings`), defaults as Phrase's. */
export function htmlSettings(options: FilterOptions = {}): HtmlSettings {
  const s = options.formatSettings ?? {};
  const tagRegexp = typeof s['tagRegexp'] === 'string' && s['tagRegexp'] !== '' ? s['tagRegexp'] : options.tagRegexp;
  return {
    breakTagCreatesSegment: flag(s['breakTagCreatesSegment'], true),
    unknownTagCreatesTag: flag(s['unknownTagCreatesTag'], true),
    preserveWhitespace: flag(s['preserveWhitespace'], false),
    importComments: flag(s['importComments'], true),
    excludeElements: nameList(s['excludeElements']),
    tagRegexp: compileTagRegexp(tagRegexp),
    translateMetaTagRegexp: regexpSetting(s['translateMetaTagRegexp'], 'translateMetaTagRegexp'),
    importDefaultMetaTags: flag(s['importDefaultMetaTags'], true),
    translatableAttributes: nameList(s['translatableAttributes']),
    importDefaultAttributes: flag(s['importDefaultAttributes'], true),
    nonTranslatableInlineElements: nameList(s['nonTranslatableInlineElements']),
    translatableInlineElements: nameList(s['translatableInlineElements']),
    updateLang: flag(s['updateLang'], false),
    maxDepth: options.maxDepth ?? DEFAULT_MAX_HTML_DEPTH,
  };
}

// ---------------------------------------------------------------------------------------------
// Encoding: BOM, else `<meta charset>` / `<?xml encoding?>` in the first 1024 bytes, else UTF-8.

/** windows-1252's 0x80–0x9F (WHATWG: the labels iso-8859-1, latin1 and us-ascii mean windows-1252). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
const CP1252_BYTE = new Map(CP1252_HIGH.map((code, i) => [code, 0x80 + i]));

const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8']);
const CP1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'iso88591',
  'iso-ir-100',
  'latin1',
  'l1',
  'ascii',
  'us-ascii',
  'ansi_x3.4-1968',
  'cp819',
  'ibm819',
  'csisolatin1',
]);

/** The file's encoding: `utf-8`/`utf-16` from encoding.ts, or `windows-1252` handled here. */
export interface HtmlEncoding {
  text: TextEncoding | null;
  /** Set for windows-1252 (decoded and encoded here, byte for byte). */
  cp1252: boolean;
  label: string;
}

const DECLARED_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)|<\?xml\b[^>]*?encoding\s*=\s*["']([A-Za-z0-9_.:-]+)/i;

function chooseEncoding(head: Buffer): HtmlEncoding {
  const fromBom = encodingFromBom(head);
  if (fromBom) return { text: fromBom, cp1252: false, label: fromBom.name };
  const match = DECLARED_CHARSET.exec(head.subarray(0, 1024).toString('latin1'));
  const declared = match?.[1] ?? match?.[2];
  if (declared === undefined) return { text: encoding('utf-8'), cp1252: false, label: '' };
  const label = declared.toLowerCase();
  if (UTF8_LABELS.has(label)) return { text: encoding('utf-8'), cp1252: false, label };
  if (CP1252_LABELS.has(label)) return { text: null, cp1252: true, label };
  // A meta charset of utf-16 in a file without BOM is a mistake of the author (WHATWG: utf-8).
  if (label === 'utf-16' || label === 'utf-16le' || label === 'utf-16be') return { text: encoding('utf-8'), cp1252: false, label };
  throw new FormatError(`the HTML file's encoding "${label}" is not supported (UTF-8, UTF-16 with BOM, windows-1252/ISO-8859-1)`);
}

function decode(bytes: Buffer, enc: HtmlEncoding): string {
  if (enc.cp1252) {
    const latin = bytes.toString('latin1');
    // Only 0x80–0x9F differ from ISO-8859-1.
    return /[\u0080-\u009f]/.test(latin)
      ? latin.replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80]!))
      : latin;
  }
  const text = enc.text!;
  const body = bytes.subarray(text.bom.length);
  try {
    return new TextDecoder(text.name, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new FormatError(`the file is not valid ${text.name.toUpperCase()} text`);
  }
}

function encode(text: string, enc: HtmlEncoding): Buffer {
  if (enc.cp1252) {
    const bytes = Buffer.alloc(text.length);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // Write-back escapes what the encoding cannot hold; everything else came from the file.
      bytes[i] = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : (CP1252_BYTE.get(code) ?? code);
    }
    return bytes;
  }
  const t = enc.text!;
  if (t.name === 'utf-16le') return Buffer.concat([t.bom, Buffer.from(text, 'utf16le')]);
  if (t.name === 'utf-16be') return Buffer.concat([t.bom, Buffer.from(text, 'utf16le').swap16()]);
  return Buffer.concat([t.bom, Buffer.from(text, 'utf8')]);
}

/** Whether the encoding holds `code` (a code point). */
function encodable(code: number, enc: HtmlEncoding): boolean {
  if (!enc.cp1252) return true;
  return code < 0x80 || (code >= 0xa0 && code <= 0xff) || CP1252_BYTE.has(code);
}

async function readWhole(input: Readable, options: FilterOptions): Promise<{ enc: HtmlEncoding; text: string }> {
  const limit = (options.formatSettings?.['maxHtmlBytes'] as number | undefined) ?? DEFAULT_MAX_HTML_BYTES;
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.length;
    if (total > limit) throw new FormatError(`the HTML file is larger than ${limit} bytes`);
    parts.push(bytes);
  }
  const bytes = Buffer.concat(parts);
  let enc = chooseEncoding(bytes.subarray(0, 1024));
  try {
    return { enc, text: decode(bytes, enc) };
  } catch (error) {
    // Undeclared and not UTF-8: what browsers fall back to (byte for byte, so it writes back the same).
    if (enc.label !== '') throw error;
    enc = { text: null, cp1252: true, label: 'windows-1252' };
    return { enc, text: decode(bytes, enc) };
  }
}

// ---------------------------------------------------------------------------------------------
// Escaping on write.

function escapeText(text: string, enc: HtmlEncoding): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let replacement: string | null = null;
    if (code === 0x26) replacement = '&amp;';
    else if (code === 0x3c) replacement = '&lt;';
    else if (code === 0x3e) replacement = '&gt;';
    else if (code === 0xa0) replacement = '&nbsp;';
    else if (code >= 0x80) {
      const point = text.codePointAt(i)!;
      if (!encodable(point, enc)) {
        replacement = `&#x${point.toString(16)};`;
        if (point > 0xffff) {
          out += text.slice(last, i) + replacement;
          i += 1;
          last = i + 1;
          continue;
        }
      }
    }
    if (replacement !== null) {
      out += text.slice(last, i) + replacement;
      last = i + 1;
    }
  }
  return out + text.slice(last);
}

function escapeAttribute(value: string, quote: string, enc: HtmlEncoding): string {
  const text = escapeText(value, enc).replace(/&gt;/g, '>');
  return quote === "'" ? text.replace(/'/g, '&#39;') : text.replace(/"/g, '&quot;');
}

// ---------------------------------------------------------------------------------------------
// Extraction.

interface Item {
  kind: 'text' | 'open' | 'close' | 'standalone';
  start: number;
  end: number;
  /** Text: the decoded text. */
  text: string;
  /** Tag items: element name; open/close: the index of the partner item, or -1. */
  name: string;
  partner: number;
}

/** A unit with where it sits in the text. */
export interface HtmlUnit {
  unit: TextUnit;
  /** The unit's range in the decoded text (text units: the run; attributes: the value with its quotes). */
  start: number;
  end: number;
  kind: 'text' | 'attribute' | 'comment';
  /** Attribute: the quote character of the value ('' when unquoted). */
  quote: string;
  /** Text units: the source range of each tag in `unit.tags` order. */
  tagRanges: number[];
  /** Attribute units: the text unit whose tag holds the attribute, or -1. */
  parent: number;
  /** Text units: the text spans preserved whitespace as is. */
  preserve: boolean;
}

interface Skip {
  name: string;
  depth: number;
  /** Inline: the whole element becomes one standalone tag starting here; -1 when skipped at block level. */
  inlineStart: number;
  /** Element with an optional end tag (li, p, …): closed by these start tags. */
  closers: ReadonlySet<string> | null;
}

const WS = /[ \t\n\r\f]/;
const NON_WHITESPACE = /[^\s]/u;

function isWs(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

function attr(token: Token.TagToken, name: string): string | null {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return null;
}

/** Where an attribute's value sits in the text: [start, end) including its quotes, and the quote. */
function valueRange(text: string, start: number, end: number): { start: number; end: number; quote: string } | null {
  let i = start;
  while (i < end && text[i] !== '=') i++;
  if (i >= end) return null;
  i++;
  while (i < end && WS.test(text[i]!)) i++;
  if (i >= end) return null;
  const quote = text[i] === '"' || text[i] === "'" ? text[i]! : '';
  return { start: i, end, quote };
}

class Extractor {
  readonly units: HtmlUnit[] = [];
  /** `<html>` start tag: where `lang`'s value is, or where to insert one. */
  htmlLang: { start: number; end: number; quote: string } | { insertAt: number } | null = null;
  private items: Item[] = [];
  private openStack: number[] = [];
  private pendingAttributes: HtmlUnit[] = [];
  private skip: Skip | null = null;
  private preDepth = 0;
  private nextId = 1;
  /** Whether the run holds text or an open inline element (a comment then belongs to it). */
  private runHasContent = false;
  private foreignDepth = 0;
  private readonly tokenizer: Tokenizer;
  private readonly nulMessage = 'the HTML file contains a NUL character';

  constructor(
    private readonly text: string,
    private readonly settings: HtmlSettings,
    private readonly maxTagsInRow: number,
  ) {
    this.tokenizer = new Tokenizer(
      { sourceCodeLocationInfo: true },
      {
        onStartTag: (token) => this.startTag(token),
        onEndTag: (token) => this.endTag(token),
        onCharacter: (token) => this.characters(token),
        onWhitespaceCharacter: (token) => this.characters(token),
        onNullCharacter: (token) => this.fail(this.nulMessage, token),
        onComment: (token) => this.comment(token),
        onDoctype: (token) => this.doctype(token),
        onEof: () => undefined,
      },
    );
  }

  run(): void {
    this.tokenizer.write(this.text, true);
    this.finishSkipAtEof();
    this.flush();
  }

  private fail(message: string, token: { location: Token.Location | null }): never {
    const at = token.location;
    throw new FormatError(message, at ? { line: at.startLine, column: at.startCol } : {});
  }

  private doctype(token: Token.DoctypeToken): void {
    if (this.skip) return;
    this.flush();
    const loc = token.location!;
    // HTML reads no DTD; an XHTML file with an internal subset declares entities an XML reader would expand.
    if (this.text.slice(loc.startOffset, loc.endOffset).includes('[')) {
      this.fail('the HTML file is refused: its DOCTYPE has an internal subset', token);
    }
  }

  private switchState(name: string): void {
    if (this.foreignDepth > 0) return;
    if (name === 'script') this.tokenizer.state = TokenizerMode.SCRIPT_DATA;
    else if (name === 'style' || name === 'xmp' || name === 'iframe' || name === 'noembed' || name === 'noframes' || name === 'noscript') {
      this.tokenizer.state = TokenizerMode.RAWTEXT;
    } else if (name === 'title' || name === 'textarea') this.tokenizer.state = TokenizerMode.RCDATA;
    else if (name === 'plaintext') this.tokenizer.state = TokenizerMode.PLAINTEXT;
  }

  private isInline(name: string): boolean {
    if (this.settings.translatableInlineElements.has(name)) return true;
    if (INLINE.has(name)) return true;
    if (BLOCK.has(name)) return false;
    return this.settings.unknownTagCreatesTag;
  }

  private excluded(token: Token.TagToken): boolean {
    const name = token.tagName;
    if (ALWAYS_EXCLUDED.has(name) || FOREIGN.has(name) || this.settings.excludeElements.has(name)) return true;
    if (this.settings.nonTranslatableInlineElements.has(name)) return true;
    if (attr(token, 'translate')?.trim().toLowerCase() === 'no') return true;
    const cls = attr(token, 'class');
    return cls !== null && /(?:^|\s)notranslate(?:\s|$)/.test(cls);
  }

  private startTag(token: Token.TagToken): void {
    const name = token.tagName;
    const loc = token.location!;
    const selfClosing = token.selfClosing && (this.foreignDepth > 0 || FOREIGN.has(name));
    if (this.skip) {
      const skip = this.skip;
      if (
        skip.closers &&
        skip.depth === 1 &&
        (skip.closers.has(name) || (skip.name === 'p' && BLOCK.has(name) && !P_NOT_CLOSED_BY.has(name)))
      ) {
        this.skip = null; // closed implicitly; this tag is read as usual
      } else {
        if (name === skip.name && !selfClosing && !VOID.has(name)) skip.depth += 1;
        this.trackForeign(name, selfClosing, true);
        this.switchState(name);
        return;
      }
    }
    if (this.foreignDepth === 0) this.switchState(name);
    if (name === 'html' && this.htmlLang === null) this.recordLang(token);
    const isVoid = VOID.has(name) || selfClosing;
    if (this.excluded(token)) {
      if (isVoid) {
        if (this.isInline(name)) this.inlineOrBreak(name, loc, 'standalone');
        else this.flush();
        return;
      }
      const inline =
        this.items.length > 0 && (this.isInline(name) || FOREIGN.has(name) || this.settings.nonTranslatableInlineElements.has(name));
      if (!inline) this.flush();
      this.trackForeign(name, false, true);
      let closers: ReadonlySet<string> | null = IMPLIED_END.get(name) ?? null;
      if (name === 'p') closers = new Set();
      this.skip = { name, depth: 1, inlineStart: inline ? loc.startOffset : -1, closers };
      return;
    }
    this.attributes(token);
    if (name === 'br' && this.settings.breakTagCreatesSegment) {
      this.flush();
      return;
    }
    if (this.isInline(name)) {
      if (isVoid) this.inlineOrBreak(name, loc, 'standalone');
      else this.openInline(name, loc, token);
      return;
    }
    this.flush();
    if ((name === 'pre' || name === 'listing') && !isVoid) this.preDepth += 1;
  }

  private trackForeign(name: string, selfClosing: boolean, opening: boolean): void {
    if (!FOREIGN.has(name) || selfClosing) return;
    this.foreignDepth += opening ? 1 : -1;
    if (this.foreignDepth < 0) this.foreignDepth = 0;
    this.tokenizer.inForeignNode = this.foreignDepth > 0;
  }

  private endTag(token: Token.TagToken): void {
    const name = token.tagName;
    const loc = token.location!;
    if (this.skip) {
      const skip = this.skip;
      if (name === skip.name) {
        skip.depth -= 1;
        if (skip.depth === 0) {
          this.trackForeign(name, false, false);
          this.skip = null;
          if (skip.inlineStart >= 0)
            this.pushItem({ kind: 'standalone', start: skip.inlineStart, end: loc.endOffset, text: '', name, partner: -1 });
        }
        return;
      }
      if (skip.closers && skip.depth === 1 && BLOCK.has(name)) {
        this.skip = null; // the parent ends: so does the element left open
      } else {
        this.trackForeign(name, false, false);
        return;
      }
    }
    if (name === 'br') {
      // `</br>` is read as `<br>`.
      if (this.settings.breakTagCreatesSegment) this.flush();
      else this.inlineOrBreak(name, loc, 'standalone');
      return;
    }
    if (!this.isInline(name)) {
      this.flush();
      if ((name === 'pre' || name === 'listing') && this.preDepth > 0) this.preDepth -= 1;
      return;
    }
    // Pair with the nearest open element of the same name (looking no deeper than maxDepth).
    const stack = this.openStack;
    let partner = -1;
    for (let s = stack.length - 1; s >= 0 && s >= stack.length - this.settings.maxDepth; s--) {
      const open = this.items[stack[s]!]!;
      if (open.name === name) {
        partner = stack[s]!;
        stack.splice(s, 1);
        break;
      }
    }
    const index = this.items.length;
    this.pushItem({ kind: partner >= 0 ? 'close' : 'standalone', start: loc.startOffset, end: loc.endOffset, text: '', name, partner });
    if (partner >= 0) this.items[partner]!.partner = index;
  }

  private openInline(name: string, loc: Token.Location, token: Token.TagToken): void {
    if (this.openStack.length >= this.settings.maxDepth) {
      this.fail(`the HTML file is refused: inline elements nested deeper than ${this.settings.maxDepth} levels`, token);
    }
    this.openStack.push(this.items.length);
    this.runHasContent = true;
    this.pushItem({ kind: 'open', start: loc.startOffset, end: loc.endOffset, text: '', name, partner: -1 });
  }

  private inlineOrBreak(name: string, loc: Token.Location, kind: 'standalone'): void {
    this.pushItem({ kind, start: loc.startOffset, end: loc.endOffset, text: '', name, partner: -1 });
  }

  private pushItem(item: Item): void {
    this.items.push(item);
  }

  private characters(token: Token.CharacterToken): void {
    if (this.skip) return;
    const loc = token.location!;
    if (token.type === Tokens.TokenType.CHARACTER) this.runHasContent = true;
    const last = this.items[this.items.length - 1];
    // Character tokens around a character reference have shifted bounds; only their union is exact.
    if (last && last.kind === 'text' && last.end === loc.startOffset) {
      last.text += token.chars;
      last.end = loc.endOffset;
    } else this.pushItem({ kind: 'text', start: loc.startOffset, end: loc.endOffset, text: token.chars, name: '', partner: -1 });
  }

  private comment(token: Token.CommentToken): void {
    if (this.skip) return;
    const loc = token.location!;
    if (this.runHasContent) {
      this.pushItem({ kind: 'standalone', start: loc.startOffset, end: loc.endOffset, text: '', name: '!--', partner: -1 });
      return;
    }
    // Between blocks (or after lone tags such as <img>): a comment of its own.
    this.flush();
    if (!this.settings.importComments) return;
    const raw = this.text.slice(loc.startOffset, loc.endOffset);
    if (!raw.startsWith('<!--') || !raw.endsWith('-->') || raw.length < 7) return;
    let start = loc.startOffset + 4;
    let end = loc.endOffset - 3;
    while (start < end && isWs(this.text.charCodeAt(start))) start++;
    while (end > start && isWs(this.text.charCodeAt(end - 1))) end--;
    const data = this.text.slice(start, end);
    // Conditional comments and empty ones are markup, not text.
    if (!NON_WHITESPACE.test(data) || data.startsWith('[if') || data.startsWith('<![endif]') || data.startsWith('[endif]')) return;
    this.addUnit({ kind: 'comment', start, end, quote: '', source: data, tags: [], tagRanges: [], key: null, preserve: true });
  }

  private recordLang(token: Token.TagToken): void {
    const loc = token.location!;
    const langLoc = loc.attrs?.['lang'];
    const range = langLoc ? valueRange(this.text, langLoc.startOffset, langLoc.endOffset) : null;
    if (range) this.htmlLang = range;
    else if (!langLoc) this.htmlLang = { insertAt: loc.startOffset + 5 };
  }

  /** Translatable attribute values of a start tag become pending units. */
  private attributes(token: Token.TagToken): void {
    const s = this.settings;
    const name = token.tagName;
    const attrLocs = token.location!.attrs;
    if (!attrLocs || token.attrs.length === 0) return;
    for (const a of token.attrs) {
      let wanted = s.translatableAttributes.has(a.name) || s.translatableAttributes.has(`${name}.${a.name}`);
      if (!wanted && s.importDefaultAttributes) {
        if (DEFAULT_ATTRIBUTES.has(a.name)) wanted = a.name !== 'label' || name === 'track' || name === 'optgroup' || name === 'option';
        else if (a.name === 'value' && name === 'input') wanted = BUTTON_INPUT_TYPES.has((attr(token, 'type') ?? '').toLowerCase());
      }
      if (!wanted && name === 'meta' && a.name === 'content') {
        const metaName = attr(token, 'name') ?? attr(token, 'property') ?? '';
        wanted = (s.importDefaultMetaTags && DEFAULT_META_NAMES.test(metaName)) || (s.translateMetaTagRegexp?.test(metaName) ?? false);
      }
      if (!wanted || !NON_WHITESPACE.test(a.value)) continue;
      const loc = attrLocs[a.name];
      if (!loc) continue;
      const range = valueRange(this.text, loc.startOffset, loc.endOffset);
      if (!range) continue;
      const { source, tags } = this.patternTags(a.value);
      this.pendingAttributes.push(
        this.makeUnit({
          kind: 'attribute',
          start: range.start,
          end: range.end,
          quote: range.quote,
          source,
          tags,
          tagRanges: [],
          key: `${name}@${a.name}`,
          preserve: true,
        }),
      );
    }
  }

  private patternTags(text: string): { source: string; tags: InlineTag[] } {
    return tagsByPattern(text, this.settings.tagRegexp);
  }

  /** Emits the attribute units read since the last run; those inside `unit`'s tags belong to it. */
  private emitPending(unit: HtmlUnit | null): void {
    for (const attribute of this.pendingAttributes) {
      attribute.parent = unit && attribute.start >= unit.start && attribute.end <= unit.end ? unit.unit.index : -1;
      this.pushUnit(attribute);
    }
    this.pendingAttributes = [];
  }

  private makeUnit(u: {
    kind: HtmlUnit['kind'];
    start: number;
    end: number;
    quote: string;
    source: string;
    tags: InlineTag[];
    tagRanges: number[];
    key: string | null;
    preserve: boolean;
  }): HtmlUnit {
    if (u.source.length > MAX_HTML_UNIT_CHARS) {
      throw new FormatError(`the HTML file is refused: a text of more than ${MAX_HTML_UNIT_CHARS} characters`);
    }
    return {
      unit: { index: 0, key: u.key, locator: '', source: u.source, tags: u.tags, target: null, translatable: true, note: null },
      start: u.start,
      end: u.end,
      kind: u.kind,
      quote: u.quote,
      tagRanges: u.tagRanges,
      parent: -1,
      preserve: u.preserve,
    };
  }

  private addUnit(u: Parameters<Extractor['makeUnit']>[0]): number {
    return this.pushUnit(this.makeUnit(u));
  }

  private pushUnit(unit: HtmlUnit): number {
    const index = this.units.length;
    unit.unit.index = index;
    unit.unit.locator = String(index + 1);
    this.units.push(unit);
    return index;
  }

  private finishSkipAtEof(): void {
    const skip = this.skip;
    this.skip = null;
    if (skip && skip.inlineStart >= 0 && this.items.length > 0) {
      this.pushItem({ kind: 'standalone', start: skip.inlineStart, end: this.text.length, text: '', name: skip.name, partner: -1 });
    }
  }

  /** Ends the current run: a unit when it holds text. */
  flush(): void {
    const items = this.items;
    if (items.length === 0) {
      this.emitPending(null);
      return;
    }
    this.items = [];
    this.openStack = [];
    this.runHasContent = false;
    let first = 0;
    let last = items.length - 1;
    const blank = (item: Item): boolean => item.kind === 'text' && !NON_WHITESPACE.test(item.text);
    for (;;) {
      // Leading white space, lone tags and end tags stay outside; so do trailing ones and start tags,
      // and a pair enclosing the whole text.
      const outside = this.settings.leadingTagsOutside === true;
      while (first <= last && (blank(items[first]!) || items[first]!.kind !== 'text') && (outside || items[first]!.kind !== 'open'))
        first++;
      while (last >= first && (blank(items[last]!) || items[last]!.kind === 'standalone' || items[last]!.kind === 'open')) last--;
      if (first < last && items[first]!.kind === 'open' && items[first]!.partner === last) {
        first++;
        last--;
      } else break;
    }
    let hasText = false;
    for (let i = first; i <= last && !hasText; i++) if (items[i]!.kind === 'text' && NON_WHITESPACE.test(items[i]!.text)) hasText = true;
    if (!hasText) {
      this.emitPending(null);
      return;
    }
    const preserve = this.settings.preserveWhitespace || this.preDepth > 0;
    const text = this.text;
    let start = items[first]!.start;
    let end = items[last]!.end;
    const tags: InlineTag[] = [];
    const tagRanges: number[] = [];
    const numbers = new Map<number, number>();
    this.nextId = 1;
    let source = '';
    let tagsInRow = 0;
    for (let i = first; i <= last; i++) {
      const item = items[i]!;
      if (item.kind === 'text') {
        let value = item.text;
        // Trim white space at the ends of the unit, in the raw text and in the decoded text.
        if (i === first) {
          let raw = item.start;
          while (raw < item.end && isWs(text.charCodeAt(raw))) raw++;
          start = raw;
          let k = 0;
          while (k < value.length && isWs(value.charCodeAt(k))) k++;
          value = value.slice(k);
        }
        if (i === last) {
          let raw = item.end;
          while (raw > start && isWs(text.charCodeAt(raw - 1))) raw--;
          end = raw;
          let k = value.length;
          while (k > 0 && isWs(value.charCodeAt(k - 1))) k--;
          value = value.slice(0, k);
        }
        if (value !== '') tagsInRow = 0;
        // Runs of white space read as one space, as a browser shows them.
        if (!preserve) value = value.replace(/[ \t\n\r\f]+/g, ' ');
        source += this.textWithPatternTags(value, tags, tagRanges, item);
        continue;
      }
      let kind = item.kind;
      if ((kind === 'open' || kind === 'close') && (item.partner < first || item.partner > last)) kind = 'standalone';
      let id: number;
      if (kind === 'close') id = numbers.get(item.partner)!;
      else {
        id = this.nextId++;
        if (kind === 'open') numbers.set(i, id);
      }
      const tag = inlineTag(id, kind, text.slice(item.start, item.end));
      tags.push(tag);
      tagRanges.push(item.start, item.end);
      source += tag.display;
      tagsInRow += 1;
      if (this.maxTagsInRow > 0 && tagsInRow > 2 * this.maxTagsInRow) {
        throw new FormatError(
          `the HTML file has ${tagsInRow} inline tags in a row, more than twice the import's limit of ${this.maxTagsInRow} tags per segment`,
        );
      }
    }
    const index = this.addUnit({ kind: 'text', start, end, quote: '', source, tags, tagRanges, key: null, preserve });
    this.emitPending(this.units[index]!);
  }

  /** Text of a run with `tagRegexp` matches as standalone tags (their original escaped as in the file). */
  private textWithPatternTags(value: string, tags: InlineTag[], tagRanges: number[], item: Item): string {
    const pattern = this.settings.tagRegexp;
    if (!pattern) return value;
    let source = '';
    let last = 0;
    for (const match of value.matchAll(pattern)) {
      if (match[0] === '') continue;
      const tag = inlineTag(this.nextId++, 'standalone', match[0].replace(/&/g, '&amp;').replace(/</g, '&lt;'));
      tags.push(tag);
      tagRanges.push(item.start, item.start); // not in the raw text: never holds an attribute unit
      source += value.slice(last, match.index) + tag.display;
      last = match.index + match[0].length;
    }
    return source + value.slice(last);
  }
}

/** Every unit of an HTML text, with its position; `htmlLang` says where `<html lang>` is. */
export function extractHtml(text: string, settings: HtmlSettings, maxTagsPerSegment = 0): Extractor {
  const extractor = new Extractor(text, settings, maxTagsPerSegment);
  extractor.run();
  return extractor;
}

const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = htmlSettings(options);
  const { text } = await readWhole(input, options);
  const { units } = extractHtml(text, settings, options.maxTagsPerSegment ?? 0);
  for (let at = 0; at < units.length; at += BATCH_UNITS) yield units.slice(at, at + BATCH_UNITS).map((u) => u.unit);
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The translated text of a text or comment unit, tags restored; attribute edits inside tags applied. */
function renderTranslation(u: HtmlUnit, translation: string, enc: HtmlEncoding, attributeEdits: Edit[], text: string): string {
  if (u.kind === 'comment') {
    if (translation.includes('--') || translation.startsWith('>') || translation.endsWith('-')) {
      throw new FormatError(
        `the translation of comment ${u.unit.locator} would end the comment early ("--", a leading ">" or a trailing "-")`,
      );
    }
    for (const char of translation) {
      if (!encodable(char.codePointAt(0)!, enc)) {
        throw new FormatError(`the translation of comment ${u.unit.locator} holds "${char}", which the file's encoding cannot hold`);
      }
    }
    return translation;
  }
  let tags = u.unit.tags;
  if (attributeEdits.length > 0) {
    tags = tags.map((tag, t) => {
      const tagStart = u.tagRanges[2 * t]!;
      const tagEnd = u.tagRanges[2 * t + 1]!;
      const inside = attributeEdits.filter((e) => e.start >= tagStart && e.end <= tagEnd);
      if (inside.length === 0) return tag;
      let original = '';
      let at = tagStart;
      for (const e of inside) {
        original += text.slice(at, e.start) + e.text;
        at = e.end;
      }
      return { ...tag, original: original + text.slice(at, tagEnd) };
    });
  }
  return restoreTags(translation, tags, (piece) => escapeText(piece, enc));
}

/** UTF-8 without BOM: for HTML embedded in another UTF-8 format (Markdown). */
export const UTF8_HTML_ENCODING: HtmlEncoding = { text: encoding('utf-8'), cp1252: false, label: 'utf-8' };

/**
 * The edits (ranges of `text` and what replaces them) that write `translations` (by unit locator)
 * into an extracted HTML text; `lang` sets `<html lang>` when given. Sorted by position, never
 * overlapping.
 */
export function htmlEdits(
  text: string,
  extracted: { units: readonly HtmlUnit[]; htmlLang: Extractor['htmlLang'] },
  translations: ReadonlyMap<string, UnitTranslation>,
  enc: HtmlEncoding,
  lang?: string,
): Edit[] {
  const units = extracted.units;
  // Attribute edits first, grouped by the text unit whose tag holds them.
  const attributeEdits = new Map<number, Edit[]>();
  const edits: Edit[] = [];
  for (const u of units) {
    if (u.kind !== 'attribute') continue;
    const translation = translations.get(u.unit.locator);
    if (!translation || translation.text === u.unit.source) continue;
    const value = restoreTags(translation.text, u.unit.tags);
    const quote = u.quote === '' ? '"' : u.quote;
    const edit = { start: u.start, end: u.end, text: quote + escapeAttribute(value, quote, enc) + quote };
    if (u.parent >= 0) {
      const list = attributeEdits.get(u.parent) ?? [];
      list.push(edit);
      attributeEdits.set(u.parent, list);
    } else edits.push(edit);
  }
  for (const u of units) {
    if (u.kind === 'attribute') continue;
    const inner = attributeEdits.get(u.unit.index) ?? [];
    const translation = translations.get(u.unit.locator);
    if (!translation || translation.text === u.unit.source) {
      edits.push(...inner);
      continue;
    }
    edits.push({ start: u.start, end: u.end, text: renderTranslation(u, translation.text, enc, inner, text) });
  }
  if (lang !== undefined && extracted.htmlLang) {
    const clean = lang.replace(/[^A-Za-z0-9_-]/g, '');
    const at = extracted.htmlLang;
    if ('insertAt' in at) edits.push({ start: at.insertAt, end: at.insertAt, text: ` lang="${clean}"` });
    else edits.push({ start: at.start, end: at.end, text: `${at.quote || '"'}${clean}${at.quote || '"'}` });
  }
  return edits.sort((a, b) => a.start - b.start);
}

/** `text` with `edits` (sorted, not overlapping) applied. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  let copied = 0;
  const parts: string[] = [];
  for (const edit of edits) {
    parts.push(text.slice(copied, edit.start), edit.text);
    copied = edit.end;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const settings = htmlSettings(options);
  const { enc, text } = await readWhole(original, options);
  const extracted = extractHtml(text, settings);
  const lang = settings.updateLang ? options.targetLanguage : undefined;
  const edits = htmlEdits(text, extracted, translations, enc, lang);
  async function* rewritten(): AsyncGenerator<Buffer> {
    yield encode(applyEdits(text, edits), enc);
  }
  await pipeline(rewritten(), output);
}

const HTML_START = /^(?:\s*<\?xml[^>]*>)?\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i;

export const htmlFilter: FormatFilter = {
  name: 'html',
  extensions: ['html', 'htm', 'xhtml'],
  detect(firstBytes) {
    const enc = encodingFromBom(firstBytes);
    if (enc && enc.name !== 'utf-8') return false;
    return HTML_START.test(firstBytes.subarray(enc?.bom.length ?? 0, 1024).toString('latin1'));
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

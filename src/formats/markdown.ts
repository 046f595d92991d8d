import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Nodes, Parents, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { isMap, isScalar, parseDocument, Scalar } from 'yaml';
import { encoding, encodingFromBom } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { applyEdits, extractHtml, htmlEdits, htmlSettings, UTF8_HTML_ENCODING } from './html.js';
import type { Edit, HtmlUnit } from './html.js';
import { compileTagRegexp, inlineTag, restoreTags, tagsByPattern } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';

/**
 * Markdown (`.md`, `.markdown`): CommonMark with GitHub's extensions (tables, strikethrough,
 * autolinks, footnotes, task lists) and YAML/TOML front matter, on mdast-util-from-markdown
 * (docs/formats/html-and-markdown.md).
 *
 * Paragraphs, headings and table cells are units; their inline markup (emphasis, links, code
 * spans, inline HTML, images) becomes Phrase tags whose `original` is the exact source text.
 * HTML blocks go through the HTML filter's extraction; code blocks are kept as they are unless
 * `extractCodeBlocks`; front matter values are units with `processJekyllFrontMatter`. Write-back
 * splices translations in at the offsets the parser reports; a unit whose translation equals its
 * source is not rewritten, so the identity round trip gives back the very bytes.
 */

/**
 * The largest file accepted. micromark holds every event of the document and mdast-util the
 * whole tree: bench/formats.bench.ts measured about 500 MB of memory per MB of Markdown and
 * time growing faster than the file (1 MB 1.9 s, 4 MB 17 s), so the default keeps a worker
 * under about 1 GB; a real README is a few tens of KB (docs/formats/html-and-markdown.md).
 */
export const DEFAULT_MAX_MARKDOWN_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_MARKDOWN_DEPTH = 512;
export const MAX_MARKDOWN_UNIT_CHARS = 10_000_000;
/** Front matter keys whose (top-level, string) values are translated with processJekyllFrontMatter. */
const FRONT_MATTER_KEYS = new Set([
  'title',
  'description',
  'excerpt',
  'summary',
  'subtitle',
  'caption',
  'alt',
  'keywords',
  'sidebar_label',
]);

export interface MarkdownSettings {
  hardLineBreaksSegments: boolean;
  preserveWhiteSpaces: boolean;
  tagRegexp: RegExp | null;
  ignoredBlockPrefixes: string[];
  processJekyllFrontMatter: boolean;
  extractCodeBlocks: boolean;
  notEscapedCharacters: string;
  maxDepth: number;
}

/** Phrase's MdSettingsDto (`options.formatSettings`). */
export function markdownSettings(options: FilterOptions = {}): MarkdownSettings {
  const s = options.formatSettings ?? {};
  const bool = (name: string, fallback: boolean): boolean => (typeof s[name] === 'boolean' ? (s[name] as boolean) : fallback);
  const tagRegexp = typeof s['tagRegexp'] === 'string' && s['tagRegexp'] !== '' ? s['tagRegexp'] : options.tagRegexp;
  const prefixes = typeof s['ignoredBlockPrefixes'] === 'string' ? s['ignoredBlockPrefixes'] : '';
  return {
    hardLineBreaksSegments: bool('hardLineBreaksSegments', true),
    preserveWhiteSpaces: bool('preserveWhiteSpaces', false),
    tagRegexp: compileTagRegexp(tagRegexp),
    ignoredBlockPrefixes: prefixes
      .split(',')
      .map((prefix) => prefix.trim())
      .filter((prefix) => prefix !== ''),
    processJekyllFrontMatter: bool('processJekyllFrontMatter', false),
    // Code is not text: only an explicit `true` extracts code blocks (see the doc page).
    extractCodeBlocks: s['extractCodeBlocks'] === true,
    notEscapedCharacters: typeof s['notEscapedCharacters'] === 'string' ? s['notEscapedCharacters'] : '',
    maxDepth: options.maxDepth ?? DEFAULT_MAX_MARKDOWN_DEPTH,
  };
}

interface Item {
  kind: 'text' | 'open' | 'close' | 'standalone';
  start: number;
  end: number;
  text: string;
  /** Inline HTML: the element name, for pairing `<b>` with `</b>`. */
  name: string;
  partner: number;
}

/** A unit with where it sits in the text. */
export interface MarkdownUnit {
  unit: TextUnit;
  start: number;
  end: number;
  kind: 'text' | 'table-cell' | 'heading' | 'code' | 'front-matter' | 'html';
  /** Front matter: the scalar's style, to write the translation in kind. */
  yamlType?: string;
  /** HTML block: the block's own extraction and its range. */
  html?: { start: number; end: number; units: HtmlUnit[]; locators: Map<string, string> };
}

const VOID_HTML = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));
const HTML_OPEN = /^<([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?>$/;
const HTML_CLOSE = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>$/;
const NON_WHITESPACE = /[^\s]/u;
/**
 * GFM without its autolink-literal tree transform: the transform finds more bare URLs after
 * parsing but makes nodes without positions; micromark's own literal autolinks (with positions)
 * stay, and the rest stays text.
 */
/** HTML blocks: comments are not text; a unit never starts the block (it must start with its tag). */
const HTML_IN_MARKDOWN = { ...htmlSettings({ formatSettings: { importComments: false } }), leadingTagsOutside: true };
const MDAST_GFM = gfmFromMarkdown().map((extension) => ({ ...extension, transforms: [] }));

function start(node: Nodes): number {
  return node.position?.start.offset ?? 0;
}
function end(node: Nodes): number {
  return node.position?.end.offset ?? 0;
}

class Extractor {
  readonly units: MarkdownUnit[] = [];
  private items: Item[] = [];
  private openHtml: number[] = [];
  private kind: MarkdownUnit['kind'] = 'text';
  private unplaced = false;

  constructor(
    private readonly text: string,
    private readonly settings: MarkdownSettings,
  ) {}

  run(): void {
    refuseLongContainerParagraphs(this.text);
    let tree: Root;
    try {
      tree = fromMarkdown(this.text, {
        extensions: [gfm(), frontmatter(['yaml', 'toml'])],
        mdastExtensions: [...MDAST_GFM, frontmatterFromMarkdown(['yaml', 'toml'])],
      });
    } catch (error) {
      if (error instanceof RangeError) throw new FormatError('the Markdown file is refused: it is nested too deeply to be read');
      throw new FormatError(`malformed Markdown: ${(error as Error).message}`);
    }
    this.checkDepth(tree);
    this.blocks(tree);
  }

  /** Nesting deeper than maxDepth is refused (iteratively: the walk itself must not overflow). */
  private checkDepth(tree: Root): void {
    const stack: [Nodes, number][] = [[tree, 0]];
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!;
      if (depth > this.settings.maxDepth) {
        throw new FormatError(`the Markdown file is refused: nested deeper than ${this.settings.maxDepth} levels`, {
          line: node.position?.start.line,
          column: node.position?.start.column,
        });
      }
      if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
    }
  }

  private blocks(parent: Parents): void {
    for (const node of parent.children) {
      switch (node.type) {
        case 'paragraph':
          this.leaf(node, 'text');
          break;
        case 'heading':
          this.leaf(node, 'heading');
          break;
        case 'tableCell':
          this.leaf(node, 'table-cell');
          break;
        case 'code':
          if (this.settings.extractCodeBlocks) this.code(node);
          break;
        case 'html':
          this.htmlBlock(node);
          break;
        case 'yaml':
          if (this.settings.processJekyllFrontMatter) this.frontMatter(node);
          break;
        default:
          if ('children' in node) this.blocks(node);
      }
    }
  }

  private ignored(node: Nodes): boolean {
    if (this.settings.ignoredBlockPrefixes.length === 0) return false;
    const raw = this.text.slice(start(node), Math.min(end(node), start(node) + 1000));
    return this.settings.ignoredBlockPrefixes.some((prefix) => raw.startsWith(prefix));
  }

  private leaf(node: Parents, kind: MarkdownUnit['kind']): void {
    if (this.ignored(node)) return;
    this.kind = kind;
    this.unplaced = false;
    this.inline(node);
    if (this.unplaced) this.items = []; // a node the parser did not place: the block stays as it is
    this.flush();
  }

  private push(item: Item): void {
    this.items.push(item);
  }

  private tag(kind: Item['kind'], from: number, to: number, name = ''): number {
    this.items.push({ kind, start: from, end: to, text: '', name, partner: -1 });
    return this.items.length - 1;
  }

  /** Inline content: text, and markup as tags (pairs around the text they format). */
  private inline(parent: Parents): void {
    for (const node of parent.children) {
      if (node.position?.start.offset === undefined || node.position.end.offset === undefined) this.unplaced = true;
      switch (node.type) {
        case 'text':
          this.push({ kind: 'text', start: start(node), end: end(node), text: node.value, name: '', partner: -1 });
          break;
        case 'emphasis':
        case 'strong':
        case 'delete':
        case 'link':
        case 'linkReference':
          this.wrapper(node);
          break;
        case 'image':
        case 'imageReference':
          this.image(node);
          break;
        case 'break':
          if (this.settings.hardLineBreaksSegments) this.flush();
          else this.tag('standalone', start(node), end(node));
          break;
        case 'html':
          this.inlineHtml(node.value, start(node), end(node));
          break;
        default:
          // Code spans, footnote references, anything else: kept whole as one tag.
          this.tag('standalone', start(node), end(node));
      }
    }
  }

  /** Emphasis, links: `**`/`[` before the children, `**`/`](url)` after them. */
  private wrapper(node: Parents & Nodes): void {
    const children = node.children;
    const first = children[0];
    const last = children[children.length - 1];
    const raw = this.text.charCodeAt(start(node));
    const bracketed = node.type !== 'link' || raw === 0x5b; // `[`; autolinks and bare URLs are not
    const labelIsReference = node.type === 'linkReference' && node.referenceType !== 'full';
    if (!first || !last || !bracketed || labelIsReference) {
      this.tag('standalone', start(node), end(node));
      return;
    }
    const open = this.tag('open', start(node), start(first));
    this.inline(node);
    const close = this.tag('close', end(last), end(node));
    if (this.items[open] && this.items[close]) {
      this.items[open].partner = close;
      this.items[close].partner = open;
    }
  }

  /** `![alt](src)`: `![` and `](src)` are tags around the alt text (a reference label is kept whole). */
  private image(node: Nodes & { alt?: string | null | undefined }): void {
    const from = start(node);
    const to = end(node);
    const alt = node.alt ?? '';
    const closing = node.type === 'imageReference' && node.referenceType !== 'full' ? -1 : this.labelEnd(from + 2, to);
    if (closing < 0 || alt.trim() === '') {
      this.tag('standalone', from, to);
      return;
    }
    const open = this.tag('open', from, from + 2);
    this.push({ kind: 'text', start: from + 2, end: closing, text: alt, name: '', partner: -1 });
    const close = this.tag('close', closing, to);
    this.items[open]!.partner = close;
    this.items[close]!.partner = open;
  }

  /** The offset of the `]` that ends a link label starting at `at`, or -1. */
  private labelEnd(at: number, limit: number): number {
    let depth = 0;
    for (let i = at; i < limit; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x5b) depth++;
      else if (c === 0x5d) {
        if (depth === 0) return i;
        depth--;
      }
    }
    return -1;
  }

  private inlineHtml(value: string, from: number, to: number): void {
    const open = HTML_OPEN.exec(value);
    if (open && !value.endsWith('/>') && !VOID_HTML.has(open[1]!.toLowerCase())) {
      this.openHtml.push(this.tag('open', from, to, open[1]!.toLowerCase()));
      return;
    }
    const close = HTML_CLOSE.exec(value);
    if (close) {
      const name = close[1]!.toLowerCase();
      const stack = this.openHtml;
      for (let s = stack.length - 1; s >= 0 && s >= stack.length - this.settings.maxDepth; s--) {
        if (this.items[stack[s]!]?.name === name) {
          const partner = stack[s]!;
          stack.splice(s, 1);
          const index = this.tag('close', from, to, name);
          this.items[partner]!.partner = index;
          this.items[index]!.partner = partner;
          return;
        }
      }
    }
    this.tag('standalone', from, to);
  }

  private addUnit(u: Omit<MarkdownUnit, 'unit'> & { source: string; tags: InlineTag[]; key: string | null }): void {
    if (u.source.length > MAX_MARKDOWN_UNIT_CHARS) {
      throw new FormatError(`the Markdown file is refused: a text of more than ${MAX_MARKDOWN_UNIT_CHARS} characters`);
    }
    const index = this.units.length;
    const { source, tags, key, ...rest } = u;
    this.units.push({
      ...rest,
      unit: { index, key, locator: String(index + 1), source, tags, target: null, translatable: true, note: null },
    });
  }

  /** Ends the current run of inline content: a unit when it holds text. */
  private flush(): void {
    const items = this.items;
    this.items = [];
    this.openHtml = [];
    let first = 0;
    let last = items.length - 1;
    const blank = (item: Item): boolean => item.kind === 'text' && !NON_WHITESPACE.test(item.text);
    for (;;) {
      while (first <= last && (blank(items[first]!) || items[first]!.kind === 'standalone' || items[first]!.kind === 'close')) first++;
      while (last >= first && (blank(items[last]!) || items[last]!.kind === 'standalone' || items[last]!.kind === 'open')) last--;
      if (first < last && items[first]!.kind === 'open' && items[first]!.partner === last) {
        first++;
        last--;
      } else break;
    }
    let hasText = false;
    for (let i = first; i <= last && !hasText; i++) if (items[i]!.kind === 'text' && NON_WHITESPACE.test(items[i]!.text)) hasText = true;
    if (!hasText) return;
    const text = this.text;
    const tags: InlineTag[] = [];
    const numbers = new Map<number, number>();
    let nextId = 1;
    let source = '';
    let from = items[first]!.start;
    let to = items[last]!.end;
    const pattern = this.settings.tagRegexp;
    for (let i = first; i <= last; i++) {
      const item = items[i]!;
      if (item.kind === 'text') {
        let value = item.text;
        if (i === first) {
          const trimmed = value.replace(/^[ \t\n\r]+/, '');
          if (trimmed.length !== value.length) {
            let raw = item.start;
            while (raw < item.end && ' \t\n\r'.includes(text[raw]!)) raw++;
            from = raw;
          }
          value = trimmed;
        }
        if (i === last) {
          const trimmed = value.replace(/[ \t\n\r]+$/, '');
          if (trimmed.length !== value.length) {
            let raw = item.end;
            while (raw > from && ' \t\n\r'.includes(text[raw - 1]!)) raw--;
            to = raw;
          }
          value = trimmed;
        }
        // Line breaks inside a paragraph (and the indentation after them) read as one space.
        if (!this.settings.preserveWhiteSpaces || this.kind !== 'text') value = value.replace(/[ \t]*\r?\n[ \t]*/g, ' ');
        if (pattern) {
          let last = 0;
          for (const match of value.matchAll(pattern)) {
            if (match[0] === '') continue;
            const tag = inlineTag(nextId++, 'standalone', escapeMarkdown(match[0], '', false));
            tags.push(tag);
            source += value.slice(last, match.index) + tag.display;
            last = match.index + match[0].length;
          }
          value = value.slice(last);
        }
        source += value;
        continue;
      }
      let kind = item.kind;
      if ((kind === 'open' || kind === 'close') && (item.partner < first || item.partner > last)) kind = 'standalone';
      let id: number;
      if (kind === 'close') id = numbers.get(item.partner)!;
      else {
        id = nextId++;
        if (kind === 'open') numbers.set(i, id);
      }
      const tag = inlineTag(id, kind, text.slice(item.start, item.end));
      tags.push(tag);
      source += tag.display;
    }
    this.addUnit({ kind: this.kind, start: from, end: to, source, tags, key: null });
  }

  private code(node: Nodes & { value: string }): void {
    if (!NON_WHITESPACE.test(node.value)) return;
    // The content's range: the value is the node's text without fences (and, indented, without indentation).
    const from = start(node);
    const to = end(node);
    const raw = this.text.slice(from, to);
    let at = raw.indexOf(node.value);
    if (at < 0) return; // indented inside a container: the value is not one piece of the text
    if (raw.startsWith('```') || raw.startsWith('~~~')) at = raw.indexOf('\n') + 1 + raw.slice(raw.indexOf('\n') + 1).indexOf(node.value);
    const { source, tags } = this.patternTags(node.value);
    this.addUnit({ kind: 'code', start: from + at, end: from + at + node.value.length, source, tags, key: null });
  }

  private patternTags(text: string): { source: string; tags: InlineTag[] } {
    return tagsByPattern(text, this.settings.tagRegexp);
  }

  /** An HTML block: the HTML filter's units, at their places in this text. */
  private htmlBlock(node: Nodes): void {
    const from = start(node);
    const to = end(node);
    const extracted = extractHtml(this.text.slice(from, to), { ...HTML_IN_MARKDOWN, maxDepth: this.settings.maxDepth });
    const locators = new Map<string, string>();
    const own: HtmlUnit[] = [];
    for (const u of extracted.units) {
      const index = this.units.length;
      locators.set(String(index + 1), u.unit.locator);
      own.push(u);
      this.addUnit({ kind: 'html', start: from + u.start, end: from + u.end, source: u.unit.source, tags: u.unit.tags, key: u.unit.key });
    }
    if (own.length > 0) this.units[this.units.length - 1]!.html = { start: from, end: to, units: own, locators };
  }

  /** YAML front matter: top-level string values of the keys in FRONT_MATTER_KEYS. */
  private frontMatter(node: Nodes): void {
    const from = start(node);
    const contentStart = this.text.indexOf('\n', from) + 1;
    const yamlText = (node as { value: string }).value;
    if (contentStart <= 0 || !this.text.startsWith(yamlText, contentStart)) return;
    const doc = parseDocument(yamlText, { keepSourceTokens: false });
    if (doc.errors.length > 0 || !isMap(doc.contents)) return;
    for (const pair of doc.contents.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!FRONT_MATTER_KEYS.has(key) || !isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
      const value = pair.value;
      if (!NON_WHITESPACE.test(value.value as string) || !value.range) continue;
      const { source, tags } = this.patternTags(value.value as string);
      this.addUnit({
        kind: 'front-matter',
        start: contentStart + value.range[0],
        end: contentStart + value.range[1],
        yamlType: value.type ?? Scalar.PLAIN,
        source,
        tags,
        key,
      });
    }
  }
}

/** The most lines a paragraph that starts in a block quote or list item may have. */
export const MAX_CONTAINER_PARAGRAPH_LINES = 1000;
const CONTAINER_START = /^ {0,3}(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])/;

/**
 * micromark takes time quadratic in the lines of a paragraph continued inside a block quote or list
 * item (20,000 lazy lines after one `>`: seconds, growing fourfold per doubling); such a paragraph
 * of more than MAX_CONTAINER_PARAGRAPH_LINES lines is refused before parsing. One pass over lines.
 */
function refuseLongContainerParagraphs(text: string): void {
  let line = 1;
  let runStartLine = 0;
  let inContainerRun = false;
  let runLines = 0;
  for (let at = 0; at <= text.length;) {
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    const content = text.slice(at, Math.min(next, at + 40));
    const blank = content.trim() === '' && (next - at < 40 || text.slice(at, next).trim() === '');
    if (blank) {
      inContainerRun = false;
      runLines = 0;
    } else {
      if (runLines === 0) {
        inContainerRun = CONTAINER_START.test(content);
        runStartLine = line;
      }
      runLines += 1;
      if (inContainerRun && runLines > MAX_CONTAINER_PARAGRAPH_LINES) {
        throw new FormatError(
          `the Markdown file is refused: a block quote or list item starting on line ${runStartLine} has more than ${MAX_CONTAINER_PARAGRAPH_LINES} lines without a blank line`,
          { line },
        );
      }
    }
    at = next + 1;
    line += 1;
  }
}

/** Escapes what Markdown would read as markup in translated text. */
function escapeMarkdown(text: string, notEscaped: string, inTable: boolean): string {
  let out = '';
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    let escaped = c;
    if (notEscaped.includes(c)) escaped = c;
    else if ('\\*_`[]<~'.includes(c)) escaped = `\\${c}`;
    else if (c === '|' && inTable) escaped = '\\|';
    else if (c === '&' && /^&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(text.slice(i, i + 34))) escaped = '\\&';
    else if (lineStart && '#>+-='.includes(c)) escaped = `\\${c}`;
    else if (lineStart && c >= '0' && c <= '9') {
      let k = i;
      while (k < text.length && text[k]! >= '0' && text[k]! <= '9') k++;
      if (text[k] === '.' || text[k] === ')') {
        out += text.slice(i, k) + '\\' + text[k];
        i = k;
        lineStart = false;
        continue;
      }
    }
    out += escaped;
    if (c === '\n') lineStart = true;
    else if (c !== ' ' && c !== '\t') lineStart = false;
  }
  return out;
}

function yamlScalar(value: string, type: string | undefined): string {
  if (type === Scalar.QUOTE_SINGLE && !value.includes('\n')) return `'${value.replace(/'/g, "''")}'`;
  const plainSafe =
    type === Scalar.PLAIN &&
    /^[^\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/[\n\r\t]|: | #|:$|\s$/.test(value) &&
    !/^(?:true|false|yes|no|on|off|null|~|[-+.\d].*)$/i.test(value);
  return plainSafe ? value : JSON.stringify(value);
}

function chooseEncoding(head: Buffer): TextEncoding {
  return encodingFromBom(head) ?? encoding('utf-8');
}

async function readWhole(input: Readable, options: FilterOptions): Promise<{ bom: Buffer; enc: TextEncoding; text: string }> {
  const limit = (options.formatSettings?.['maxMarkdownBytes'] as number | undefined) ?? DEFAULT_MAX_MARKDOWN_BYTES;
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.length;
    if (total > limit) throw new FormatError(`the Markdown file is larger than ${limit} bytes`);
    parts.push(bytes);
  }
  const bytes = Buffer.concat(parts);
  const enc = chooseEncoding(bytes.subarray(0, 4));
  const body = bytes.subarray(enc.bom.length);
  let text: string;
  try {
    text = new TextDecoder(enc.name, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new FormatError(`the file is not valid ${enc.name.toUpperCase()} text`);
  }
  if (text.includes('\u0000')) throw new FormatError('the Markdown file contains a NUL character');
  return { bom: enc.bom, enc, text };
}

function encodeWith(text: string, enc: TextEncoding): Buffer {
  if (enc.name === 'utf-16le') return Buffer.concat([enc.bom, Buffer.from(text, 'utf16le')]);
  if (enc.name === 'utf-16be') return Buffer.concat([enc.bom, Buffer.from(text, 'utf16le').swap16()]);
  return Buffer.concat([enc.bom, Buffer.from(text, 'utf8')]);
}

/** Every unit of a Markdown text, with its position. */
export function extractMarkdown(text: string, settings: MarkdownSettings): MarkdownUnit[] {
  const extractor = new Extractor(text, settings);
  extractor.run();
  return extractor.units;
}

const BATCH_UNITS = 1024;

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const settings = markdownSettings(options);
  const { text } = await readWhole(input, options);
  const units = extractMarkdown(text, settings);
  for (let at = 0; at < units.length; at += BATCH_UNITS) yield units.slice(at, at + BATCH_UNITS).map((u) => u.unit);
}

/** The edits that write `translations` into a Markdown text. */
export function markdownEdits(
  text: string,
  units: readonly MarkdownUnit[],
  translations: ReadonlyMap<string, UnitTranslation>,
  settings: MarkdownSettings,
): Edit[] {
  const edits: Edit[] = [];
  for (const u of units) {
    if (u.kind === 'html') {
      if (!u.html) continue;
      // The block's units are written by the HTML filter, inside the block's own text.
      const inner = new Map<string, UnitTranslation>();
      for (const [locator, innerLocator] of u.html.locators) {
        const translation = translations.get(locator);
        if (translation) inner.set(innerLocator, translation);
      }
      if (inner.size === 0) continue;
      const block = text.slice(u.html.start, u.html.end);
      const blockEdits = htmlEdits(block, { units: u.html.units, htmlLang: null }, inner, UTF8_HTML_ENCODING);
      if (blockEdits.length > 0) edits.push({ start: u.html.start, end: u.html.end, text: applyEdits(block, blockEdits) });
      continue;
    }
    const translation = translations.get(u.unit.locator);
    if (!translation || translation.text === u.unit.source) continue;
    let value: string;
    if (u.kind === 'front-matter') value = yamlScalar(restoreTags(translation.text, u.unit.tags), u.yamlType);
    else if (u.kind === 'code') value = restoreTags(translation.text, u.unit.tags);
    else {
      const oneLine = u.kind !== 'text';
      const escape = (piece: string): string =>
        escapeMarkdown(oneLine ? piece.replace(/[\r\n]+/g, ' ') : piece, settings.notEscapedCharacters, u.kind === 'table-cell');
      value = restoreTags(translation.text, u.unit.tags, escape);
    }
    edits.push({ start: u.start, end: u.end, text: value });
  }
  return edits.sort((a, b) => a.start - b.start);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  const settings = markdownSettings(options);
  const { enc, text } = await readWhole(original, options);
  const edits = markdownEdits(text, extractMarkdown(text, settings), translations, settings);
  async function* rewritten(): AsyncGenerator<Buffer> {
    yield encodeWith(applyEdits(text, edits), enc);
  }
  await pipeline(rewritten(), output);
}

export const markdownFilter: FormatFilter = {
  name: 'markdown',
  extensions: ['md', 'markdown'],
  // Markdown is plain text to a sniffer: only the extension names it.
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

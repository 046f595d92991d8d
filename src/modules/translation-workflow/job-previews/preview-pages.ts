import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { parse, serialize } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

/**
 * The HTML pages of job previews (docs/previews.md). Pure: text in, text out, so the rules can be
 * table-tested. Every page is sent with PREVIEW_CSP, whose `sandbox` (without `allow-scripts`)
 * keeps any script from running even where one slipped through; the renderers remove scripts as
 * well, so that a page saved to disk is harmless too.
 */

/** The Content-Security-Policy of every HTML preview: no scripts, no requests, inline styles only. */
export const PREVIEW_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

/** The Content-Security-Policy of HTML files of preview packages: their own styles and images, never scripts. */
export const PACKAGE_HTML_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; media-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const PAGE_STYLE = `body{font-family:system-ui,sans-serif;margin:2em;line-height:1.5;color:#222}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left;white-space:pre-wrap}
th{background:#f3f3f3}td.n{color:#888;white-space:nowrap}td.k{font-family:monospace}tr.u td.t{color:#a33}
pre{background:#f6f6f6;padding:.5em;overflow:auto}code{background:#f6f6f6}blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1em;color:#555}`;

/** The head and opening of a page of ours. */
export function pageStart(title: string, lang: string): string {
  return `<!DOCTYPE html>\n<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body>\n`;
}

export const PAGE_END = '</body></html>\n';

// ---- HTML documents

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/** Elements removed with their content: they run code, load other documents or redirect. */
const DROPPED_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'portal', 'noscript']);
/** Attributes holding URLs, checked for script schemes. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'background', 'cite', 'data', 'srcset']);
const SCRIPT_URL = /^\s*(javascript|vbscript|data\s*:\s*text\/html)/i;

/** A URL as browsers read it: tabs, line breaks and other control characters within it are ignored. */
function withoutControls(value: string): string {
  let out = '';
  for (const c of value) if (c.charCodeAt(0) > 0x1f) out += c;
  return out;
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

/** Whether an element is dropped from a preview. */
function dropped(element: Element): boolean {
  if (DROPPED_ELEMENTS.has(element.tagName)) return true;
  if (element.tagName === 'meta') {
    const equiv = element.attrs.find((a) => a.name === 'http-equiv')?.value.toLowerCase();
    return equiv === 'refresh' || equiv === 'content-security-policy' || equiv === 'set-cookie';
  }
  if (element.tagName === 'link') {
    const rel = element.attrs.find((a) => a.name === 'rel')?.value.toLowerCase() ?? '';
    return /\b(import|preload|prefetch|modulepreload|manifest|serviceworker)\b/.test(rel);
  }
  return false;
}

/**
 * A translated HTML document as a preview: the same document with its scripts and what else runs
 * code or leaves the page removed (script, iframe, object, embed, base, meta refresh, event
 * handler attributes, `javascript:` URLs, `srcdoc`). Walks the tree with an explicit stack, so a
 * deeply nested document cannot overflow the call stack.
 */
export function sanitizeHtmlDocument(html: string): string {
  const document = parse(html);
  const stack: ParentNode[] = [document];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    parent.childNodes = parent.childNodes.filter((child) => !(isElement(child) && dropped(child)));
    for (const child of parent.childNodes) {
      if (!isElement(child)) continue;
      child.attrs = child.attrs.filter((attr) => {
        const name = attr.name.toLowerCase();
        if (name.startsWith('on') || name === 'srcdoc' || name === 'formaction') return false;
        return !(URL_ATTRIBUTES.has(name) && SCRIPT_URL.test(withoutControls(attr.value)));
      });
      stack.push(child);
      if (child.tagName === 'template') stack.push((child as DefaultTreeAdapterMap['template']).content);
    }
  }
  return serialize(document);
}

// ---- Markdown documents

/** Deeper than this, Markdown nodes are rendered as their plain text (no call stack overflow). */
const MAX_MARKDOWN_DEPTH = 200;

/** A link or image URL of a preview: web, mail and relative addresses only. */
function safeUrl(url: string): string {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed) || !/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return '#';
}

/** The text of a node and its descendants (an explicit stack: no recursion). */
function plainText(node: Nodes): string {
  let text = '';
  const stack: Nodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if ('value' in current && typeof current.value === 'string') text += current.value;
    else if ('children' in current) stack.push(...(current.children as Nodes[]).slice().reverse());
  }
  return text;
}

/**
 * A translated Markdown document rendered as an HTML page: CommonMark with GitHub's extensions
 * (tables, strikethrough, task lists, footnotes) and front matter (shown as code). Everything is
 * escaped: raw HTML in the Markdown is shown as text, links keep web, mail and relative addresses
 * only, images show their alternative text (the page loads nothing).
 */
export function renderMarkdownPage(markdown: string, title: string, lang: string): string {
  let tree: Root;
  try {
    tree = fromMarkdown(markdown, {
      extensions: [gfm(), frontmatter(['yaml', 'toml'])],
      mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])],
    });
  } catch {
    return `${pageStart(title, lang)}<pre>${escapeHtml(markdown)}</pre>${PAGE_END}`;
  }
  const definitions = new Map<string, { url: string; title: string | null | undefined }>();
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'definition') definitions.set(node.identifier.toLowerCase(), { url: node.url, title: node.title });
    if ('children' in node) stack.push(...(node.children as Nodes[]));
  }
  const out: string[] = [pageStart(title, lang)];
  renderMarkdownNode(tree, out, definitions, 0, null);
  out.push(PAGE_END);
  return out.join('');
}

type Definitions = ReadonlyMap<string, { url: string; title: string | null | undefined }>;

function renderMarkdownNode(node: Nodes, out: string[], defs: Definitions, depth: number, align: readonly (string | null)[] | null): void {
  if (depth > MAX_MARKDOWN_DEPTH) {
    out.push(escapeHtml(plainText(node)));
    return;
  }
  const children = (list: Nodes[] = 'children' in node ? (node.children as Nodes[]) : []) => {
    for (const child of list) renderMarkdownNode(child, out, defs, depth + 1, align);
  };
  const wrap = (tag: string, attrs = '') => {
    out.push(`<${tag}${attrs}>`);
    children();
    out.push(`</${tag}>`);
  };
  switch (node.type) {
    case 'root':
      return children();
    case 'paragraph':
      return wrap('p');
    case 'heading':
      return wrap(`h${node.depth}`);
    case 'thematicBreak':
      out.push('<hr>');
      return;
    case 'blockquote':
      return wrap('blockquote');
    case 'list':
      return wrap(node.ordered ? 'ol' : 'ul', node.ordered && node.start != null && node.start !== 1 ? ` start="${node.start}"` : '');
    case 'listItem':
      out.push('<li>');
      if (node.checked != null) out.push(`<input type="checkbox" disabled${node.checked ? ' checked' : ''}> `);
      children();
      out.push('</li>');
      return;
    case 'code':
      out.push(`<pre><code>${escapeHtml(node.value)}</code></pre>`);
      return;
    case 'yaml':
    case 'toml' as Nodes['type']:
      out.push(`<pre class="front-matter">${escapeHtml((node as { value: string }).value)}</pre>`);
      return;
    case 'html':
      out.push(escapeHtml(node.value));
      return;
    case 'text':
      out.push(escapeHtml(node.value));
      return;
    case 'emphasis':
      return wrap('em');
    case 'strong':
      return wrap('strong');
    case 'delete':
      return wrap('del');
    case 'inlineCode':
      out.push(`<code>${escapeHtml(node.value)}</code>`);
      return;
    case 'break':
      out.push('<br>');
      return;
    case 'link':
      return wrap(
        'a',
        ` href="${escapeHtml(safeUrl(node.url))}" rel="noopener noreferrer"${node.title ? ` title="${escapeHtml(node.title)}"` : ''}`,
      );
    case 'linkReference': {
      const def = defs.get(node.identifier.toLowerCase());
      if (!def) return children();
      return wrap('a', ` href="${escapeHtml(safeUrl(def.url))}" rel="noopener noreferrer"`);
    }
    case 'image':
    case 'imageReference':
      out.push(`<span class="image">[${escapeHtml(node.alt ?? '')}]</span>`);
      return;
    case 'definition':
      return;
    case 'footnoteReference':
      out.push(`<sup>[${escapeHtml(node.label ?? node.identifier)}]</sup>`);
      return;
    case 'footnoteDefinition':
      out.push(`<div class="footnote"><sup>[${escapeHtml(node.label ?? node.identifier)}]</sup> `);
      children();
      out.push('</div>');
      return;
    case 'table': {
      out.push('<table>');
      node.children.forEach((row, i) => {
        out.push('<tr>');
        row.children.forEach((cell, c) => {
          const cellAlign = node.align?.[c];
          const tag = i === 0 ? 'th' : 'td';
          out.push(`<${tag}${cellAlign ? ` style="text-align:${cellAlign}"` : ''}>`);
          children(cell.children as Nodes[]);
          out.push(`</${tag}>`);
        });
        out.push('</tr>');
      });
      out.push('</table>');
      return;
    }
    default: {
      const other = node as Nodes;
      if ('children' in other) return children();
      if ('value' in other && typeof other.value === 'string') out.push(escapeHtml(other.value));
    }
  }
}

// ---- listing pages

export interface ListedUnit {
  /** 1-based number of the unit's first segment, as the editor shows it. */
  number: number;
  key: string | null;
  source: string;
  /** The unit's translation; null when it has none (the target file keeps the source there). */
  translation: string | null;
}

export interface ListingHeader {
  filename: string;
  sourceLang: string;
  targetLang: string;
}

/**
 * A bilingual listing page of a job's units (formats without a rendering of their own: PO,
 * properties, JSON, YAML, XLIFF, strings, CSV, subtitles, plain text, …): number, key, source and
 * translation, tags shown as their tokens. Streamed, one batch of units at a time.
 */
export async function* listingPage(header: ListingHeader, batches: AsyncIterable<readonly ListedUnit[]>): AsyncGenerator<string> {
  yield pageStart(`${header.filename} (${header.targetLang})`, header.targetLang);
  yield `<h1>${escapeHtml(header.filename)}</h1>\n<p>${escapeHtml(header.sourceLang)} → ${escapeHtml(header.targetLang)}</p>\n`;
  yield '<table>\n<tr><th>#</th><th>Key</th><th>Source</th><th>Translation</th></tr>\n';
  for await (const batch of batches) {
    let chunk = '';
    for (const unit of batch) {
      const untranslated = unit.translation === null;
      chunk +=
        `<tr${untranslated ? ' class="u"' : ''}><td class="n">${unit.number}</td><td class="k">${escapeHtml(unit.key ?? '')}</td>` +
        `<td lang="${escapeHtml(header.sourceLang)}">${escapeHtml(unit.source)}</td>` +
        `<td class="t" lang="${escapeHtml(header.targetLang)}">${escapeHtml(unit.translation ?? unit.source)}</td></tr>\n`;
    }
    yield chunk;
  }
  yield `</table>\n${PAGE_END}`;
}

/**
 * The charset an HTML document declares (BOM, `<meta charset>`, `<meta http-equiv content>`) in
 * its first bytes; utf-8 when it declares none or one the runtime does not know.
 */
export function htmlCharset(bytes: Buffer): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = bytes.subarray(0, 2048).toString('latin1');
  const declared =
    /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._:-]+)/i.exec(head)?.[1];
  if (!declared) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8';
  }
}

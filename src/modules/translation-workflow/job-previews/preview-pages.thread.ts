import { htmlCharset, renderMarkdownPage, sanitizeHtmlDocument } from './preview-pages.js';

/**
 * The thread entry of preview rendering (docs/previews.md): parsing a translated HTML or Markdown
 * document of several megabytes is CPU work, so it runs in the shared thread pool, never on the
 * event loop that serves requests. Thin: the rules live in preview-pages.ts.
 */

export function renderHtmlPreview(input: { bytes: Uint8Array }): string {
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  return sanitizeHtmlDocument(new TextDecoder(htmlCharset(bytes)).decode(bytes));
}

export function renderMarkdownPreview(input: { bytes: Uint8Array; title: string; lang: string }): string {
  return renderMarkdownPage(new TextDecoder('utf-8').decode(input.bytes), input.title, input.lang);
}

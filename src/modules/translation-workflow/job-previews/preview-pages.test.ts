import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlCharset, listingPage, renderMarkdownPage, sanitizeHtmlDocument } from './preview-pages.js';

describe('sanitizeHtmlDocument', () => {
  it.each<[string, string, string[], string[]]>([
    ['scripts', '<p>Hallo</p><script>alert(1)</script>', ['<p>Hallo</p>'], ['<script', 'alert(1)']],
    [
      'event handlers',
      '<img src="a.png" onerror="alert(1)"><p onclick="x()">Hi</p>',
      ['<img src="a.png">', '<p>Hi</p>'],
      ['onerror', 'onclick'],
    ],
    [
      'javascript: URLs',
      '<a href=" javascript:alert(1)">x</a><a href="https://e.test/">y</a>',
      ['<a>x</a>', 'href="https://e.test/"'],
      ['javascript'],
    ],
    [
      'frames and objects',
      '<iframe src="https://e.test"></iframe><object data="x"></object><embed src="y">',
      [],
      ['iframe', 'object', 'embed'],
    ],
    [
      'meta refresh and base',
      '<head><meta http-equiv="refresh" content="0;url=https://e.test"><base href="https://e.test/"></head>',
      [],
      ['refresh', '<base'],
    ],
    ['scripts in templates', '<template><script>alert(1)</script><b>t</b></template>', ['<b>t</b>'], ['<script']],
    ['srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe><div srcdoc="x">d</div>', ['<div>d</div>'], ['srcdoc']],
  ])('removes %s', (_name, html, kept, gone) => {
    const out = sanitizeHtmlDocument(html);
    for (const text of kept) expect(out).toContain(text);
    for (const text of gone) expect(out).not.toContain(text);
  });

  it('keeps deeply nested documents (no recursion)', () => {
    const html = '<div>'.repeat(20_000) + 'deep' + '</div>'.repeat(20_000);
    expect(sanitizeHtmlDocument(html)).toContain('deep');
  });
});

describe('renderMarkdownPage', () => {
  it('renders the document with everything escaped', () => {
    const page = renderMarkdownPage(
      '# Titel\n\nEin *Absatz* mit [Link](https://e.test/) und [böse](javascript:alert(1)).\n\n<script>alert(1)</script>\n\n- [x] erledigt\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![Bild](x.png)\n',
      'doc.md',
      'de',
    );
    expect(page).toContain('<h1>Titel</h1>');
    expect(page).toContain('<em>Absatz</em>');
    expect(page).toContain('<a href="https://e.test/" rel="noopener noreferrer">Link</a>');
    expect(page).toContain('<a href="#" rel="noopener noreferrer">böse</a>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script');
    expect(page).toContain('<input type="checkbox" disabled checked>');
    expect(page).toContain('<th>a</th>');
    expect(page).toContain('[Bild]');
  });

  it('survives deep nesting', () => {
    expect(renderMarkdownPage('>'.repeat(600) + ' deep', 'x.md', 'en')).toContain('deep');
  });
});

describe('listingPage', () => {
  it('lists the units escaped, untranslated ones marked', async () => {
    async function* batches() {
      yield [
        { number: 1, key: 'a.b', source: 'Hello <b>', translation: 'Hallo <b>' },
        { number: 2, key: null, source: 'Bye', translation: null },
      ];
    }
    let page = '';
    for await (const chunk of listingPage({ filename: 'x.po', sourceLang: 'en', targetLang: 'de' }, batches())) page += chunk;
    expect(page).toContain('<td class="k">a.b</td><td lang="en">Hello &lt;b&gt;</td><td class="t" lang="de">Hallo &lt;b&gt;</td>');
    expect(page).toContain('<tr class="u">');
  });
});

describe('helpers', () => {
  it('escapes', () => expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;'));
  it.each([
    ['<meta charset="iso-8859-1">', 'windows-1252'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=utf-8">', 'utf-8'],
    ['<p>none</p>', 'utf-8'],
    ['<meta charset="nonsense">', 'utf-8'],
  ])('charset of %s', (head, charset) => expect(htmlCharset(Buffer.from(head))).toBe(charset));
});

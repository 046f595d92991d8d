import { describe, expect, it } from 'vitest';
import { splitLines } from './srt.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';
import { decodeVtt, scanVtt, webvttFilter } from './webvtt.js';

const sample = `WEBVTT - Example
Kind: captions
Language: en

STYLE
::cue(.yellow) { color: yellow; }

REGION
id:bill width:40%

NOTE This is a comment
spanning two lines

intro
00:00:01.000 --> 00:00:04.000 position:10%,line-left align:left
<v Roger Bingham>We are in New York City

00:05.000 --> 00:08.000
<c.yellow>Tom &amp; Jerry</c> say &lt;hi&gt;
<i>second</i> line <00:00:06.500>later

chapter-2
00:00:09.000 --> 00:00:10.000

01:00:11.000 --> 01:00:12.000
<ruby>漢<rt>kan</rt></ruby> &nbsp;&#x41;&#66; &unknown; & raw
`;

function cuesOf(text: string): Array<{ timing: string; key: string | null }> {
  return scanVtt(text, splitLines(text)).map((cue) => ({ timing: cue.timing, key: cue.key }));
}

describe('WebVTT parse', () => {
  it('reads cue payloads as units, markup and timestamps as tags, references decoded', async () => {
    const units = await parseAll(webvttFilter, sample, {}, 6);
    expect(units.map((u) => [u.key, u.locator, u.source])).toEqual([
      ['intro', '1', '{1}We are in New York City'],
      [null, '2', '{1>Tom & Jerry<1} say <hi>\n{2>second<2} line {3}later'],
      [null, '4', '{1>漢{2>kan<2}<1} \u00a0AB &unknown; & raw'],
    ]);
    expect(units[1]?.tags.map((t) => [t.display, t.original])).toEqual([
      ['{1>', '<c.yellow>'],
      ['<1}', '</c>'],
      ['{2>', '<i>'],
      ['<2}', '</i>'],
      ['{3}', '<00:00:06.500>'],
    ]);
    expect(units[0]?.tags[0]?.original).toBe('<v Roger Bingham>');
  });

  it('decodes only known references', () => {
    expect(decodeVtt('&amp;amp; &#0; &#xD800; &lrm;')).toBe('&amp; &#0; &#xD800; \u200e');
  });

  it.each([
    ['a missing header', '00:01.000 --> 00:02.000\nHi\n', 1],
    ['a header word run on', 'WEBVTTX\n', 1],
    ['a block without timing', 'WEBVTT\n\nid\nno timing\n', 4],
    ['a bad timing', 'WEBVTT\n\n00:01 --> 00:02\nHi\n', 3],
  ])('refuses %s with a FormatError at its line', async (_name, text, line) => {
    const error = await parseAll(webvttFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ line });
  });
});

describe('WebVTT write', () => {
  it.each([
    ['LF', sample],
    ['CRLF and a BOM', `\ufeff${sample.replace(/\n/g, '\r\n')}`],
  ])('gives back a file with %s byte for byte, with no translations and with the sources', async (_name, text) => {
    const bytes = Buffer.from(text);
    expect((await writeAll(webvttFilter, bytes, {}, {}, 5)).equals(bytes)).toBe(true);
    const units = await parseAll(webvttFilter, bytes);
    expect((await writeAll(webvttFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])))).equals(bytes)).toBe(true);
  });

  it('writes translations escaped, tags back, with the same cues and timings', async () => {
    const out = (
      await writeAll(webvttFilter, sample, {
        '1': '{1}Wir sind in New York --> City',
        '2': '{1>Tom & Jerry<1} sagen <hallo>\n\n{2>zweite<2} Zeile {3}später',
      })
    ).toString();
    expect(out).toContain('<v Roger Bingham>Wir sind in New York --&gt; City\n');
    expect(out).toContain('<c.yellow>Tom &amp; Jerry</c> sagen &lt;hallo&gt;\n<i>zweite</i> Zeile <00:00:06.500>später\n');
    expect(out).toContain('STYLE\n::cue(.yellow) { color: yellow; }\n');
    expect(cuesOf(out)).toEqual(cuesOf(sample));
    const again = await parseAll(webvttFilter, out);
    expect(again.map((u) => u.source)[1]).toBe('{1>Tom & Jerry<1} sagen <hallo>\n{2>zweite<2} Zeile {3}später');
  });
});

describe('WebVTT hostile input', () => {
  it('reads many cues and long payloads in linear time', async () => {
    const started = Date.now();
    const many = `WEBVTT\n\n${Array.from({ length: 100_000 }, (_, i) => `00:00:01.000 --> 00:00:02.000\n<i>Line</i> ${i}\n`).join('\n')}`;
    expect(await parseAll(webvttFilter, many)).toHaveLength(100_000);
    const [unit] = await parseAll(webvttFilter, `WEBVTT\n\n00:01.000 --> 00:02.000\n${'&amp;<'.repeat(100_000)}>\n`);
    expect(unit?.source.length).toBe(200_001);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('WebVTT detect', () => {
  it.each([
    ['WEBVTT\n', true],
    ['WEBVTT', true],
    ['\ufeffWEBVTT - title\n', true],
    ['WEBVTTX', false],
    ['1\n00:00:01,000 --> 00:00:02,000\n', false],
  ])('%j → %s', (text, expected) => {
    expect(webvttFilter.detect!(Buffer.from(text))).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { scanSrt, splitLines, srtFilter } from './srt.js';
import { parseAll, writeAll } from './testing.js';
import { FormatError } from './types.js';

const sample = `1
00:00:01,000 --> 00:00:04,000
Hello there.
<i>How are you?</i>

2
00:00:05,500 --> 00:00:07,250 X1:100 X2:200 Y1:10 Y2:20
{\\an8}<font color="#ffff00">Yellow</font> and <b>bold

3
00:00:08,000 --> 00:00:09,000

4
00:00:10,000 --> 00:00:12,000
1984
5
00:00:13,000 --> 00:00:14,000
No blank line before this cue's number
`;

/** Cue count, timings and texts of a file, read by the filter's own scanner. */
function cuesOf(text: string): Array<{ timing: string; text: string }> {
  const lines = splitLines(text);
  return scanSrt(text, lines).map((cue) => ({
    timing: cue.timing,
    text: lines
      .slice(cue.first, cue.last + 1)
      .map((line) => text.slice(line.start, line.end))
      .join('\n'),
  }));
}

describe('SRT parse', () => {
  it('reads each cue text as a unit with markup as tags', async () => {
    const units = await parseAll(srtFilter, sample, {}, 7);
    expect(units.map((u) => [u.key, u.locator, u.source])).toEqual([
      ['1', '1', 'Hello there.\n{1>How are you?<1}'],
      ['2', '2', '{1}{2>Yellow<2} and {3}bold'],
      ['4', '4', '1984'],
      ['5', '5', "No blank line before this cue's number"],
    ]);
    expect(units[1]?.tags.map((t) => [t.display, t.original])).toEqual([
      ['{1}', '{\\an8}'],
      ['{2>', '<font color="#ffff00">'],
      ['<2}', '</font>'],
      ['{3}', '<b>'],
    ]);
  });

  it('reads cues without numbers, with dots, CRLF, a BOM and UTF-16', async () => {
    const text = '\ufeff00:00:01.000 --> 00:00:02.000\r\nOne\r\n\r\n00:00:03,000 --> 00:00:04,000\r\nTwo\r\nlines';
    expect((await parseAll(srtFilter, text, {}, 3)).map((u) => [u.key, u.locator, u.source])).toEqual([
      [null, '1', 'One'],
      [null, '2', 'Two\nlines'],
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(1), 'utf16le')]);
    expect((await parseAll(srtFilter, utf16, {}, 5)).map((u) => u.source)).toEqual(['One', 'Two\nlines']);
  });

  it('reads an empty file as no units', async () => {
    expect(await parseAll(srtFilter, '')).toEqual([]);
    expect(await parseAll(srtFilter, '\n\n')).toEqual([]);
  });

  it.each([
    ['text where a cue should start', '1\n00:00:01,000 --> 00:00:02,000\nOne\n\nStray text\n', 5],
    ['a bad timing', '1\n00:00:01 --> 00:00:02\nOne\n', 1],
    ['a number without timing', '1\n\n00:00:01,000 --> 00:00:02,000\nOne\n', 1],
  ])('refuses %s with a FormatError at its line', async (_name, text, line) => {
    const error = await parseAll(srtFilter, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ line });
  });
});

describe('SRT write', () => {
  it.each([
    ['LF', sample],
    ['CRLF and a BOM', `\ufeff${sample.replace(/\n/g, '\r\n')}`],
    ['no final line break', sample.trimEnd()],
  ])('gives back a file with %s byte for byte, with no translations and with the sources', async (_name, text) => {
    const bytes = Buffer.from(text);
    expect((await writeAll(srtFilter, bytes, {}, {}, 5)).equals(bytes)).toBe(true);
    const units = await parseAll(srtFilter, bytes);
    expect((await writeAll(srtFilter, bytes, Object.fromEntries(units.map((u) => [u.locator, u.source])))).equals(bytes)).toBe(true);
  });

  it('writes translations with the cue line ending, keeping cue count and timings', async () => {
    const crlf = sample.replace(/\n/g, '\r\n');
    const out = (
      await writeAll(srtFilter, crlf, {
        '1': 'Hallo.\n\n{1>Wie geht es?<1}',
        '2': '{1}{2>Gelb<2} und {3}fett',
        '5': 'Kein Leerzeile\nvor dieser Nummer',
      })
    ).toString();
    expect(out).toContain('00:00:01,000 --> 00:00:04,000\r\nHallo.\r\n<i>Wie geht es?</i>\r\n\r\n2\r\n');
    expect(out).toContain('{\\an8}<font color="#ffff00">Gelb</font> und <b>fett\r\n');
    const before = cuesOf(crlf);
    const after = cuesOf(out);
    expect(after.map((c) => c.timing)).toEqual(before.map((c) => c.timing));
    expect(after[4]?.text).toBe('Kein Leerzeile\nvor dieser Nummer');
  });

  it('refuses a translation with "-->"', async () => {
    await expect(writeAll(srtFilter, sample, { '4': 'a --> b' })).rejects.toThrow(/cue 4: a subtitle line cannot contain "-->"/);
  });
});

describe('SRT hostile input', () => {
  it('stays linear on text full of unmatched brackets and many cues', async () => {
    const started = Date.now();
    const cue = `1\n00:00:01,000 --> 00:00:02,000\n${'<'.repeat(300_000)}>${'{\\'.repeat(200_000)}}\n`;
    const [unit] = await parseAll(srtFilter, cue);
    expect(unit?.tags.map((t) => t.original)).toEqual(['{\\}']);
    const many = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n00:00:01,000 --> 00:00:02,000\nLine ${i}\n`).join('\n');
    expect(await parseAll(srtFilter, many)).toHaveLength(100_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a cue over the size limit and a file over the byte limit', async () => {
    await expect(parseAll(srtFilter, `00:00:01,000 --> 00:00:02,000\n${'x'.repeat(1_000_001)}\n`)).rejects.toThrow(/longer than 1000000/);
    await expect(
      parseAll(srtFilter, `00:00:01,000 --> 00:00:02,000\n${'x'.repeat(2000)}\n`, { maxSubtitleBytes: 1000 } as object),
    ).rejects.toThrow(/larger than 1000 bytes/);
  });
});

describe('SRT detect', () => {
  it.each([
    [sample, true],
    ['\n1\r\n00:00:01.000 --> 00:00:02.000\r\n', true],
    ['1\nhello\n', false],
    ['WEBVTT\n', false],
  ])('%j → %s', (text, expected) => {
    expect(srtFilter.detect!(Buffer.from(text))).toBe(expected);
  });
});

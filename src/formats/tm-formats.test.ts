import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamOf } from './testing.js';
import { readTmUnits, tmImportFormat } from './tm-formats.js';
import type { TmImportFormat, TmReadOptions, TmUnit } from './tm-formats.js';
import { emptyXliffTmStats } from './tm-xliff.js';
import { writeXlsxTm } from './tm-xlsx.js';
import { FormatError } from './types.js';

async function readAll(format: TmImportFormat, bytes: Buffer | string, options?: TmReadOptions): Promise<TmUnit[]> {
  const units: TmUnit[] = [];
  for await (const batch of readTmUnits(format, streamOf(bytes, 64), options)) units.push(...batch);
  return units;
}

describe('TM import formats', () => {
  it('chooses the format by extension, case-insensitively', () => {
    expect(tmImportFormat('memory.tmx')).toBe('tmx');
    expect(tmImportFormat('Memory.TMX')).toBe('tmx');
    for (const name of ['a.xlf', 'a.XLIFF', 'job.mxliff', 'job.MXLF', 'dir.x/a.b.xlf']) expect(tmImportFormat(name)).toBe('xliff');
    expect(tmImportFormat('tm.xlsx')).toBe('xlsx');
    expect(tmImportFormat('TM.XLSX')).toBe('xlsx');
    for (const name of ['old.xls', 'tm.csv', 'tmx', 'noextension', 'a.tmx.gz', '']) expect(tmImportFormat(name)).toBeNull();
  });

  it('reads every format into the same units', async () => {
    const tmx = `<tmx version="1.4"><header srclang="en" creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" datatype="plaintext"/><body>
      <tu><tuv xml:lang="en"><seg>Hello <ph x="1"/></seg></tuv><tuv xml:lang="de"><seg>Hallo <ph x="1"/></seg></tuv></tu></body></tmx>`;
    const xliff = `<xliff version="1.2"><file source-language="en" target-language="de"><body>
      <trans-unit id="1" resname="k"><source>Hello <x id="1"/></source><target state="new">Hallo <x id="1"/></target></trans-unit></body></file></xliff>`;
    const parts: Buffer[] = [];
    await writeXlsxTm(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          parts.push(chunk);
          done();
        },
      }),
      [
        [
          {
            sourceLang: 'en',
            variants: [
              { lang: 'en', text: 'Hello {1}', tags: [] },
              { lang: 'de', text: 'Hallo {1}', tags: [] },
            ],
          },
        ],
      ],
      { sourceLang: 'en', targetLangs: ['de'] },
    );
    const fromTmx = await readAll('tmx', tmx);
    const fromXliff = await readAll('xliff', xliff);
    const fromXlsx = await readAll('xlsx', Buffer.concat(parts), { sourceLang: 'en' });
    for (const units of [fromTmx, fromXliff, fromXlsx]) {
      expect(units).toHaveLength(1);
      expect(units[0]).toMatchObject({
        sourceLang: 'en',
        variants: [
          { lang: 'en', text: 'Hello {1}' },
          { lang: 'de', text: 'Hallo {1}' },
        ],
      });
      expect(units[0]!.variants[0]!.tags.map((tag) => tag.display)).toEqual(['{1}']);
    }
    expect(fromXliff[0]!.contextKey).toBe('k');

    const stats = emptyXliffTmStats();
    expect(await readAll('xliff', xliff, { confirmedOnly: true, stats })).toEqual([]);
    expect(stats.notConfirmed).toBe(1);
  });

  it('XLSX without a source language is a FormatError', async () => {
    const error = await readAll('xlsx', Buffer.from('PK')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FormatError);
  });
});

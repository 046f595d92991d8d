/**
 * The file filters' figures (docs/file-formats.md). Prints, asserts nothing.
 * Run: `npx tsx bench/formats.bench.ts [units]` (default 200,000 XLIFF trans-units).
 *
 * - XLIFF 1.2 parse and write-back of a generated file streamed from a generator (the file never
 *   exists as a whole in memory), with the peak heap seen while parsing: it should stay flat
 *   however many units the file has;
 * - plain text (one unit per line) parse and write-back;
 * - JSON parse of a flat key-value file (this one is read whole, by design).
 */
import { Readable, Writable } from 'node:stream';
import { jsonFilter } from '../src/formats/json.js';
import { plainTextFilter } from '../src/formats/plain-text.js';
import { xliff12Filter } from '../src/formats/xliff12.js';
import type { FormatFilter, UnitTranslation } from '../src/formats/types.js';

const units = Number(process.argv[2] ?? 200_000);
const NS = 'urn:oasis:names:tc:xliff:document:1.2';

function* xliffParts(count: number): Generator<Buffer> {
  yield Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="${NS}"><file original="big" source-language="en" target-language="de" datatype="plaintext"><body>\n`,
  );
  let batch = '';
  for (let i = 0; i < count; i += 1) {
    batch += `  <trans-unit id="u${i}" resname="key.${i}"><source>Sentence number ${i} with <g id="1">bold</g> text and a <x id="2"/> break.</source><note>n${i}</note></trans-unit>\n`;
    if (batch.length > 60_000) {
      yield Buffer.from(batch);
      batch = '';
    }
  }
  yield Buffer.from(`${batch}</body></file></xliff>\n`);
}

function* textParts(count: number): Generator<Buffer> {
  let batch = '';
  for (let i = 0; i < count; i += 1) {
    batch += `Line number ${i} of a plain text file, long enough to be a sentence.\r\n`;
    if (i % 10 === 9) batch += '\r\n';
    if (batch.length > 60_000) {
      yield Buffer.from(batch);
      batch = '';
    }
  }
  yield Buffer.from(batch);
}

function byteCounter(): { sink: Writable; bytes: () => number } {
  let total = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done();
    },
  });
  return { sink, bytes: () => total };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function measureParse(name: string, filter: FormatFilter, source: () => Generator<Buffer>): Promise<void> {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let count = 0;
  const started = performance.now();
  for await (const _unit of filter.parse(Readable.from(source()))) {
    count += 1;
    if (count % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${name} parse: ${count} units in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} units/s; heap before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)})`,
  );
}

async function measureWrite(
  name: string,
  filter: FormatFilter,
  source: () => Generator<Buffer>,
  translations: Map<string, UnitTranslation>,
): Promise<void> {
  const { sink, bytes } = byteCounter();
  const started = performance.now();
  await filter.write(Readable.from(source()), translations, sink);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${name} write: ${translations.size} translations, ${mb(bytes())} out in ${seconds.toFixed(2)} s = ${Math.round(translations.size / seconds)} units/s`,
  );
}

const xliffBytes = [...xliffParts(1000)].reduce((n, b) => n + b.length, 0) * (units / 1000);
console.log(
  `XLIFF 1.2 with ${units} trans-units (about ${mb(xliffBytes)}), ${process.version}${globalThis.gc ? '' : ' (run with node --expose-gc for steadier heap figures)'}`,
);
await measureParse('xliff12', xliff12Filter, () => xliffParts(units));
await measureParse('xliff12 (10x units)', xliff12Filter, () => xliffParts(units * 10));
const xliffTranslations = new Map<string, UnitTranslation>();
for (let i = 0; i < units; i += 2)
  xliffTranslations.set(`1:u${i}`, { text: `Satz Nummer ${i} mit {1>fettem<1} Text und einem {2} Umbruch.` });
await measureWrite('xliff12', xliff12Filter, () => xliffParts(units), xliffTranslations);

await measureParse('plain-text', plainTextFilter, () => textParts(units));
const lineTranslations = new Map<string, UnitTranslation>();
for (let line = 1; line <= units * 1.1; line += 2) lineTranslations.set(String(line), { text: 'Übersetzte Zeile.' });
await measureWrite('plain-text', plainTextFilter, () => textParts(units), lineTranslations);

const jsonUnits = Math.min(units, 200_000);
const json = `{\n${Array.from({ length: jsonUnits }, (_, i) => `  "section${i % 100}.key${i}": "Value number ${i} to translate"`).join(',\n')}\n}\n`;
await measureParse(`json (${mb(json.length)})`, jsonFilter, function* () {
  yield Buffer.from(json);
});

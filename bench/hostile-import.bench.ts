/**
 * Hostile job files (issue 13): each case generates a file of about 10 MB of one abusive shape and
 * runs the import's CPU-heavy part on it — the file's filter, segmentation, word counting and the
 * import limits (src/formats, src/domain, segmentUnit), as the import does, without the database —
 * then prints the CPU time and the peak memory. Every case must end (imported, or refused with
 * the message the job would show) in well under 2 s of CPU. Asserts nothing.
 *
 * Run: `npx tsx bench/hostile-import.bench.ts` (every case, each in a child process of its own so
 * that its peak RSS is its own), or `npx tsx bench/hostile-import.bench.ts <case>` for one.
 * The limits are the defaults of src/config.ts unless the case says otherwise.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { filterFor } from '../src/formats/index.js';
import { filterOptionsFromImportSettings } from '../src/formats/import-settings.js';
import { streamOf } from '../src/formats/testing.js';
import { FormatError } from '../src/formats/types.js';
import { segmentUnit } from '../src/modules/translation-workflow/jobs/unit-segments.js';

const MB = 1024 * 1024;
const NS = 'urn:oasis:names:tc:xliff:document:1.2';
const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="${NS}"><file original="f" source-language="en" target-language="de" datatype="plaintext"><body>\n`;
const TAIL = '</body></file></xliff>\n';
const transUnit = (id: string, source: string, attributes = '') =>
  `<trans-unit id="${id}"${attributes}><source>${source}</source></trans-unit>\n`;

function tags(count: number, from = 1): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`<x id="${from + i}"/>`);
  return parts.join('');
}

interface Case {
  name: string;
  filename: string;
  make: () => string;
  env?: Record<string, string>;
}

const CASES: Case[] = [
  {
    name: 'deep-nesting',
    filename: 'deep.xlf',
    make: () => HEAD + transUnit('1', `${'<g id="1">'.repeat(700_000)}x${'</g>'.repeat(700_000)}`) + TAIL,
  },
  { name: 'tags-625k-one-unit', filename: 'tags.xlf', make: () => HEAD + transUnit('1', `word ${tags(625_000)}`) + TAIL },
  {
    name: 'tags-40k-per-unit',
    filename: 'tags40k.xlf',
    make: () => {
      const units: string[] = [];
      for (let u = 0, size = 0; size < 10 * MB; u++) {
        units.push(transUnit(`u${u}`, `Hello${tags(40_000)}`));
        size += units[units.length - 1]!.length;
      }
      return HEAD + units.join('') + TAIL;
    },
  },
  { name: 'one-5MB-segment', filename: 'long.xlf', make: () => HEAD + transUnit('1', 'word '.repeat(MB)) + TAIL },
  {
    name: 'one-5MB-segment-allowed',
    filename: 'long.xlf',
    make: () => HEAD + transUnit('1', 'word '.repeat(MB)) + TAIL,
    env: { OPENTMS_IMPORT_MAX_SEGMENT_CHARS: '10000000' },
  },
  {
    name: '100k-one-char-segments',
    filename: 'units.xlf',
    // Padded (resname) to about 10 MB.
    make: () => {
      const parts: string[] = [];
      for (let i = 0; i < 100_000; i++) parts.push(transUnit(`u${i}`, 'a', ` resname="${'r'.repeat(50)}"`));
      return HEAD + parts.join('') + TAIL;
    },
  },
  { name: '5M-one-char-lines', filename: 'lines.txt', make: () => 'a\n'.repeat(5 * MB) },
  { name: 'json-1M-strings', filename: 'strings.json', make: () => `{"a":[${Array(2_000_000).fill('"x"').join(',')}]}` },
  { name: 'nul-at-the-end-txt', filename: 'nul.txt', make: () => 'Hello world. How are you?\n'.repeat(400_000) + 'nul\u0000\n' },
  { name: 'nul-json', filename: 'nul.json', make: () => `{"a":[${Array(1_000_000).fill('"xxxxxxx"').join(',')}, "\\u0000"]}` },
  { name: 'nul-xliff', filename: 'nul.xlf', make: () => HEAD + transUnit('1', 'word '.repeat(MB)) + transUnit('2', 'a\u0000b') + TAIL },
];

async function runCase(c: Case): Promise<void> {
  const limits = loadConfig({ LOG_LEVEL: 'silent', ...c.env }).importLimits;
  const bytes = Buffer.from(c.make(), 'utf8');
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  let segments = 0;
  let wordHundredths = 0;
  let outcome = 'OK';
  try {
    const filter = filterFor(c.filename, bytes.subarray(0, 1024));
    if (!filter) throw new FormatError('unsupported file type');
    // As job-import.thread.ts reads them: in batches.
    for await (const units of filter.parseBatches(streamOf(bytes), filterOptionsFromImportSettings(filter.name, '{}', limits))) {
      for (const unit of units) {
        if (!unit.translatable) continue;
        for (const segment of segmentUnit(unit, 'en', limits)) {
          segments += 1;
          wordHundredths += Math.round(segment.words * 100);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    outcome = `ERROR: ${error.message.slice(0, 110)}`;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      name: c.name,
      size: bytes.length,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      rssBefore,
      peakRss,
      segments,
      words: Math.round(wordHundredths / 100),
      outcome,
    }),
  );
}

const only = process.argv[2];
if (only) {
  const c = CASES.find((candidate) => candidate.name === only);
  if (!c) throw new Error(`no case ${only}; cases: ${CASES.map((candidate) => candidate.name).join(', ')}`);
  await runCase(c);
} else {
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MiB`;
  console.log(`hostile job files, node ${process.version}: filter + segmentation + counting + limits (defaults of src/config.ts)`);
  console.log(`${'case'.padEnd(26)} ${'file'.padStart(8)} ${'CPU'.padStart(8)} ${'peak RSS'.padStart(9)}  segments     words  outcome`);
  for (const c of CASES) {
    const output = execFileSync(process.execPath, [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), c.name], {
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    });
    const r = JSON.parse(output.trim().split('\n').pop()!) as {
      size: number;
      cpuMs: number;
      peakRss: number;
      segments: number;
      words: number;
      outcome: string;
    };
    console.log(
      `${c.name.padEnd(26)} ${mb(r.size).padStart(8)} ${`${(r.cpuMs / 1000).toFixed(2)} s`.padStart(8)} ${mb(r.peakRss).padStart(9)}  ` +
        `${r.segments.toLocaleString('en-US').padStart(8)} ${r.words.toLocaleString('en-US').padStart(9)}  ${r.outcome}`,
    );
  }
}

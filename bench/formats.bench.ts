/**
 * The file filters' figures (issue 18, performance; docs/formats/benchmark.md). Prints figures,
 * the targets and `ok` / `MISSED`; asserts nothing.
 *
 * 1. Parse throughput per format, on real files made at bench time (never committed), in a temp
 *    dir removed at the end: HTML from the machine's package documentation (/usr/share/doc
 *    **.html, the UTF-8 ones, concatenated), Markdown from node_modules' README.md files, PO
 *    decompiled with `msgunfmt` from /usr/share/locale/<lang>/LC_MESSAGES/*.mo (the UTF-8 ones,
 *    concatenated), the other text formats written from the real en→<lang> catalog pairs
 *    (`../shared/data/catalog-tmx.mjs`; TMX is its own output), ODT/DOCX and XLSX converted by
 *    LibreOffice (`soffice --headless --convert-to`) from that HTML (HTML → ODT → DOCX) and from a
 *    CSV of the pairs. Each format is parsed (`parseBatches`, as the import's thread reads, in
 *    64 KiB chunks) in a child process of its own: one untimed warm-up, then FORMATS_BENCH_RUNS timed parses (an office file
 *    is parsed as many times as it takes to reach FORMATS_BENCH_OFFICE_MB per timed run); the
 *    fastest run's MB/s by wall clock and by CPU time (user + system of the process) against the
 *    targets: ≥ 20 MB/s for text formats, ≥ 5 MB/s for office formats (MB = 10^6 bytes of the
 *    file as uploaded). A filter is taken from the registry (`filterFor`) when it is registered,
 *    else imported from its module (src/formats/<module>.ts); a missing module is skipped.
 * 2. Peak RSS of a FORMATS_BENCH_XLSX_MB (200) MB XLSX and a FORMATS_BENCH_DOCX_MB (100) MB DOCX,
 *    parsed and then written back with every unit translated, each in a child process that reads
 *    its own /proc/self/status VmHWM (reset through /proc/self/clear_refs between parse and
 *    write when the kernel allows), against < 400 MB. The files are written with yazl (XLSX: a
 *    shared-string column, an inline-string column and a number column; DOCX: paragraphs of three
 *    runs, the middle one bold), entries stored so that the file's size is its XML's size
 *    (FORMATS_BENCH_ZIP_DEFLATE=1: deflated; the size is then the XML's). The translations are a
 *    lazy ReadonlyMap computed from the locator (what the filter itself costs; the job export
 *    holds a real Map besides, see the printed note).
 * 3. translate-toolkit's converters on the same files (smaller copies, FORMATS_BENCH_TTK_MB):
 *    html2po, prop2po, json2po, yaml2po, csv2po, po2xliff, odf2xliff (each skipped when missing):
 *    their units (msgid entries of the PO, trans-units of the XLIFF) against ours (and our
 *    segments), the texts compared after stripping markup (categories of the differences), and
 *    the time: their whole command against our whole process (node + tsx transpiling src/ + parse
 *    of one file) and against our parse alone, timed by /usr/bin/time when present.
 *
 * Run: `npx tsx bench/formats.bench.ts` (about 6–8 minutes on 2 loaded cores). Quick:
 * `FORMATS_BENCH_XLSX_MB=20 FORMATS_BENCH_DOCX_MB=10 FORMATS_BENCH_MB=1 npx tsx bench/formats.bench.ts`.
 * Environment (all optional):
 *   FORMATS_BENCH_SECTIONS    throughput,memory,ttk (default all three)
 *   FORMATS_BENCH_MB          size of each text format's file (default 4)
 *   FORMATS_BENCH_OFFICE_MB   bytes of office file parsed per timed run (default 4)
 *   FORMATS_BENCH_RUNS        timed parses per format (default 3)
 *   FORMATS_BENCH_XLSX_MB     the big XLSX (default 200; 0 skips it)
 *   FORMATS_BENCH_DOCX_MB     the big DOCX (default 100; 0 skips it)
 *   FORMATS_BENCH_ZIP_DEFLATE 1: deflate the big files' entries
 *   FORMATS_BENCH_TTK_MB      size of the files given to translate-toolkit (default 1)
 *   FORMATS_BENCH_LANG        the catalogs' target language (default de)
 *   FORMATS_BENCH_ONLY        comma-separated format names (default all)
 *   FORMATS_BENCH_KEEP        1: keep the temp dir (its path is printed)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import type { FilterOptions, FormatFilter, TextUnit, UnitTranslation } from '../src/formats/types.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(SELF), '..');
const CATALOG_SCRIPT = resolve(ROOT, '../shared/data/catalog-tmx.mjs');
const LOCALE_DIR = '/usr/share/locale';
const MB = 1_000_000;
const MIB = 1024 * 1024;
const TEXT_TARGET = 20;
const OFFICE_TARGET = 5;
const RSS_TARGET_MB = 400;

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return value;
}

const settings = {
  sections: new Set((process.env.FORMATS_BENCH_SECTIONS ?? 'throughput,memory,ttk').split(',').map((s) => s.trim())),
  textMb: numberFromEnv('FORMATS_BENCH_MB', 4),
  officeMb: numberFromEnv('FORMATS_BENCH_OFFICE_MB', 4),
  runs: Math.max(1, Math.round(numberFromEnv('FORMATS_BENCH_RUNS', 3))),
  xlsxMb: numberFromEnv('FORMATS_BENCH_XLSX_MB', 200),
  docxMb: numberFromEnv('FORMATS_BENCH_DOCX_MB', 100),
  deflate: process.env.FORMATS_BENCH_ZIP_DEFLATE === '1',
  ttkMb: numberFromEnv('FORMATS_BENCH_TTK_MB', 1),
  lang: process.env.FORMATS_BENCH_LANG?.trim() || 'de',
  only: process.env.FORMATS_BENCH_ONLY ? new Set(process.env.FORMATS_BENCH_ONLY.split(',').map((s) => s.trim())) : null,
  keep: process.env.FORMATS_BENCH_KEEP === '1',
};

// ---------------------------------------------------------------------------------------------
// The formats
// ---------------------------------------------------------------------------------------------

interface FormatDef {
  /** Our filter's name (FormatFilter.name). */
  name: string;
  kind: 'text' | 'office';
  /** The module under src/formats and its export, for a filter that is not registered yet. */
  module: string;
  exportName: string;
  /** The file's extension. */
  ext: string;
  options?: FilterOptions;
}

const LANGUAGES: FilterOptions = { sourceLanguage: 'en', targetLanguage: 'de' };
const FORMATS: FormatDef[] = [
  { name: 'html', kind: 'text', module: 'html', exportName: 'htmlFilter', ext: 'html' },
  { name: 'markdown', kind: 'text', module: 'markdown', exportName: 'markdownFilter', ext: 'md' },
  { name: 'gettext-po', kind: 'text', module: 'gettext-po', exportName: 'gettextPoFilter', ext: 'po' },
  { name: 'json', kind: 'text', module: 'json', exportName: 'jsonFilter', ext: 'json' },
  { name: 'yaml', kind: 'text', module: 'yaml', exportName: 'yamlFilter', ext: 'yaml' },
  { name: 'java-properties', kind: 'text', module: 'java-properties', exportName: 'javaPropertiesFilter', ext: 'properties' },
  { name: 'arb', kind: 'text', module: 'arb', exportName: 'arbFilter', ext: 'arb' },
  { name: 'ios-strings', kind: 'text', module: 'ios-strings', exportName: 'iosStringsFilter', ext: 'strings' },
  { name: 'xliff2', kind: 'text', module: 'xliff2', exportName: 'xliff2Filter', ext: 'xlf', options: LANGUAGES },
  { name: 'xliff12', kind: 'text', module: 'xliff12', exportName: 'xliff12Filter', ext: 'xlf', options: LANGUAGES },
  { name: 'tmx-job', kind: 'text', module: 'tmx-job', exportName: 'tmxJobFilter', ext: 'tmx', options: LANGUAGES },
  { name: 'srt', kind: 'text', module: 'srt', exportName: 'srtFilter', ext: 'srt' },
  { name: 'webvtt', kind: 'text', module: 'webvtt', exportName: 'webvttFilter', ext: 'vtt' },
  { name: 'plain-text', kind: 'text', module: 'plain-text', exportName: 'plainTextFilter', ext: 'txt' },
  {
    name: 'csv',
    kind: 'text',
    module: 'csv',
    exportName: 'csvFilter',
    ext: 'csv',
    // The source column, keyed by the location column, the header row left out: what csv2po reads.
    options: { formatSettings: { importColumns: 'B', contextKeyColumn: 'A', importRows: '2-' } },
  },
  { name: 'xml', kind: 'text', module: 'xml-rules', exportName: 'xmlRulesFilter', ext: 'xml' },
  { name: 'android-strings', kind: 'text', module: 'android-strings', exportName: 'androidStringsFilter', ext: 'xml' },
  { name: 'resx', kind: 'text', module: 'resx', exportName: 'resxFilter', ext: 'resx' },
  { name: 'qt-ts', kind: 'text', module: 'qt-ts', exportName: 'qtTsFilter', ext: 'ts', options: LANGUAGES },
  { name: 'docx', kind: 'office', module: 'docx', exportName: 'docxFilter', ext: 'docx' },
  { name: 'xlsx', kind: 'office', module: 'xlsx', exportName: 'xlsxFilter', ext: 'xlsx' },
  { name: 'odt', kind: 'office', module: 'odf', exportName: 'odtFilter', ext: 'odt' },
  { name: 'ods', kind: 'office', module: 'odf', exportName: 'odsFilter', ext: 'ods' },
];

/** Our filter for `def`: the registry's when it has one of that name for the file, else the module's export. */
async function resolveFilter(def: FormatDef, file: string): Promise<{ filter: FormatFilter; via: string } | string> {
  const head = readFileSync(file).subarray(0, 1024);
  const registry = await import('../src/formats/index.js');
  const registered = registry.filterFor(basename(file), head);
  if (registered && registered.name === def.name) return { filter: registered, via: 'registry' };
  const named = registry.FORMAT_FILTERS.find((filter) => filter.name === def.name);
  if (named) return { filter: named, via: 'registry (by name)' };
  const candidates = def.name === 'odt' || def.name === 'ods' ? ['odf', 'odt', 'ods', 'opendocument'] : [def.module];
  for (const module of candidates) {
    let loaded: Record<string, unknown>;
    try {
      loaded = (await import(new URL(`../src/formats/${module}.ts`, import.meta.url).href)) as Record<string, unknown>;
    } catch {
      continue;
    }
    const exported = Object.values(loaded).find(
      (value): value is FormatFilter =>
        typeof value === 'object' && value !== null && 'parseBatches' in value && (value as FormatFilter).name === def.name,
    );
    if (exported) return { filter: exported, via: `direct import (src/formats/${module}.ts, not registered)` };
  }
  return `no ${def.name} filter in src/formats (${candidates.map((m) => `${m}.ts`).join(', ')}) yet`;
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const mbOf = (bytes: number) => fixed(bytes / MB, bytes < 10 * MB ? 2 : 1);
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const escXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
const escAttr = (text: string) => escXml(text).replace(/"/g, '&quot;');

function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const path = join(dir, command);
    if (dir && existsSync(path)) return path;
  }
  return null;
}

function vmHwmMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return (kb * 1024) / MB;
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false when not allowed. */
function resetHwm(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function streamOf(bytes: Buffer, chunkSize = 64 * 1024): Readable {
  function* chunks(): Generator<Buffer> {
    for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
  }
  return Readable.from(chunks(), { objectMode: false });
}

function discard(): { sink: Writable; bytes: () => number } {
  let total = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done();
    },
  });
  return { sink, bytes: () => total };
}

/** A child of this script, run with the same node options (tsx), under /usr/bin/time when there is one. */
interface Timed {
  stdout: string;
  stderr: string;
  status: number | null;
  wallMs: number;
  /** user + system CPU of the command and its children, ms (null without /usr/bin/time). */
  cpuMs: number | null;
  maxRssMb: number | null;
}

function timed(command: string, args: string[], options: { cwd?: string; input?: string } = {}): Timed {
  const time = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const report = join(tmpdir(), `formats-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const result = time
    ? spawnSync(time, ['-f', '%e %U %S %M', '-o', report, command, ...args], {
        encoding: 'utf8',
        maxBuffer: 256 * MIB,
        cwd: options.cwd,
        input: options.input,
      })
    : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * MIB, cwd: options.cwd, input: options.input });
  const wallMs = performance.now() - started;
  let cpuMs: number | null = null;
  let maxRssMb: number | null = null;
  if (time && existsSync(report)) {
    const fields = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    if (fields.length >= 4 && fields.every(Number.isFinite)) {
      cpuMs = (fields[1]! + fields[2]!) * 1000;
      maxRssMb = (fields[3]! * 1024) / MB;
    }
    rmSync(report, { force: true });
  }
  return { stdout: result.stdout ?? '', stderr: result.stderr ?? '', status: result.status, wallMs, cpuMs, maxRssMb };
}

function child(args: string[]): Timed {
  return timed(process.execPath, [...process.execArgv, SELF, ...args]);
}

function lastJson<T>(run: Timed, what: string): T {
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`${what}: no result (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Child: parse one file
// ---------------------------------------------------------------------------------------------

interface ParseResult {
  skip?: string;
  error?: string;
  via?: string;
  bytes: number;
  repeats: number;
  units: number;
  translatable: number;
  segments?: number;
  /** Each timed run: [wall ms, CPU ms]. */
  runs: Array<[number, number]>;
  peakRssMb: number;
}

async function parseChild(formatName: string, file: string, runs: number, minBytes: number, dump: string | null): Promise<void> {
  const def = FORMATS.find((candidate) => candidate.name === formatName);
  if (!def) throw new Error(`no format ${formatName}`);
  const resolved = await resolveFilter(def, file);
  const bytes = readFileSync(file);
  const result: ParseResult = { bytes: bytes.length, repeats: 1, units: 0, translatable: 0, runs: [], peakRssMb: 0 };
  if (typeof resolved === 'string') {
    console.log(JSON.stringify({ ...result, skip: resolved }));
    return;
  }
  result.via = resolved.via;
  const { filter } = resolved;
  const repeats = Math.max(1, Math.ceil(minBytes / bytes.length));
  result.repeats = repeats;
  const sources: TextUnit[] = [];
  const once = async (keep: boolean) => {
    let units = 0;
    let translatable = 0;
    for (let r = 0; r < repeats; r++) {
      for await (const batch of filter.parseBatches(streamOf(bytes), def.options ?? {})) {
        units += batch.length;
        for (const unit of batch) {
          if (!unit.translatable) continue;
          translatable += 1;
          if (keep && r === 0) sources.push(unit);
        }
      }
    }
    return { units, translatable };
  };
  try {
    if (runs > 1) await once(false); // warm-up
    for (let i = 0; i < runs; i++) {
      globalThis.gc?.();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const counts = await once(dump !== null && i === 0);
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      result.runs.push([wall, (used.user + used.system) / 1000]);
      result.units = counts.units / repeats;
      result.translatable = counts.translatable / repeats;
    }
  } catch (error) {
    result.error = (error as Error).message.slice(0, 300);
  }
  result.peakRssMb = vmHwmMb();
  if (dump !== null && !result.error) {
    const { segmentUnit } = await import('../src/modules/translation-workflow/jobs/unit-segments.js');
    let segments = 0;
    for (const unit of sources) segments += segmentUnit(unit, 'en').length;
    result.segments = segments;
    writeFileSync(dump, JSON.stringify(sources.map((unit) => unit.source)));
  }
  console.log(JSON.stringify(result));
}

// ---------------------------------------------------------------------------------------------
// Data: the catalogs, the documentation, the READMEs
// ---------------------------------------------------------------------------------------------

function catalogsMissing(lang: string): string | null {
  if (!existsSync(CATALOG_SCRIPT)) return `${CATALOG_SCRIPT} is missing (the shared data folder next to this repository)`;
  if (!existsSync(join(LOCALE_DIR, lang, 'LC_MESSAGES'))) return `no catalogs under ${join(LOCALE_DIR, lang, 'LC_MESSAGES')}`;
  return null;
}

/** The en→lang pairs of the machine's gettext catalogs (tabs and line breaks made spaces by the script). */
function catalogPairs(lang: string): Array<[string, string]> {
  const tsv = execFileSync(process.execPath, [CATALOG_SCRIPT, '--target', lang, '--format', 'tsv'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pairs: Array<[string, string]> = [];
  for (const line of tsv.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    // eslint-disable-next-line no-control-regex
    const clean = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\r]/g, ' ').trim();
    const source = clean(line.slice(0, tab));
    const target = clean(line.slice(tab + 1));
    if (source && target) pairs.push([source, target]);
  }
  return pairs;
}

/** Repeats `part(replica)` until the text has `bytes` bytes (at least one replica). */
function replicate(bytes: number, head: string, part: (replica: number) => string, tail: string): string {
  const parts = [head];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let replica = 0; replica === 0 || size < bytes; replica++) {
    const text = part(replica);
    parts.push(text);
    size += Buffer.byteLength(text);
    if (replica > 10_000) break;
  }
  parts.push(tail);
  return parts.join('');
}

/** Pairs taken in order until about `bytes` of source text (each replica a slice of the catalogs). */
function sliceFor(pairs: Array<[string, string]>, bytes: number, replica: number, perReplicaBytes: number): Array<[string, string]> {
  void bytes;
  const out: Array<[string, string]> = [];
  let size = 0;
  let at = (replica * 997) % pairs.length;
  while (size < perReplicaBytes && out.length < pairs.length) {
    const pair = pairs[at]!;
    out.push(pair);
    size += pair[0].length + pair[1].length + 40;
    at = (at + 1) % pairs.length;
  }
  return out;
}

function utf8OrNull(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The machine's package documentation pages that are UTF-8 (or ASCII), concatenated to about `bytes`. */
function documentationHtml(bytes: number, root = '/usr/share/doc'): { text: string; files: number; distinctBytes: number } | string {
  let listing: string;
  try {
    listing = execFileSync('find', [root, '-name', '*.html', '-type', 'f'], { encoding: 'utf8', maxBuffer: 64 * MIB });
  } catch (error) {
    return `find /usr/share/doc failed: ${(error as Error).message}`;
  }
  const pages: string[] = [];
  for (const path of listing.split('\n').filter(Boolean).sort()) {
    const text = utf8OrNull(readFileSync(path));
    // A page that declares another charset would be read as that charset.
    // Pages over 1 MB (Node's all-in-one API page) would make the file mostly one page.
    if (text === null || text.length > MB || /charset\s*=\s*["']?(?!utf-?8)[\w-]+/i.test(text.slice(0, 2048))) continue;
    pages.push(text.replace(/^\ufeff/, ''));
  }
  if (pages.length === 0) return 'no UTF-8 HTML pages under /usr/share/doc';
  const distinctBytes = pages.reduce((n, page) => n + Buffer.byteLength(page), 0);
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const page = pages[i % pages.length]!;
    out.push(page);
    size += Buffer.byteLength(page) + 1;
  }
  return { text: out.join('\n'), files: pages.length, distinctBytes };
}

/** node_modules' README.md files, concatenated to about `bytes`. */
function readmesMarkdown(bytes: number): { text: string; files: number } | string {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 6 && entry.name !== '.bin') walk(path, depth + 1);
      else if (entry.isFile() && entry.name === 'README.md') found.push(path);
    }
  };
  walk(join(ROOT, 'node_modules'), 0);
  const texts = found
    .sort()
    .map((path) => utf8OrNull(readFileSync(path)))
    .filter((text): text is string => text !== null && text.trim() !== '');
  if (texts.length === 0) return 'no README.md under node_modules';
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = texts[i % texts.length]!.replace(/^\ufeff/, '');
    out.push(text.endsWith('\n') ? text : `${text}\n`);
    size += Buffer.byteLength(text) + 2;
  }
  return { text: out.join('\n'), files: texts.length };
}

/**
 * The UTF-8 catalogs of `lang` decompiled (msgunfmt) and concatenated until about `bytes` (not
 * merged: msgcat refuses the catalogs' conflicting entries, e.g. one msgid used with and without a
 * plural; the filter reads the concatenation as it is, repeated msgids and headers included).
 */
function decompiledPo(lang: string, bytes: number, dir: string): { text: string; catalogs: number } | string {
  if (!which('msgunfmt')) return 'msgunfmt is missing (gettext)';
  const moDir = join(LOCALE_DIR, lang, 'LC_MESSAGES');
  const catalogs = readdirSync(moDir)
    .filter((name) => name.endsWith('.mo'))
    .sort();
  const out = join(dir, 'decompiled.po');
  const parts: string[] = [];
  let size = 0;
  for (const name of catalogs) {
    try {
      execFileSync('msgunfmt', ['-o', out, join(moDir, name)], { stdio: 'ignore' });
    } catch {
      continue;
    }
    const text = utf8OrNull(readFileSync(out));
    if (text === null || !/charset=UTF-8/i.test(text.slice(0, 2000))) continue;
    parts.push(text);
    size += Buffer.byteLength(text);
    if (size >= bytes) break;
  }
  rmSync(out, { force: true });
  if (parts.length === 0) return `msgunfmt read no UTF-8 catalog of ${moDir}`;
  return { text: parts.join('\n'), catalogs: parts.length };
}

// ---------------------------------------------------------------------------------------------
// Writers of the pair-based formats
// ---------------------------------------------------------------------------------------------

async function pairWriters(): Promise<Record<string, (pairs: Array<[string, string]>, bytes: number) => string>> {
  const { doubleQuoted } = await import('../src/formats/yaml.js');
  const { escapePropertiesValue } = await import('../src/formats/java-properties.js');
  const { quoteStrings } = await import('../src/formats/ios-strings.js');
  const per = 256 * 1024;
  const groups = <T>(items: T[], size: number) =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
  const android = (text: string) =>
    escXml(text)
      .replace(/\\/g, '\\\\')
      .replace(/'/g, "\\'")
      .replace(/"/g, '\\"')
      .replace(/\n/g, '\\n')
      .replace(/^([@?])/, '\\$1');
  const time = (ms: number, sep: string) => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
  };
  const cueLines = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/-->/g, '->');
  return {
    json: (pairs, bytes) =>
      replicate(
        bytes,
        '{\n',
        (r) =>
          `${r === 0 ? '' : ',\n'}${groups(sliceFor(pairs, bytes, r, per), 50)
            .map((group, g) => `  "r${r}g${g}": {\n${group.map(([s], i) => `    "key${i}": ${JSON.stringify(s)}`).join(',\n')}\n  }`)
            .join(',\n')}`,
        '\n}\n',
      ),
    arb: (pairs, bytes) =>
      replicate(
        bytes,
        '{\n  "@@locale": "en"',
        (r) =>
          sliceFor(
            pairs.filter(([s]) => !/[{}]/.test(s)),
            bytes,
            r,
            per,
          )
            .map(
              ([s, t], i) =>
                `,\n  "r${r}k${i}": ${JSON.stringify(s)}${i % 10 === 0 ? `,\n  "@r${r}k${i}": {"description": ${JSON.stringify(`e.g. ${t}`)}}` : ''}`,
            )
            .join(''),
        '\n}\n',
      ),
    yaml: (pairs, bytes) =>
      replicate(
        bytes,
        '# generated from the gettext catalogs\n',
        (r) =>
          groups(sliceFor(pairs, bytes, r, per), 50)
            .map((group, g) => `r${r}g${g}:\n${group.map(([s], i) => `  key${i}: ${doubleQuoted(s)}\n`).join('')}`)
            .join(''),
        '',
      ),
    properties: (pairs, bytes) =>
      replicate(
        bytes,
        '# generated from the gettext catalogs\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s], i) => `${i % 20 === 0 ? `# group ${i / 20}\n` : ''}r${r}.key${i} = ${escapePropertiesValue(s, 'ascii')}\n`)
            .join(''),
        '',
      ),
    strings: (pairs, bytes) =>
      replicate(
        bytes,
        '',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s, t], i) => `/* ${t.replace(/\*\//g, '* /')} */\n${quoteStrings(`r${r}.key${i}`)} = ${quoteStrings(s)};\n\n`)
            .join(''),
        '',
      ),
    xliff2: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">\n',
        (r) =>
          `<file id="f${r}">\n${sliceFor(pairs, bytes, r, per)
            .map(
              ([s, t], i) =>
                `  <unit id="u${i}"><segment state="translated"><source>${escXml(s)}</source><target>${escXml(t)}</target></segment></unit>\n`,
            )
            .join('')}</file>\n`,
        '</xliff>\n',
      ),
    xliff12: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n',
        (r) =>
          `<file original="f${r}" source-language="en" target-language="de" datatype="plaintext"><body>\n${sliceFor(pairs, bytes, r, per)
            .map(([s, t], i) => `  <trans-unit id="u${i}"><source>${escXml(s)}</source><target>${escXml(t)}</target></trans-unit>\n`)
            .join('')}</body></file>\n`,
        '</xliff>\n',
      ),
    srt: (pairs, bytes) =>
      replicate(
        bytes,
        '',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s], i) => {
              const start = (r * 100_000 + i) * 3000;
              return `${r * 100_000 + i + 1}\n${time(start, ',')} --> ${time(start + 2500, ',')}\n${cueLines(s)}\n\n`;
            })
            .join(''),
        '',
      ),
    vtt: (pairs, bytes) =>
      replicate(
        bytes,
        'WEBVTT\n\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s], i) => {
              const start = (r * 100_000 + i) * 3000;
              return `${time(start, '.')} --> ${time(start + 2500, '.')}\n${cueLines(s)}\n\n`;
            })
            .join(''),
        '',
      ),
    txt: (pairs, bytes) =>
      replicate(
        bytes,
        '',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s]) => `${s.replace(/\s*\n\s*/g, ' ')}\n`)
            .join(''),
        '',
      ),
    csv: (pairs, bytes) => {
      const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
      return replicate(
        bytes,
        'location,source,target\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s], i) => `r${r}.key${i},${field(s)},\n`)
            .join(''),
        '',
      );
    },
    xml: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="UTF-8"?>\n<catalog>\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s, t], i) => `  <message key="r${r}.k${i}" hint="${escAttr(t.slice(0, 40))}"><text>${escXml(s)}</text></message>\n`)
            .join(''),
        '</catalog>\n',
      ),
    android: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(([s], i) => `    <string name="r${r}_key${i}">${android(s)}</string>\n`)
            .join(''),
        '</resources>\n',
      ),
    resx: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <resheader name="resmimetype"><value>text/microsoft-resx</value></resheader>\n' +
          '  <resheader name="version"><value>2.0</value></resheader>\n' +
          '  <resheader name="reader"><value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value></resheader>\n' +
          '  <resheader name="writer"><value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value></resheader>\n',
        (r) =>
          sliceFor(pairs, bytes, r, per)
            .map(
              ([s, t], i) =>
                `  <data name="r${r}.key${i}" xml:space="preserve">\n    <value>${escXml(s)}</value>\n    <comment>${escXml(t)}</comment>\n  </data>\n`,
            )
            .join(''),
        '</root>\n',
      ),
    ts: (pairs, bytes) =>
      replicate(
        bytes,
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de_DE" sourcelanguage="en_US">\n',
        (r) =>
          groups(sliceFor(pairs, bytes, r, per), 100)
            .map(
              (group, g) =>
                `<context>\n    <name>Context${r}_${g}</name>\n${group
                  .map(
                    ([s, t]) =>
                      `    <message>\n        <source>${escXml(s)}</source>\n        <translation>${escXml(t)}</translation>\n    </message>\n`,
                  )
                  .join('')}</context>\n`,
            )
            .join(''),
        '</TS>\n',
      ),
  };
}

// ---------------------------------------------------------------------------------------------
// LibreOffice
// ---------------------------------------------------------------------------------------------

function soffice(input: string, to: string, outDir: string, profile: string): string | null {
  const result = spawnSync(
    'soffice',
    [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', to, '--outdir', outDir, input],
    { encoding: 'utf8', timeout: 180_000 },
  );
  const out = join(outDir, `${basename(input).replace(/\.[^.]+$/, '')}.${to.split(':')[0]}`);
  if (result.status !== 0 || !existsSync(out)) return null;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Section 1: throughput
// ---------------------------------------------------------------------------------------------

interface Input {
  format: FormatDef;
  file: string;
  origin: string;
}

interface ThroughputRow {
  format: string;
  kind: string;
  file: string;
  origin: string;
  result: ParseResult | null;
  note?: string;
}

function bestRun(result: ParseResult): { wallMs: number; cpuMs: number } {
  const [wallMs, cpuMs] = [...result.runs].sort((a, b) => a[0] - b[0])[0] ?? [NaN, NaN];
  return { wallMs, cpuMs };
}

function throughput(inputs: Input[], skipped: Array<[string, string]>): ThroughputRow[] {
  console.log(
    `\n1. Parse throughput (parseBatches, 64 KiB chunks, one child process per format; one warm-up, best of ${settings.runs} runs; MB = 10^6 bytes of the file)`,
  );
  const header = `${'format'.padEnd(16)} ${'file'.padStart(8)} ${'units'.padStart(9)} ${'wall'.padStart(7)} ${'MB/s wall'.padStart(9)} ${'MB/s CPU'.padStart(9)} ${'target'.padStart(7)} ${'RSS'.padStart(6)}  verdict  input`;
  console.log(header);
  const rows: ThroughputRow[] = [];
  for (const input of inputs) {
    const officeBytes = input.format.kind === 'office' ? settings.officeMb * MB : 0;
    const run = child(['parse', input.format.name, input.file, String(settings.runs), String(officeBytes)]);
    let result: ParseResult | null = null;
    try {
      result = lastJson<ParseResult>(run, input.format.name);
    } catch (error) {
      console.log(`${input.format.name.padEnd(16)} failed: ${(error as Error).message.slice(0, 300)}`);
      rows.push({
        format: input.format.name,
        kind: input.format.kind,
        file: input.file,
        origin: input.origin,
        result: null,
        note: 'failed',
      });
      continue;
    }
    if (result.skip) {
      skipped.push([input.format.name, result.skip]);
      console.log(`${input.format.name.padEnd(16)} skipped: ${result.skip}`);
      continue;
    }
    rows.push({ format: input.format.name, kind: input.format.kind, file: input.file, origin: input.origin, result });
    if (result.error) {
      console.log(`${input.format.name.padEnd(16)} ${mbOf(result.bytes).padStart(8)} ERROR ${result.error}`);
      continue;
    }
    const { wallMs, cpuMs } = bestRun(result);
    const processed = result.bytes * result.repeats;
    const wallRate = processed / MB / (wallMs / 1000);
    const cpuRate = processed / MB / (cpuMs / 1000);
    const target = input.format.kind === 'office' ? OFFICE_TARGET : TEXT_TARGET;
    // The CPU figure decides: on a loaded machine the wall clock counts other processes' time.
    const verdict = cpuRate >= target ? 'ok' : 'MISSED';
    console.log(
      `${input.format.name.padEnd(16)} ${`${mbOf(result.bytes)}${result.repeats > 1 ? `×${result.repeats}` : ''}`.padStart(8)} ${thousands(result.translatable).padStart(9)} ${`${fixed(wallMs / 1000, 2)}s`.padStart(7)} ${fixed(wallRate).padStart(9)} ${fixed(cpuRate).padStart(9)} ${`≥ ${target}`.padStart(7)} ${fixed(result.peakRssMb, 0).padStart(6)}  ${verdict.padEnd(7)}  ${input.origin}${result.via === 'registry' ? '' : `; ${result.via}`}`,
    );
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Section 2: peak RSS of a big XLSX and a big DOCX
// ---------------------------------------------------------------------------------------------

interface BigMeta {
  kind: 'xlsx' | 'docx';
  /** XLSX: rows; DOCX: paragraphs. */
  count: number;
  xmlBytes: number;
  targets: string[];
}

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const S_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Yields `piece(i)` for i = 0, 1, … in ~64 KB strings until `bytes`; `done(count, total)` at the end. */
function* pieces(
  head: string,
  piece: (i: number) => string,
  tail: string,
  bytes: number,
  done: (count: number, total: number) => void,
): Generator<Buffer> {
  let batch = head;
  let total = Buffer.byteLength(head) + Buffer.byteLength(tail);
  let i = 0;
  while (total < bytes) {
    const text = piece(i++);
    batch += text;
    total += Buffer.byteLength(text);
    if (batch.length > 64 * 1024) {
      yield Buffer.from(batch);
      batch = '';
    }
  }
  yield Buffer.from(batch + tail);
  done(i, total);
}

async function writeZip(path: string, entries: Array<[string, string | (() => Generator<Buffer>)]>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) {
    if (typeof content === 'string') zip.addBuffer(Buffer.from(content), name, { compress: settings.deflate });
    else zip.addReadStream(Readable.from(content()), name, { compress: settings.deflate });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

async function bigXlsx(path: string, pairs: Array<[string, string]>, bytes: number): Promise<BigMeta> {
  const shared = pairs.slice(0, Math.min(pairs.length, 20_000));
  const sharedXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${S_NS}" count="${shared.length}" uniqueCount="${shared.length}">${shared.map(([s]) => `<si><t xml:space="preserve">${escXml(s)}</t></si>`).join('')}</sst>`;
  const meta: BigMeta = { kind: 'xlsx', count: 0, xmlBytes: 0, targets: [] };
  const rowXml = (i: number) => {
    const r = i + 1;
    const inline = pairs[(i * 7 + 3) % pairs.length]![0];
    return `<row r="${r}"><c r="A${r}" t="s"><v>${i % shared.length}</v></c><c r="B${r}" t="inlineStr"><is><t xml:space="preserve">${escXml(inline)}</t></is></c><c r="C${r}"><v>${r * 3}</v></c></row>`;
  };
  await writeZip(path, [
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${S_NS}" xmlns:r="${R_NS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    ['xl/sharedStrings.xml', sharedXml],
    [
      'xl/worksheets/sheet1.xml',
      () =>
        pieces(
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${S_NS}" xmlns:r="${R_NS}"><sheetData>`,
          rowXml,
          '</sheetData></worksheet>',
          bytes - Buffer.byteLength(sharedXml),
          (count, total) => {
            meta.count = count;
            meta.xmlBytes = total + Buffer.byteLength(sharedXml);
          },
        ),
    ],
  ]);
  meta.targets = pairs.slice(0, 5000).map(([, t]) => t.replace(/[{}<>]/g, ''));
  return meta;
}

async function bigDocx(path: string, pairs: Array<[string, string]>, bytes: number): Promise<BigMeta> {
  const meta: BigMeta = { kind: 'docx', count: 0, xmlBytes: 0, targets: [] };
  const paragraph = (i: number) => {
    const a = pairs[(i * 3) % pairs.length]![0];
    const b = pairs[(i * 3 + 1) % pairs.length]![0].split(' ').slice(0, 3).join(' ');
    const c = pairs[(i * 3 + 2) % pairs.length]![0];
    return `<w:p><w:r><w:t xml:space="preserve">${escXml(a)} </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>${escXml(b)}</w:t></w:r><w:r><w:t xml:space="preserve"> ${escXml(c)}</w:t></w:r></w:p>`;
  };
  await writeZip(path, [
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ],
    [
      'word/document.xml',
      () =>
        pieces(
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W_NS}" xmlns:r="${R_NS}"><w:body>`,
          paragraph,
          '<w:sectPr/></w:body></w:document>',
          bytes,
          (count, total) => {
            meta.count = count;
            meta.xmlBytes = total;
          },
        ),
    ],
  ]);
  meta.targets = pairs.slice(0, 5000).map(([, t]) => t.replace(/[{}<>]/g, ''));
  return meta;
}

/**
 * The translations of every unit of a generated file, computed from the locator on demand: a
 * complete ReadonlyMap (get, has, keys, size) that holds nothing per unit.
 */
class LazyTranslations implements ReadonlyMap<string, UnitTranslation> {
  constructor(
    private readonly locators: () => Generator<string>,
    readonly size: number,
    private readonly translate: (locator: string) => UnitTranslation | undefined,
  ) {}
  get(locator: string): UnitTranslation | undefined {
    return this.translate(locator);
  }
  has(locator: string): boolean {
    return this.translate(locator) !== undefined;
  }
  keys(): MapIterator<string> {
    return this.locators() as unknown as MapIterator<string>;
  }
  *entries(): MapIterator<[string, UnitTranslation]> {
    for (const locator of this.locators()) yield [locator, this.translate(locator)!];
  }
  *values(): MapIterator<UnitTranslation> {
    for (const locator of this.locators()) yield this.translate(locator)!;
  }
  forEach(callback: (value: UnitTranslation, key: string, map: ReadonlyMap<string, UnitTranslation>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
  [Symbol.iterator](): MapIterator<[string, UnitTranslation]> {
    return this.entries();
  }
}

interface BigResult {
  error?: string;
  units: number;
  locatorMismatches: number;
  mismatch?: string;
  parseMs: number;
  parseCpuMs: number;
  parsePeakMb: number;
  writeMs: number;
  writeCpuMs: number;
  writePeakMb: number;
  hwmReset: boolean;
  outBytes: number;
  checked: string;
}

async function bigChild(file: string, metaFile: string): Promise<void> {
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as BigMeta;
  const { docxFilter } = await import('../src/formats/docx.js');
  const { xlsxFilter } = await import('../src/formats/xlsx.js');
  const filter = meta.kind === 'xlsx' ? xlsxFilter : docxFilter;
  const result: BigResult = {
    units: 0,
    locatorMismatches: 0,
    parseMs: 0,
    parseCpuMs: 0,
    parsePeakMb: 0,
    writeMs: 0,
    writeCpuMs: 0,
    writePeakMb: 0,
    hwmReset: false,
    outBytes: 0,
    checked: '',
  };
  const t = meta.targets;
  // The locators the generated file should give, in order, and the translation of each.
  let expected: (i: number) => string;
  let locators: () => Generator<string>;
  let translate: (locator: string) => UnitTranslation | undefined;
  let docxBase = 0;
  let docxTags = '';
  const otherTags = new Map<string, string[]>();
  if (meta.kind === 'xlsx') {
    expected = (i) => `Sheet1!${i % 2 === 0 ? 'A' : 'B'}${Math.floor(i / 2) + 1}`;
    locators = function* () {
      for (let i = 0; i < meta.count * 2; i++) yield expected(i);
    };
    translate = (locator) => {
      const match = /^Sheet1!([AB])(\d+)$/.exec(locator);
      const row = match ? Number(match[2]) : 0;
      if (!match || row < 1 || row > meta.count) return undefined;
      return { text: match[1] === 'A' ? t[((row - 1) % 20_000) % t.length]! : t[(row * 13) % t.length]! };
    };
  } else {
    expected = (i) => `word/document.xml#${i + docxBase}`;
    locators = function* () {
      for (let i = 0; i < meta.count; i++) yield expected(i);
    };
    translate = (locator) => {
      const match = /^word\/document\.xml#(\d+)$/.exec(locator);
      const n = match ? Number(match[1]) - docxBase : -1;
      if (n < 0 || n >= meta.count) return undefined;
      const words = t[(n * 5 + 1) % t.length]!.split(' ').slice(0, 2).join(' ');
      // A paragraph the filter reads with other tags than the generator's pattern (a run of spaces, an empty run): its own tags, in order.
      const own = otherTags.get(locator);
      if (own) return { text: `${t[n % t.length]} ${own.map((token) => `${token}${words}`).join(' ')}` };
      return { text: docxTags === '{1><1}' ? `${t[n % t.length]} {1>${words}<1} ${t[(n * 5 + 2) % t.length]}` : t[n % t.length]! };
    };
  }
  try {
    let cpu = process.cpuUsage();
    let started = performance.now();
    for await (const batch of filter.parseBatches(createReadStream(file, { highWaterMark: 64 * 1024 }), {})) {
      for (const unit of batch) {
        if (result.units === 0 && meta.kind === 'docx') {
          docxBase = Number(unit.locator.slice(unit.locator.lastIndexOf('#') + 1));
          docxTags = unit.tags.map((tag) => tag.display).join('');
          result.checked = `first unit ${unit.locator}: ${JSON.stringify(unit.source.slice(0, 60))}`;
        }
        const tags = meta.kind === 'docx' ? unit.tags.map((tag) => tag.display).join('') : '';
        if (tags !== docxTags)
          otherTags.set(
            unit.locator,
            unit.tags.map((tag) => tag.display),
          );
        if (translate(unit.locator) === undefined || tags !== docxTags) {
          result.locatorMismatches += 1;
          result.mismatch ??= `${unit.locator}: ${JSON.stringify(unit.source.slice(0, 80))}`;
        }
        result.units += 1;
      }
    }
    result.parseMs = performance.now() - started;
    let used = process.cpuUsage(cpu);
    result.parseCpuMs = (used.user + used.system) / 1000;
    result.parsePeakMb = vmHwmMb();
    globalThis.gc?.();
    result.hwmReset = resetHwm();
    const translations = new LazyTranslations(locators, meta.kind === 'xlsx' ? meta.count * 2 : meta.count, translate);
    const { sink, bytes } = discard();
    cpu = process.cpuUsage();
    started = performance.now();
    await filter.write(createReadStream(file, { highWaterMark: 64 * 1024 }), translations, sink, {});
    result.writeMs = performance.now() - started;
    used = process.cpuUsage(cpu);
    result.writeCpuMs = (used.user + used.system) / 1000;
    result.outBytes = bytes();
  } catch (error) {
    result.error = (error as Error).message.slice(0, 300);
  }
  result.writePeakMb = vmHwmMb();
  console.log(JSON.stringify(result));
}

async function memory(
  pairs: Array<[string, string]> | null,
  dir: string,
  skipped: Array<[string, string]>,
): Promise<Array<Record<string, unknown>>> {
  console.log(
    `\n2. Peak RSS (VmHWM of the child process) of a big file parsed, then written back with every unit translated; target < ${RSS_TARGET_MB} MB`,
  );
  const rows: Array<Record<string, unknown>> = [];
  if (!pairs) {
    skipped.push(['memory', 'no catalog pairs']);
    console.log('   skipped: no catalog pairs');
    return rows;
  }
  for (const [kind, size] of [
    ['xlsx', settings.xlsxMb],
    ['docx', settings.docxMb],
  ] as const) {
    if (size <= 0) {
      console.log(`   ${kind}: skipped (FORMATS_BENCH_${kind.toUpperCase()}_MB=0)`);
      continue;
    }
    const file = join(dir, `big.${kind}`);
    const started = performance.now();
    const meta = kind === 'xlsx' ? await bigXlsx(file, pairs, size * MB) : await bigDocx(file, pairs, size * MB);
    const metaFile = join(dir, `big-${kind}.json`);
    writeFileSync(metaFile, JSON.stringify(meta));
    const fileBytes = statSync(file).size;
    const generated = performance.now() - started;
    const run = child(['big', file, metaFile]);
    rmSync(file, { force: true });
    let r: BigResult;
    try {
      r = lastJson<BigResult>(run, kind);
    } catch (error) {
      console.log(`   ${kind}: failed: ${(error as Error).message.slice(0, 500)}`);
      continue;
    }
    const peak = Math.max(r.parsePeakMb, r.writePeakMb);
    const what =
      kind === 'xlsx'
        ? `${thousands(meta.count)} rows (shared + inline string + number)`
        : `${thousands(meta.count)} paragraphs (3 runs, 1 bold)`;
    console.log(
      `   ${kind}: file ${mbOf(fileBytes)} MB (${settings.deflate ? 'deflated' : 'stored'}; XML ${mbOf(meta.xmlBytes)} MB), ${what}, made in ${fixed(generated / 1000)} s`,
    );
    if (r.error) {
      console.log(`      ERROR ${r.error}`);
      rows.push({ kind, error: r.error });
      continue;
    }
    console.log(
      `      parse: ${thousands(r.units)} units in ${fixed(r.parseMs / 1000)} s (CPU ${fixed(r.parseCpuMs / 1000)} s, ${fixed(fileBytes / MB / (r.parseCpuMs / 1000))} MB/s CPU), peak RSS ${fixed(r.parsePeakMb, 0)} MB` +
        `${r.locatorMismatches ? `; ${thousands(r.locatorMismatches)} units with other tags than generated (first: ${r.mismatch}; translated with their own tags)` : ''}`,
    );
    console.log(
      `      write: ${mbOf(r.outBytes)} MB out in ${fixed(r.writeMs / 1000)} s (CPU ${fixed(r.writeCpuMs / 1000)} s), peak RSS ${fixed(r.writePeakMb, 0)} MB${r.hwmReset ? ' (VmHWM reset after the parse)' : ' (VmHWM could not be reset: the peak of both)'}`,
    );
    console.log(`      peak ${fixed(peak, 0)} MB against < ${RSS_TARGET_MB} MB: ${peak < RSS_TARGET_MB ? 'ok' : 'MISSED'}`);
    rows.push({ kind, fileMb: fileBytes / MB, xmlMb: meta.xmlBytes / MB, count: meta.count, ...r, peakMb: peak });
  }
  console.log(
    "   (the translations are computed per locator, nothing held per unit: the figure is the filter's own; the job export also holds its Map of all translations, roughly 100–200 bytes a unit plus the texts)",
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Section 3: translate-toolkit
// ---------------------------------------------------------------------------------------------

/** msgids of a PO file, without the header. */
function poMsgids(text: string): string[] {
  const out: string[] = [];
  let current: string[] | null = null;
  let obsolete = false;
  const unquote = (quoted: string) => {
    const inner = quoted.slice(1, quoted.endsWith('"') ? -1 : undefined);
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };
    return inner.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char);
  };
  const flush = () => {
    if (current && !obsolete) {
      const id = current.join('');
      if (id !== '') out.push(id);
    }
    current = null;
    obsolete = false;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('msgid ')) {
      flush();
      current = [unquote(line.slice(6).trim())];
    } else if (line.startsWith('#~ msgid ')) {
      flush();
      obsolete = true;
      current = [];
    } else if (line.startsWith('"') && current && !obsolete) {
      current.push(unquote(line));
    } else if (line.startsWith('msgid_plural') || line.startsWith('msgstr') || line.startsWith('msgctxt') || line === '') {
      if (current && !obsolete && line.startsWith('msgstr')) {
        const id = current.join('');
        if (id !== '') out.push(id);
        current = null;
      } else if (current && line.startsWith('msgid_plural')) {
        const id = current.join('');
        if (id !== '') out.push(id);
        current = null;
      }
    }
  }
  flush();
  return out;
}

/** Source texts of an XLIFF 1.2 file (trans-units). */
function xliffSources(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/<trans-unit\b[\s\S]*?<\/trans-unit>/g)) {
    const source = /<source[^>]*>([\s\S]*?)<\/source>|<source[^>]*\/>/.exec(match[0]);
    out.push(source?.[1] ?? '');
  }
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, entity: string) => {
    const e = entity.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }[e] ?? '';
  });
}

// Control characters (a PO's \a) cannot be in XML: the XLIFF converters drop or escape them.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const normalizeOurs = (text: string) =>
  text
    .replace(CONTROLS, '')
    .replace(/\{\d+>|<\d+\}|\{\d+\}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const normalizeTheirs = (text: string, markup: boolean) =>
  decodeEntities(markup ? text.replace(/<[^>]*>/g, ' ') : text)
    .replace(CONTROLS, '')
    .replace(/\s+/g, ' ')
    .trim();

interface Comparison {
  tool: string;
  format: string;
  file: string;
  fileBytes: number;
  ours?: { units: number; segments: number; parseMs: number; parseCpuMs: number; wallMs: number; cpuMs: number | null };
  theirs?: { units: number; wallMs: number; cpuMs: number | null; startupMs: number };
  diff?: { oursOnly: number; theirsOnly: number; categories: Array<[string, number, string]> };
  skip?: string;
}

/** Comments and the values of the attributes our HTML filter translates by default, as normalized text. */
function markupExtras(input: string): { comments: Set<string>; attributes: Set<string> } {
  const comments = new Set<string>();
  const attributes = new Set<string>();
  for (const match of input.matchAll(/<!--([\s\S]*?)-->/g)) comments.add(normalizeTheirs(match[1]!, false));
  for (const match of input.matchAll(/\s(?:alt|title|placeholder|aria-label|label|summary|abbr|content)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    attributes.add(normalizeTheirs(match[1] ?? match[2] ?? '', false));
  }
  return { comments, attributes };
}

function categorize(
  oursOnly: string[],
  theirsOnly: string[],
  theirsAll: Set<string>,
  oursAll: Set<string>,
  input: string | null,
): Array<[string, number, string]> {
  const counts = new Map<string, [number, string]>();
  const add = (category: string, example: string) => {
    const entry = counts.get(category) ?? [0, example];
    entry[0] += 1;
    counts.set(category, entry);
  };
  const extras = input === null ? null : markupExtras(input);
  const theirsJoined = theirsOnly.join('\u0001');
  const oursJoined = oursOnly.join('\u0001');
  for (const text of theirsOnly) {
    if (text === '') add('theirs: empty entries', '""');
    else if (text.startsWith('Project-Id-Version:')) add('theirs: the header entries (msgid "") of the catalogs after the first', text);
    else if (!/\p{L}/u.test(text)) add('theirs: no letters (numbers, symbols), which we leave as they are', text);
    else if (oursJoined.includes(text) || [...oursAll].some((ours) => ours.includes(text)))
      add('theirs: part of a text we keep in one unit (they split it)', text);
    else add('theirs: a text we do not extract (attributes, metadata, …)', text);
  }
  for (const text of oursOnly) {
    if (extras?.comments.has(text)) add('ours: an HTML comment (importComments, on by default as in Phrase)', text);
    else if (extras?.attributes.has(text)) add('ours: an attribute value (title, alt, meta content…) they leave in the markup', text);
    else if (theirsJoined.includes(text) || [...theirsAll].some((theirs) => theirs.includes(text)))
      add('ours: part of a text they keep in one entry (we split it)', text);
    else if (!/\p{L}/u.test(text)) add('ours: no letters', text);
    else add('ours: a text they do not extract', text);
  }
  return [...counts.entries()].map(([category, [count, example]]) => [category, count, example.slice(0, 70)]);
}

function multisetDiff(a: string[], b: string[]): { aOnly: string[]; bOnly: string[] } {
  const counts = new Map<string, number>();
  for (const text of b) counts.set(text, (counts.get(text) ?? 0) + 1);
  const aOnly: string[] = [];
  for (const text of a) {
    const left = counts.get(text) ?? 0;
    if (left > 0) counts.set(text, left - 1);
    else aOnly.push(text);
  }
  const bOnly: string[] = [];
  for (const [text, left] of counts) for (let i = 0; i < left; i++) bOnly.push(text);
  return { aOnly, bOnly };
}

function translateToolkit(
  ttkInputs: Map<string, string>,
  fallbacks: Map<string, string>,
  dir: string,
  skipped: Array<[string, string]>,
): Comparison[] {
  console.log('\n3. Compared with translate-toolkit (same files, FORMATS_BENCH_TTK_MB each)');
  console.log(
    '   time: "theirs" is their whole command (python start, imports, conversion, writing the PO/XLIFF); "ours, whole" our whole child process\n' +
      '   (node start, tsx transpiling src/ on the fly, one parse, no warm-up); "ours, parse" the parse alone inside it. Ratios: their time / ours.\n' +
      '   units: their msgid entries (PO) or trans-units (XLIFF); ours: translatable units (segments: after our default segmentation).',
  );
  const tools: Array<{
    tool: string;
    format: string;
    args: (input: string, output: string) => string[];
    output: 'po' | 'xliff';
    markup: boolean;
  }> = [
    { tool: 'html2po', format: 'html', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'po', markup: true },
    { tool: 'prop2po', format: 'java-properties', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'po', markup: false },
    { tool: 'json2po', format: 'json', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'po', markup: false },
    { tool: 'yaml2po', format: 'yaml', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'po', markup: false },
    { tool: 'csv2po', format: 'csv', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'po', markup: false },
    { tool: 'po2xliff', format: 'gettext-po', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'xliff', markup: false },
    { tool: 'odf2xliff', format: 'odt', args: (i, o) => ['--progress=none', '-i', i, '-o', o], output: 'xliff', markup: true },
  ];
  const out: Comparison[] = [];
  for (const spec of tools) {
    const input = ttkInputs.get(spec.format);
    const row: Comparison = { tool: spec.tool, format: spec.format, file: input ?? '', fileBytes: input ? statSync(input).size : 0 };
    out.push(row);
    if (!which(spec.tool)) {
      row.skip = `${spec.tool} is not installed`;
    } else if (!input) {
      row.skip = `no ${spec.format} input`;
    }
    if (row.skip) {
      skipped.push([spec.tool, row.skip]);
      console.log(`   ${spec.tool.padEnd(10)} skipped: ${row.skip}`);
      continue;
    }
    const output = join(dir, `ttk-${spec.tool}.${spec.output === 'po' ? 'po' : 'xlf'}`);
    const startup = timed(spec.tool, ['--version']);
    const theirs = timed(spec.tool, spec.args(input!, output));
    // html2po reports a file it cannot read on stderr, exits 0 and leaves an empty PO.
    const refused = theirs.status === 0 && existsSync(output) && statSync(output).size === 0;
    if (refused && fallbacks.has(spec.format) && input !== fallbacks.get(spec.format)) {
      console.log(
        `   ${spec.tool.padEnd(10)} refused the ${mbOf(row.fileBytes)} MB file (${theirs.stderr.trim().split('\n').pop()!.slice(0, 160)}); again on translate-toolkit's own (well-formed) documentation pages:`,
      );
      tools.splice(tools.indexOf(spec) + 1, 0, { ...spec });
      ttkInputs.set(spec.format, fallbacks.get(spec.format)!);
      out.pop();
      continue;
    }
    if (theirs.status !== 0 || !existsSync(output) || refused) {
      row.skip = `${spec.tool} failed (exit ${theirs.status}): ${theirs.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 200)}`;
      console.log(`   ${spec.tool.padEnd(10)} ${row.skip}`);
      continue;
    }
    const theirTexts = spec.output === 'po' ? poMsgids(readFileSync(output, 'utf8')) : xliffSources(readFileSync(output, 'utf8'));
    row.theirs = { units: theirTexts.length, wallMs: theirs.wallMs, cpuMs: theirs.cpuMs, startupMs: startup.wallMs };
    const dump = join(dir, `ours-${spec.tool}.json`);
    const ours = child(['parse', spec.format, input!, '1', '0', dump]);
    let parsed: ParseResult;
    try {
      parsed = lastJson<ParseResult>(ours, spec.format);
    } catch (error) {
      console.log(`   ${spec.tool.padEnd(10)} ours failed: ${(error as Error).message.slice(0, 200)}`);
      continue;
    }
    if (parsed.skip || parsed.error) {
      const why = parsed.skip ?? `ERROR ${parsed.error}`;
      console.log(
        `   ${spec.tool.padEnd(10)} ${mbOf(row.fileBytes)} MB: theirs ${thousands(theirTexts.length)} units in ${fixed(theirs.wallMs / 1000, 2)} s; ours: ${why}`,
      );
      continue;
    }
    const [parseMs, parseCpuMs] = parsed.runs[0]!;
    row.ours = { units: parsed.translatable, segments: parsed.segments ?? 0, parseMs, parseCpuMs, wallMs: ours.wallMs, cpuMs: ours.cpuMs };
    const ourTexts = (JSON.parse(readFileSync(dump, 'utf8')) as string[]).map(normalizeOurs);
    const theirNormalized = theirTexts.map((text) => normalizeTheirs(text, spec.markup));
    const { aOnly: oursOnly, bOnly: theirsOnly } = multisetDiff(ourTexts, theirNormalized);
    row.diff = {
      oursOnly: oursOnly.length,
      theirsOnly: theirsOnly.length,
      categories:
        oursOnly.length + theirsOnly.length > 0
          ? categorize(
              oursOnly,
              theirsOnly,
              new Set(theirNormalized),
              new Set(ourTexts),
              spec.markup && spec.format === 'html' ? readFileSync(input!, 'utf8') : null,
            )
          : [],
    };
    const cpu = (ms: number | null) => (ms === null ? '' : ` (CPU ${fixed(ms / 1000, 2)})`);
    console.log(
      `   ${spec.tool.padEnd(10)} ${mbOf(row.fileBytes)} MB ${spec.format}: units theirs ${thousands(theirTexts.length)}, ours ${thousands(parsed.translatable)} (segments ${thousands(parsed.segments ?? 0)}); ` +
        `same text ${thousands(ourTexts.length - oursOnly.length)}, theirs only ${thousands(theirsOnly.length)}, ours only ${thousands(oursOnly.length)}`,
    );
    console.log(
      `              time: theirs ${fixed(theirs.wallMs / 1000, 2)} s${cpu(theirs.cpuMs)} (their start alone, --version: ${fixed(startup.wallMs / 1000, 2)} s); ` +
        `ours, whole ${fixed(ours.wallMs / 1000, 2)} s${cpu(ours.cpuMs)}, parse ${fixed(parseMs / 1000, 2)} s${cpu(parseCpuMs)}; ` +
        `ratio ${fixed(theirs.wallMs / ours.wallMs)}× whole, ${fixed(theirs.wallMs / parseMs)}× parse`,
    );
    for (const [category, count, example] of row.diff.categories.sort((a, b) => b[1] - a[1]).slice(0, 5)) {
      console.log(`              ${thousands(count).padStart(6)}  ${category}, e.g. ${JSON.stringify(example)}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `file filter bench: node ${process.version}, ${availableParallelism()} CPUs, load average ${loadAverage()} (other work on the machine makes wall times noisy; the verdicts use CPU time)`,
  );
  console.log(
    `command: ${Object.entries(process.env)
      .filter(([key]) => key.startsWith('FORMATS_BENCH_'))
      .map(([key, value]) => `${key}=${value} `)
      .join('')}npx tsx bench/formats.bench.ts`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'formats-bench-'));
  const skipped: Array<[string, string]> = [];
  const results: Record<string, unknown> = {
    settings: { ...settings, sections: [...settings.sections], only: settings.only && [...settings.only] },
  };
  try {
    const wanted = (name: string) => !settings.only || settings.only.has(name);
    const missing = catalogsMissing(settings.lang);
    const pairs = missing === null ? catalogPairs(settings.lang) : null;
    if (missing) {
      skipped.push(['catalog formats', missing]);
      console.log(`catalog pairs: skipped, ${missing}`);
    } else {
      console.log(`catalog pairs: ${thousands(pairs!.length)} en→${settings.lang} from ${CATALOG_SCRIPT}`);
    }
    const writers = await pairWriters();
    const textBytes = settings.textMb * MB;
    const ttkBytes = settings.ttkMb * MB;
    const inputs: Input[] = [];
    const ttkInputs = new Map<string, string>();
    const ttkFallbacks = new Map<string, string>();
    const add = (name: string, text: string | Buffer, origin: string, ttkText?: string) => {
      const format = FORMATS.find((candidate) => candidate.name === name)!;
      const file = join(dir, `${name}.${format.ext}`);
      writeFileSync(file, text);
      inputs.push({ format, file, origin });
      if (ttkText !== undefined) {
        const small = join(dir, `ttk-${name}.${format.ext}`);
        writeFileSync(small, ttkText);
        ttkInputs.set(name, small);
      }
    };
    const made = performance.now();

    // HTML and Markdown.
    let htmlSmall: string | null = null;
    if (wanted('html') || wanted('docx') || wanted('odt')) {
      const html = documentationHtml(textBytes);
      const small = documentationHtml(Math.min(textBytes, ttkBytes));
      if (typeof html === 'string' || typeof small === 'string') skipped.push(['html', typeof html === 'string' ? html : String(small)]);
      else {
        htmlSmall = small.text;
        const sphinx = documentationHtml(Math.min(textBytes, ttkBytes), '/usr/share/doc/translate-toolkit');
        if (typeof sphinx !== 'string') {
          ttkFallbacks.set('html', join(dir, 'ttk-html-translate-toolkit-docs.html'));
          writeFileSync(ttkFallbacks.get('html')!, sphinx.text);
        }
        if (wanted('html'))
          add(
            'html',
            html.text,
            `${html.files} UTF-8 pages of /usr/share/doc (${mbOf(html.distinctBytes)} MB distinct), concatenated`,
            small.text,
          );
      }
    }
    if (wanted('markdown')) {
      // The Markdown filter refuses files over 2 MiB by default (micromark holds the whole document).
      const markdown = readmesMarkdown(Math.min(textBytes, 1.5 * MB));
      if (typeof markdown === 'string') skipped.push(['markdown', markdown]);
      else add('markdown', markdown.text, `${markdown.files} README.md of node_modules, concatenated`);
    }
    if (wanted('gettext-po')) {
      const po = decompiledPo(settings.lang, textBytes, dir);
      const small = decompiledPo(settings.lang, ttkBytes, dir);
      if (typeof po === 'string' || typeof small === 'string') skipped.push(['gettext-po', typeof po === 'string' ? po : String(small)]);
      else add('gettext-po', po.text, `msgunfmt of ${po.catalogs} UTF-8 ${settings.lang} catalogs, concatenated`, small.text);
    }
    if (pairs) {
      const fromPairs: Array<[string, string, boolean]> = [
        ['json', 'json', true],
        ['yaml', 'yaml', true],
        ['java-properties', 'properties', true],
        ['arb', 'arb', false],
        ['ios-strings', 'strings', false],
        ['xliff2', 'xliff2', false],
        ['xliff12', 'xliff12', false],
        ['srt', 'srt', false],
        ['webvtt', 'vtt', false],
        ['plain-text', 'txt', false],
        ['csv', 'csv', true],
        ['xml', 'xml', false],
        ['android-strings', 'android', false],
        ['resx', 'resx', false],
        ['qt-ts', 'ts', false],
      ];
      for (const [name, writer, forTtk] of fromPairs) {
        if (!wanted(name)) continue;
        add(name, writers[writer]!(pairs, textBytes), `catalog pairs, generated`, forTtk ? writers[writer]!(pairs, ttkBytes) : undefined);
      }
      if (wanted('tmx-job')) {
        const tmx = execFileSync(process.execPath, [CATALOG_SCRIPT, '--target', settings.lang, '--format', 'tmx'], {
          maxBuffer: 1 << 30,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        const open = tmx.indexOf('<body>') + '<body>'.length;
        const close = tmx.lastIndexOf('</body>');
        // The first <tu> elements up to about textBytes (the body repeated when it is shorter).
        const body = tmx.slice(open, close);
        let cut = body.length;
        if (Buffer.byteLength(tmx) > textBytes) {
          const end = body.indexOf('</tu>', Math.max(0, textBytes - open));
          if (end >= 0) cut = end + '</tu>'.length;
        }
        add(
          'tmx-job',
          replicate(textBytes, tmx.slice(0, open), () => body.slice(0, cut), `\n${tmx.slice(close)}`),
          'catalog-tmx.mjs output (real TMX)',
        );
      }
    }

    // Office files by LibreOffice.
    const officeWanted = ['docx', 'xlsx', 'odt', 'ods'].filter(wanted);
    if (officeWanted.length > 0) {
      if (!which('soffice')) {
        for (const name of officeWanted) skipped.push([name, 'LibreOffice (soffice) is not installed']);
      } else {
        const profile = join(dir, 'lo-profile');
        const officeDir = join(dir, 'office');
        mkdirSync(officeDir, { recursive: true });
        if (htmlSmall && (wanted('docx') || wanted('odt'))) {
          // HTML → ODT → DOCX: LibreOffice's HTML import straight to DOCX takes minutes on a 1 MB page.
          const source = join(officeDir, 'documentation.html');
          writeFileSync(source, htmlSmall);
          const origin = `LibreOffice from ${mbOf(Buffer.byteLength(htmlSmall))} MB of the HTML`;
          const odt = soffice(source, 'odt', officeDir, profile);
          if (!odt) skipped.push(['odt', 'soffice --convert-to odt failed']);
          else {
            ttkInputs.set('odt', odt);
            if (wanted('odt')) inputs.push({ format: FORMATS.find((candidate) => candidate.name === 'odt')!, file: odt, origin });
            const docx = wanted('docx') ? soffice(odt, 'docx:MS Word 2007 XML', officeDir, profile) : null;
            if (wanted('docx') && !docx) skipped.push(['docx', 'soffice --convert-to docx failed']);
            if (docx)
              inputs.push({ format: FORMATS.find((candidate) => candidate.name === 'docx')!, file: docx, origin: `${origin} (via ODT)` });
          }
        }
        if (pairs && (wanted('xlsx') || wanted('ods'))) {
          const source = join(officeDir, 'catalog.csv');
          writeFileSync(source, writers.csv!(pairs, Math.min(textBytes, ttkBytes)));
          for (const [name, to] of [
            ['xlsx', 'xlsx:Calc MS Excel 2007 XML'],
            ['ods', 'ods'],
          ] as const) {
            if (!wanted(name)) continue;
            const out = soffice(source, to, officeDir, profile);
            if (!out) skipped.push([name, `soffice --convert-to ${to} failed`]);
            else {
              const format = FORMATS.find((candidate) => candidate.name === name)!;
              inputs.push({ format, file: out, origin: `LibreOffice from a ${mbOf(statSync(source).size)} MB CSV of the pairs` });
            }
          }
        }
      }
    }
    console.log(`inputs: ${inputs.length} files made in ${fixed((performance.now() - made) / 1000)} s in ${dir}`);

    if (settings.sections.has('throughput')) {
      const rows = throughput(inputs, skipped);
      results.throughput = rows.map((row) => ({ ...row, file: undefined }));
    }
    if (settings.sections.has('memory')) results.memory = await memory(pairs, dir, skipped);
    if (settings.sections.has('ttk')) results.ttk = translateToolkit(ttkInputs, ttkFallbacks, dir, skipped);

    const uniqueSkipped = [...new Map(skipped.map(([name, why]) => [`${name}: ${why}`, [name, why] as const])).values()];
    if (uniqueSkipped.length > 0) {
      console.log('\nskipped:');
      for (const [name, why] of uniqueSkipped) console.log(`   ${name}: ${why}`);
    }
    results.skipped = uniqueSkipped;
  } finally {
    if (settings.keep) console.log(`\nkept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nload average ${loadAverage()} at the end; the bench took ${fixed((performance.now() - started) / 1000)} s`);
  console.log(`\n${JSON.stringify({ bench: 'formats', cpus: availableParallelism(), ...results })}`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'parse') {
  await parseChild(rest[0]!, rest[1]!, Number(rest[2] ?? 1), Number(rest[3] ?? 0), rest[4] ?? null);
} else if (mode === 'big') {
  await bigChild(rest[0]!, rest[1]!);
} else {
  await main();
}

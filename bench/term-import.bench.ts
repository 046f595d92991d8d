/**
 * The term base import's figures (issue 16, docs/terminology.md "Performance"): TBX imported by the
 * real import path — `requestTermImport` stores the upload and enqueues the task; the task worker
 * (`startWorker` with `termImportTask`, as test/term-base-transfers.test.ts runs it) runs the import
 * (term-import.task.ts: the stored file parsed in a worker thread by term-import.thread.ts with
 * src/formats/tbx.ts, the entries written a batch per transaction by term-import.writer.ts) — on
 * SQLite (a file, WAL, synchronous=FULL, as in production) and on PostgreSQL (a schema of its own,
 * dropped at the end; skipped with a message when the server is not there). The v2 upload's
 * defaults: updateTerms=true (duplicates `update`), no strict language matching. Prints figures
 * and the targets (`ok` / `MISSED`); asserts nothing; the last line is the figures as JSON.
 *
 * Each import runs in a process of its own (bench/term-import-process.ts, forked), so that its
 * peak RSS is the import's: the service's code compiled to JavaScript in the temporary folder
 * (TypeScript's transpileModule, file by file, as `npm run build` emits it but without type
 * checking, so that a tree being edited still runs) and run on plain node, as `node dist/main.js`
 * runs it; tsx's loader would add some 70 MB (TERM_IMPORT_BENCH_RUNTIME=tsx measures that way).
 *
 * Data, written at bench time with `writeTbx` (src/formats/tbx.ts) to a temporary folder (never
 * committed), from the machine's gettext catalogs (`../shared/data/catalog-tmx.mjs` through
 * bench/tm-data.ts; skipped with a message without them):
 * - catalog: the real term base of bench/terms.bench.ts (bench/term-data.ts): every distinct English
 *   source of one to four words is a concept, with its German translation (en + de, text only);
 * - synthetic: TERM_IMPORT_BENCH_CONCEPTS concepts of the same shape (an en and a de term of two or
 *   three words drawn from the catalogs' English and German vocabularies, distinct by construction),
 *   large enough for a stable rate;
 * - large: a TBX of TERM_IMPORT_BENCH_LARGE_MB MB streamed to the file (never held in memory), with
 *   the fields real exports carry: subject field, a definition on one concept in three, per term
 *   a status, part of speech or gender, a note on some, and an origination transaction (date and
 *   person). For the peak RSS of the importing process (target < 300 MB), and its rate.
 * - re-import: 20,000 concepts of the large file's shape imported into a term base that already
 *   holds them (imported once, untimed, in the same process): every term and concept is a
 *   duplicate whose fields the file gives, so the `update` mode rewrites each (an export imported
 *   back after editing it elsewhere).
 * Plus, in this process, the reader alone (`mappedEntries` of term-import.thread.ts, the thread's
 * code without the port) over the synthetic file and over 20,000 concepts of the large file's
 * shape: what parsing costs without the database.
 *
 * Per import: the upload's storing time (requestTermImport), the import's time (from the upload
 * stored to the async request's finishedAt), entries read (concepts of the file) a second and terms
 * written (created + updated + skipped) a second against the targets (≥ 20,000 concepts/s on SQLite,
 * ≥ 10,000 on PostgreSQL), the importing process's peak RSS (its `process.resourceUsage().maxRSS`,
 * over its whole life; the import's own VmHWM after a reset through /proc/self/clear_refs; and the
 * highest VmRSS this process sampled every 200 ms), how long the part took (process start-up and
 * migrations included) and the machine's load average then. MB are 10^6 bytes.
 *
 * PostgreSQL statistics: without them the import's duplicate lookup reads every term of the base
 * in the language for each lookup of 500 keys (quadratic), so the import analyzes the term tables
 * itself after its first batch and whenever it has doubled. TERM_IMPORT_BENCH_PG_ANALYZE_SECONDS
 * (default 0: never) adds an ANALYZE every so many seconds during each import, as autovacuum would.
 *
 * Run: `npx tsx bench/term-import.bench.ts` (some 5 minutes on 2 idle cores). Environment (optional):
 *   TERM_IMPORT_BENCH_DATABASES        sqlite, postgres (default both)
 *   TERM_IMPORT_BENCH_CONCEPTS         concepts of the synthetic file (default 200000)
 *   TERM_IMPORT_BENCH_LARGE_MB         size of the large file in MB (default 500; the v2 upload takes 512 MiB)
 *   TERM_IMPORT_BENCH_LARGE_DATABASES  databases the large file is imported into (default sqlite;
 *                                      `sqlite,postgres` adds minutes; `none` leaves it out)
 *   TERM_IMPORT_BENCH_POSTGRES_URL     the PostgreSQL database a schema bench_term_import_<pid> is
 *                                      made in (default postgres://postgres@127.0.0.1:5432/test)
 *   TERM_IMPORT_BENCH_PG_ANALYZE_SECONDS  see above (default 0: the import analyzes the term tables
 *                                      itself after its first batch and whenever it has doubled)
 *   TERM_IMPORT_BENCH_RUNTIME          js (default: compiled, on plain node) or tsx
 *   TERM_IMPORT_BENCH_SEED             seed of the synthetic data (default 16)
 *   TERM_IMPORT_BENCH_CHILD_FLAGS      Node flags of the importing processes, space separated (e.g.
 *                                      `--cpu-prof --cpu-prof-dir=/tmp/prof`: a profile per process
 *                                      and thread, for bench/profile-summary.ts)
 * The temporary folder (files, compiled code, stored uploads, the SQLite database) and the
 * PostgreSQL schema are removed at the end, also on failure and on SIGINT. Disk: about 3 × the
 * large file.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import ts from 'typescript';
import { writeTbx } from '../src/formats/tbx.js';
import { GENDERS, PARTS_OF_SPEECH } from '../src/formats/term-entries.js';
import type { TermEntry, TermEntryTerm } from '../src/formats/term-entries.js';
import { mappedEntries } from '../src/modules/language-resources/term-bases/term-import.thread.js';
import type { ImportWarning } from '../src/modules/language-resources/term-bases/term-import.thread.js';
import { listFromEnv, numberFromEnv, onCleanUp, runBenchScript } from './api.bench.js';
import type { ImportFigures, ImportJob } from './term-import-process.js';
import { shortCatalogEntries } from './term-data.js';
import { catalogPairs, catalogsMissing, mark, prng } from './tm-data.js';

const settings = {
  databases: listFromEnv('TERM_IMPORT_BENCH_DATABASES', ['sqlite', 'postgres']),
  concepts: numberFromEnv('TERM_IMPORT_BENCH_CONCEPTS', 200_000),
  largeMb: numberFromEnv('TERM_IMPORT_BENCH_LARGE_MB', 500),
  largeDatabases: listFromEnv('TERM_IMPORT_BENCH_LARGE_DATABASES', ['sqlite']).filter((name) => name !== 'none'),
  postgresUrl: process.env.TERM_IMPORT_BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test',
  seed: numberFromEnv('TERM_IMPORT_BENCH_SEED', 16),
  childFlags: (process.env.TERM_IMPORT_BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
  runtime: process.env.TERM_IMPORT_BENCH_RUNTIME || 'js',
  pgAnalyzeSeconds: Number(process.env.TERM_IMPORT_BENCH_PG_ANALYZE_SECONDS ?? 0),
};
if (settings.runtime !== 'js' && settings.runtime !== 'tsx') throw new Error('TERM_IMPORT_BENCH_RUNTIME must be js or tsx');
if (!Number.isFinite(settings.pgAnalyzeSeconds) || settings.pgAnalyzeSeconds < 0)
  throw new Error('TERM_IMPORT_BENCH_PG_ANALYZE_SECONDS must be a number of seconds (0: never)');
for (const database of [...settings.databases, ...settings.largeDatabases]) {
  if (database !== 'sqlite' && database !== 'postgres') throw new Error(`unknown database "${database}" (use sqlite, postgres)`);
}

const TARGETS = { sqlite: 20_000, postgres: 10_000, rssMb: 300 };
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = join(ROOT, 'bench', 'term-import-process.ts');
const BATCH = 1000;
/** Concepts of the large file's shape the reader alone is timed on. */
const RICH_SAMPLE = 20_000;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/** The distinct lower-case words (three letters or more) of some texts, in order of appearance. */
function vocabulary(texts: Iterable<string>): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const word of text.match(/\p{L}{3,}/gu) ?? []) words.add(word.toLowerCase());
  return [...words];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Terms of two or three words, distinct for indexes below words²: the last two words are the
 * index scrambled by a multiplier prime to the word count (a bijection of 0..words²-1); one in
 * three gets a third word in front.
 */
function termMaker(words: readonly string[], random: () => number): (index: number) => string {
  const n = words.length;
  const space = n * n;
  let multiplier = Math.floor(space * 0.6180339887) | 1;
  while (gcd(multiplier, n) !== 1) multiplier += 2;
  return (index) => {
    if (index >= space) throw new Error(`only ${space} distinct terms from ${n} words`);
    const k = (index * multiplier) % space;
    const pair = `${words[k % n]} ${words[Math.floor(k / n)]}`;
    return random() < 1 / 3 ? `${words[Math.floor(random() * n)]} ${pair}` : pair;
  };
}

interface SyntheticSource {
  en: string[];
  de: string[];
  definitions: string[];
}

const DOMAINS = [
  'Software',
  'User interface',
  'Networking',
  'Printing',
  'Security',
  'Graphics',
  'Audio and video',
  'File systems',
  'Accessibility',
  'Localization',
  'Hardware',
  'Documentation',
];

/**
 * Synthetic entries in batches, the `index`-th onward, until `count` or until `full()` says the
 * file is big enough. `rich` adds the fields real exports carry (see the header).
 */
function* syntheticBatches(
  source: SyntheticSource,
  options: { count?: number; rich: boolean; full?: () => boolean },
): Generator<TermEntry[]> {
  const random = prng(settings.seed);
  const enTerm = termMaker(source.en, random);
  const deTerm = termMaker(source.de, random);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + (i % 3000) * 86_400_000).toISOString();
  for (let index = 0; index < (options.count ?? Infinity);) {
    if (options.full?.()) return;
    const batch: TermEntry[] = [];
    for (const end = Math.min(index + BATCH, options.count ?? Infinity); index < end; index++) {
      const en: TermEntryTerm = { lang: 'en', text: enTerm(index) };
      const de: TermEntryTerm = { lang: 'de', text: deTerm(index) };
      const entry: TermEntry = { id: `c${index + 1}`, terms: [en, de] };
      if (options.rich) {
        entry.domain = pick(DOMAINS);
        if (index % 3 === 0) entry.definition = pick(source.definitions);
        en.partOfSpeech = pick(PARTS_OF_SPEECH);
        en.status = random() < 0.5 ? 'Approved' : 'New';
        if (index % 10 === 0) en.note = 'Checked against the style guide.';
        de.gender = pick(GENDERS);
        de.status = en.status;
        for (const term of [en, de]) {
          term.createdAt = day(index);
          term.createdBy = 'terminologist';
        }
      }
      batch.push(entry);
    }
    yield batch;
  }
}

interface WrittenFile {
  path: string;
  bytes: number;
  entries: number;
  terms: number;
  writeMs: number;
}

/** Writes entries as TBX to `path`, streaming; `full` (given the bytes written so far) stops the entries. */
async function writeTbxFile(path: string, batches: (written: () => number) => Iterable<TermEntry[]>, title: string): Promise<WrittenFile> {
  const began = performance.now();
  const out = createWriteStream(path);
  const written = () => out.bytesWritten + out.writableLength;
  const warnings: { message: string }[] = [];
  const counts = await writeTbx(batches(written), out, { langs: ['en', 'de'], title, warnings });
  return { path, bytes: statSync(path).size, ...counts, writeMs: performance.now() - began };
}

// ---------------------------------------------------------------------------------------------
// Running an import in a process of its own
// ---------------------------------------------------------------------------------------------

function* typeScriptFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/**
 * The service's code (src/) and the importing process compiled to JavaScript under `out`, as
 * `npm run build` emits it (the project's compiler options; isolated modules, so file by file,
 * without type checking: a tree being edited still runs), with node_modules linked beside it.
 * Returns the compiled importing process.
 */
function compileForNode(out: string): { script: string; files: number } {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.convertCompilerOptionsFromJson((config as { compilerOptions: unknown }).compilerOptions, ROOT);
  // ES modules, as NodeNext emits them under the project's `"type": "module"` (transpileModule cannot
  // see package.json, and would write CommonJS for NodeNext).
  const compilerOptions: ts.CompilerOptions = {
    target: options.target,
    module: ts.ModuleKind.ESNext,
    esModuleInterop: true,
    isolatedModules: true,
  };
  let files = 0;
  for (const file of [...typeScriptFiles(join(ROOT, 'src')), CHILD]) {
    const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
    files++;
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return { script: join(out, 'bench', 'term-import-process.js'), files };
}

/**
 * This server's autovacuum is off: without statistics the planner misjudges the import's lookups
 * (see the report). Every `seconds` while an import runs, ANALYZE the term tables of the bench's
 * schema, as autovacuum's launcher would (its naptime is 60 s by default). Returns the stopper,
 * which resolves to the number of ANALYZE runs.
 */
function analyzeEvery(schema: string, seconds: number): () => Promise<number> {
  let runs = 0;
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = (async () => {
      const client = new pg.Client({ connectionString: settings.postgresUrl, connectionTimeoutMillis: 5_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query(`analyze ${schema}.tb_terms, ${schema}.tb_concepts`);
        runs++;
      } catch {
        // The schema is being dropped, or the server went away: nothing to analyze.
      } finally {
        await client.end().catch(() => undefined);
        running = null;
      }
    })();
  }, seconds * 1000);
  return async () => {
    clearInterval(timer);
    await running;
    return runs;
  };
}

interface ImportRun extends ImportFigures {
  dialect: 'sqlite' | 'postgres';
  bytes: number;
  /** The highest VmRSS of the child sampled here every 200 ms. */
  sampledPeakBytes: number;
  /** The whole part: process start, migrations, the import, the counts. */
  partMs: number;
  /** PostgreSQL with the autovacuum stand-in: the ANALYZE runs during the import (null: none asked). */
  analyzeRuns: number | null;
  /** The machine's 1-minute load average when the part ended (other work on the machine skews the figures). */
  load: number;
}

function vmRss(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function importInChild(
  job: ImportJob,
  dialect: 'sqlite' | 'postgres',
  bytes: number,
  script: string,
  analyzeSeconds: number,
): Promise<ImportRun> {
  const began = performance.now();
  const child: ChildProcess = fork(script, [], {
    env: { ...process.env, TERM_IMPORT_JOB: JSON.stringify(job) },
    // The compiled process runs on plain node, as the service does; under tsx it takes tsx's loader.
    execArgv: [...(settings.runtime === 'tsx' ? process.execArgv : []), '--expose-gc', ...settings.childFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stopAnalyzing = job.database.kind === 'postgres' && analyzeSeconds > 0 ? analyzeEvery(job.database.schema, analyzeSeconds) : null;
  onCleanUp(`the import process ${child.pid}`, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let sampled = 0;
  const sampler = setInterval(() => (sampled = Math.max(sampled, vmRss(child.pid!))), 200);
  try {
    const figures = await new Promise<ImportFigures>((done, fail) => {
      let result: ImportFigures | undefined;
      child.once('message', (message) => (result = message as ImportFigures));
      child.once('error', fail);
      child.once('exit', (code, signal) =>
        result
          ? done(result)
          : fail(new Error(`the import process (${job.label}) ended with ${signal ?? `exit code ${code}`} and no figures`)),
      );
    });
    const analyzeRuns = (await stopAnalyzing?.()) ?? null;
    return { ...figures, dialect, bytes, sampledPeakBytes: sampled, partMs: performance.now() - began, analyzeRuns, load: loadavg()[0]! };
  } finally {
    clearInterval(sampler);
    await stopAnalyzing?.();
  }
}

function report(run: ImportRun): void {
  const target = TARGETS[run.dialect];
  const rate = run.entries / (run.importMs / 1000);
  const terms = run.createdTerms + run.updatedTerms + run.skippedTerms;
  console.log(
    `  ${run.label}: ${int(run.entries)} entries, ${mb(run.bytes)} MB; stored in ${seconds(run.storeMs)} s, imported in ${seconds(run.importMs)} s: ` +
      `${int(rate)} concepts/s (≥ ${int(target)}: ×${(rate / target).toFixed(2)} ${mark(rate >= target)}), ${int(terms / (run.importMs / 1000))} terms/s`,
  );
  console.log(
    `    written: ${int(run.concepts)} concepts, ${int(run.termsInBase)} terms in the base; terms created ${int(run.createdTerms)}, updated ${int(run.updatedTerms)}, skipped ${int(run.skippedTerms)}` +
      `${run.errorCode ? `; ERROR ${run.errorCode}: ${run.errorDesc}` : ''}${run.warnings ? `; ${run.warnings} warnings` : ''}`,
  );
  console.log(
    `    importing process: peak RSS ${mb(run.maxRssBytes)} MB (maxRSS over its life; ×${(run.maxRssBytes / 1e6 / TARGETS.rssMb).toFixed(2)} of ${TARGETS.rssMb} MB), ` +
      `the import's own VmHWM ${run.importHwmBytes === null ? '-' : `${mb(run.importHwmBytes)} MB`}, sampled VmRSS ≤ ${mb(run.sampledPeakBytes)} MB, ` +
      `${mb(run.rssBeforeBytes)} MB before the upload; the part took ${seconds(run.partMs)} s (load average ${run.load.toFixed(2)})` +
      `${run.analyzeRuns === null ? '' : `; ANALYZE ran ${run.analyzeRuns} times meanwhile`}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

/** A schema of its own in the PostgreSQL database, dropped at the end; null (after saying why) when the server is not there. */
async function postgresSchema(): Promise<{ schema: string; autovacuum: boolean } | null> {
  const schema = `bench_term_import_${process.pid}`;
  const client = new pg.Client({ connectionString: settings.postgresUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  let autovacuum: boolean;
  try {
    await client.connect();
    autovacuum = (await client.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum === 'on';
    await client.query(`create schema ${schema}`);
  } catch (error) {
    console.log(`skipped PostgreSQL: ${settings.postgresUrl}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
  onCleanUp(`PostgreSQL schema ${schema}`, async () => {
    const dropper = new pg.Client({ connectionString: settings.postgresUrl, connectionTimeoutMillis: 5_000 });
    await dropper.connect();
    try {
      await dropper.query(`drop schema if exists ${schema} cascade`);
    } finally {
      await dropper.end();
    }
  });
  return { schema, autovacuum };
}

async function parseOnly(file: WrittenFile): Promise<{ ms: number; entries: number; terms: number }> {
  const began = performance.now();
  const warnings: ImportWarning[] = [];
  let entries = 0;
  let terms = 0;
  for await (const batch of mappedEntries(
    createReadStream(file.path),
    { format: 'tbx', langs: ['en', 'de'], strictLangMatching: false },
    warnings,
  )) {
    entries += batch.length;
    for (const entry of batch) terms += entry.terms.length;
  }
  return { ms: performance.now() - began, entries, terms };
}

async function main(): Promise<void> {
  const benchBegan = performance.now();
  console.log(
    `term import bench: node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const missing = catalogsMissing();
  const pairs = missing ? null : catalogPairs('de');
  if (!pairs) {
    console.log(`skipped: ${missing ?? 'no de catalogs under /usr/share/locale'}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'opentms-term-import-bench-'));
  onCleanUp('the temporary folder', () => rmSync(dir, { recursive: true, force: true }));

  // Data.
  let began = performance.now();
  const catalogEntries = shortCatalogEntries(pairs);
  const source: SyntheticSource = {
    en: vocabulary(pairs.map(([s]) => s)),
    de: vocabulary(pairs.map(([, t]) => t)),
    definitions: [...new Set(pairs.map(([s]) => s.trim()).filter((s) => s.length >= 40 && s.length <= 300 && !/[\n\t]/.test(s)))],
  };
  const catalog = await writeTbxFile(
    join(dir, 'catalog.tbx'),
    () => [catalogEntries.map(([en, de]): TermEntry => ({ terms: [{ lang: 'en', text: en }, ...(de ? [{ lang: 'de', text: de }] : [])] }))],
    'Catalog term base',
  );
  const synthetic = await writeTbxFile(
    join(dir, 'synthetic.tbx'),
    () => syntheticBatches(source, { count: settings.concepts, rich: false }),
    'Synthetic term base',
  );
  const largeBytes = settings.largeMb * 1e6;
  const large = await writeTbxFile(
    join(dir, 'large.tbx'),
    (written) => syntheticBatches(source, { rich: true, full: () => written() >= largeBytes }),
    'Large term base',
  );
  const dataMs = performance.now() - began;
  console.log(
    `data (${seconds(dataMs)} s): ${int(pairs.length)} en→de catalog pairs; vocabularies ${int(source.en.length)} en / ${int(source.de.length)} de words`,
  );
  for (const [name, file] of [
    ['catalog', catalog],
    ['synthetic', synthetic],
    ['large', large],
  ] as const) {
    console.log(
      `  ${name}.tbx: ${int(file.entries)} concepts, ${int(file.terms)} terms, ${mb(file.bytes)} MB (${int(file.bytes / file.entries)} bytes a concept), written in ${seconds(file.writeMs)} s`,
    );
  }

  // The reader alone, in this process: over the synthetic file, and over a sample of the large
  // file's shape (its first RICH_SAMPLE concepts, written apart).
  began = performance.now();
  const richSample = await writeTbxFile(
    join(dir, 'rich-sample.tbx'),
    () => syntheticBatches(source, { count: RICH_SAMPLE, rich: true }),
    'Large term base (sample)',
  );
  const readerAlone: Record<string, { ms: number; entries: number; terms: number; bytes: number }> = {};
  for (const [name, file] of [
    ['synthetic', synthetic],
    ['large (sample)', richSample],
  ] as const) {
    const parsed = await parseOnly(file);
    readerAlone[name] = { ...parsed, bytes: file.bytes };
    console.log(
      `reader alone over ${name} (mappedEntries in this process: no database, no thread): ${int(parsed.entries)} concepts in ${seconds(parsed.ms)} s, ` +
        `${int(parsed.entries / (parsed.ms / 1000))} concepts/s, ${mb(file.bytes / (parsed.ms / 1000))} MB/s`,
    );
  }
  console.log(`  (${seconds(performance.now() - began)} s)`);

  let script = CHILD;
  if (settings.runtime === 'js') {
    began = performance.now();
    const compiled = compileForNode(join(dir, 'js'));
    script = compiled.script;
    console.log(
      `importing process: the service's code compiled to JavaScript (${compiled.files} files, ${seconds(performance.now() - began)} s), run on plain node as \`node dist/main.js\` runs it`,
    );
  } else console.log('importing process: under tsx (TERM_IMPORT_BENCH_RUNTIME=tsx; its loader adds to the RSS)');

  const runs: ImportRun[] = [];
  const skipped: string[] = [];
  for (const dialect of settings.databases as Array<'sqlite' | 'postgres'>) {
    let database: ImportJob['database'];
    let analyzeSeconds = 0;
    if (dialect === 'sqlite') {
      database = { kind: 'sqlite', path: join(dir, 'bench.sqlite') };
      console.log('\nsqlite (a file, WAL, synchronous=FULL):');
    } else {
      const made = await postgresSchema();
      if (made === null) {
        skipped.push('postgres');
        continue;
      }
      database = { kind: 'postgres', url: settings.postgresUrl, schema: made.schema };
      analyzeSeconds = made.autovacuum ? 0 : settings.pgAnalyzeSeconds;
      console.log(
        `\npostgres (${settings.postgresUrl}, schema ${made.schema}; autovacuum ${made.autovacuum ? 'on' : 'off'}` +
          `${analyzeSeconds > 0 ? `: the bench runs ANALYZE of the term tables every ${analyzeSeconds} s during an import in its stead` : made.autovacuum ? '' : ', and no ANALYZE (TERM_IMPORT_BENCH_PG_ANALYZE_SECONDS=0)'}):`,
      );
    }
    const files: Array<[string, WrittenFile, boolean]> = [
      ['catalog', catalog, false],
      ['synthetic', synthetic, false],
      ['re-import', richSample, true],
    ];
    if (settings.largeDatabases.includes(dialect)) files.push(['large', large, false]);
    for (const [label, file, reimport] of files) {
      const run = await importInChild(
        { database, blobDir: join(dir, `blobs-${dialect}`), file: file.path, filename: `${label}.tbx`, label, reimport },
        dialect,
        file.bytes,
        script,
        analyzeSeconds,
      );
      runs.push(run);
      report(run);
    }
  }

  console.log('\ntargets (information, nothing is asserted):');
  for (const run of runs) {
    const target = TARGETS[run.dialect];
    const rate = run.entries / (run.importMs / 1000);
    let line = `  ${run.dialect.padEnd(9)} ${run.label.padEnd(10)} ${int(rate).padStart(8)} concepts/s (≥ ${int(target)}) ×${(rate / target).toFixed(2)} ${mark(rate >= target)}`;
    if (run.label === 'large') {
      line += `; peak RSS ${mb(run.maxRssBytes)} MB importing ${mb(run.bytes)} MB (< ${TARGETS.rssMb}) ×${(run.maxRssBytes / 1e6 / TARGETS.rssMb).toFixed(2)} ${mark(run.maxRssBytes / 1e6 < TARGETS.rssMb)}`;
    }
    console.log(line);
  }
  if (skipped.length) console.log(`  not measured: ${skipped.join(', ')} (see above)`);
  console.log(`total ${seconds(performance.now() - benchBegan)} s`);
  console.log(
    JSON.stringify({
      bench: 'term-import',
      settings,
      files: Object.fromEntries(
        [
          ['catalog', catalog],
          ['synthetic', synthetic],
          ['large', large],
        ].map(([name, file]) => {
          const f = file as WrittenFile;
          return [name, { bytes: f.bytes, entries: f.entries, terms: f.terms, writeMs: Math.round(f.writeMs) }];
        }),
      ),
      readerAlone,
      imports: runs.map((run) => ({
        dialect: run.dialect,
        label: run.label,
        bytes: run.bytes,
        entries: run.entries,
        concepts: run.concepts,
        createdTerms: run.createdTerms,
        updatedTerms: run.updatedTerms,
        storeMs: run.storeMs,
        importMs: run.importMs,
        conceptsPerSecond: Math.round(run.entries / (run.importMs / 1000)),
        maxRssBytes: run.maxRssBytes,
        importHwmBytes: run.importHwmBytes,
        sampledPeakBytes: run.sampledPeakBytes,
        partMs: Math.round(run.partMs),
        analyzeRuns: run.analyzeRuns,
        load: run.load,
      })),
    }),
  );
}

await runBenchScript(main);

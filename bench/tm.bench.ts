/**
 * The translation memory's figures (docs/translation-memory.md, "Benchmark" and "Candidate index:
 * measured"). Prints figures and the targets; asserts nothing. Sections, chosen by
 * TM_BENCH_SECTIONS (comma-separated; default all available):
 *
 * - `index`: the pure candidate index (src/domain/translation-memory/candidate-index.ts), in
 *   process, on real data from `../shared/data/catalog-tmx.mjs` (the compiled gettext catalogs
 *   under /usr/share/locale; skipped with a message when ../shared is missing):
 *   - 56 k: the en→de units, sources deduplicated, 300 held out as queries (a seeded choice, not
 *     in the memory): build time, bytes, RSS; lookup p50/p95/max at minimum score 75, limit 5;
 *     queries with a match ≥ 75; recall against a full scan (limit 50).
 *   - 1 M: the translations of several languages' catalogs used as source texts plus generated
 *     variants (number changes, word swaps, deletions, repetitions) up to 1,000,000 distinct
 *     texts; 300 held-out queries; the same figures (recall over TM_BENCH_1M_RECALL queries).
 *   - peer: translate-toolkit's `build_tmdb` and `tmserver` (Debian's translate-toolkit; tmserver
 *     also needs python3-cheroot, and python3-levenshtein for its fast path) on the same 56 k
 *     units and queries, over HTTP on loopback, min similarity 75, at most 5 candidates: lookup
 *     p50/p95/max and queries with a match ≥ 75 (its `quality`), next to ours. Ours is in process
 *     without HTTP, theirs includes a loopback HTTP round trip (about 0.1–0.3 ms), so the latency
 *     ratio flatters ours by that much; the HTTP-level comparison is another section's. tmserver
 *     is killed at the end, also on failure or SIGINT.
 *
 * Run: `npx tsx bench/tm.bench.ts`. Environment (all optional):
 *   TM_BENCH_SECTIONS       sections, comma-separated (default: index)
 *   TM_BENCH_INDEX_PARTS    parts of the index section: 56k, 1m, peer (default all three)
 *   TM_BENCH_QUERIES        held-out queries (default 300)
 *   TM_BENCH_1M_UNITS       size of the large memory (default 1000000)
 *   TM_BENCH_1M_RECALL      queries of the large memory whose recall is measured (default 300:
 *                           all; a full scan of 1 M texts takes about 70 ms with the bigram filter)
 *   TM_BENCH_INDEX_OPTIONS  JSON of CandidateIndexOptions, for tuning (default: the defaults)
 *   TM_BENCH_SEED           seed of the held-out choice and the variants (default 14)
 *   TM_BENCH_PEER_ANALYZE   0: leave tmserver's database as build_tmdb writes it (by default the
 *                           bench runs SQLite's ANALYZE on it, without which a lookup of more
 *                           than four words takes seconds: the peer is measured at its best)
 *   TM_BENCH_PEER_SECONDS   time budget of the tmserver queries (default 180): the queries not
 *                           asked by then are left out, and the table says how many were asked
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import { CandidateIndex } from '../src/domain/translation-memory/candidate-index.js';
import type { CandidateIndexOptions, IndexSearchOptions } from '../src/domain/translation-memory/candidate-index.js';
import { listFromEnv, numberFromEnv, onCleanUp, runBenchScript, sleep } from './api.bench.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CATALOG_SCRIPT = resolve(ROOT, '../shared/data/catalog-tmx.mjs');
const LOCALE_DIR = '/usr/share/locale';

const settings = {
  sections: listFromEnv('TM_BENCH_SECTIONS', ['index']),
  parts: listFromEnv('TM_BENCH_INDEX_PARTS', ['56k', '1m', 'peer']),
  queries: numberFromEnv('TM_BENCH_QUERIES', 300),
  largeUnits: numberFromEnv('TM_BENCH_1M_UNITS', 1_000_000),
  largeRecallQueries: numberFromEnv('TM_BENCH_1M_RECALL', 300),
  indexOptions: JSON.parse(process.env.TM_BENCH_INDEX_OPTIONS || '{}') as CandidateIndexOptions,
  seed: numberFromEnv('TM_BENCH_SEED', 14),
  peerSeconds: numberFromEnv('TM_BENCH_PEER_SECONDS', 180),
  peerAnalyze: process.env.TM_BENCH_PEER_ANALYZE !== '0',
};
const MIN_SCORE = 75;
const LIMIT = 5;
const RECALL_LIMIT = 50;
/** Languages whose translations make up the 1 M memory, those present are used. */
const LARGE_LANGUAGES = [
  'de',
  'fr',
  'es',
  'it',
  'pt_BR',
  'nl',
  'sv',
  'pl',
  'ru',
  'uk',
  'cs',
  'da',
  'fi',
  'hu',
  'ja',
  'zh_CN',
  'pt',
  'ro',
  'tr',
];

const TARGETS = {
  small: { p50: 0.5, p95: 3, max: 30 },
  large: { p50: 1, p95: 10 },
  recall: 0.98,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, so the held-out choice and the variants are the same every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

interface Latency {
  p50: number;
  p95: number;
  max: number;
}

function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] ?? NaN };
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(3) : value.toFixed(1)) : '-');
const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/** A full garbage collection when the flag can be set (it makes the RSS figures comparable). */
function collectGarbage(): void {
  try {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch {
    // Not available: the figures include garbage.
  }
}

function rss(): number {
  collectGarbage();
  return process.memoryUsage().rss;
}

/** (source, target) pairs of one target language's catalogs, or null when it has none. */
function catalogPairs(target: string): Array<[string, string]> | null {
  if (!existsSync(join(LOCALE_DIR, target, 'LC_MESSAGES'))) return null;
  const tsv = execFileSync(process.execPath, [CATALOG_SCRIPT, '--target', target, '--format', 'tsv'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pairs: Array<[string, string]> = [];
  for (const line of tsv.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    // Copies, so that the texts do not hold on to the whole TSV.
    pairs.push([` ${line.slice(0, tab)}`.slice(1), ` ${line.slice(tab + 1)}`.slice(1)]);
  }
  return pairs;
}

interface Lookups {
  latency: Latency;
  withMatch: number;
}

function runLookups(index: CandidateIndex, queries: readonly string[], warmUp: readonly string[]): Lookups {
  const options: IndexSearchOptions = { minScore: MIN_SCORE, limit: LIMIT };
  for (const query of warmUp) index.search(query, options);
  const samples: number[] = [];
  let withMatch = 0;
  for (const query of queries) {
    const started = performance.now();
    const matches = index.search(query, options);
    samples.push(performance.now() - started);
    if (matches.length > 0) withMatch++;
  }
  return { latency: latencyOf(samples), withMatch };
}

interface Recall {
  queries: number;
  scanMatches: number;
  found: number;
  recall: number;
  /** Queries whose top LIMIT from search is exactly scan's. */
  sameTop: number;
  scanMsPerQuery: number;
}

function measureRecall(index: CandidateIndex, queries: readonly string[]): Recall {
  const wide: IndexSearchOptions = { minScore: MIN_SCORE, limit: RECALL_LIMIT };
  const narrow: IndexSearchOptions = { minScore: MIN_SCORE, limit: LIMIT };
  let scanMatches = 0;
  let found = 0;
  let sameTop = 0;
  let scanMs = 0;
  for (const query of queries) {
    const started = performance.now();
    const scanned = index.scan(query, wide);
    scanMs += performance.now() - started;
    const searched = new Map(index.search(query, wide).map((match) => [match.key, match.score]));
    scanMatches += scanned.length;
    for (const match of scanned) if (searched.get(match.key) === match.score) found++;
    const top = JSON.stringify(index.search(query, narrow));
    if (top === JSON.stringify(scanned.slice(0, LIMIT))) sameTop++;
  }
  return {
    queries: queries.length,
    scanMatches,
    found,
    recall: scanMatches === 0 ? 1 : found / scanMatches,
    sameTop,
    scanMsPerQuery: scanMs / queries.length,
  };
}

interface IndexFigures {
  units: number;
  buildMs: number;
  indexMb: number;
  rssMb: number;
  lookups: Lookups;
  recall: Recall;
}

function build(texts: readonly string[], langs: readonly string[]): { index: CandidateIndex; buildMs: number } {
  const index = new CandidateIndex(settings.indexOptions);
  const started = performance.now();
  for (let i = 0; i < texts.length; i++) index.put(`u${i}`, texts[i]!, langs);
  return { index, buildMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Section "index": 56 k
// ---------------------------------------------------------------------------------------------

interface SmallMemory {
  /** The memory's (source, target) pairs, one per distinct source. */
  memory: Array<[string, string]>;
  queries: string[];
}

function smallMemory(): SmallMemory | null {
  const pairs = catalogPairs('de');
  if (pairs === null) return null;
  const bySource = new Map<string, string>();
  for (const [source, target] of pairs) if (!bySource.has(source)) bySource.set(source, target);
  const sources = shuffled([...bySource.keys()], prng(settings.seed));
  const held = new Set(sources.slice(0, settings.queries));
  const queries = sources.slice(0, settings.queries);
  const memory = [...bySource].filter(([source]) => !held.has(source));
  return { memory, queries };
}

function measureSmall(small: SmallMemory): IndexFigures {
  const { index, buildMs } = build(
    small.memory.map(([source]) => source),
    ['de'],
  );
  const warmUp = small.memory.slice(0, 300).map(([source]) => source);
  const lookups = runLookups(index, small.queries, warmUp);
  const recall = measureRecall(index, small.queries);
  return { units: index.size, buildMs, indexMb: mb(index.approximateBytes()), rssMb: mb(rss()), lookups, recall };
}

// ---------------------------------------------------------------------------------------------
// Section "index": 1 M
// ---------------------------------------------------------------------------------------------

/** A variant of a text: a number changed or added, two words swapped, a word dropped or repeated. */
function variantOf(text: string, random: () => number): string {
  const words = text.split(' ');
  const kind = Math.floor(random() * 5);
  const at = Math.floor(random() * words.length);
  switch (kind) {
    case 0: {
      // A number changed (or one added when there is none).
      const numbered = text.replace(/\d+/, () => String(Math.floor(random() * 1000)));
      if (numbered !== text) return numbered;
      words.splice(at, 0, String(Math.floor(random() * 100)));
      return words.join(' ');
    }
    case 1:
      if (words.length > 1) {
        const next = Math.min(at + 1, words.length - 1);
        const from = next === at ? at - 1 : at;
        [words[from], words[next]] = [words[next]!, words[from]!];
        return words.join(' ');
      }
      return `${text} ${Math.floor(random() * 100)}`;
    case 2:
      if (words.length > 3) {
        words.splice(at, 1);
        return words.join(' ');
      }
      return `${text}.`;
    case 3:
      words.splice(at, 0, words[at]!);
      return words.join(' ');
    default:
      // Case of one word, and a number.
      words[at] = words[at]!.toUpperCase();
      return `${words.join(' ')} (${Math.floor(random() * 10)})`;
  }
}

interface LargeMemory {
  texts: string[];
  queries: string[];
  languages: string[];
  real: number;
}

function largeMemory(): LargeMemory {
  const random = prng(settings.seed + 1);
  const distinct = new Set<string>();
  const languages: string[] = [];
  for (const language of LARGE_LANGUAGES) {
    const pairs = catalogPairs(language);
    if (pairs === null) continue;
    languages.push(language);
    for (const [, target] of pairs) distinct.add(target);
    if (distinct.size >= settings.largeUnits * 0.7) break;
  }
  const real = shuffled([...distinct], random);
  const queries = real.slice(0, settings.queries);
  const texts = real.slice(settings.queries, settings.largeUnits + settings.queries);
  const seen = new Set(real);
  const base = texts.length;
  while (texts.length < settings.largeUnits) {
    let variant = variantOf(texts[Math.floor(random() * base)]!, random);
    if (random() < 0.3) variant = variantOf(variant, random);
    if (seen.has(variant)) continue;
    seen.add(variant);
    texts.push(variant);
  }
  return { texts, queries, languages, real: base };
}

function measureLarge(): IndexFigures & { languages: string[]; real: number } {
  const large = largeMemory();
  const { index, buildMs } = build(large.texts, ['xx']);
  const warmUp = large.texts.slice(0, 300);
  const lookups = runLookups(index, large.queries, warmUp);
  const recall = measureRecall(index, large.queries.slice(0, settings.largeRecallQueries));
  const figures = { units: index.size, buildMs, indexMb: mb(index.approximateBytes()), rssMb: mb(rss()), lookups, recall };
  large.texts.length = 0;
  return { ...figures, languages: large.languages, real: large.real };
}

// ---------------------------------------------------------------------------------------------
// Section "index": translate-toolkit's tmserver
// ---------------------------------------------------------------------------------------------

interface PeerFigures {
  buildMs: number;
  latency: Latency;
  withMatch: number;
  /** Queries asked before the time budget ran out. */
  answered: number;
  /** Of those, answered with an error (HTTP 500). */
  errors: number;
}

function poString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r')}"`;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function toolAvailable(): string | null {
  for (const tool of ['build_tmdb', 'tmserver']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
    if (found.status !== 0) return `${tool} not found (apt-get install -y translate-toolkit)`;
  }
  const help = spawnSync('tmserver', ['--help'], { encoding: 'utf8' });
  if (help.status !== 0) {
    const last = (help.stderr || '').trim().split('\n').pop() ?? '';
    return `tmserver does not start: ${last}${/cheroot/.test(last) ? ' (apt-get install -y python3-cheroot)' : ''}`;
  }
  return null;
}

async function measurePeer(small: SmallMemory): Promise<PeerFigures | string> {
  const missing = toolAvailable();
  if (missing !== null) return missing;
  const folder = mkdtempSync(join(tmpdir(), 'opentms-tm-bench-'));
  onCleanUp('the tmserver folder', () => rmSync(folder, { recursive: true, force: true }));
  const po = join(folder, 'memory.po');
  const body = small.memory.map(([source, target]) => `msgid ${poString(source)}\nmsgstr ${poString(target)}\n`).join('\n');
  writeFileSync(po, `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n${body}`);
  const db = join(folder, 'tm.db');
  const started = performance.now();
  const built = spawnSync('build_tmdb', ['-d', db, '-s', 'en', '-t', 'de', po], { encoding: 'utf8' });
  const buildMs = performance.now() - started;
  if (built.status !== 0) return `build_tmdb failed: ${(built.stderr || '').trim().split('\n').pop()}`;
  if (settings.peerAnalyze) {
    // Without statistics SQLite evaluates the full-text MATCH once per target row: a lookup of
    // more than three words then takes 10–16 s at 56 k units. With them, milliseconds.
    const database = new Database(db);
    database.exec('ANALYZE');
    database.close();
  }

  const port = await freePort();
  const server = spawn(
    'tmserver',
    ['-d', db, '-b', '127.0.0.1', '-p', String(port), '--min-similarity', String(MIN_SCORE), '--max-candidates', String(LIMIT)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  onCleanUp('tmserver', async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  });
  const url = (query: string) => `http://127.0.0.1:${port}/tmserver/en/de/unit/${encodeURIComponent(query)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) return `tmserver exited: ${stderr.trim().split('\n').pop() ?? ''}`;
    try {
      const answer = await fetch(url('ready?'));
      await answer.text();
      if (answer.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) return 'tmserver did not answer within 60 s';
    await sleep(200);
  }
  // Null: an error answer (tmserver answers 500 when a query's words make an invalid full-text
  // query, e.g. one with the word NOT).
  const ask = async (query: string): Promise<Array<{ quality: number }> | null> => {
    const answer = await fetch(url(query));
    const text = await answer.text();
    return answer.ok ? (JSON.parse(text) as Array<{ quality: number }>) : null;
  };
  for (const [source] of small.memory.slice(0, 10)) await ask(source);
  const samples: number[] = [];
  let withMatch = 0;
  let errors = 0;
  const budgetEnd = performance.now() + settings.peerSeconds * 1000;
  for (const query of small.queries) {
    if (performance.now() > budgetEnd) break;
    const begun = performance.now();
    const matches = await ask(query);
    samples.push(performance.now() - begun);
    if (matches === null) errors++;
    else if (matches.some((match) => match.quality >= MIN_SCORE)) withMatch++;
    if (samples.length % 50 === 0) console.error(`  tmserver: ${samples.length} of ${small.queries.length} queries`);
  }
  return { buildMs, latency: latencyOf(samples), withMatch, answered: samples.length, errors };
}

// ---------------------------------------------------------------------------------------------
// Section "index": report
// ---------------------------------------------------------------------------------------------

function printFigures(title: string, figures: IndexFigures, targets: { p50: number; p95: number; max?: number }): void {
  const { lookups, recall } = figures;
  console.log(`\n${title}: ${figures.units} units`);
  console.log(
    `  build               ${(figures.buildMs / 1000).toFixed(1)} s (${Math.round(figures.units / (figures.buildMs / 1000))} units/s)`,
  );
  console.log(`  index bytes         ${figures.indexMb} MB (approximateBytes)   process RSS ${figures.rssMb} MB`);
  console.log(
    `  lookup p50          ${ms(lookups.latency.p50)} ms   target ≤ ${targets.p50} ms   ${mark(lookups.latency.p50 <= targets.p50)}`,
  );
  console.log(
    `  lookup p95          ${ms(lookups.latency.p95)} ms   target ≤ ${targets.p95} ms   ${mark(lookups.latency.p95 <= targets.p95)}`,
  );
  console.log(
    `  lookup max          ${ms(lookups.latency.max)} ms${targets.max === undefined ? '' : `   target ≤ ${targets.max} ms   ${mark(lookups.latency.max <= targets.max)}`}`,
  );
  console.log(`  with a match ≥ ${MIN_SCORE}   ${lookups.withMatch} of ${settings.queries} queries`);
  console.log(
    `  recall vs scan      ${(recall.recall * 100).toFixed(2)} % (${recall.found} of ${recall.scanMatches} matches ≥ ${MIN_SCORE}, limit ${RECALL_LIMIT}, ${recall.queries} queries)   target ≥ ${TARGETS.recall * 100} %   ${mark(recall.recall >= TARGETS.recall)}`,
  );
  console.log(
    `  top ${LIMIT} = scan's     ${recall.sameTop} of ${recall.queries} queries   (scan: ${ms(recall.scanMsPerQuery)} ms a query)`,
  );
}

async function indexSection(): Promise<Record<string, unknown> | null> {
  if (!existsSync(CATALOG_SCRIPT)) {
    console.log(`index: skipped, ${CATALOG_SCRIPT} is missing (the shared data folder next to this repository)`);
    return null;
  }
  if (!existsSync(LOCALE_DIR) || readdirSync(LOCALE_DIR).length === 0) {
    console.log(`index: skipped, no catalogs under ${LOCALE_DIR}`);
    return null;
  }
  const result: Record<string, unknown> = { options: settings.indexOptions };
  const small = smallMemory();
  if (small === null) {
    console.log(`index: skipped, no de catalogs under ${LOCALE_DIR}`);
    return null;
  }
  let smallFigures: IndexFigures | null = null;
  if (settings.parts.includes('56k')) {
    smallFigures = measureSmall(small);
    printFigures('56 k (en→de catalogs, 300 held-out queries)', smallFigures, TARGETS.small);
    result.small = smallFigures;
  }
  if (settings.parts.includes('peer')) {
    const peer = await measurePeer(small);
    if (typeof peer === 'string') {
      console.log(`\npeer: skipped, ${peer}`);
      result.peer = { skipped: peer };
    } else {
      result.peer = peer;
      console.log(
        `\ntranslate-toolkit tmserver on the same ${small.memory.length} units (build_tmdb ${(peer.buildMs / 1000).toFixed(1)} s)`,
      );
      if (peer.errors > 0) console.log(`  tmserver answered ${peer.errors} queries with an error (HTTP 500; counted as no match)`);
      if (peer.answered < small.queries.length)
        console.log(
          `  tmserver answered ${peer.answered} of ${small.queries.length} queries within TM_BENCH_PEER_SECONDS=${settings.peerSeconds}: its figures are over those`,
        );
      console.log('  (ours: in process; theirs: HTTP over loopback, one request at a time)');
      const ours = smallFigures?.lookups;
      const row = (name: string, a: number | undefined, b: number) =>
        `  ${name.padEnd(18)}${(a === undefined ? '-' : ms(a)).padStart(10)}${ms(b).padStart(12)}${(a === undefined ? '-' : (a / b).toFixed(3)).padStart(10)}`;
      console.log(`  ${''.padEnd(18)}${'ours'.padStart(10)}${'tmserver'.padStart(12)}${'ratio'.padStart(10)}`);
      console.log(row('lookup p50 (ms)', ours?.latency.p50, peer.latency.p50));
      console.log(row('lookup p95 (ms)', ours?.latency.p95, peer.latency.p95));
      console.log(row('lookup max (ms)', ours?.latency.max, peer.latency.max));
      const count = ours === undefined ? '-' : String(ours.withMatch);
      console.log(
        `  ${`with a match ≥ ${MIN_SCORE}`.padEnd(18)}${count.padStart(10)}${String(peer.withMatch).padStart(12)}${''.padStart(10)}   ${ours === undefined ? '' : mark(ours.withMatch >= peer.withMatch)}`,
      );
    }
  }
  if (settings.parts.includes('1m')) {
    collectGarbage();
    const large = measureLarge();
    printFigures(
      `1 M (translations of ${large.languages.join(', ')} as sources: ${large.real} real texts plus variants)`,
      large,
      TARGETS.large,
    );
    result.large = large;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const SECTIONS: Record<string, () => Promise<Record<string, unknown> | null>> = {
  index: indexSection,
};

async function main(): Promise<void> {
  for (const section of settings.sections) {
    if (!(section in SECTIONS))
      throw new Error(`TM_BENCH_SECTIONS: unknown section "${section}" (available: ${Object.keys(SECTIONS).join(', ')})`);
  }
  const results: Record<string, unknown> = {};
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  console.log(`tm bench: ${availableParallelism()} CPUs, load average ${load.join(' ')} (other work on the machine inflates p95 and max)`);
  results.machine = { cpus: availableParallelism(), loadAverage: load };
  for (const section of settings.sections) {
    console.log(`== ${section}`);
    results[section] = await SECTIONS[section]!();
  }
  console.log(`\n${JSON.stringify({ bench: 'tm', ...results })}`);
}

await runBenchScript(main);

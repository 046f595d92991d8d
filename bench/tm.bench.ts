/**
 * The translation memory's figures (docs/translation-memory.md, "Benchmark" and "Candidate index:
 * measured"). Prints figures and the targets (`ok` / `MISSED` beside each); asserts nothing; the
 * last line is the figures as JSON. Sections, chosen by TM_BENCH_SECTIONS (comma-separated;
 * default all: index, service). Both read real data from `../shared/data/catalog-tmx.mjs` (the
 * compiled gettext catalogs under /usr/share/locale; skipped with a message when ../shared is
 * missing); the shared helpers are in bench/tm-data.ts.
 *
 * - `index`: the pure candidate index (src/domain/translation-memory/candidate-index.ts), in
 *   process:
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
 *     ratio flatters ours by that much; the HTTP-level comparison is the service section's.
 *     tmserver is measured once per run (the service section reuses the figures) and stopped
 *     when its queries are done, also on failure or SIGINT.
 *
 * - `service` (bench/tm-service.ts): the TM through the real HTTP service, `node dist/main.js`
 *   (built first when src/ is newer, as bench/api.bench.ts does) with the API and the worker in
 *   one process as `npm start` runs it, on each database of TM_BENCH_DATABASES (a fresh data
 *   folder; on PostgreSQL a database of its own, skipped with a message when the server is not
 *   there). First a TMX of TM_BENCH_IMPORT_MB MB is written (streamed) to a temporary file: en
 *   sources and targets in the languages of LARGE_LANGUAGES present, the catalogs' distinct
 *   pairs first, then variants of their sources keeping the target. Then, per database:
 *   - TM A (en→de): the 56 k memory of the index section imported as TMX (importTransMemoryV2,
 *     polled until the async request finishes): time and units/s. Its first search (which loads
 *     the index) on its own, 10 warm-up searches, then the 300 held-out queries one at a time
 *     (POST /api2/v1/transMemories/{uid}/search): p50/p95/max and the queries with a result
 *     scoring ≥ 0.75; beside tmserver's figures on the same units and queries (both over HTTP).
 *   - TM B (en→the generated languages): the generated file uploaded as a stream: upload time,
 *     import time (from the 202 to the async request's end), units/s (units read / import
 *     seconds; target ≥ 50,000 on SQLite, ≥ 25,000 on PostgreSQL), MB/s, TM B's units afterwards
 *     (metadata); the server's peak RSS (VmHWM, reset through /proc/<pid>/clear_refs before the
 *     upload; target < 300 MB) with the highest of VmRSS sampled every 200 ms as a cross-check;
 *     and, from the upload's start to the import's end, lookups of TM A one at a time ~10 ms
 *     apart (held-out queries): count, p50/p95/p99/max (target p99 ≤ 20 ms).
 *   - TM C: the same with a second file of TM_BENCH_SEARCHED_IMPORT_MB MB, while TM A and TM C
 *     itself (sources of the file) are searched in turn: the TM being imported, whose index
 *     catches up on what was written before each of its lookups. Kept apart from TM B so that
 *     TM B's peak RSS is the import's, not that of TM C's growing index.
 *   The servers, the temporary files and the PostgreSQL database are removed at the end, also on
 *   failure or SIGINT. Disk: the file, its stored copy and the database need about 4 × the size.
 *
 * Run: `npx tsx bench/tm.bench.ts` (both sections), e.g. `TM_BENCH_SECTIONS=service
 * TM_BENCH_IMPORT_MB=40 npx tsx bench/tm.bench.ts` for a quick service run. Environment (all
 * optional):
 *   TM_BENCH_SECTIONS       sections, comma-separated (default: index,service)
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
 *   TM_BENCH_DATABASES      databases of the service section: sqlite, postgres (default both)
 *   TM_BENCH_IMPORT_MB      size of the service section's generated TMX in MB (default 1024)
 *   TM_BENCH_SEARCHED_IMPORT_MB  size of the TMX imported into TM C, searched while it is
 *                           imported (default 100; 0 leaves TM C out)
 *   BENCH_POSTGRES_URL      PostgreSQL server on which a database opentms_bench_<pid> is created
 *                           and dropped (default postgres://postgres@127.0.0.1:5432)
 */
import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CandidateIndex } from '../src/domain/translation-memory/candidate-index.js';
import type { CandidateIndexOptions, IndexSearchOptions } from '../src/domain/translation-memory/candidate-index.js';
import { listFromEnv, numberFromEnv, runBenchScript } from './api.bench.js';
import {
  catalogPairs,
  catalogsMissing,
  dataSettings,
  LARGE_LANGUAGES,
  latencyOf,
  LIMIT,
  LOCALE_DIR,
  mark,
  mb,
  measurePeer,
  MIN_SCORE,
  ms,
  prng,
  printPeerTable,
  shuffled,
  smallMemory,
  variantOf,
} from './tm-data.js';
import type { Latency, SmallMemory } from './tm-data.js';
import { serviceSection } from './tm-service.js';

const settings = {
  sections: listFromEnv('TM_BENCH_SECTIONS', ['index', 'service']),
  parts: listFromEnv('TM_BENCH_INDEX_PARTS', ['56k', '1m', 'peer']),
  largeUnits: numberFromEnv('TM_BENCH_1M_UNITS', 1_000_000),
  largeRecallQueries: numberFromEnv('TM_BENCH_1M_RECALL', 300),
  indexOptions: JSON.parse(process.env.TM_BENCH_INDEX_OPTIONS || '{}') as CandidateIndexOptions,
};
const RECALL_LIMIT = 50;

const TARGETS = {
  small: { p50: 0.5, p95: 3, max: 30 },
  large: { p50: 1, p95: 10 },
  recall: 0.98,
};

// ---------------------------------------------------------------------------------------------
// Helpers (the shared ones are in bench/tm-data.ts)
// ---------------------------------------------------------------------------------------------

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

interface LargeMemory {
  texts: string[];
  queries: string[];
  languages: string[];
  real: number;
}

function largeMemory(): LargeMemory {
  const random = prng(dataSettings.seed + 1);
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
  const queries = real.slice(0, dataSettings.queries);
  const texts = real.slice(dataSettings.queries, settings.largeUnits + dataSettings.queries);
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
  console.log(`  with a match ≥ ${MIN_SCORE}   ${lookups.withMatch} of ${dataSettings.queries} queries`);
  console.log(
    `  recall vs scan      ${(recall.recall * 100).toFixed(2)} % (${recall.found} of ${recall.scanMatches} matches ≥ ${MIN_SCORE}, limit ${RECALL_LIMIT}, ${recall.queries} queries)   target ≥ ${TARGETS.recall * 100} %   ${mark(recall.recall >= TARGETS.recall)}`,
  );
  console.log(
    `  top ${LIMIT} = scan's     ${recall.sameTop} of ${recall.queries} queries   (scan: ${ms(recall.scanMsPerQuery)} ms a query)`,
  );
}

async function indexSection(): Promise<Record<string, unknown> | null> {
  const missing = catalogsMissing();
  if (missing !== null) {
    console.log(`index: skipped, ${missing}`);
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
      printPeerTable(small, peer, smallFigures?.lookups, 'ours', '(ours: in process; theirs: HTTP over loopback, one request at a time)');
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
  service: serviceSection,
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

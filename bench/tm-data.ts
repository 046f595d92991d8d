/**
 * What the sections of bench/tm.bench.ts share: the real data (the compiled gettext catalogs under
 * /usr/share/locale, read by `../shared/data/catalog-tmx.mjs`), the seeded PRNG, latency
 * figures, and translate-toolkit's tmserver as the peer (measured once per run, whichever
 * section asks first). No top-level work: importing it starts nothing.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { numberFromEnv, onCleanUp, sleep } from './api.bench.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_SCRIPT = resolve(ROOT, '../shared/data/catalog-tmx.mjs');
export const LOCALE_DIR = '/usr/share/locale';

/** The settings both sections read (the header of bench/tm.bench.ts lists them). */
export const dataSettings = {
  queries: numberFromEnv('TM_BENCH_QUERIES', 300),
  seed: numberFromEnv('TM_BENCH_SEED', 14),
  peerSeconds: numberFromEnv('TM_BENCH_PEER_SECONDS', 180),
  peerAnalyze: process.env.TM_BENCH_PEER_ANALYZE !== '0',
};

/** The peer's minimum similarity and candidate count, and the index section's search options. */
export const MIN_SCORE = 75;
export const LIMIT = 5;

/** Languages whose catalogs make up the large memories (the index's 1 M, the service's import); those present are used. */
export const LARGE_LANGUAGES = [
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

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, so the held-out choice and the variants are the same every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export interface Latency {
  p50: number;
  p95: number;
  max: number;
}

export function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] ?? NaN };
}

export const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
export const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(3) : value.toFixed(1)) : '-');
export const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/** Why the catalogs cannot be read on this machine, or null when they can. */
export function catalogsMissing(): string | null {
  if (!existsSync(CATALOG_SCRIPT)) return `${CATALOG_SCRIPT} is missing (the shared data folder next to this repository)`;
  if (!existsSync(LOCALE_DIR) || readdirSync(LOCALE_DIR).length === 0) return `no catalogs under ${LOCALE_DIR}`;
  return null;
}

/** (source, target) pairs of one target language's catalogs, or null when it has none. */
export function catalogPairs(target: string): Array<[string, string]> | null {
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

export interface SmallMemory {
  /** The memory's (source, target) pairs, one per distinct source. */
  memory: Array<[string, string]>;
  queries: string[];
}

let smallMemoryOnce: SmallMemory | null | undefined;

/**
 * The en→de memory (sources deduplicated) and its held-out queries (a seeded choice, not in the
 * memory); null when there are no de catalogs. Read once per run.
 */
export function smallMemory(): SmallMemory | null {
  if (smallMemoryOnce !== undefined) return smallMemoryOnce;
  const pairs = catalogPairs('de');
  if (pairs === null) return (smallMemoryOnce = null);
  const bySource = new Map<string, string>();
  for (const [source, target] of pairs) if (!bySource.has(source)) bySource.set(source, target);
  const sources = shuffled([...bySource.keys()], prng(dataSettings.seed));
  const held = new Set(sources.slice(0, dataSettings.queries));
  const queries = sources.slice(0, dataSettings.queries);
  const memory = [...bySource].filter(([source]) => !held.has(source));
  return (smallMemoryOnce = { memory, queries });
}

/** A variant of a text: a number changed or added, two words swapped, a word dropped or repeated. */
export function variantOf(text: string, random: () => number): string {
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

export function freePort(): Promise<number> {
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

// ---------------------------------------------------------------------------------------------
// The peer: translate-toolkit's tmserver
// ---------------------------------------------------------------------------------------------

export interface PeerFigures {
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

/**
 * translate-toolkit's `build_tmdb` and `tmserver` on the memory, over HTTP on loopback, min
 * similarity MIN_SCORE, at most LIMIT candidates: the held-out queries one at a time. tmserver is
 * stopped when the queries are done (and by the clean-up on failure or SIGINT). A string says why
 * it was not measured.
 */
async function measurePeerNow(small: SmallMemory): Promise<PeerFigures | string> {
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
  if (dataSettings.peerAnalyze) {
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
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  onCleanUp('tmserver', stop);
  try {
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
    const budgetEnd = performance.now() + dataSettings.peerSeconds * 1000;
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
  } finally {
    // An idle tmserver left running would only take memory from what the later sections measure.
    await stop();
  }
}

let peerOnce: Promise<PeerFigures | string> | undefined;

/** The peer's figures on the small memory, measured once per run: the second section to ask reuses them. */
export function measurePeer(small: SmallMemory): Promise<PeerFigures | string> {
  peerOnce ??= measurePeerNow(small);
  return peerOnce;
}

/** Our figures beside the peer's, on the same memory and queries. */
export interface OurLookups {
  latency: Latency;
  withMatch: number;
}

/** The peer's notes and the table of ours beside tmserver's (ratio = ours / tmserver). */
export function printPeerTable(small: SmallMemory, peer: PeerFigures, ours: OurLookups | undefined, oursLabel: string, note: string): void {
  if (peer.errors > 0) console.log(`  tmserver answered ${peer.errors} queries with an error (HTTP 500; counted as no match)`);
  if (peer.answered < small.queries.length)
    console.log(
      `  tmserver answered ${peer.answered} of ${small.queries.length} queries within TM_BENCH_PEER_SECONDS=${dataSettings.peerSeconds}: its figures are over those`,
    );
  console.log(`  ${note}`);
  const row = (name: string, a: number | undefined, b: number) =>
    `  ${name.padEnd(18)}${(a === undefined ? '-' : ms(a)).padStart(10)}${ms(b).padStart(12)}${(a === undefined ? '-' : (a / b).toFixed(3)).padStart(10)}`;
  console.log(`  ${''.padEnd(18)}${oursLabel.padStart(10)}${'tmserver'.padStart(12)}${'ratio'.padStart(10)}`);
  console.log(row('lookup p50 (ms)', ours?.latency.p50, peer.latency.p50));
  console.log(row('lookup p95 (ms)', ours?.latency.p95, peer.latency.p95));
  console.log(row('lookup max (ms)', ours?.latency.max, peer.latency.max));
  const count = ours === undefined ? '-' : String(ours.withMatch);
  console.log(
    `  ${`with a match ≥ ${MIN_SCORE}`.padEnd(18)}${count.padStart(10)}${String(peer.withMatch).padStart(12)}${''.padStart(10)}   ${ours === undefined ? '' : mark(ours.withMatch >= peer.withMatch)}`,
  );
}

/**
 * Section `service` of bench/tm.bench.ts: the translation memory through the real HTTP service
 * (`node dist/main.js`, API and worker in one process, as `npm start` runs it), on each database
 * of TM_BENCH_DATABASES. The header of bench/tm.bench.ts describes what it measures.
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  ADMIN_PASSWORD,
  call,
  createPostgresDatabase,
  ensureBuilt,
  expectStatus,
  listFromEnv,
  numberFromEnv,
  onCleanUp,
  sleep,
  startOpenTms,
  startOpenTmsWorker,
} from './api.bench.js';
import type { DatabaseKind, Server } from './api.bench.js';
import {
  catalogPairs,
  catalogsMissing,
  LARGE_LANGUAGES,
  latencyOf,
  LOCALE_DIR,
  mark,
  measurePeer,
  ms,
  percentile,
  printPeerTable,
  prng,
  dataSettings,
  smallMemory,
  variantOf,
} from './tm-data.js';
import type { Latency, PeerFigures, SmallMemory } from './tm-data.js';

const settings = {
  databases: listFromEnv('TM_BENCH_DATABASES', ['sqlite', 'postgres']),
  importMb: numberFromEnv('TM_BENCH_IMPORT_MB', 1024),
  searchedImportMb: numberFromEnv('TM_BENCH_SEARCHED_IMPORT_MB', 100),
};

/** A lookup "with a match": a result scoring at least this (the wire's scores are 0..1.01). */
const MATCH_SCORE = 0.75;
const WARM_UP = 10;
/** Pause between two lookups of the loop that runs while the large import does. */
const LOOP_PAUSE_MS = 10;
const RSS_SAMPLE_MS = 200;
/** Sources of the generated file that the lookups of TM B ask for. */
const B_QUERIES = 300;

const TARGETS = {
  importUnitsPerSecond: { sqlite: 50_000, postgres: 25_000 } as Record<DatabaseKind, number>,
  peakRssMb: 300,
  lookupP99: 20,
};

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const seconds = (millis: number) => (millis / 1000).toFixed(1);
const perSecond = (count: number, millis: number) => Math.round(count / (millis / 1000));

// ---------------------------------------------------------------------------------------------
// TMX
// ---------------------------------------------------------------------------------------------

const TMX_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="opentms-tm-bench" creationtoolversion="1" segtype="sentence" o-tmf="opentms" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n';
const TMX_TAIL = '  </body>\n</tmx>\n';

/** Control characters XML 1.0 does not allow (and C1 controls), U+FFFE/U+FFFF and lone surrogates. */
const NOT_IN_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const cleanText = (text: string) => text.replace(NOT_IN_XML, '').trim();
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One `<tu>`: `source` in en, `target` in `tmxLang`; both already cleaned. */
function tuOf(source: string, target: string, tmxLang: string): string {
  return `    <tu><tuv xml:lang="en"><seg>${escapeXml(source)}</seg></tuv><tuv xml:lang="${tmxLang}"><seg>${escapeXml(target)}</seg></tuv></tu>\n`;
}

/** A catalog's language (`pt_BR`) as TMX writes it (`pt-BR`) and as the API names it (`pt_br`). */
const tmxLangOf = (catalogLang: string) => catalogLang.replace(/_/g, '-');
const apiLangOf = (catalogLang: string) => catalogLang.toLowerCase();

interface LargeFile {
  path: string;
  bytes: number;
  units: number;
  /** Units from the catalogs as they are; the rest are variants of their sources. */
  real: number;
  /** Catalog languages (`pt_BR`) of the targets. */
  languages: string[];
  generationMs: number;
  /** Sources of written units and their target language (a seeded sample), for TM B's lookups. */
  samples: Array<{ source: string; lang: string }>;
}

/**
 * Writes a TMX of at least `targetBytes` into a temporary file, as a stream: en sources and
 * targets in the LARGE_LANGUAGES present, the catalogs' distinct pairs first (the languages taken
 * in turn), then variants of their sources keeping the target, until the size is reached.
 */
async function generateLargeTmx(targetBytes: number): Promise<LargeFile | string> {
  const began = performance.now();
  const pools: Array<{ lang: string; tmxLang: string; pairs: Array<[string, string]> }> = [];
  for (const lang of LARGE_LANGUAGES) {
    const pairs = catalogPairs(lang);
    if (pairs === null) continue;
    const seen = new Set<string>();
    const distinct: Array<[string, string]> = [];
    for (const [rawSource, rawTarget] of pairs) {
      const source = cleanText(rawSource);
      const target = cleanText(rawTarget);
      if (source === '' || target === '') continue;
      const key = `${source}\t${target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      distinct.push([source, target]);
    }
    if (distinct.length > 0) pools.push({ lang, tmxLang: tmxLangOf(lang), pairs: distinct });
  }
  if (pools.length === 0) return `no catalogs of ${LARGE_LANGUAGES.join(', ')} under ${LOCALE_DIR}`;

  const folder = mkdtempSync(join(tmpdir(), 'opentms-tm-service-'));
  onCleanUp(`temporary folder ${folder}`, () => rmSync(folder, { recursive: true, force: true }));
  const path = join(folder, 'large.tmx');
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);

  let bytes = 0;
  let units = 0;
  let chunk = '';
  const random = prng(dataSettings.seed + 2);
  const samples: LargeFile['samples'] = [];
  const flush = async () => {
    if (chunk === '') return;
    const data = Buffer.from(chunk, 'utf8');
    chunk = '';
    bytes += data.length;
    if (!out.write(data)) await Promise.race([once(out, 'drain'), failed]);
  };
  // The size counted so far plus the chunk not yet encoded (its characters: a lower bound).
  const full = () => bytes + chunk.length >= targetBytes;
  const add = async (source: string, target: string, lang: string, tmxLang: string) => {
    chunk += tuOf(source, target, tmxLang);
    units++;
    // Reservoir sampling: B_QUERIES sources spread over the whole file.
    if (samples.length < B_QUERIES) samples.push({ source, lang });
    else {
      const at = Math.floor(random() * units);
      if (at < B_QUERIES) samples[at] = { source, lang };
    }
    if (chunk.length >= 1 << 20) await flush();
  };

  chunk += TMX_HEAD;
  const longest = Math.max(...pools.map((pool) => pool.pairs.length));
  outer: for (let i = 0; i < longest; i++) {
    for (const pool of pools) {
      const pair = pool.pairs[i];
      if (pair === undefined) continue;
      if (full()) break outer;
      await add(pair[0], pair[1], pool.lang, pool.tmxLang);
    }
  }
  const real = units;
  while (!full()) {
    const pool = pools[Math.floor(random() * pools.length)]!;
    const [source, target] = pool.pairs[Math.floor(random() * pool.pairs.length)]!;
    let variant = variantOf(source, random);
    if (random() < 0.3) variant = variantOf(variant, random);
    await add(cleanText(variant) || source, target, pool.lang, pool.tmxLang);
  }
  chunk += TMX_TAIL;
  await flush();
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return {
    path,
    bytes: statSync(path).size,
    units,
    real,
    languages: pools.map((pool) => pool.lang),
    generationMs: performance.now() - began,
    samples,
  };
}

/** The small memory as a TMX 1.4 file (56 k units: a few MB, built in memory). */
function smallTmx(small: SmallMemory): Buffer {
  const parts = [TMX_HEAD];
  for (const [source, target] of small.memory) {
    const cleanSource = cleanText(source);
    const cleanTarget = cleanText(target);
    if (cleanSource !== '' && cleanTarget !== '') parts.push(tuOf(cleanSource, cleanTarget, 'de'));
  }
  parts.push(TMX_TAIL);
  return Buffer.from(parts.join(''), 'utf8');
}

// ---------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------

interface AsyncOutcome {
  errorCode: string | null;
  errorDesc: string | null;
  acceptedSegmentsCount?: number | null;
  warnings?: Array<{ code: string; args?: Record<string, unknown> }>;
}

async function login(server: Server): Promise<string> {
  const answer = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v3/auth/login', { json: { userName: 'admin', password: ADMIN_PASSWORD } }),
    200,
    'login',
  );
  return String(answer.token);
}

async function createTm(server: Server, token: string, name: string, targetLangs: string[]): Promise<string> {
  const answer = expectStatus(
    await call(server.baseUrl, 'POST', '/api2/v1/transMemories', { token, json: { name, sourceLang: 'en', targetLangs } }),
    201,
    `create TM ${name}`,
  );
  return String(answer.uid);
}

const importHeaders = (token: string, filename: string) => ({
  authorization: `ApiToken ${token}`,
  'content-type': 'application/octet-stream',
  'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
});

/** The async request's id from an import's 202. */
function asyncIdOf(status: number, body: unknown, what: string): string {
  const answer = expectStatus({ status, body }, 202, what) as { asyncRequest?: { id?: string } };
  const id = answer.asyncRequest?.id;
  if (!id) throw new Error(`${what}: no asyncRequest.id in ${JSON.stringify(body).slice(0, 300)}`);
  return id;
}

/** Polls the async request until its asyncResponse is there. */
async function finished(server: Server, token: string, id: string, pollMs: number, timeoutMs: number): Promise<AsyncOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const request = expectStatus(await call(server.baseUrl, 'GET', `/api2/v1/async/${id}`, { token }), 200, `async request ${id}`);
    const outcome = request.asyncResponse as AsyncOutcome | null;
    if (outcome) return outcome;
    if (Date.now() > deadline) throw new Error(`async request ${id} did not finish within ${timeoutMs / 1000} s`);
    await sleep(pollMs);
  }
}

interface Lookup {
  ms: number;
  /** The best result's score (0..1.01), -1 without results; NaN for an error answer. */
  best: number;
  status: number;
}

async function search(server: Server, token: string, tmUid: string, query: string, targetLang: string): Promise<Lookup> {
  const began = performance.now();
  const response = await fetch(`${server.baseUrl}/api2/v1/transMemories/${tmUid}/search`, {
    method: 'POST',
    headers: { authorization: `ApiToken ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, sourceLang: 'en', targetLangs: [targetLang] }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const elapsed = performance.now() - began;
  if (response.status !== 200) return { ms: elapsed, best: NaN, status: response.status };
  const { searchResults } = JSON.parse(text) as { searchResults: Array<{ score: number }> };
  return { ms: elapsed, best: searchResults.reduce((best, result) => Math.max(best, result.score), -1), status: 200 };
}

async function searchOrFail(server: Server, token: string, tmUid: string, query: string, targetLang: string): Promise<Lookup> {
  const lookup = await search(server, token, tmUid, query, targetLang);
  if (lookup.status !== 200) throw new Error(`search of TM ${tmUid} answered ${lookup.status} for ${JSON.stringify(query).slice(0, 100)}`);
  return lookup;
}

// ---------------------------------------------------------------------------------------------
// /proc: the server's resident memory
// ---------------------------------------------------------------------------------------------

/** A `kB` field of /proc/<pid>/status in bytes, or null (no /proc, or the process is gone). */
function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the peak RSS (VmHWM) of the process; false when the kernel does not let us. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

/** A lookup that did not answer 200: its time and what went wrong. */
interface LookupError {
  ms: number;
  what: string;
}

interface LoopFigures {
  count: number;
  errors: LookupError[];
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function loopFiguresOf(samples: number[], errors: LookupError[]): LoopFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: samples.length,
    errors,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

interface SmallFigures {
  units: number;
  importMs: number;
  unitsPerSecond: number;
  firstSearchMs: number;
  latency: Latency;
  withMatch: number;
}

interface LargeFigures {
  bytes: number;
  uploadMs: number;
  importMs: number;
  errorCode: string | null;
  errorDesc: string | null;
  units: number | null;
  unitsPerSecond: number | null;
  mbPerSecond: number;
  segmentsCount: number;
  peakRssMb: number | null;
  sampledRssMb: number | null;
  rssSamples: number;
  lookupsA: LoopFigures;
  lookupsB: LoopFigures;
  /** How long after the import's end the lookup then in flight answered. */
  loopTailMs: number;
}

async function importSmall(server: Server, token: string, small: SmallMemory): Promise<{ tmUid: string; figures: SmallFigures }> {
  const tmUid = await createTm(server, token, 'TM A (en-de catalogs)', ['de']);
  const file = smallTmx(small);
  const began = performance.now();
  const accepted = await call(server.baseUrl, 'POST', `/api2/v2/transMemories/${tmUid}/import`, {
    body: file,
    headers: importHeaders(token, 'memory.tmx'),
  });
  const id = asyncIdOf(accepted.status, accepted.body, 'import of TM A');
  const outcome = await finished(server, token, id, 20, 600_000);
  const importMs = performance.now() - began;
  if (outcome.errorCode !== null) throw new Error(`the import of TM A failed: ${outcome.errorCode} ${outcome.errorDesc ?? ''}`);
  const units = outcome.acceptedSegmentsCount ?? 0;
  console.log(
    `  TM A import         ${units} units (${mib(file.length)} MiB TMX) in ${seconds(importMs)} s, upload included: ${perSecond(units, importMs)} units/s`,
  );

  const first = await searchOrFail(server, token, tmUid, small.memory[0]![0], 'de');
  console.log(`  first search        ${ms(first.ms)} ms (loads TM A's index)`);
  for (const [source] of small.memory.slice(1, 1 + WARM_UP)) await searchOrFail(server, token, tmUid, source, 'de');
  const samples: number[] = [];
  let withMatch = 0;
  for (const query of small.queries) {
    const lookup = await searchOrFail(server, token, tmUid, query, 'de');
    samples.push(lookup.ms);
    if (lookup.best >= MATCH_SCORE) withMatch++;
  }
  const latency = latencyOf(samples);
  console.log(
    `  lookups over HTTP   p50 ${ms(latency.p50)} ms   p95 ${ms(latency.p95)} ms   max ${ms(latency.max)} ms   (${small.queries.length} held-out queries, one at a time, after ${WARM_UP} warm-up searches)`,
  );
  console.log(`  with a match ≥ ${MATCH_SCORE}  ${withMatch} of ${small.queries.length} queries`);
  return {
    tmUid,
    figures: { units, importMs, unitsPerSecond: perSecond(units, importMs), firstSearchMs: first.ms, latency, withMatch },
  };
}

async function importLarge(
  database: DatabaseKind,
  server: Server,
  pid: number,
  token: string,
  tmA: string,
  small: SmallMemory,
  large: LargeFile,
  searchImported: boolean,
): Promise<LargeFigures> {
  const tmB = await createTm(
    server,
    token,
    searchImported ? 'TM C (generated, searched)' : 'TM B (generated)',
    large.languages.map(apiLangOf),
  );
  const rssBefore = statusField(pid, 'VmRSS');
  console.log(`  importer RSS before ${rssBefore === null ? '-' : Math.round(rssBefore / 1e5) / 10} MB (pid ${pid})`);
  const reset = resetPeakRss(pid);
  if (!reset) console.log(`  (cannot write /proc/${pid}/clear_refs: the peak RSS below is the process's since its start)`);
  let sampledRss = 0;
  let rssSamples = 0;
  const sampler = setInterval(() => {
    const rss = statusField(pid, 'VmRSS');
    if (rss === null) return;
    rssSamples++;
    sampledRss = Math.max(sampledRss, rss);
  }, RSS_SAMPLE_MS);
  onCleanUp('the RSS sampler', () => clearInterval(sampler));

  // The lookups run from the upload's start until the import has finished.
  let importing = true;
  const latencies = { A: [] as number[], B: [] as number[] };
  const errors = { A: [] as LookupError[], B: [] as LookupError[] };
  const loop = (async () => {
    let turn = 0;
    while (importing) {
      const onA = !searchImported || turn % 2 === 0;
      const at = Math.floor(turn / 2);
      turn++;
      const began = performance.now();
      try {
        const lookup = onA
          ? await search(server, token, tmA, small.queries[at % small.queries.length]!, 'de')
          : await (() => {
              const sample = large.samples[at % large.samples.length]!;
              return search(server, token, tmB, sample.source, apiLangOf(sample.lang));
            })();
        // A lookup started before the import's end counts, even when it answers after it.
        if (lookup.status === 200) (onA ? latencies.A : latencies.B).push(lookup.ms);
        else errors[onA ? 'A' : 'B'].push({ ms: lookup.ms, what: `HTTP ${lookup.status}` });
      } catch (error) {
        const what = error instanceof Error && error.name === 'TimeoutError' ? 'no answer (timeout)' : String(error);
        errors[onA ? 'A' : 'B'].push({ ms: performance.now() - began, what });
      }
      await sleep(LOOP_PAUSE_MS);
    }
  })();

  // Generous limits: 10 minutes plus 2 s a MB, for the upload and for the import.
  const timeoutMs = Math.round(600_000 + (large.bytes / 1e6) * 2000);
  let uploadMs = 0;
  let importMs = 0;
  let outcome: AsyncOutcome;
  const uploadBegan = performance.now();
  try {
    const response = await fetch(`${server.baseUrl}/api2/v2/transMemories/${tmB}/import`, {
      method: 'POST',
      headers: importHeaders(token, 'large.tmx'),
      body: Readable.toWeb(createReadStream(large.path)) as ReadableStream<Uint8Array>,
      duplex: 'half',
      signal: AbortSignal.timeout(timeoutMs),
    } as RequestInit);
    const text = await response.text();
    const accepted = performance.now();
    uploadMs = accepted - uploadBegan;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the error message shows the text
    }
    const id = asyncIdOf(response.status, body, 'import of TM B');
    console.log(`  upload              ${seconds(uploadMs)} s (${(large.bytes / 1e6 / (uploadMs / 1000)).toFixed(1)} MB/s, streamed)`);
    outcome = await finished(server, token, id, 100, timeoutMs);
    importMs = performance.now() - accepted;
  } finally {
    importing = false;
    clearInterval(sampler);
  }
  const peakRss = statusField(pid, 'VmHWM');
  const importEnded = performance.now();
  await loop;
  const loopTailMs = performance.now() - importEnded;
  const units = outcome.errorCode === null ? (outcome.acceptedSegmentsCount ?? null) : null;
  const metadata = expectStatus(
    await call(server.baseUrl, 'GET', `/api2/v1/transMemories/${tmB}/metadata`, { token }),
    200,
    'TM B metadata',
  );
  const segmentsCount = Number(metadata.segmentsCount);

  const figures: LargeFigures = {
    bytes: large.bytes,
    uploadMs,
    importMs,
    errorCode: outcome.errorCode,
    errorDesc: outcome.errorDesc,
    units,
    unitsPerSecond: units === null ? null : perSecond(units, importMs),
    mbPerSecond: Math.round((large.bytes / 1e6 / (importMs / 1000)) * 10) / 10,
    segmentsCount,
    peakRssMb: peakRss === null ? null : Math.round(peakRss / 1e5) / 10,
    sampledRssMb: rssSamples === 0 ? null : Math.round(sampledRss / 1e5) / 10,
    rssSamples,
    lookupsA: loopFiguresOf(latencies.A, errors.A),
    lookupsB: loopFiguresOf(latencies.B, errors.B),
    loopTailMs,
  };

  if (outcome.errorCode !== null) console.log(`  import FAILED       ${outcome.errorCode}: ${outcome.errorDesc ?? ''}`);
  const unitsTarget = TARGETS.importUnitsPerSecond[database];
  console.log(
    `  import              ${seconds(importMs)} s from the 202 to the end   ${figures.unitsPerSecond ?? '-'} units/s (${units ?? '-'} units read)   target ≥ ${unitsTarget}/s   ${mark((figures.unitsPerSecond ?? 0) >= unitsTarget)}`,
  );
  console.log(`  throughput          ${figures.mbPerSecond} MB/s of TMX`);
  console.log(`  TM B afterwards     ${segmentsCount} units (metadata segmentsCount)`);
  console.log(
    `  importer peak RSS   ${figures.peakRssMb ?? '-'} MB (VmHWM${reset ? ', reset before the upload' : ''})   target < ${TARGETS.peakRssMb} MB   ${mark(figures.peakRssMb !== null && figures.peakRssMb < TARGETS.peakRssMb)}`,
  );
  console.log(`                      ${figures.sampledRssMb ?? '-'} MB (highest VmRSS of ${rssSamples} samples every ${RSS_SAMPLE_MS} ms)`);
  console.log(
    `  lookups during the upload and import (one at a time, ${LOOP_PAUSE_MS} ms apart${searchImported ? ', TM A and the TM being imported in turn' : ', TM A only'}):`,
  );
  for (const [name, loop] of [['TM A', figures.lookupsA], ...(searchImported ? ([['TM C', figures.lookupsB]] as const) : [])] as const) {
    console.log(
      `    ${name}  ${String(loop.count).padStart(5)} lookups   p50 ${ms(loop.p50)}   p95 ${ms(loop.p95)}   p99 ${ms(loop.p99)}   max ${ms(loop.max)} ms${loop.errors.length > 0 ? `   ${loop.errors.length} errors` : ''}   p99 target ≤ ${TARGETS.lookupP99} ms   ${mark(loop.count > 0 && loop.errors.length === 0 && loop.p99 <= TARGETS.lookupP99)}`,
    );
    for (const error of loop.errors.slice(0, 5)) console.log(`          error: ${error.what} after ${seconds(error.ms)} s`);
    if (loop.errors.length > 5) console.log(`          (${loop.errors.length - 5} more errors)`);
  }
  if (loopTailMs > 1000)
    console.log(`  (the lookup in flight when the import ended answered ${seconds(loopTailMs)} s later; its time is in the figures above)`);
  return figures;
}

async function benchDatabase(
  database: DatabaseKind,
  databaseUrl: string | null,
  small: SmallMemory,
  large: LargeFile,
  searched: LargeFile | null,
): Promise<Record<string, unknown>> {
  const uploadLimit = { OPENTMS_UPLOAD_LIMIT_BYTES: String(Math.max(8 * 2 ** 30, large.bytes * 2)) };
  // SQLite: one process with both roles (its only supported layout). PostgreSQL: an API process
  // and a worker process, as the README scales it, so that the worker's RSS is the import's.
  let server: Server;
  let importerPid: number;
  if (database === 'sqlite') {
    server = await startOpenTms(database, databaseUrl, uploadLimit);
    importerPid = server.child.pid!;
    console.log(`\n${database}: the service as \`node dist/main.js\` (API and worker in one process, pid ${importerPid})`);
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'opentms-bench-postgres-'));
    server = await startOpenTms(database, databaseUrl, { ...uploadLimit, OPENTMS_DATA_DIR: dataDir }, ['--role=api']);
    const worker = startOpenTmsWorker(database, databaseUrl, dataDir);
    importerPid = worker.pid!;
    console.log(
      `\n${database}: the service as \`node dist/main.js --role=api\` (pid ${server.child.pid}) and \`--role=worker\` (pid ${importerPid}), as the README scales it`,
    );
  }
  const rssOf = (pid: number) => {
    const rss = statusField(pid, 'VmRSS');
    return rss === null ? '-' : `${Math.round(rss / 1e5) / 10} MB`;
  };
  // The worker has no HTTP to wait for: give it the API's start time to load and migrate.
  if (importerPid !== server.child.pid) await sleep(3000);
  console.log(
    `  RSS at rest         ${rssOf(server.child.pid!)}${importerPid === server.child.pid ? '' : ` (API), ${rssOf(importerPid)} (worker)`}`,
  );
  try {
    const token = await login(server);
    const { tmUid: tmA, figures: smallFigures } = await importSmall(server, token, small);

    const peer: PeerFigures | string = await measurePeer(small);
    if (typeof peer === 'string') console.log(`\n  peer: skipped, ${peer}`);
    else {
      console.log(
        `\n  ${database}: ours over HTTP beside translate-toolkit's tmserver over HTTP, same ${small.memory.length} units and queries`,
      );
      printPeerTable(
        small,
        peer,
        { latency: smallFigures.latency, withMatch: smallFigures.withMatch },
        'ours',
        `(both over loopback HTTP, one request at a time; ours: score ≥ ${MATCH_SCORE}, at most 20 results; tmserver: quality ≥ 75, at most 5)`,
      );
    }

    console.log(
      `\n  ${database}: import of ${mib(large.bytes)} MiB (${large.units} units, en → ${large.languages.length} languages) while TM A and TM B are searched`,
    );
    const largeFigures = await importLarge(database, server, importerPid, token, tmA, small, large, false);
    let searchedFigures: LargeFigures | null = null;
    if (searched !== null) {
      console.log(
        `\n  ${database}: import of ${mib(searched.bytes)} MiB (${searched.units} units) into TM C while TM A and TM C are searched (TM C's index catches up before each of its lookups)`,
      );
      searchedFigures = await importLarge(database, server, importerPid, token, tmA, small, searched, true);
    }
    return {
      small: smallFigures,
      peer: typeof peer === 'string' ? { skipped: peer } : peer,
      large: largeFigures,
      searched: searchedFigures,
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The section
// ---------------------------------------------------------------------------------------------

export async function serviceSection(): Promise<Record<string, unknown> | null> {
  for (const database of settings.databases) {
    if (database !== 'sqlite' && database !== 'postgres')
      throw new Error(`TM_BENCH_DATABASES: unknown database "${database}" (use sqlite, postgres)`);
  }
  const missing = catalogsMissing();
  if (missing !== null) {
    console.log(`service: skipped, ${missing}`);
    return null;
  }
  const small = smallMemory();
  if (small === null) {
    console.log(`service: skipped, no de catalogs under ${LOCALE_DIR}`);
    return null;
  }
  await ensureBuilt();

  const large = await generateLargeTmx(settings.importMb * 1e6);
  if (typeof large === 'string') {
    console.log(`service: skipped, ${large}`);
    return null;
  }
  console.log(
    `generated ${large.path}: ${mib(large.bytes)} MiB (${(large.bytes / 1e6).toFixed(1)} MB), ${large.units} units (${large.real} from the catalogs, the rest variants), ` +
      `en → ${large.languages.join(', ')}, in ${seconds(large.generationMs)} s`,
  );
  let searched: LargeFile | null = null;
  if (settings.searchedImportMb > 0) {
    const file = await generateLargeTmx(settings.searchedImportMb * 1e6);
    if (typeof file === 'string') console.log(`service: the searched import is skipped, ${file}`);
    else {
      searched = file;
      console.log(`generated ${file.path}: ${mib(file.bytes)} MiB, ${file.units} units, for the import searched while it runs`);
    }
  }
  const result: Record<string, unknown> = {
    importMb: settings.importMb,
    file: { bytes: large.bytes, units: large.units, real: large.real, languages: large.languages, generationMs: large.generationMs },
  };
  for (const database of settings.databases as DatabaseKind[]) {
    const databaseUrl = database === 'postgres' ? await createPostgresDatabase() : null;
    if (database === 'postgres' && databaseUrl === null) {
      result[database] = { skipped: 'PostgreSQL is not reachable' };
      continue;
    }
    result[database] = await benchDatabase(database, databaseUrl, small, large, searched);
  }
  return result;
}

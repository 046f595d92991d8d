/**
 * The analysis engine alone, without the service (docs/analysis.md "Performance"): the same data
 * as bench/analysis.bench.ts (bench/analysis-data.ts: a 1 M-unit en→de TM of catalog text and
 * variants, 300 k segments of catalog text), held in memory:
 *
 * 1. the TM's `CandidateIndex` built from the TM's sources (build time, approximate bytes);
 * 2. the band of every distinct segment text as the analysis asks it (`bandMatch` with
 *    `bandStages(0)`), timed by the band found (texts without a close match cost the most);
 * 3. the analysis's own work over all the segments in order (`PreTranslationAnalyser`: counting,
 *    repetitions, internal fuzzies), given the TM scores of step 2;
 * 4. recall: for a sample of the distinct texts below 100 (a 100 is found by an exact lookup and
 *    cannot be missed), the band of the best match a full scan finds (`scan`, minimum 50) against
 *    the band `bandMatch` found; every disagreement is counted.
 *
 * Prints figures; asserts nothing; the last line is the figures as JSON. Run:
 * `npx tsx bench/band-search.bench.ts`. Environment (optional):
 *   BAND_BENCH_TM_UNITS      distinct sources of the TM (default 1000000)
 *   BAND_BENCH_SEGMENTS      segments (default 300000)
 *   BAND_BENCH_RECALL        distinct texts whose band is checked against the scan (default 200)
 *   BAND_BENCH_SEED          seed (default 15, as bench/analysis.bench.ts)
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { PreTranslationAnalyser } from '../src/domain/analysis/analyser.js';
import { bandOf } from '../src/domain/analysis/bands.js';
import { resolveSettings } from '../src/domain/analysis/settings.js';
import { segmentText } from '../src/domain/segmentation/segmenter.js';
import { bandMatch, bandStages, CandidateIndex, foldWhitespace } from '../src/domain/translation-memory/index.js';
import { cleanUp, numberFromEnv } from './api.bench.js';
import { generateAnalysisData } from './analysis-data.js';
import { mb, prng, shuffled } from './tm-data.js';

const settings = {
  tmUnits: numberFromEnv('BAND_BENCH_TM_UNITS', 1_000_000),
  segments: numberFromEnv('BAND_BENCH_SEGMENTS', 300_000),
  recall: numberFromEnv('BAND_BENCH_RECALL', 200),
  seed: numberFromEnv('BAND_BENCH_SEED', 15),
  fileSegments: 25_000,
  heldOut: 0.3,
};
const LANGS = ['de'];

const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The TM's sources, read back from the generated TMX (the English `<seg>` of each unit). */
function tmSources(path: string): string[] {
  const sources: string[] = [];
  const pattern = /<tuv xml:lang="en"><seg>([^<]*)<\/seg>/g;
  const text = readFileSync(path, 'utf8');
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) sources.push(unescapeXml(match[1]!));
  return sources;
}

/** The segments of the job files, in order, split as the import splits them. */
function segmentsOf(paths: readonly string[]): string[] {
  const segments: string[] = [];
  for (const path of paths) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      for (const piece of segmentText(line, 'en')) {
        const text = piece.text.replace(/\s+/g, ' ').trim();
        if (text !== '') segments.push(text);
      }
    }
  }
  return segments;
}

async function main(): Promise<void> {
  console.log(
    `band-search bench: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const data = await generateAnalysisData({ ...settings });
  if (typeof data === 'string') {
    console.log(`skipped: ${data}`);
    return;
  }
  const sources = tmSources(data.tmx.path);
  const segments = segmentsOf(data.files.map((f) => f.path));
  console.log(`data: TM ${sources.length.toLocaleString('en')} sources; ${segments.length.toLocaleString('en')} segments`);

  // 1. The index.
  let began = performance.now();
  const index = new CandidateIndex();
  sources.forEach((text, i) => index.put(String(i), text, LANGS));
  const buildMs = performance.now() - began;
  const heapAfterBuild = process.memoryUsage();
  console.log(
    `index: built in ${(buildMs / 1000).toFixed(1)} s; ~${mb(index.approximateBytes())} MB by its own count; heap used ${mb(heapAfterBuild.heapUsed)} MB, RSS ${mb(heapAfterBuild.rss)} MB`,
  );

  // 2. The band of each distinct text, as the analysis asks.
  const distinct: string[] = [];
  const seen = new Set<string>();
  for (const segment of segments) {
    const key = foldWhitespace(segment);
    if (!seen.has(key)) {
      seen.add(key);
      distinct.push(segment);
    }
  }
  const stages = bandStages(0);
  const byBand = new Map<string, { texts: number; ms: number }>();
  const scoreOf = new Map<string, number>();
  began = performance.now();
  for (const text of distinct) {
    const start = performance.now();
    const score = bandMatch(index, text, stages, LANGS)?.score ?? 0;
    const band = bandOf(score);
    const figures = byBand.get(band) ?? { texts: 0, ms: 0 };
    figures.texts++;
    figures.ms += performance.now() - start;
    byBand.set(band, figures);
    scoreOf.set(foldWhitespace(text), score);
  }
  const lookupMs = performance.now() - began;
  console.log(
    `\nTM bands of ${distinct.length.toLocaleString('en')} distinct texts: ${(lookupMs / 1000).toFixed(1)} s, ${((lookupMs * 1000) / distinct.length).toFixed(0)} µs a text`,
  );
  console.log('  band        texts    total s   µs/text');
  for (const band of ['match100', 'match95', 'match85', 'match75', 'match50', 'match0']) {
    const figures = byBand.get(band) ?? { texts: 0, ms: 0 };
    console.log(
      `  ${band.padEnd(9)} ${String(figures.texts).padStart(7)} ${(figures.ms / 1000).toFixed(2).padStart(10)} ${((figures.ms * 1000) / Math.max(1, figures.texts)).toFixed(0).padStart(9)}`,
    );
  }

  // 3. The analysis's own work over every segment.
  const analysisSettings = resolveSettings({ separateFuzzyRepetitions: true, includeNonTranslatables: true });
  const analyser = new PreTranslationAnalyser(analysisSettings, { countLanguage: 'en' });
  began = performance.now();
  for (const segment of segments) {
    analyser.add({
      job: 0,
      source: segment,
      counted: segment,
      confirmed: false,
      locked: false,
      tmScore: scoreOf.get(foldWhitespace(segment)) ?? 0,
    });
  }
  const analyserMs = performance.now() - began;
  console.log(
    `\nanalyser (counting, repetitions, internal fuzzies) over ${segments.length.toLocaleString('en')} segments: ${(analyserMs / 1000).toFixed(1)} s; categories ${JSON.stringify(Object.fromEntries(Object.entries(analyser.jobs[0] ?? {}).map(([k, v]) => [k, (v as { segments: number }).segments])))}`,
  );
  const total = lookupMs + analyserMs;
  console.log(
    `engine total: ${(total / 1000).toFixed(1)} s → ${Math.round(segments.length / (total / 1000)).toLocaleString('en')} segments/s on one core; RSS ${mb(process.memoryUsage().rss)} MB`,
  );

  // 4. Recall against the full scan.
  const sample = shuffled(
    distinct.filter((t) => (scoreOf.get(foldWhitespace(t)) ?? 0) < 100),
    prng(settings.seed),
  ).slice(0, settings.recall);
  let agree = 0;
  const misses: string[] = [];
  began = performance.now();
  for (const text of sample) {
    const best = index.scan(text, { minScore: 50, limit: 1, langs: LANGS })[0]?.score ?? 0;
    const found = scoreOf.get(foldWhitespace(text)) ?? 0;
    if (bandOf(best) === bandOf(found)) agree++;
    else misses.push(`${bandOf(best)}→${bandOf(found)}`);
  }
  console.log(
    `\nrecall: ${agree}/${sample.length} sampled texts in the band the full scan gives (${((performance.now() - began) / 1000).toFixed(1)} s of scans)${misses.length ? `; scan→ours: ${misses.join(', ')}` : ''}`,
  );
  console.log(
    JSON.stringify({
      bench: 'band-search',
      settings,
      buildMs,
      indexBytes: index.approximateBytes(),
      lookupMs,
      analyserMs,
      bands: Object.fromEntries([...byBand].map(([band, figures]) => [band, figures.texts])),
      recall: { agree, sample: sample.length },
    }),
  );
}

try {
  await main();
} finally {
  await cleanUp();
}

/**
 * Terminology figures (issue 16, docs/terminology.md "Performance"). This first part measures term
 * recognition in text, the domain core alone (`TermMatcher`, src/domain/terminology), in one
 * process; the import figures (TBX into SQLite and PostgreSQL, peak RSS of a 500 MB TBX) come with
 * the term-base store.
 *
 * Data, built at bench time from the machine's gettext catalogs (`../shared/data/catalog-tmx.mjs`
 * through bench/tm-data.ts; never committed; skipped with a message without them):
 * - a real term base en→de: every distinct English source of one to four words (letters, digits,
 *   spaces and hyphens only) is a concept, its German translation the target term;
 * - a large base: that one plus synthetic terms of one to three words drawn from the catalogs'
 *   vocabulary, up to TERMS_BENCH_LARGE concepts;
 * - segments of about 500 characters: the catalogs' longer English sources joined in order.
 *
 * For each base: the matcher's build time, then `find` over TERMS_BENCH_TEXTS segments (p50, p95,
 * matches a segment), and the baseline the issue asks for: one regular expression per term
 * (`\b…\b`, case-insensitive) over the same segments, as many tools do it, on the first
 * TERMS_BENCH_BASELINE_TEXTS segments; the ratio of the two means. Prints figures and the targets
 * (`ok` / `MISSED`); asserts nothing; the last line is the figures as JSON.
 *
 * Run: `npx tsx bench/terms.bench.ts`. Environment (optional):
 *   TERMS_BENCH_LARGE           concepts of the large base (default 500000)
 *   TERMS_BENCH_TEXTS           segments timed (default 2000)
 *   TERMS_BENCH_BASELINE_TEXTS  segments the regular-expression baseline runs over (default 50)
 *   TERMS_BENCH_SEED            seed of the synthetic terms (default 16)
 */
import { availableParallelism, loadavg } from 'node:os';
import { TermMatcher } from '../src/domain/terminology/index.js';
import { numberFromEnv } from './api.bench.js';
import { shortCatalogEntries } from './term-data.js';
import { catalogPairs, catalogsMissing, latencyOf, mark, ms, prng } from './tm-data.js';

const settings = {
  large: numberFromEnv('TERMS_BENCH_LARGE', 500_000),
  texts: numberFromEnv('TERMS_BENCH_TEXTS', 2000),
  baselineTexts: numberFromEnv('TERMS_BENCH_BASELINE_TEXTS', 50),
  seed: numberFromEnv('TERMS_BENCH_SEED', 16),
};

const TARGETS = { p50: 0.2, p95: 1, largeP95: 2 };
const SEGMENT_LENGTH = 500;
const BASELINE_TERMS = 50_000;

interface BenchTerm {
  text: string;
  caseSensitive: boolean;
  exactMatch: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function termBaseOf(pairs: Array<[string, string]>): BenchTerm[] {
  return shortCatalogEntries(pairs).map(([text]) => ({ text, caseSensitive: false, exactMatch: false }));
}

function segmentsOf(pairs: Array<[string, string]>, count: number): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; segments.length < count; i = (i + 1) % pairs.length) {
    const source = pairs[i]![0].replace(/\s+/g, ' ').trim();
    if (source.length < 40) continue;
    current = current ? `${current} ${source}` : source;
    if (current.length >= SEGMENT_LENGTH) {
      segments.push(current.slice(0, SEGMENT_LENGTH));
      current = '';
    }
  }
  return segments;
}

function largeBase(real: BenchTerm[], pairs: Array<[string, string]>, size: number, seed: number): BenchTerm[] {
  const vocabulary = [...new Set(pairs.flatMap(([source]) => source.match(/\p{L}{3,}/gu) ?? []))];
  const random = prng(seed);
  const seen = new Set(real.map((t) => t.text.toLowerCase()));
  const terms = [...real];
  while (terms.length < size) {
    const words = 1 + Math.floor(random() * 3);
    const text = Array.from({ length: words }, () => vocabulary[Math.floor(random() * vocabulary.length)]!).join(' ');
    if (seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    terms.push({ text, caseSensitive: false, exactMatch: false });
  }
  return terms;
}

function measure(name: string, terms: BenchTerm[], segments: string[]) {
  let began = performance.now();
  const matcher = new TermMatcher(terms, 'en');
  const buildMs = performance.now() - began;
  // One pass to warm up (JIT, the stem cache), then the timed pass.
  for (const segment of segments.slice(0, 200)) matcher.find(segment);
  const samples: number[] = [];
  let matches = 0;
  for (const segment of segments) {
    began = performance.now();
    matches += matcher.find(segment).length;
    samples.push(performance.now() - began);
  }
  const latency = latencyOf(samples);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;

  // The baseline: one regular expression per term, over fewer segments. V8 cannot hold the
  // compiled code of more than some 100 k expressions: past BASELINE_TERMS, the baseline runs the
  // first BASELINE_TERMS and is scaled to all of them (it is linear in the terms).
  const baselineTerms = terms.slice(0, BASELINE_TERMS);
  const scale = terms.length / baselineTerms.length;
  const patterns = baselineTerms.map((t) => new RegExp(`\\b${escapeRegExp(t.text)}\\b`, 'giu'));
  const baselineSegments = segments.slice(0, settings.baselineTexts);
  let baselineMatches = 0;
  began = performance.now();
  for (const segment of baselineSegments) {
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      while (pattern.exec(segment)) baselineMatches++;
    }
  }
  const baselineMean = ((performance.now() - began) / baselineSegments.length) * scale;
  baselineMatches *= scale;
  console.log(
    `${name}: ${terms.length.toLocaleString('en')} concepts; matcher built in ${(buildMs / 1000).toFixed(2)} s; ` +
      `find p50 ${ms(latency.p50)} ms, p95 ${ms(latency.p95)} ms, mean ${ms(mean)} ms, ${(matches / segments.length).toFixed(1)} matches a segment; ` +
      `baseline (a regular expression per term${scale > 1 ? `, the first ${BASELINE_TERMS.toLocaleString('en')} run and scaled ×${scale.toFixed(1)}` : ''}) ${ms(baselineMean)} ms a segment, ${(baselineMatches / baselineSegments.length).toFixed(1)} matches: ${(baselineMean / mean).toFixed(0)}× ours`,
  );
  return {
    concepts: terms.length,
    buildMs,
    p50: latency.p50,
    p95: latency.p95,
    mean,
    matchesPerSegment: matches / segments.length,
    baselineMean,
  };
}

function main(): void {
  console.log(
    `terms bench: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const missing = catalogsMissing();
  const pairs = missing ? null : catalogPairs('de');
  if (!pairs) {
    console.log(`skipped: ${missing ?? 'no de catalogs under /usr/share/locale'}`);
    return;
  }
  const real = termBaseOf(pairs);
  const segments = segmentsOf(pairs, settings.texts);
  console.log(
    `data: ${pairs.length.toLocaleString('en')} en→de catalog pairs; ${segments.length} segments of ${SEGMENT_LENGTH} characters`,
  );
  const catalog = measure('catalog term base', real, segments);
  const large = measure('large term base', largeBase(real, pairs, settings.large, settings.seed), segments);
  console.log('\ntargets (information, nothing is asserted):');
  console.log(
    `  ${catalog.concepts.toLocaleString('en')} concepts: p50 ${ms(catalog.p50)} ms (≤ ${TARGETS.p50}) ${mark(catalog.p50 <= TARGETS.p50)}, p95 ${ms(catalog.p95)} ms (≤ ${TARGETS.p95}) ${mark(catalog.p95 <= TARGETS.p95)}`,
  );
  console.log(
    `  ${large.concepts.toLocaleString('en')} concepts: p95 ${ms(large.p95)} ms (≤ ${TARGETS.largeP95}) ${mark(large.p95 <= TARGETS.largeP95)}`,
  );
  console.log(`  (the issue's 50 k-concept base: the catalogs give ${catalog.concepts.toLocaleString('en')} short entries)`);
  console.log(JSON.stringify({ bench: 'terms', settings, recognition: { catalog, large } }));
}

main();

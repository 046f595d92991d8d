/**
 * Throughput and recall of the QA engine (docs/quality-assurance.md), and translate-toolkit's
 * `pofilter` on the same pairs. Prints figures, asserts nothing. Run: `npx tsx bench/qa.bench.ts`.
 *
 * Data, built at bench time and never committed (skipped with a message without them): the en→de
 * pairs of the machine's gettext catalogs (`../shared/data/catalog-tmx.mjs --format json`, about
 * 56 k pairs). Errors are injected at known places, each in QA_BENCH_RATE (default 1 %) of the
 * pairs, at most one per pair, chosen with a seeded PRNG (QA_BENCH_SEED):
 * - number: a digit run of the target that the source has too gets another last digit;
 * - tag: one printf directive or markup tag (MARKUP_SOURCE) of the target is dropped (pairs whose source and
 *   target have the same ones);
 * - spelling: two neighbouring inner letters of a target word the German speller knows are swapped,
 *   where that makes a non-word (a swap that makes another real word is no misspelling).
 * The pairs are written as one PO file (msgctxt `u<index>`, `#, c-format` where the source has a
 * printf directive) and read back with OpenTMS's own PO filter, with `tagRegexp` MARKUP_SOURCE, so the
 * segments are what an import of that file gives: printf directives and markup as tags `{n}`.
 *
 * Figures:
 * - all checks but spelling (every QA_CHECK_NAMES check that can fire with limits set, the custom
 *   checks, inconsistency over the whole job): CPU time of one thread, segments/s per core, first
 *   (cold: JIT and caches) run and the median of QA_BENCH_ROUNDS (default 5) runs, each on fresh
 *   copies of the texts;
 * - the same with spelling (de, src/spelling loadSpeller), median of 3 runs;
 * - injected errors found per kind (found/injected), and warnings per type;
 * - `pofilter` with the tests that have a counterpart, on the same PO file: its CPU time (the
 *   child's user+system), the ratio of speeds, and per pair of checks the segments both flag, only
 *   we flag, only pofilter flags, with examples (QA_BENCH_EXAMPLES per side, default 2).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runQa } from '../src/domain/quality-assurance/engine.js';
import type { QaRunResult } from '../src/domain/quality-assurance/engine.js';
import type { QaSegment, QaSettings, QaSpeller } from '../src/domain/quality-assurance/types.js';
import { CUSTOM_CHECK_NAMES, QA_CHECK_NAMES } from '../src/domain/quality-assurance/types.js';
import { gettextPoFilter } from '../src/formats/gettext-po.js';
import { parseAll } from '../src/formats/testing.js';
import { loadSpeller } from '../src/spelling/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CATALOG_SCRIPT = resolve(ROOT, '../shared/data/catalog-tmx.mjs');
const LOCALE_DIR = '/usr/share/locale';
const RATE = Number(process.env.QA_BENCH_RATE ?? 0.01);
const SEED = Number(process.env.QA_BENCH_SEED ?? 19);
const ROUNDS = Number(process.env.QA_BENCH_ROUNDS ?? 5);
const EXAMPLES = Number(process.env.QA_BENCH_EXAMPLES ?? 2);

function skip(reason: string): never {
  console.log(`skipped: ${reason}`);
  process.exit(0);
}

/** mulberry32, so that the injected errors are the same every run. */
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

// ---------------------------------------------------------------------------------------------
// Data and injected errors

interface Pair {
  src: string;
  tgt: string;
}

const PRINTF = /%(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|[hlLqjzZt])?[diouxXeEfFgGaAcspn]/g;
/** Markup of the catalogs (Pango, HTML): tags; `<file>`-style meta-variables, which translators translate, are text. */
const MARKUP_SOURCE = '</?(?:a|b|i|u|s|tt|big|small|span|sub|sup|em|strong|code|kbd|p|br|ul|ol|li|link|markup)\\b[^<>\\n]*>';
const MARKUP = new RegExp(MARKUP_SOURCE, 'g');

function tokens(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[0]).sort();
}

type Kind = 'number' | 'tag' | 'spelling';
interface Injected {
  kind: Kind;
  index: number;
  /** For spelling: the misspelled word. */
  word?: string;
}

function injectNumber(pair: Pair): string | null {
  // Anything that may be a directive (`%1$s`, `%I64u`, `%<PRIu64>`): the PO filter makes those tags,
  // so a digit inside one (the 64 of `%I64u`) is no number.
  const spans: [number, number][] = [...pair.tgt.matchAll(/%[-+ 0#'\d.$*]*[a-zA-Z<]\w*>?/g)].map((m) => [m.index, m.index + m[0].length]);
  for (const match of pair.tgt.matchAll(/\d+/g)) {
    const at = match.index;
    if (spans.some(([a, b]) => at >= a && at < b)) continue;
    if (!new RegExp(`(^|\\D)${match[0]}(\\D|$)`).test(pair.src)) continue;
    const last = Number(match[0][match[0].length - 1]);
    const changed = match[0].slice(0, -1) + String((last + 1) % 10);
    if (pair.src.includes(changed)) continue;
    return pair.tgt.slice(0, at) + changed + pair.tgt.slice(at + match[0].length);
  }
  return null;
}

function injectTag(pair: Pair): string | null {
  for (const pattern of [PRINTF, MARKUP]) {
    const source = tokens(pair.src, pattern);
    if (source.length === 0 || source.join('\u0000') !== tokens(pair.tgt, pattern).join('\u0000')) continue;
    const match = [...pair.tgt.matchAll(pattern)][0]!;
    return pair.tgt.slice(0, match.index) + pair.tgt.slice(match.index + match[0].length);
  }
  return null;
}

function injectSpelling(pair: Pair, speller: QaSpeller): { target: string; word: string } | null {
  // Not a part of a hyphenated compound: Hunspell's German dictionary accepts any first part of
  // `X-Wort` when `Wort` is a word, so `Zetischranke` in `CPU-Zetischranke` passes (docs/spelling.md).
  // Not inside `<...>` either: the speller skips what looks like markup (`<Optionen>`).
  for (const match of pair.tgt.matchAll(/(?<![-%<\p{L}\p{N}_\\])\p{L}{6,}(?![->\p{L}\p{N}_])/gu)) {
    const word = match[0];
    if (speller.misspelled(word).length > 0) continue;
    for (let i = 2; i + 1 < word.length - 1; i++) {
      if (word[i] === word[i + 1]) continue;
      const wrong = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
      if (speller.misspelled(wrong).length === 0) continue;
      return { target: pair.tgt.slice(0, match.index) + wrong + pair.tgt.slice(match.index + word.length), word: wrong };
    }
  }
  return null;
}

function inject(pairs: Pair[], speller: QaSpeller | null): Injected[] {
  const random = prng(SEED);
  const order = pairs.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const wanted = Math.round(pairs.length * RATE);
  const kinds: Kind[] = speller ? ['number', 'tag', 'spelling'] : ['number', 'tag'];
  const counts: Record<Kind, number> = { number: 0, tag: 0, spelling: 0 };
  const injected: Injected[] = [];
  for (const kind of kinds) {
    for (const index of order) {
      if (counts[kind] >= wanted) break;
      const pair = pairs[index]!;
      if (injected.some((i) => i.index === index)) continue;
      if (kind === 'number') {
        const target = injectNumber(pair);
        if (target === null) continue;
        pair.tgt = target;
        injected.push({ kind, index });
      } else if (kind === 'tag') {
        const target = injectTag(pair);
        if (target === null) continue;
        pair.tgt = target;
        injected.push({ kind, index });
      } else {
        const result = injectSpelling(pair, speller!);
        if (result === null) continue;
        pair.tgt = result.target;
        injected.push({ kind, index, word: result.word });
      }
      counts[kind]++;
    }
  }
  return injected;
}

function poString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r')}"`;
}

function poFile(pairs: Pair[]): string {
  const parts = [
    'msgid ""\nmsgstr ""\n"Language: de\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
  ];
  pairs.forEach((pair, i) => {
    PRINTF.lastIndex = 0;
    const flag = PRINTF.test(pair.src) ? '#, c-format\n' : '';
    parts.push(`${flag}msgctxt "u${i}"\nmsgid ${poString(pair.src)}\nmsgstr ${poString(pair.tgt)}\n`);
  });
  return parts.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Runs

function settingsForBench(spelling: boolean): QaSettings {
  const values: Partial<Record<string, number | string>> = {
    targetLength: 2000,
    absoluteTargetLength: 400,
    targetLengthPercent: 400,
    relativeTargetLength: 300,
    forbiddenStringsEnabled: 'TODO, FIXME, XXX',
  };
  const off = new Set([
    'segmentNotConfirmed',
    'excludeLockedSegments',
    'strictJobStatus',
    'ignoreInAllWorkflowSteps',
    'moravia',
    'unresolvedComment',
  ]);
  const checks = Object.fromEntries(
    QA_CHECK_NAMES.map((name) => [
      name,
      { enabled: name === 'spellCheck' ? spelling : !off.has(name), ignorable: true, instant: false, value: values[name] ?? null },
    ]),
  ) as QaSettings['checks'];
  return {
    checks,
    regexpRules: [
      {
        id: 'r1',
        description: 'an ellipsis in the source stays one',
        sourceRegexp: '\\.\\.\\.|…',
        targetRegexp: '\\.\\.\\.|…',
        ignorable: true,
        instant: false,
      },
      {
        id: 'r2',
        description: 'no formal/informal mix',
        sourceRegexp: null,
        targetRegexp: '\\bSie\\b.*\\bdu\\b',
        ignorable: true,
        instant: false,
      },
    ],
    moraviaProfile: null,
    customChecks: Object.fromEntries(
      CUSTOM_CHECK_NAMES.map((name) => [name, { enabled: true, ignorable: true }]),
    ) as QaSettings['customChecks'],
    inconsistencyScope: 'JOB',
  };
}

function cpuSeconds(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function measure(label: string, segments: QaSegment[], settings: QaSettings, speller: QaSpeller | null, rounds: number): QaRunResult {
  let result: QaRunResult | undefined;
  const context = { sourceLang: 'en', targetLang: 'de', speller };
  // Each round reads fresh copies of the texts, as a run reads them from the database: no string
  // hash or flattening is left over from the round before.
  const fresh = (): QaSegment[] =>
    segments.map((s) => ({ ...s, source: Buffer.from(s.source).toString(), target: Buffer.from(s.target).toString() }));
  let input = fresh();
  const cold = cpuSeconds(() => (result = runQa(input, settings, context)));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    input = fresh();
    times.push(cpuSeconds(() => (result = runQa(input, settings, context))));
  }
  const steady = median(times);
  const rate = (seconds: number): string => Math.round(segments.length / seconds).toLocaleString('en');
  console.log(
    `${label.padEnd(28)} ${segments.length.toLocaleString('en')} segments: cold ${(cold * 1000).toFixed(0)} ms CPU (${rate(cold)} seg/s), ` +
      `median of ${rounds} ${(steady * 1000).toFixed(0)} ms CPU = ${rate(steady)} segments/s per core`,
  );
  return result!;
}

function flaggedBy(result: QaRunResult, segments: QaSegment[]): Map<string, Set<number>> {
  const byType = new Map<string, Set<number>>();
  segments.forEach((segment, index) => {
    for (const w of result.warnings.get(segment.id) ?? []) {
      const type = w.type === 'CustomQA' ? `CustomQA:${w.details.subType as string}` : w.type;
      let set = byType.get(type);
      if (!set) byType.set(type, (set = new Set()));
      set.add(index);
    }
  });
  return byType;
}

// ---------------------------------------------------------------------------------------------
// pofilter

const POFILTER_PAIRS: [string, string[], string[]][] = [
  ['numbers', ['numbers'], ['MissingNumbersV3', 'ExtraNumbersV3']],
  ['tags (printf, xmltags)', ['printf', 'xmltags'], ['JoinTags', 'Malformed', 'CustomQA:placeholders']],
  ['doublespacing', ['doublespacing'], ['MultipleSpacesV3']],
  ['endpunc', ['endpunc'], ['TrailingPunctuation']],
  ['start/endwhitespace', ['startwhitespace', 'endwhitespace'], ['LeadingAndTrailingSpaces']],
  ['startcaps', ['startcaps'], ['CustomQA:capitalization']],
  ['brackets', ['brackets'], ['CustomQA:unbalancedBrackets']],
  ['doublequoting', ['doublequoting'], ['CustomQA:unbalancedQuotes']],
  ['doublewords', ['doublewords'], ['RepeatedWord']],
  ['unchanged', ['unchanged'], ['TargetSourceIdentical']],
  ['urls, emails', ['urls', 'emails'], ['CustomQA:urlsAndEmails']],
  ['untranslated', ['untranslated'], ['EmptyTranslation']],
];

function runPofilter(poPath: string, outPath: string): { seconds: number; byTest: Map<string, Set<number>> } | string {
  const tests = POFILTER_PAIRS.flatMap(([, names]) => names).flatMap((t) => ['-t', t]);
  const command = `pofilter --progress=none --language=de ${tests.join(' ')} ${JSON.stringify(poPath)} ${JSON.stringify(outPath)}; times`;
  const run = spawnSync('bash', ['-c', command], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) return `pofilter failed: ${run.stderr.slice(0, 400)}`;
  // `times` prints the shell's own times, then its children's: "0m1.234s 0m0.056s".
  const lines = run.stdout.trim().split('\n');
  const children = lines[lines.length - 1]!.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!children) return `cannot read pofilter's CPU time from ${JSON.stringify(lines.slice(-2))}`;
  const seconds = Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]);
  const byTest = new Map<string, Set<number>>();
  for (const block of readFileSync(outPath, 'utf8').split(/\n\s*\n/)) {
    const context = block.match(/^msgctxt "u(\d+)"/m);
    if (!context) continue;
    for (const test of block.matchAll(/^# \(pofilter\) ([\w-]+):/gm)) {
      let set = byTest.get(test[1]!);
      if (!set) byTest.set(test[1]!, (set = new Set()));
      set.add(Number(context[1]));
    }
  }
  return { seconds, byTest };
}

function union(map: Map<string, Set<number>>, keys: string[]): Set<number> {
  const out = new Set<number>();
  for (const key of keys) for (const i of map.get(key) ?? []) out.add(i);
  return out;
}

function clip(text: string): string {
  const oneLine = JSON.stringify(text);
  return oneLine.length > 110 ? `${oneLine.slice(0, 107)}…` : oneLine;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!existsSync(CATALOG_SCRIPT)) skip(`${CATALOG_SCRIPT} is missing (the shared data folder next to this repository)`);
  if (!existsSync(join(LOCALE_DIR, 'de', 'LC_MESSAGES'))) skip(`no de catalogs under ${LOCALE_DIR}`);
  const json = execFileSync(process.execPath, [CATALOG_SCRIPT, '--target', 'de', '--format', 'json'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pairs: Pair[] = (JSON.parse(json) as { src: string; tgt: string }[]).map((u) => ({ src: u.src, tgt: u.tgt }));
  const speller = await loadSpeller('de', []);
  if (!speller) console.log('no de dictionary (apt-get install hunspell-de-de): spelling is not measured and no misspellings are injected');
  const injected = inject(pairs, speller);
  const dir = mkdtempSync(join(tmpdir(), 'qa-bench-'));
  try {
    const poPath = join(dir, 'catalog-de.po');
    writeFileSync(poPath, poFile(pairs));
    const units = await parseAll(gettextPoFilter, readFileSync(poPath), { formatSettings: { tagRegexp: MARKUP_SOURCE } });
    const segments: QaSegment[] = units.map((unit) => ({
      id: unit.context ?? unit.locator,
      source: unit.source,
      target: unit.target ?? '',
      confirmed: true,
      locked: false,
      maxLength: null,
      unmodifiedOrigin: null,
      unmodifiedOriginScore: null,
      newerAtLowerLevel: false,
    }));
    if (segments.length !== pairs.length || segments.some((s, i) => s.id !== `u${i}`))
      throw new Error('the PO file did not read back one segment per pair, in order');
    const tagged = segments.filter((s) => /\{\d+\}/.test(s.source)).length;
    console.log(
      `data: ${pairs.length.toLocaleString('en')} en→de catalog pairs (${tagged.toLocaleString('en')} with tags after import); injected ` +
        (['number', 'tag', 'spelling'] as Kind[]).map((k) => `${injected.filter((i) => i.kind === k).length} ${k}`).join(', ') +
        `; node ${process.version}`,
    );

    const plain = measure('all checks but spelling', segments, settingsForBench(false), null, ROUNDS);
    const spelled = speller ? measure('all checks with spelling (de)', segments, settingsForBench(true), speller, 3) : null;
    const result = spelled ?? plain;

    console.log('\ninjected errors found:');
    for (const kind of ['number', 'tag', 'spelling'] as Kind[]) {
      const mine = injected.filter((i) => i.kind === kind);
      if (mine.length === 0) continue;
      const missed: Injected[] = [];
      for (const item of mine) {
        const warnings = result.warnings.get(segments[item.index]!.id) ?? [];
        const found =
          kind === 'number'
            ? warnings.some((w) => w.type === 'MissingNumbersV3' || w.type === 'ExtraNumbersV3')
            : kind === 'tag'
              ? warnings.some((w) => w.type === 'JoinTags')
              : warnings.some((w) => w.type === 'SpellCheck' && w.key === item.word);
        if (!found) missed.push(item);
      }
      const share = ((mine.length - missed.length) / mine.length) * 100;
      console.log(`  ${kind.padEnd(9)} ${mine.length - missed.length}/${mine.length} (${share.toFixed(1)} %)`);
      for (const item of missed.slice(0, 3))
        console.log(
          `    missed: ${clip(pairs[item.index]!.src)} -> ${clip(pairs[item.index]!.tgt)} (imported: ${clip(segments[item.index]!.target)})`,
        );
    }

    const ours = flaggedBy(result, segments);
    console.log('\nwarnings (segments flagged) per type:');
    for (const [type, set] of [...ours].sort((a, b) => b[1].size - a[1].size)) console.log(`  ${type.padEnd(38)} ${set.size}`);

    const peer = runPofilter(poPath, join(dir, 'pofilter-out.po'));
    if (typeof peer === 'string') {
      console.log(`\npofilter: ${peer}`);
      return;
    }
    const copies = segments.map((s) => ({ ...s, source: Buffer.from(s.source).toString(), target: Buffer.from(s.target).toString() }));
    const plainSeconds = cpuSeconds(() => runQa(copies, settingsForBench(false), { sourceLang: 'en', targetLang: 'de', speller: null }));
    console.log(
      `\npofilter (translate-toolkit) with the ${POFILTER_PAIRS.flatMap(([, t]) => t).length} tests below: ${peer.seconds.toFixed(1)} s CPU = ` +
        `${Math.round(segments.length / peer.seconds).toLocaleString('en')} segments/s; OpenTMS (all checks but spelling) ` +
        `${(plainSeconds * 1000).toFixed(0)} ms: ${(peer.seconds / plainSeconds).toFixed(0)}× faster`,
    );
    console.log(
      `\n${'check'.padEnd(24)} ${'both'.padStart(6)} ${'only us'.padStart(8)} ${'only pofilter'.padStart(14)}  agreement (both / either)`,
    );
    const examples: string[] = [];
    for (const [label, tests, types] of POFILTER_PAIRS) {
      const theirs = union(peer.byTest, tests);
      const mine = union(ours, types);
      let both = 0;
      const onlyUs: number[] = [];
      const onlyThem: number[] = [];
      for (const i of mine)
        if (theirs.has(i)) both++;
        else onlyUs.push(i);
      for (const i of theirs) if (!mine.has(i)) onlyThem.push(i);
      const either = both + onlyUs.length + onlyThem.length;
      console.log(
        `${label.padEnd(24)} ${String(both).padStart(6)} ${String(onlyUs.length).padStart(8)} ${String(onlyThem.length).padStart(14)}  ${either === 0 ? '—' : `${((both / either) * 100).toFixed(0)} %`}`,
      );
      const random = prng(SEED + label.length);
      for (const [side, list] of [
        ['only us', onlyUs],
        ['only pofilter', onlyThem],
      ] as const) {
        for (let k = 0; k < Math.min(EXAMPLES, list.length); k++) {
          const i = list[Math.floor(random() * list.length)]!;
          examples.push(`  ${label} / ${side}: ${clip(segments[i]!.source)} -> ${clip(segments[i]!.target)}`);
        }
      }
    }
    if (examples.length) console.log(`\nexamples of disagreement:\n${examples.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

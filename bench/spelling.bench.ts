/**
 * How the Hunspell-compatible spellers compare on Debian's dictionaries (docs/spelling.md).
 * Prints figures, asserts nothing. Run: `npx tsx bench/spelling.bench.ts`.
 *
 * Candidates: `nodehun` (the native binding, the one OpenTMS uses), `hunspell-asm` (Hunspell
 * compiled to WebAssembly), `nspell` and `typo-js` (pure JavaScript). Those not installed in the
 * project are looked for in SPELLING_BENCH_MODULES (a folder holding a node_modules, for example
 * one made with `npm install --prefix /tmp/spellers nspell typo-js hunspell-asm`), else skipped
 * with a message. Each candidate and language runs in a child process of its own, so that the
 * memory figure is its own (RSS after loading minus RSS before, after a GC).
 *
 * Figures per candidate and dictionary (en_US, de_DE, fr_FR, es_ES):
 * - load: milliseconds to build the speller from the .aff/.dic files, and the memory it holds;
 * - de_DE only, on real German text (the targets of the de gettext catalogs under
 *   /usr/share/locale, ../shared/data/catalog-tmx.mjs, tokenized by src/domain/spelling): words/s
 *   checked one by one without a cache (up to SPELLING_BENCH_WORDS words, default 100,000, or
 *   20 s), and the share of the words it rejects;
 * - correctness: German compounds that are right and typos that are wrong, French elisions;
 * - suggestions: for typos with a known right word, how often that word is first / in the first
 *   five, and the milliseconds per suggest call.
 * Then OpenTMS's own speller (src/spelling, nodehun with the word → verdict cache) over the
 * German catalog targets as segments: segments/s and words/s, cold and warm cache.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Nodehun as NodehunClass } from 'nodehun';
import { spellingTokens } from '../src/domain/spelling/tokenize.js';

const HERE = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(HERE), '..');
const DICTIONARIES = '/usr/share/hunspell';
const LANGS = ['en_US', 'de_DE', 'fr_FR', 'es_ES'];
const CANDIDATES = ['nodehun', 'hunspell-asm', 'nspell', 'typo-js'] as const;
type Candidate = (typeof CANDIDATES)[number];
const MAX_WORDS = Number(process.env.SPELLING_BENCH_WORDS ?? 100_000);

/** Right German words, most of them compounds that are not in the .dic as such. */
const GERMAN_RIGHT = [
  'Donaudampfschifffahrt',
  'Übersetzungsspeicher',
  'Dateiverwaltungsprogramm',
  'Benutzerkontensteuerung',
  'Druckertreiberinstallation',
  'Sicherheitsaktualisierung',
  'Projektmanagerin',
  'Terminologiedatenbank',
  'Rechtschreibprüfung',
  'Netzwerkverbindung',
  'E-Mail-Adresse',
  'Straße',
  'Verzeichnis',
  'heruntergeladen',
  'Lese-',
];
const GERMAN_TYPOS: [string, string][] = [
  ['Feler', 'Fehler'],
  ['Verzeichniss', 'Verzeichnis'],
  ['Strasse', 'Straße'],
  ['Datai', 'Datei'],
  ['Übersetzng', 'Übersetzung'],
  ['Benutzr', 'Benutzer'],
  ['Einstelungen', 'Einstellungen'],
  ['Speicherplaz', 'Speicherplatz'],
  ['Passwrot', 'Passwort'],
  ['Verbindnug', 'Verbindung'],
];
const FRENCH_RIGHT = ["l'homme", 'l’homme', "qu'il", "aujourd'hui", 'aujourd’hui', "d'accord", "jusqu'à", "s'il", "n'est", "c'est"];
const FRENCH_TYPOS: [string, string][] = [
  ["l'homm", "l'homme"],
  ['fichié', 'fichier'],
  ['répertoir', 'répertoire'],
  ['erreure', 'erreur'],
  ['téléchargemnt', 'téléchargement'],
];
const ENGLISH_TYPOS: [string, string][] = [
  ['recieve', 'receive'],
  ['seperate', 'separate'],
  ['fiel', 'file'],
  ['directroy', 'directory'],
  ['permision', 'permission'],
];

interface Speller {
  correct(word: string): boolean;
  suggest(word: string): string[];
}

/** Where a candidate package is loaded from: the project, else SPELLING_BENCH_MODULES. */
function requireFor(name: string): NodeRequire | null {
  const places = [ROOT, process.env.SPELLING_BENCH_MODULES].filter((p): p is string => p !== undefined && p !== '');
  for (const place of places) {
    const require = createRequire(join(place, 'package.json'));
    try {
      require.resolve(name);
      return require;
    } catch {
      // not there
    }
  }
  return null;
}

async function loadCandidate(candidate: Candidate, lang: string): Promise<Speller> {
  const require = requireFor(candidate)!;
  const aff = readFileSync(join(DICTIONARIES, `${lang}.aff`));
  const dic = readFileSync(join(DICTIONARIES, `${lang}.dic`));
  switch (candidate) {
    case 'nodehun': {
      const { Nodehun } = require('nodehun') as { Nodehun: typeof NodehunClass };
      const speller = new Nodehun(aff, dic);
      return { correct: (w) => speller.spellSync(w), suggest: (w) => speller.suggestSync(w) ?? [] };
    }
    case 'hunspell-asm': {
      const { loadModule } = require('hunspell-asm') as {
        loadModule(): Promise<{
          mountBuffer(b: Uint8Array, name: string): string;
          create(aff: string, dic: string): { spell(w: string): boolean; suggest(w: string): string[] };
        }>;
      };
      const factory = await loadModule();
      const speller = factory.create(factory.mountBuffer(aff, `${lang}.aff`), factory.mountBuffer(dic, `${lang}.dic`));
      return { correct: (w) => speller.spell(w), suggest: (w) => speller.suggest(w) };
    }
    case 'nspell': {
      const nspell = require('nspell') as (aff: Buffer, dic: Buffer) => { correct(w: string): boolean; suggest(w: string): string[] };
      const speller = nspell(aff, dic);
      return { correct: (w) => speller.correct(w), suggest: (w) => speller.suggest(w) };
    }
    case 'typo-js': {
      const Typo = require('typo-js') as new (
        lang: string,
        aff: string,
        dic: string,
      ) => { check(w: string): boolean; suggest(w: string, limit?: number): string[] };
      const speller = new Typo(lang, aff.toString('utf8'), dic.toString('utf8'));
      return { correct: (w) => speller.check(w), suggest: (w) => speller.suggest(w, 5) };
    }
  }
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** One candidate on one dictionary, in a child process: prints one JSON line. */
async function child(candidate: Candidate, lang: string, wordsFile: string): Promise<void> {
  gc();
  const before = process.memoryUsage().rss;
  const began = performance.now();
  const speller = await loadCandidate(candidate, lang);
  const loadMs = performance.now() - began;
  gc();
  const memoryMb = (process.memoryUsage().rss - before) / 1e6;
  const result: Record<string, unknown> = { candidate, lang, loadMs, memoryMb };

  const suggestions = (typos: [string, string][]) => {
    let first = 0;
    let top5 = 0;
    const start = performance.now();
    const shown: string[] = [];
    for (const [typo, right] of typos) {
      const list = speller.suggest(typo);
      if (list[0] === right) first++;
      if (list.slice(0, 5).includes(right)) top5++;
      shown.push(`${typo}→${list.slice(0, 3).join('|')}`);
    }
    return { first, top5, of: typos.length, msPerCall: (performance.now() - start) / typos.length, shown };
  };

  if (lang === 'de_DE') {
    const words = JSON.parse(readFileSync(wordsFile, 'utf8')) as string[];
    const deadline = performance.now() + 20_000;
    let checked = 0;
    let rejected = 0;
    const start = performance.now();
    for (const word of words) {
      if (!speller.correct(word)) rejected++;
      if (++checked % 1000 === 0 && performance.now() > deadline) break;
    }
    const ms = performance.now() - start;
    result.wordsPerSecond = (checked / ms) * 1000;
    result.wordsChecked = checked;
    result.rejectedShare = rejected / checked;
    result.compoundsAccepted = `${GERMAN_RIGHT.filter((w) => speller.correct(w)).length}/${GERMAN_RIGHT.length}`;
    result.compoundsRefused = GERMAN_RIGHT.filter((w) => !speller.correct(w));
    result.typosRejected = `${GERMAN_TYPOS.filter(([w]) => !speller.correct(w)).length}/${GERMAN_TYPOS.length}`;
    result.suggest = suggestions(GERMAN_TYPOS);
  } else if (lang === 'fr_FR') {
    result.elisionsAccepted = `${FRENCH_RIGHT.filter((w) => speller.correct(w)).length}/${FRENCH_RIGHT.length}`;
    result.typosRejected = `${FRENCH_TYPOS.filter(([w]) => !speller.correct(w)).length}/${FRENCH_TYPOS.length}`;
    result.suggest = suggestions(FRENCH_TYPOS);
  } else if (lang === 'en_US') {
    result.suggest = suggestions(ENGLISH_TYPOS);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** The German catalog targets (real translations), or null without the catalogs. */
function germanTargets(): string[] | null {
  const script = resolve(ROOT, '../shared/data/catalog-tmx.mjs');
  if (!existsSync(script) || !existsSync('/usr/share/locale/de/LC_MESSAGES')) return null;
  const tsv = execFileSync(process.execPath, [script, '--target', 'de', '--format', 'tsv'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return tsv
    .split('\n')
    .map((line) => line.slice(line.indexOf('\t') + 1))
    .filter((t) => t !== '');
}

const fixed = (n: unknown, digits = 0) => (typeof n === 'number' ? n.toFixed(digits) : '-');

async function ownSpeller(targets: string[]): Promise<void> {
  const { loadSpeller } = await import('../src/spelling/index.js');
  const began = performance.now();
  const speller = await loadSpeller('de', []);
  if (speller === null) {
    console.log('src/spelling: no de dictionary');
    return;
  }
  console.log(`\nsrc/spelling (nodehun + verdict cache), de: loaded in ${fixed(performance.now() - began)} ms`);
  const words = targets.reduce((n, t) => n + spellingTokens(t).length, 0);
  for (const pass of ['cold cache', 'warm cache']) {
    const start = performance.now();
    let flagged = 0;
    for (const text of targets) flagged += speller.misspelled(text).length;
    const s = (performance.now() - start) / 1000;
    console.log(
      `  ${pass}: ${targets.length} segments, ${words} words in ${fixed(s, 2)} s = ${fixed(targets.length / s)} segments/s, ${fixed(words / s)} words/s; ${flagged} flagged`,
    );
  }
}

async function main(): Promise<void> {
  const targets = germanTargets();
  if (targets === null) {
    console.log('No German catalogs (/usr/share/locale/de, ../shared/data/catalog-tmx.mjs): nothing to measure.');
    return;
  }
  const words = targets.flatMap((t) => spellingTokens(t).map((token) => token.word)).slice(0, MAX_WORDS);
  const dir = mkdtempSync(join(tmpdir(), 'spelling-bench-'));
  const wordsFile = join(dir, 'words.json');
  writeFileSync(wordsFile, JSON.stringify(words));
  console.log(`German text: ${targets.length} catalog targets, ${words.length} words for the per-word figures`);
  try {
    for (const candidate of CANDIDATES) {
      if (requireFor(candidate) === null) {
        console.log(`\n${candidate}: not installed (npm install --prefix DIR ${candidate}; SPELLING_BENCH_MODULES=DIR)`);
        continue;
      }
      console.log(`\n${candidate}`);
      for (const lang of LANGS) {
        if (!existsSync(join(DICTIONARIES, `${lang}.dic`))) {
          console.log(`  ${lang}: no dictionary in ${DICTIONARIES}`);
          continue;
        }
        const run = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, HERE, '--child', candidate, lang, wordsFile], {
          encoding: 'utf8',
          timeout: 300_000,
          maxBuffer: 1 << 26,
        });
        const line = run.stdout.trim().split('\n').pop() ?? '';
        if (run.status !== 0 || !line.startsWith('{')) {
          console.log(`  ${lang}: failed (${run.error?.message ?? run.stderr.trim().split('\n').slice(-1)[0] ?? run.status})`);
          continue;
        }
        const r = JSON.parse(line) as Record<string, unknown> & { suggest?: Record<string, unknown> };
        const parts = [`load ${fixed(r.loadMs)} ms`, `memory ${fixed(r.memoryMb)} MB`];
        if (r.wordsPerSecond !== undefined)
          parts.push(
            `${fixed(r.wordsPerSecond)} words/s uncached (${r.wordsChecked as number} words, ${fixed((r.rejectedShare as number) * 100, 1)} % rejected)`,
            `compounds accepted ${r.compoundsAccepted as string}${(r.compoundsRefused as string[]).length ? ` (refused: ${(r.compoundsRefused as string[]).join(', ')})` : ''}`,
          );
        if (r.elisionsAccepted !== undefined) parts.push(`elisions accepted ${r.elisionsAccepted as string}`);
        if (r.typosRejected !== undefined) parts.push(`typos rejected ${r.typosRejected as string}`);
        if (r.suggest)
          parts.push(
            `suggest: right word first ${r.suggest.first as number}/${r.suggest.of as number}, in top 5 ${r.suggest.top5 as number}/${r.suggest.of as number}, ${fixed(r.suggest.msPerCall, 1)} ms/call [${(r.suggest.shown as string[]).join(' ')}]`,
          );
        console.log(`  ${lang}: ${parts.join('; ')}`);
      }
    }
    await ownSpeller(targets);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1] as Candidate, process.argv[at + 2]!, process.argv[at + 3]!);
else await main();

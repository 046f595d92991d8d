/**
 * Our word counter (src/domain/counting/word-count.ts) against translate-toolkit's `pocount`, on
 * real PO files: the compiled gettext catalogs of this machine (/usr/share/locale/<lang>/LC_MESSAGES/*.mo)
 * decompiled with `msgunfmt` into a temporary directory (never the repository), as
 * /work/shared/design/LANGUAGE-TECH.md asks ("Word counting", "Real data available on every machine").
 * Prints figures and a classified table of the differences, asserts nothing; the findings are in
 * docs/segmentation-and-counting.md ("Compared with translate-toolkit's pocount").
 *
 *   npx tsx bench/word-count-vs-pocount.ts [examples per cause, default 3]
 *
 * - Languages de, fr, ja, zh_CN, ru: every .mo file of each (sorted by name), `msgunfmt` to PO,
 *   `msgconv -t UTF-8` where the catalog is in another charset, then `pocount --csv` on them: exact
 *   per-file totals (source words = msgid + msgid_plural of every unit; target words = every
 *   msgstr[n] of every translated unit; the header is not a unit).
 * - English source view: the distinct msgid/msgid_plural of all five, written to one PO file and
 *   counted by `pocount --csv` too (untranslated source words).
 * - Our side reads the same PO files with a small PO reader (msgctxt, msgid, msgid_plural,
 *   msgstr[n], continuation lines, C escapes) and counts every string with `countText` (source in
 *   `en`, targets in the catalog's language), totals with `sumWords`.
 * - Per string, pocount's own `wordcount()` (the function the CLI uses, run in Python) gives its
 *   count; the bench checks that these add up to the CLI's per-file figures, so the per-string
 *   comparison is the CLI's. Strings where the counts differ are split into whitespace tokens (how
 *   pocount sees words) and each differing token is classified by its cause.
 *
 * Skips (exit 0) when /work/shared, the catalogs, msgunfmt, pocount or Python's translate module
 * are missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countText, sumWords } from '../src/domain/counting/word-count.js';

const SHARED = '/work/shared';
const LOCALE_DIR = '/usr/share/locale';
const LANGUAGES = ['de', 'fr', 'ja', 'zh_CN', 'ru'];
const EXAMPLES_PER_CAUSE = Number(process.argv[2] ?? 3);

function skip(reason: string): never {
  console.log(`SKIP word-count-vs-pocount: ${reason}`);
  process.exit(0);
}

function which(command: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const path = result.stdout.trim();
  return result.status === 0 && path !== '' ? path : undefined;
}

// ---------------------------------------------------------------------------------------------
// PO reader

interface PoUnit {
  context: string | undefined;
  /** Strings as written between the quotes (escapes kept), continuation lines joined. */
  rawSource: string[];
  rawTarget: string[];
  fuzzy: boolean;
}

/** The string, as the program sees it: C escapes of GNU gettext resolved. */
function unescapeC(raw: string): string {
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '"': '"',
    '\\': '\\',
    "'": "'",
    '?': '?',
  };
  return raw.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/gs, (whole, escape: string) => {
    if (escape.startsWith('x') && escape.length > 1) return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return simple[escape] ?? whole;
  });
}

/** The string as translate-toolkit's pypo reads it: only \n \t \r \" \\ are resolved, `\a` stays two characters. */
function unescapePypo(raw: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
  return raw.replace(/\\(.)/gs, (whole, escape: string) => map[escape] ?? whole);
}

function quoted(line: string): string {
  const start = line.indexOf('"');
  const end = line.lastIndexOf('"');
  return start >= 0 && end > start ? line.slice(start + 1, end) : '';
}

function readPo(text: string): PoUnit[] {
  const units: PoUnit[] = [];
  let unit: PoUnit | undefined;
  let field: { kind: 'context' | 'source' | 'target'; index: number } | undefined;
  let flags = false;
  const finish = () => {
    if (unit && unit.rawSource.length > 0) units.push(unit);
    unit = undefined;
    field = undefined;
  };
  const start = () => {
    if (!unit || unit.rawTarget.length > 0) {
      finish();
      unit = { context: undefined, rawSource: [], rawTarget: [], fuzzy: flags };
      flags = false;
    }
  };
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '') {
      finish();
      continue;
    }
    if (trimmed.startsWith('#~')) continue; // obsolete entries are not units for pocount either
    if (trimmed.startsWith('#,')) {
      if (/\bfuzzy\b/.test(trimmed)) flags = true;
      continue;
    }
    if (trimmed.startsWith('#')) continue;
    if (trimmed.startsWith('"')) {
      if (!unit || !field) continue;
      const piece = quoted(trimmed);
      if (field.kind === 'context') unit.context = (unit.context ?? '') + piece;
      else if (field.kind === 'source') unit.rawSource[field.index] += piece;
      else unit.rawTarget[field.index] += piece;
      continue;
    }
    const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s/.exec(trimmed);
    if (!keyword) continue;
    const value = quoted(trimmed);
    if (keyword[1] === 'msgctxt') {
      finish();
      start();
      unit!.context = value;
      field = { kind: 'context', index: 0 };
    } else if (keyword[1] === 'msgid') {
      if (!unit || unit.rawSource.length > 0) start();
      unit!.rawSource[0] = value;
      field = { kind: 'source', index: 0 };
    } else if (keyword[1] === 'msgid_plural') {
      unit!.rawSource[1] = value;
      field = { kind: 'source', index: 1 };
    } else {
      const index = keyword[2] === undefined ? 0 : Number(keyword[2]);
      unit!.rawTarget[index] = value;
      field = { kind: 'target', index };
    }
  }
  finish();
  // The header (empty msgid, no context) is no unit; neither is a blank unit.
  return units.filter((u) => !(u.rawSource[0] === '' && u.context === undefined));
}

// ---------------------------------------------------------------------------------------------
// pocount

/** pocount's `wordcount()`, run by translate-toolkit itself on each string of stdin's JSON array. */
const PYTHON_HELPER = `
import sys, json
from translate.tools.pocount import wordcount
from translate.lang.common import Common
strings = json.load(sys.stdin)
json.dump({"punctuation": Common.punctuation, "counts": [wordcount(s) for s in strings]}, sys.stdout)
`;

let python = 'python3';

function pocountWordcounts(strings: string[]): { punctuation: string; counts: number[] } {
  const result = spawnSync(python, ['-c', PYTHON_HELPER], { input: JSON.stringify(strings), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`pocount helper failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { punctuation: string; counts: number[] };
}

interface PocountRow {
  translated: number;
  translatedSourceWords: number;
  translatedTargetWords: number;
  total: number;
  totalSourceWords: number;
}

/** `pocount --csv` on the PO files of `dir`: one row per file name. */
function runPocount(dir: string, files: string[]): Map<string, PocountRow> {
  const result = spawnSync('pocount', ['--csv', ...files], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`pocount failed: ${result.stderr}`);
  const rows = new Map<string, PocountRow>();
  for (const line of result.stdout.split('\n').slice(1)) {
    const cells = line.split(',').map((cell) => cell.trim());
    if (cells.length < 10) continue;
    const n = cells.map(Number);
    rows.set(cells[0]!, {
      translated: n[1]!,
      translatedSourceWords: n[2]!,
      translatedTargetWords: n[3]!,
      total: n[8]!,
      totalSourceWords: n[9]!,
    });
  }
  if (result.stderr.trim() !== '') console.log(`  pocount stderr: ${result.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
  return rows;
}

/** Python's str.isspace() characters: what str.split() splits on. */
// eslint-disable-next-line no-control-regex -- Python counts the separators U+001C..U+001F as white space
const PY_SPACE = /[\t\n\v\f\r\x1C-\x1F \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/u;
const W = '[\\p{L}\\p{N}\\p{Mn}\\p{Mc}_]';
const BR_TAG = /<br\s*?\/?>/gu;
const XML_TAG = new RegExp(`<(?:${W}|[.:])+(?:\\s(?:(?:${W}|[.:])+=(?:(?:".*?")|(?:'.*?')))?)*\\/?>|<\\/(?:${W}|\\.)+>`, 'gu');
const NUMBER_RE = /\P{Nd}\.\P{Nd}/gu;

/** The markup pocount removes before counting: `<br>` becomes a line break, other tags nothing. */
function pocountStripTags(text: string): string {
  return text.replace(BR_TAG, '\n').replace(XML_TAG, '');
}

/** A port of pocount's wordcount() (tools/pocount.py + lang/common.py Common.words), for tokens. */
function pocountPort(text: string, punctuation: Set<string>): number {
  const prepared = pocountStripTags(text).replace(NUMBER_RE, ' ');
  let words = 0;
  for (const token of prepared.split(PY_SPACE)) {
    const chars = [...token];
    let a = 0;
    let b = chars.length;
    while (a < b && punctuation.has(chars[a]!)) a++;
    while (b > a && punctuation.has(chars[b - 1]!)) b--;
    if (b > a) words += 1;
  }
  return words;
}

// ---------------------------------------------------------------------------------------------
// Causes of differences

interface Cause {
  id: string;
  label: string;
  test: (token: string) => boolean;
}

/** printf (%s, %1$s, %-10lu, %'d), Python (%(name)s), strftime (%H), braces ({0}, {name}), shell ($VAR, ${var}), Qt (%1). */
const PLACEHOLDER =
  /%(?:\d+\$)?[-+ #0'^_]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[A-Za-z]|%\([^)]+\)[a-zA-Z]|\{[\w.:-]*\}|\$\{[^}]*\}|\$[A-Za-z_]\w*|%\d+|%[A-Za-z_]+%/u;
const CAUSES: Cause[] = [
  {
    id: 'logographic',
    label: 'CJK counted by characters',
    test: (t) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u.test(t),
  },
  {
    id: 'url-email',
    label: 'URLs and e-mail addresses',
    test: (t) => /(?:https?|ftps?|file|mailto):\/\/|www\.|[\w.+-]+@[\w-]+\.[\w.-]+/u.test(t),
  },
  { id: 'placeholder', label: 'placeholders (%s, %1$s, %(name)s, %H:%M, {0}, ${var}, $VAR)', test: (t) => PLACEHOLDER.test(t) },
  {
    id: 'backslash',
    label: 'backslashes (psql \\d[S+], literal \\a escapes)',
    // eslint-disable-next-line no-control-regex -- control characters are what this cause is about
    test: (t) => /[\x00-\x08\x0E-\x1F\x7F\\]/u.test(t),
  },
  { id: 'symbol-only', label: 'tokens of punctuation or symbols only (=, |, —, &, +, •, →)', test: (t) => /^[^\p{L}\p{N}]+$/u.test(t) },
  {
    id: 'dot-letters',
    label: 'dots between letters (file.txt, e.g., z.B., т.е., .conf)',
    test: (t) => /\p{L}\.\p{L}|(?:^|[^\p{L}\p{N}])\.\p{L}/u.test(t),
  },
  {
    id: 'dot-digits',
    label: 'dots next to digits (X.509, v1.2, 0..1, 1.)',
    test: (t) => /\p{L}\.\p{N}|\p{N}\.\p{L}|\p{N}\.\.+\p{N}/u.test(t),
  },
  { id: 'slash', label: 'slashes and pipes (and/or, I/O, /usr/bin, a|b)', test: (t) => /[/|]/u.test(t) },
  { id: 'equals', label: 'equals signs (key=value, --opt=ARG)', test: (t) => /=/u.test(t) },
  { id: 'colon', label: 'colons inside a token (10:30, key:value, a::b)', test: (t) => /[\p{L}\p{N}]:+[\p{L}\p{N}]/u.test(t) },
  {
    id: 'brackets',
    label: 'brackets inside a token (file(s), name[0], f())',
    test: (t) => /[\p{L}\p{N}][([{<][\p{L}\p{N}\])}>]|[\p{L}\p{N}][)\]}>][\p{L}\p{N}]/u.test(t),
  },
  { id: 'accelerator', label: 'ampersand accelerators inside a word (Fi&le)', test: (t) => /\p{L}&\p{L}/u.test(t) },
  { id: 'dash', label: 'double hyphens and dashes inside a token (a--b, 2–3, x—y)', test: (t) => /[-\u2010-\u2015]/u.test(t) },
  {
    id: 'symbol-in-word',
    label: 'other symbols joining words (a+b, 800×600, a,b, a~b)',
    test: (t) => /[\p{L}\p{N}][^\p{L}\p{N}\s][\p{L}\p{N}]/u.test(t),
  },
  { id: 'number', label: 'numbers', test: (t) => /\p{N}/u.test(t) },
  { id: 'other', label: 'other', test: () => true },
];
const HTML_TAGS = new Set(
  'a abbr b big blockquote br code div em font h1 h2 h3 i img kbd li ol p pre s small span strong sub sup table td th tr tt u ul var'.split(
    ' ',
  ),
);
/** Markup pocount removes, by kind of tag. */
function tagCause(tag: string): { id: string; label: string } {
  const name = /^<\/?([^\s/>]+)/u.exec(tag)?.[1] ?? '';
  if (/^(?:PRI|SCN)/.test(name)) return { id: 'tags-pri', label: 'gettext format macros in angle brackets (%<PRIu64>)' };
  if (HTML_TAGS.has(name.toLowerCase())) return { id: 'tags-html', label: 'HTML/Pango markup (<b>, <a href=...>, <br/>)' };
  return { id: 'tags-words', label: 'angle-bracketed words (<file>, <nom>, <URL>)' };
}
const RESIDUAL_CAUSE = { id: 'context', label: "pocount's \\D\\.\\D rule across a space (z. B., %d. %B)" };

interface CauseTally {
  label: string;
  tokens: number;
  strings: Set<string>;
  delta: number;
  deltaByView: Map<string, number>;
  examples: Map<string, { count: number; ours: number; pocount: number; context: string; view: string }>;
}

const tallies = new Map<string, CauseTally>();

function record(cause: { id: string; label: string }, view: string, token: string, ours: number, pocount: number, context: string): void {
  let tally = tallies.get(cause.id);
  if (!tally) {
    tally = { label: cause.label, tokens: 0, strings: new Set(), delta: 0, deltaByView: new Map(), examples: new Map() };
    tallies.set(cause.id, tally);
  }
  tally.tokens += 1;
  tally.strings.add(`${view}\u0000${context}`);
  tally.delta += ours - pocount;
  tally.deltaByView.set(view, (tally.deltaByView.get(view) ?? 0) + ours - pocount);
  const key = `${token}\u0000${ours}\u0000${pocount}`;
  const example = tally.examples.get(key);
  if (example) example.count += 1;
  else tally.examples.set(key, { count: 1, ours, pocount, context, view });
}

function differs(a: number, b: number): boolean {
  return Math.abs(a - b) > 0.004;
}

/** Classifies a string whose counts differ: tags first, then token by token. */
function classify(
  view: string,
  language: string,
  text: string,
  pypoText: string,
  ours: number,
  pocount: number,
  punctuation: Set<string>,
): void {
  if (pypoText !== text) {
    record(
      CAUSES.find((c) => c.id === 'backslash')!,
      view,
      '(string with an unresolved escape)',
      ours,
      pocount,
      text,
    );
    return;
  }
  let rest = text;
  let oursLeft = ours;
  const stripped = pocountStripTags(text);
  if (stripped !== text) {
    const oursStripped = countText(stripped, language).words;
    if (differs(ours, oursStripped)) {
      const tag = (text.match(XML_TAG) ?? text.match(BR_TAG) ?? ['<?>'])[0]!;
      record(tagCause(tag), view, tag, ours - oursStripped, 0, text);
    }
    rest = stripped;
    oursLeft = oursStripped;
  }
  let oursSum = 0;
  let pocountSum = 0;
  for (const token of rest.split(PY_SPACE)) {
    if (token === '') continue;
    const oursToken = countText(token, language).words;
    const pocountToken = pocountPort(token, punctuation);
    oursSum += oursToken;
    pocountSum += pocountToken;
    if (!differs(oursToken, pocountToken)) continue;
    const cause = CAUSES.find((c) => c.test(token))!;
    record(cause, view, token, oursToken, pocountToken, text);
  }
  // pocount's whole-string count differs from the sum of its tokens' only through "\D\.\D" matching across a
  // space; ours only by the rounding of logographic tokens to hundredths.
  if (pocount !== pocountSum || Math.abs(oursLeft - oursSum) >= 0.5)
    record(RESIDUAL_CAUSE, view, '(whole string)', oursLeft - oursSum, pocount - pocountSum, text);
}

// ---------------------------------------------------------------------------------------------
// Main

interface StringRecord {
  text: string;
  pypo: string;
  file: string;
  side: 'source' | 'target';
}

function catalogs(language: string): string[] {
  const dir = join(LOCALE_DIR, language, 'LC_MESSAGES');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.mo'))
    .sort()
    .map((name) => join(dir, name));
}

function decompile(mo: string, po: string): boolean {
  const result = spawnSync('msgunfmt', ['-o', po, mo], { encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(po)) return false;
  const header = readFileSync(po, 'utf8').slice(0, 4000);
  const charset = /charset=([^\\"\s]+)/.exec(header)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    const converted = spawnSync('msgconv', ['-t', 'UTF-8', '-o', po, po], { encoding: 'utf8' });
    if (converted.status !== 0) return false;
  }
  return true;
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratio(ours: number, theirs: number): string {
  return theirs === 0 ? 'n/a' : (ours / theirs).toFixed(3);
}

function shorten(text: string, max = 90): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function main(): void {
  if (!existsSync(SHARED)) skip(`${SHARED} is missing`);
  if (!which('pocount')) skip('pocount is missing (apt-get install -y translate-toolkit)');
  if (!which('msgunfmt')) skip('msgunfmt is missing (apt-get install -y gettext)');
  const shebang = readFileSync(which('pocount')!, 'utf8').split('\n')[0] ?? '';
  if (shebang.startsWith('#!') && !shebang.includes('env')) python = shebang.slice(2).trim().split(/\s+/)[0]!;
  const probe = spawnSync(python, ['-c', 'import translate.tools.pocount'], { encoding: 'utf8' });
  if (probe.status !== 0) skip(`${python} cannot import translate.tools.pocount`);
  const available = LANGUAGES.filter((language) => catalogs(language).length > 0);
  if (available.length === 0) skip(`no catalogs under ${LOCALE_DIR}/{${LANGUAGES.join(',')}}/LC_MESSAGES`);

  const work = mkdtempSync(join(tmpdir(), 'word-count-vs-pocount-'));
  const started = performance.now();
  try {
    let punctuation = new Set<string>();
    let portMismatches = 0;
    let portExample = '';
    const summary: string[] = [];
    const sourceUnits = new Map<string, { context: string | undefined; raw: string[] }>();
    const viewTotals: { view: string; strings: number; pocount: number; ours: number }[] = [];

    console.log(`word count vs pocount: catalogs of ${available.join(', ')} from ${LOCALE_DIR}, decompiled into ${work}`);
    for (const language of available) {
      const dir = join(work, language);
      mkdirSync(dir);
      const files: string[] = [];
      for (const mo of catalogs(language)) {
        const name = `${mo.split('/').pop()!.replace(/\.mo$/, '')}.po`;
        if (decompile(mo, join(dir, name))) files.push(name);
        else console.log(`  ${language}: cannot decompile ${mo}, left out`);
      }
      const rows = runPocount(dir, files);

      const strings: StringRecord[] = [];
      let units = 0;
      for (const file of files) {
        for (const unit of readPo(readFileSync(join(dir, file), 'utf8'))) {
          if (unit.fuzzy || unit.rawTarget.every((raw) => raw === '')) continue; // .mo files hold neither
          units += 1;
          for (const raw of unit.rawSource) strings.push({ text: unescapeC(raw), pypo: unescapePypo(raw), file, side: 'source' });
          for (const raw of unit.rawTarget) strings.push({ text: unescapeC(raw), pypo: unescapePypo(raw), file, side: 'target' });
          const key = `${unit.context ?? ''}\u0004${unit.rawSource.join('\u0000')}`;
          if (!sourceUnits.has(key)) sourceUnits.set(key, { context: unit.context, raw: unit.rawSource });
        }
      }
      const helper = pocountWordcounts(strings.map((s) => s.pypo));
      punctuation = new Set([...helper.punctuation]);

      // pocount's per-string counts must add up to the CLI's per-file figures.
      const perFile = new Map<string, { source: number; target: number; units: number }>();
      let cliSource = 0;
      let cliTarget = 0;
      let cliUnits = 0;
      for (const row of rows.values()) {
        cliSource += row.totalSourceWords;
        cliTarget += row.translatedTargetWords;
        cliUnits += row.total;
      }
      const oursSource: number[] = [];
      const oursTarget: number[] = [];
      let helperSource = 0;
      let helperTarget = 0;
      strings.forEach((s, i) => {
        const theirs = helper.counts[i]!;
        const totals = perFile.get(s.file) ?? { source: 0, target: 0, units: 0 };
        totals[s.side] += theirs;
        perFile.set(s.file, totals);
        const countLanguage = s.side === 'source' ? 'en' : language;
        const ours = countText(s.text, countLanguage).words;
        if (s.side === 'source') {
          helperSource += theirs;
          oursSource.push(ours);
        } else {
          helperTarget += theirs;
          oursTarget.push(ours);
          if (differs(ours, theirs)) classify(language, language, s.text, s.pypo, ours, theirs, punctuation);
        }
        if (pocountPort(s.pypo, punctuation) !== theirs) {
          portMismatches += 1;
          portExample ||= s.pypo;
        }
      });
      const badFiles = files.filter((file) => {
        const row = rows.get(file);
        const mine = perFile.get(file) ?? { source: 0, target: 0 };
        return !row || row.totalSourceWords !== mine.source || row.translatedTargetWords !== mine.target;
      });
      const ourSourceTotal = sumWords(oursSource);
      const ourTargetTotal = sumWords(oursTarget);
      summary.push(
        `| ${language} | ${files.length} | ${fmt(cliUnits)} / ${fmt(units)} | ${fmt(strings.length)} | ${fmt(cliSource)} | ${fmt(ourSourceTotal)} | ${ratio(ourSourceTotal, cliSource)} | ${fmt(cliTarget)} | ${fmt(ourTargetTotal)} | ${ratio(ourTargetTotal, cliTarget)} |`,
      );
      viewTotals.push({ view: language, strings: oursTarget.length, pocount: cliTarget, ours: ourTargetTotal });
      console.log(
        `  ${language}: ${files.length} files; pocount CLI source ${cliSource}, target ${cliTarget}; per-string wordcount() sums ${helperSource}, ${helperTarget}` +
          `; files whose per-string sums differ from the CLI: ${badFiles.length}${badFiles.length > 0 ? ` (${badFiles.slice(0, 5).join(', ')})` : ''}`,
      );
    }

    // English source view: the distinct msgid/msgid_plural of all languages, in one PO file.
    const enDir = join(work, 'en');
    mkdirSync(enDir);
    const enLines: string[] = [];
    for (const { context, raw } of sourceUnits.values()) {
      if (context !== undefined) enLines.push(`msgctxt "${context}"`);
      enLines.push(`msgid "${raw[0]}"`);
      if (raw.length > 1) enLines.push(`msgid_plural "${raw[1]}"`, 'msgstr[0] ""', 'msgstr[1] ""', '');
      else enLines.push('msgstr ""', '');
    }
    writeFileSync(join(enDir, 'msgids.po'), `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n${enLines.join('\n')}\n`);
    const enRow = runPocount(enDir, ['msgids.po']).get('msgids.po');
    const enStrings = [...sourceUnits.values()].flatMap(({ raw }) => raw.map((r) => ({ text: unescapeC(r), pypo: unescapePypo(r) })));
    const enHelper = pocountWordcounts(enStrings.map((s) => s.pypo));
    const enOurs: number[] = [];
    enStrings.forEach((s, i) => {
      const ours = countText(s.text, 'en').words;
      enOurs.push(ours);
      const theirs = enHelper.counts[i]!;
      if (differs(ours, theirs)) classify('en', 'en', s.text, s.pypo, ours, theirs, punctuation);
      if (pocountPort(s.pypo, punctuation) !== theirs) {
        portMismatches += 1;
        portExample ||= s.pypo;
      }
    });
    const enHelperTotal = enHelper.counts.reduce((a, b) => a + b, 0);
    const enOursTotal = sumWords(enOurs);
    const enCli = enRow?.totalSourceWords ?? NaN;
    viewTotals.unshift({ view: 'en', strings: enStrings.length, pocount: enCli, ours: enOursTotal });
    console.log(
      `  en (distinct msgids): ${fmt(sourceUnits.size)} units, ${fmt(enStrings.length)} strings; pocount CLI ${enCli}, per-string sum ${enHelperTotal}`,
    );
    console.log(
      `  port of pocount's wordcount() disagrees with pocount on ${portMismatches} strings${portExample ? ` (e.g. "${shorten(portExample)}")` : ''}`,
    );
    console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

    console.log(
      'Per language (units: pocount / ours; source = msgid + msgid_plural, target = every msgstr[n]; words as reported, ours rounded once by sumWords)\n',
    );
    console.log('| Catalogs | Files | Units | Strings | Source pocount | Source ours | Ratio | Target pocount | Target ours | Ratio |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const line of summary) console.log(line);
    console.log(
      `| en, distinct msgids | 1 | ${fmt(enRow?.total ?? NaN)} / ${fmt(sourceUnits.size)} | ${fmt(enStrings.length)} | ${fmt(enCli)} | ${fmt(enOursTotal)} | ${ratio(enOursTotal, enCli)} | | | |`,
    );

    // Differences table.
    const views = viewTotals.map((v) => v.view);
    const ordered = [...tallies.entries()].sort((a, b) => Math.abs(b[1].delta) - Math.abs(a[1].delta));
    console.log('\nDifferences by cause (en: distinct msgids counted as English; other columns: msgstr of that language).');
    console.log('Tokens are pocount\'s whitespace-separated words; "ours − pocount" is the net effect in words.\n');
    console.log(`| Cause | Differing tokens | Strings | ours − pocount | ${views.join(' | ')} |`);
    console.log(`|---|---:|---:|---:|${views.map(() => '---:').join('|')}|`);
    for (const [, tally] of ordered) {
      const byView = views.map((v) => fmt(tally.deltaByView.get(v) ?? 0));
      console.log(`| ${tally.label} | ${fmt(tally.tokens)} | ${fmt(tally.strings.size)} | ${fmt(tally.delta)} | ${byView.join(' | ')} |`);
    }
    console.log(`| (all strings of the view: pocount total) | | | | ${viewTotals.map((v) => fmt(v.pocount)).join(' | ')} |`);

    console.log('\nExamples (most frequent tokens of each cause: token — ours vs pocount — count — one string it occurs in):\n');
    for (const [id, tally] of ordered) {
      console.log(`${tally.label} [${id}]`);
      const examples = [...tally.examples.entries()]
        .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
        .slice(0, EXAMPLES_PER_CAUSE);
      for (const [key, example] of examples) {
        const token = key.split('\u0000')[0]!;
        console.log(
          `  "${shorten(token, 40)}"  ours ${fmt(example.ours, 2)} vs pocount ${example.pocount}  ×${example.count}  [${example.view}] "${shorten(example.context)}"`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();

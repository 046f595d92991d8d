/**
 * The data of bench/analysis.bench.ts, generated at bench time from the machine's gettext
 * catalogs (`../shared/data/catalog-tmx.mjs`, through bench/tm-data.ts) and never committed:
 *
 * - the TM (en→de), written as TMX to a temporary folder: the de catalogs' distinct English
 *   sources with their German translations, less a held-out share, plus variants of the sources
 *   (`variantOf`, of held-out ones too, so that the held-out texts find fuzzy matches) up to the
 *   wanted number of distinct sources;
 * - the jobs' files (plain text, one catalog message a line; a line may hold several sentences,
 *   which the import's segmentation splits): the English sources of the catalogs in catalog order,
 *   language after language (de, fr, es, …: each language's catalogs hold the messages its
 *   translators did), until the wanted number of segments (counted by the service's own
 *   segmenter). Real text repeats: the same message is in several languages' catalogs, and short
 *   ones ("File", "Cancel") in many domains; the share is printed.
 */
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { segmentText } from '../src/domain/segmentation/segmenter.js';
import { onCleanUp } from './api.bench.js';
import { catalogPairs, LARGE_LANGUAGES, LOCALE_DIR, prng, shuffled, variantOf } from './tm-data.js';

/** Control characters XML 1.0 does not allow (and C1 controls), U+FFFE/U+FFFF and lone surrogates. */
const NOT_IN_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Private-use characters: the import reads them as inline tags, so they are left out of the data. */
const PRIVATE_USE = /[\ue000-\uf8ff]/g;

const cleanText = (text: string) => text.replace(NOT_IN_XML, '').replace(PRIVATE_USE, '').replace(/\s+/g, ' ').trim();
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const TMX_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="opentms-analysis-bench" creationtoolversion="1" segtype="sentence" o-tmf="opentms" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n';
const TMX_TAIL = '  </body>\n</tmx>\n';

export interface DataSettings {
  tmUnits: number;
  segments: number;
  /** Segments of one job file at most. */
  fileSegments: number;
  /** Share of the de catalogs' distinct sources kept out of the TM. */
  heldOut: number;
  seed: number;
}

export interface JobFile {
  name: string;
  path: string;
  bytes: number;
  lines: number;
  segments: number;
}

export interface AnalysisData {
  folder: string;
  tmx: { path: string; bytes: number; units: number; real: number; variants: number; heldOut: number; generationMs: number };
  files: JobFile[];
  segments: {
    total: number;
    /** Distinct texts (whitespace folded) among the segments. */
    distinct: number;
    /** total − distinct: what the analysis counts as repetitions (before non-translatables). */
    repeated: number;
    /** Of the distinct segment texts: a TM unit's source as it is, held out, neither. */
    distinctInTm: number;
    distinctHeldOut: number;
    distinctElsewhere: number;
    /** Languages whose catalogs' English sources make up the files, in order. */
    languages: string[];
    /** The catalogs were used more than once to reach the size. */
    cycled: boolean;
    generationMs: number;
  };
}

/** Writes the TM's TMX and the job files; a string says why it cannot (no de catalogs). */
export async function generateAnalysisData(settings: DataSettings): Promise<AnalysisData | string> {
  const began = performance.now();
  const dePairs = catalogPairs('de');
  if (dePairs === null) return `no de catalogs under ${LOCALE_DIR}`;
  const targetOf = new Map<string, string>();
  for (const [rawSource, rawTarget] of dePairs) {
    const source = cleanText(rawSource);
    const target = cleanText(rawTarget);
    if (source === '' || target === '' || targetOf.has(source)) continue;
    targetOf.set(source, target);
  }
  const random = prng(settings.seed);
  const distinct = shuffled([...targetOf.keys()], random);
  const heldCount = Math.round(distinct.length * settings.heldOut);
  const held = new Set(distinct.slice(0, heldCount));

  const folder = mkdtempSync(join(tmpdir(), 'opentms-analysis-bench-'));
  onCleanUp(`temporary folder ${folder}`, () => rmSync(folder, { recursive: true, force: true }));

  // The TM: the kept sources in catalog order, then variants of random sources.
  const tmxPath = join(folder, 'memory.tmx');
  const out = createWriteStream(tmxPath);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const tmSources = new Set<string>();
  let chunk = TMX_HEAD;
  const add = async (source: string, target: string) => {
    tmSources.add(source);
    chunk += `    <tu><tuv xml:lang="en"><seg>${escapeXml(source)}</seg></tuv><tuv xml:lang="de"><seg>${escapeXml(target)}</seg></tuv></tu>\n`;
    if (chunk.length >= 1 << 20) {
      const data = chunk;
      chunk = '';
      if (!out.write(data)) await Promise.race([once(out, 'drain'), failed]);
    }
  };
  for (const [source, target] of targetOf) {
    if (tmSources.size >= settings.tmUnits) break;
    if (!held.has(source)) await add(source, target);
  }
  const real = tmSources.size;
  let attempts = 0;
  while (tmSources.size < settings.tmUnits && attempts < settings.tmUnits * 10) {
    attempts++;
    const base = distinct[Math.floor(random() * distinct.length)]!;
    let variant = variantOf(base, random);
    if (random() < 0.3) variant = variantOf(variant, random);
    variant = cleanText(variant);
    if (variant === '' || tmSources.has(variant) || held.has(variant) || targetOf.has(variant)) continue;
    await add(variant, targetOf.get(base)!);
  }
  chunk += TMX_TAIL;
  out.write(chunk);
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  const tmxMs = performance.now() - began;

  // The job files: catalog messages, language after language, until the wanted segments.
  const segmentsBegan = performance.now();
  const files: JobFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  let repeated = 0;
  let inTm = 0;
  let heldOutTexts = 0;
  let elsewhere = 0;
  const languages: string[] = [];
  let cycled = false;
  let lines: string[] = [];
  let fileSegments = 0;
  const flush = (lang: string) => {
    if (lines.length === 0) return;
    const name = `${lang}-${String(files.filter((file) => file.name.startsWith(`${lang}-`)).length + 1).padStart(2, '0')}.txt`;
    const path = join(folder, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    files.push({ name, path, bytes: statSync(path).size, lines: lines.length, segments: fileSegments });
    lines = [];
    fileSegments = 0;
  };
  outer: for (let round = 0; round < 50; round++) {
    let added = false;
    for (const lang of LARGE_LANGUAGES) {
      const pairs = lang === 'de' ? dePairs : catalogPairs(lang);
      if (pairs === null) continue;
      let previous: string | null = null;
      let used = false;
      for (const [rawSource] of pairs) {
        const source = cleanText(rawSource);
        // The script lists a message once per translation: the same source twice in a row is one message.
        if (source === '' || source === previous) continue;
        previous = source;
        const pieces = segmentText(source, 'en')
          .map((piece) => piece.text.replace(/\s+/g, ' ').trim())
          .filter((text) => text !== '');
        if (pieces.length === 0 || total + pieces.length > settings.segments) continue;
        lines.push(source);
        used = true;
        added = true;
        fileSegments += pieces.length;
        total += pieces.length;
        for (const text of pieces) {
          if (seen.has(text)) {
            repeated++;
            continue;
          }
          seen.add(text);
          if (tmSources.has(text)) inTm++;
          else if (held.has(text)) heldOutTexts++;
          else elsewhere++;
        }
        if (fileSegments >= settings.fileSegments) flush(lang);
        if (total >= settings.segments) {
          flush(lang);
          if (!languages.includes(lang)) languages.push(lang);
          break outer;
        }
      }
      flush(lang);
      if (used && !languages.includes(lang)) languages.push(lang);
      if (round > 0) cycled = true;
    }
    if (!added) break;
  }
  return {
    folder,
    tmx: {
      path: tmxPath,
      bytes: statSync(tmxPath).size,
      units: tmSources.size,
      real,
      variants: tmSources.size - real,
      heldOut: heldCount,
      generationMs: tmxMs,
    },
    files,
    segments: {
      total,
      distinct: seen.size,
      repeated,
      distinctInTm: inTm,
      distinctHeldOut: heldOutTexts,
      distinctElsewhere: elsewhere,
      languages,
      cycled,
      generationMs: performance.now() - segmentsBegan,
    },
  };
}

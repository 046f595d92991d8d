import { abortable } from '../../../../outbound/http-client.js';
import { Buffer } from 'node:buffer';
import { MtEngineError } from './engine.js';
import type { EngineLimits, EngineStatus, LanguagePair, MtEngine, TranslateBatch } from './engine.js';
import { describeUrl, engineRequest, retryPolicy } from './http-retry.js';
import type { EngineResponse, FetchImpl, RetryPolicy } from './http-retry.js';

/**
 * Apertium, through its HTTP server apertium-apy (`POST /translate`, `GET /listPairs`).
 *
 * What apy does, measured on apertium-apy 0.11.7 (Debian), and what this engine does about it:
 *
 * - apy cuts a request's text into at most 10 parts of up to PIPE_BUF (4096) bytes — 1000
 *   characters while more than 2 requests share a pipeline — and silently drops whatever is left
 *   after the 10th (a 42,888-character request came back with 952 of its 1,000 texts). So a
 *   request here carries at most 4,000 UTF-8 bytes of text, which apy never cuts while it is not
 *   busy and never truncates at all; a longer text is cut here, at sentence ends or line breaks
 *   (else at a space, else anywhere outside a tag), and its pieces are translated separately.
 * - Texts are packed into one request joined by `<hr>.<hr>`. Apertium's HTML deformatter ends a
 *   sentence at a block tag, and the `.` between the two rules is a sentence end of its own, so
 *   no word moves from one text to another (with "\n\n" as separator they do: a blank line is
 *   no sentence end, and "Tom & Jerry" next to "tab here" came back as "tabulador & de Jerry del
 *   Tom"; with a lone `<hr>` a text ending in an abbreviation such as "Mr" or "No" swallows the
 *   sentence end). Measured: 6,000 texts in random packs over five pairs came back exactly as
 *   translated one by one. A text whose `<` does not open a complete tag, or that holds `<hr`,
 *   `<script` or `<style` (which would swallow the separator), travels alone. If a response
 *   splits into a different number of parts, that request's texts are translated one by one.
 * - apy strips leading and trailing whitespace of the whole text: each text's own is kept here
 *   and put back. Empty and whitespace-only texts are answered without the engine.
 * - `markUnknown=no` makes apy delete every `*` that precedes a word, the source's own
 *   asterisks included ("*Required field" → "Campo requerido"): literal asterisks travel as a
 *   tag, which Apertium passes through, and are put back.
 * - Inline tags (`<g1>`, `</g1>`, `<x2/>`) come back untouched (they are superblanks), so the
 *   engine keeps markup.
 * - apy's API keys (`-ak`) are optional and only logged; `apiKey` is sent as its `key` field.
 */

export interface ApertiumEngineOptions {
  /** Base URL of apy, e.g. http://127.0.0.1:2737 (a path prefix is kept: https://host/apy). */
  url: string;
  /** Sent as apy's `key` field when set. */
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  fetchImpl?: FetchImpl;
}

export const APERTIUM_LIMITS: Readonly<EngineLimits> = Object.freeze({
  maxTextsPerRequest: 100,
  maxCharsPerRequest: 4_000,
  concurrency: 2,
});

/** How long the answer of /listPairs is used before it is asked again. */
const PAIRS_TTL_MS = 60_000;
const STATUS_POLICY: RetryPolicy = { timeoutMs: 3_000, attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

/** Between two texts of one request: a block tag, a sentence end of its own, a block tag. */
const SEPARATOR = '<hr>.<hr>';
const SEPARATOR_BYTES = Buffer.byteLength(SEPARATOR);
/** A literal `*` on its way through apy (whose markUnknown=no would delete it). */
const ASTERISK = '<x-opentms-asterisk/>';
/** A complete tag: what Apertium's HTML deformatter turns into a superblank. */
const TAG = /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/g;
const SWALLOWING_TAG = /<(?:hr|script|style)\b/i;

/** OpenTMS base language → Apertium's ISO 639-3 code. A 3-letter OpenTMS code not listed is used as it is. */
const ISO639_3: Readonly<Record<string, string>> = Object.freeze({
  en: 'eng',
  es: 'spa',
  ca: 'cat',
  fr: 'fra',
  pt: 'por',
  it: 'ita',
  de: 'deu',
  gl: 'glg',
  oc: 'oci',
  eu: 'eus',
  ro: 'ron',
  nb: 'nob',
  nn: 'nno',
  no: 'nob',
  sv: 'swe',
  da: 'dan',
  an: 'arg',
  is: 'isl',
  fo: 'fao',
  cy: 'cym',
  br: 'bre',
  ga: 'gle',
  gd: 'gla',
  mt: 'mlt',
  sc: 'srd',
  co: 'cos',
  nl: 'nld',
  af: 'afr',
  fy: 'fry',
  cs: 'ces',
  sk: 'slk',
  pl: 'pol',
  sl: 'slv',
  hr: 'hrv',
  sr: 'srp',
  bs: 'bos',
  mk: 'mkd',
  bg: 'bul',
  be: 'bel',
  ru: 'rus',
  uk: 'ukr',
  lt: 'lit',
  lv: 'lav',
  et: 'est',
  fi: 'fin',
  se: 'sme',
  hu: 'hun',
  el: 'ell',
  sq: 'sqi',
  eo: 'epo',
  la: 'lat',
  tr: 'tur',
  az: 'aze',
  kk: 'kaz',
  ky: 'kir',
  tt: 'tat',
  ba: 'bak',
  cv: 'chv',
  uz: 'uzb',
  hy: 'hye',
  ka: 'kat',
  ar: 'ara',
  he: 'heb',
  hi: 'hin',
  ur: 'urd',
  id: 'ind',
  ms: 'msa',
});
const FROM_ISO639_3: ReadonlyMap<string, string> = new Map(
  Object.entries(ISO639_3)
    .filter(([code]) => /^[a-z]{2}$/.test(code))
    .reverse()
    .map(([code, iso3]) => [iso3, code]),
);

/** The Apertium base code of an OpenTMS code's language, or null when there is none. */
export function apertiumBaseCode(openTmsCode: string): string | null {
  const base = openTmsCode.trim().toLowerCase().replace(/-/g, '_').split('_')[0] ?? '';
  return ISO639_3[base] ?? (/^[a-z]{3}$/.test(base) ? base : null);
}

/**
 * The Apertium codes an OpenTMS code may stand for, most specific first: the whole variant
 * (`en_us` → `eng_us`, `ca_valencia` → `cat_valencia`), each part of it alone
 * (`ca_es_valencia` → `cat_es`, `cat_valencia`), then the base (`eng`). Lowercase: the server's
 * codes are matched without regard to case (`eng_US`).
 */
export function apertiumCodeCandidates(openTmsCode: string): string[] {
  const base = apertiumBaseCode(openTmsCode);
  if (base === null) return [];
  const parts = openTmsCode.trim().toLowerCase().replace(/-/g, '_').split('_').slice(1).filter(Boolean);
  const candidates = parts.length ? [`${base}_${parts.join('_')}`, ...parts.map((part) => `${base}_${part}`)] : [];
  return [...new Set([...candidates, base])];
}

/** An Apertium code as an OpenTMS code: `eng_US` → `en_us`, `cat_valencia` → `ca_valencia`, `ast` → `ast`. */
export function openTmsCode(apertiumCode: string): string {
  const [base = '', ...rest] = apertiumCode.toLowerCase().split('_');
  return [FROM_ISO639_3.get(base) ?? base, ...rest].join('_');
}

interface ApertiumPair {
  source: string;
  target: string;
}

/** One text on its way: its whitespace, and its content cut into pieces (one unless long). */
interface PreparedText {
  lead: string;
  trail: string;
  pieces: Piece[];
  /** Between piece i and i+1, as in the source. */
  glues: string[];
  asterisks: boolean;
}

interface Piece {
  payload: string;
  bytes: number;
  packable: boolean;
  output: string | null;
}

export function createApertiumEngine(options: ApertiumEngineOptions): MtEngine {
  const base = parseBaseUrl(options.url);
  const what = `Apertium at ${describeUrl(base)}`;
  const policy = retryPolicy(options.retry);
  const fetchImpl = options.fetchImpl ?? fetch;
  const limits: EngineLimits = { ...APERTIUM_LIMITS };
  const endpoint = (path: string) => new URL(path, base).href;

  let pairsCache: { pairs: ApertiumPair[]; expires: number } | null = null;
  let pairsLoading: Promise<ApertiumPair[]> | null = null;

  async function fetchPairs(requestPolicy: RetryPolicy, signal?: AbortSignal): Promise<ApertiumPair[]> {
    const response = await engineRequest(endpoint('listPairs'), { method: 'GET', what }, requestPolicy, signal, fetchImpl);
    if (response.status !== 200) throw new MtEngineError('ENGINE_ERROR', `${what} answered HTTP ${response.status} to /listPairs`, false);
    const data = parseJson(response)?.responseData;
    if (!Array.isArray(data)) throw new MtEngineError('BAD_RESPONSE', `${what} answered /listPairs without a list of pairs`, false);
    const pairs: ApertiumPair[] = [];
    for (const entry of data as unknown[]) {
      const { sourceLanguage, targetLanguage } = (entry ?? {}) as Record<string, unknown>;
      if (typeof sourceLanguage === 'string' && typeof targetLanguage === 'string')
        pairs.push({ source: sourceLanguage, target: targetLanguage });
    }
    pairsCache = { pairs, expires: Date.now() + PAIRS_TTL_MS };
    return pairs;
  }

  async function installedPairs(signal?: AbortSignal): Promise<ApertiumPair[]> {
    if (pairsCache && pairsCache.expires > Date.now()) return pairsCache.pairs;
    // Concurrent callers share one request (each still stops at its own abort).
    pairsLoading ??= fetchPairs(policy).finally(() => {
      pairsLoading = null;
    });
    return signal ? abortable(pairsLoading, signal) : pairsLoading;
  }

  async function resolvePair(sourceLang: string, targetLang: string, signal?: AbortSignal): Promise<ApertiumPair> {
    const installed = new Map((await installedPairs(signal)).map((pair) => [`${pair.source}|${pair.target}`.toLowerCase(), pair]));
    for (const source of apertiumCodeCandidates(sourceLang)) {
      for (const target of apertiumCodeCandidates(targetLang)) {
        const pair = installed.get(`${source}|${target}`);
        if (pair) return pair;
      }
    }
    throw new MtEngineError('PAIR_NOT_SUPPORTED', `${what} has no pair ${sourceLang} → ${targetLang} installed`, false);
  }

  async function translateText(pair: ApertiumPair, q: string, signal: AbortSignal): Promise<string> {
    const form = new URLSearchParams({ langpair: `${pair.source}|${pair.target}`, q, markUnknown: 'no' });
    if (options.apiKey) form.set('key', options.apiKey);
    const response = await engineRequest(endpoint('translate'), { method: 'POST', body: form, what }, policy, signal, fetchImpl);
    const json = parseJson(response);
    if (response.status === 200) {
      const data = json?.responseData as Record<string, unknown> | undefined;
      if (typeof data?.translatedText !== 'string')
        throw new MtEngineError('BAD_RESPONSE', `${what} answered /translate without a translation`, false);
      return data.translatedText;
    }
    const explanation = typeof json?.explanation === 'string' ? json.explanation.slice(0, 200) : '';
    if (response.status === 400 && /not installed|pair is invalid/i.test(explanation)) {
      pairsCache = null;
      throw new MtEngineError('PAIR_NOT_SUPPORTED', `${what} has no pair ${pair.source} → ${pair.target} installed`, false);
    }
    throw new MtEngineError(
      'ENGINE_ERROR',
      `${what} answered HTTP ${response.status} to /translate${explanation ? `: ${explanation}` : ''}`,
      false,
    );
  }

  /** One request: several pieces joined by the separator, or one piece alone. */
  async function translateRequest(pair: ApertiumPair, pieces: Piece[], signal: AbortSignal): Promise<void> {
    if (pieces.length === 1) {
      pieces[0]!.output = await translateText(pair, pieces[0]!.payload, signal);
      return;
    }
    const parts = (await translateText(pair, pieces.map((piece) => piece.payload).join(SEPARATOR), signal)).split(SEPARATOR);
    if (parts.length === pieces.length) {
      pieces.forEach((piece, i) => (piece.output = parts[i]!));
      return;
    }
    for (const piece of pieces) piece.output = await translateText(pair, piece.payload, signal);
  }

  return {
    type: 'Apertium',
    keepsMarkup: true,
    limits,

    async languagePairs(signal) {
      const seen = new Set<string>();
      const pairs: LanguagePair[] = [];
      for (const pair of await installedPairs(signal)) {
        const sourceLang = openTmsCode(pair.source);
        const targetLang = openTmsCode(pair.target);
        const key = `${sourceLang}|${targetLang}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push({ sourceLang, targetLang });
      }
      return pairs;
    },

    async translate(batch: TranslateBatch, signal?: AbortSignal) {
      signal?.throwIfAborted();
      const maxBytes = limits.maxCharsPerRequest;
      const texts = batch.texts.map((text) => prepareText(text, maxBytes));
      const pieces = texts.flatMap((text) => (text === null ? [] : text.pieces));
      if (pieces.length > 0) {
        const pair = await resolvePair(batch.sourceLang, batch.targetLang, signal);
        const requests = packRequests(pieces, limits.maxTextsPerRequest, maxBytes);
        await inPool(requests, limits.concurrency, signal, (request, innerSignal) => translateRequest(pair, request, innerSignal));
      }
      return batch.texts.map((source, i) => {
        const text = texts[i];
        if (!text) return source;
        let output = text.pieces.map((piece, k) => (k > 0 ? text.glues[k - 1]! : '') + piece.output!).join('');
        if (text.asterisks) output = output.split(ASTERISK).join('*');
        return text.lead + output + text.trail;
      });
    },

    async status(signal?: AbortSignal): Promise<EngineStatus> {
      try {
        await fetchPairs(STATUS_POLICY, signal);
        return { ok: true, error: null };
      } catch (error) {
        if (error instanceof MtEngineError) return { ok: false, error: error.message };
        if (signal?.aborted) return { ok: false, error: `${what}: the status check was cancelled` };
        return { ok: false, error: `${what}: ${error instanceof Error ? error.name : 'unexpected error'}` };
      }
    },
  };
}

function parseBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MtEngineError('ENGINE_ERROR', 'Apertium: url is not a valid URL', false);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new MtEngineError('ENGINE_ERROR', 'Apertium: url must be an http or https URL', false);
  if (parsed.username || parsed.password)
    throw new MtEngineError('ENGINE_ERROR', 'Apertium: url must not hold credentials (use the apiKey secret)', false);
  parsed.search = '';
  parsed.hash = '';
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return parsed;
}

function parseJson(response: EngineResponse): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(response.body);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A text's whitespace and pieces; null for an empty or whitespace-only text (answered as it is). */
function prepareText(text: string, maxBytes: number): PreparedText | null {
  const core = text.trim();
  if (core === '') return null;
  const lead = text.slice(0, text.length - text.trimStart().length);
  const trail = text.slice(text.trimEnd().length);
  const asterisks = core.includes('*') && !core.includes(ASTERISK);
  const payload = asterisks ? core.split('*').join(ASTERISK) : core;
  const { pieces, glues } = splitLong(payload, maxBytes);
  return {
    lead,
    trail,
    glues,
    asterisks,
    pieces: pieces.map((piece) => ({ payload: piece, bytes: Buffer.byteLength(piece), packable: isPackable(piece), output: null })),
  };
}

/** Whether a piece may share a request: every `<` opens a complete tag, and no tag swallows what follows. */
export function isPackable(text: string): boolean {
  return !text.replace(TAG, '').includes('<') && !SWALLOWING_TAG.test(text);
}

/** Pieces into requests, in order: at most `maxTexts` pieces and `maxBytes` bytes (separators included) each. */
function packRequests(pieces: Piece[], maxTexts: number, maxBytes: number): Piece[][] {
  const requests: Piece[][] = [];
  let current: Piece[] = [];
  let bytes = 0;
  const flush = () => {
    if (current.length) requests.push(current);
    current = [];
    bytes = 0;
  };
  for (const piece of pieces) {
    if (!piece.packable) {
      flush();
      requests.push([piece]);
      continue;
    }
    if (current.length && (current.length >= maxTexts || bytes + SEPARATOR_BYTES + piece.bytes > maxBytes)) flush();
    bytes += (current.length ? SEPARATOR_BYTES : 0) + piece.bytes;
    current.push(piece);
  }
  flush();
  return requests;
}

/**
 * A text longer than `maxBytes` (UTF-8) in pieces of at most that many bytes, with the
 * whitespace between them: cut after the last sentence end or line break that fits, else at the
 * last space, else at the limit — never inside a tag or a surrogate pair.
 */
export function splitLong(text: string, maxBytes: number): { pieces: string[]; glues: string[] } {
  const pieces: string[] = [];
  const glues: string[] = [];
  let rest = text;
  while (Buffer.byteLength(rest) > maxBytes) {
    const limit = charsWithin(rest, maxBytes);
    const window = rest.slice(0, limit + 1);
    const cut = lastCut(window, /(?<=[.!?…;:。！？]["'”’»)\]]*)\s+|\n\s*/g) ?? lastCut(window, /\s+/g);
    if (cut) {
      // The whitespace run may go on past the window: all of it is glue.
      let end = cut.end;
      while (end < rest.length && /\s/.test(rest[end]!)) end += 1;
      pieces.push(rest.slice(0, cut.start));
      glues.push(rest.slice(cut.start, end));
      rest = rest.slice(end);
    } else {
      let at = limit;
      const open = rest.lastIndexOf('<', at - 1);
      if (open > 0 && open > rest.lastIndexOf('>', at - 1)) at = open;
      pieces.push(rest.slice(0, at));
      glues.push('');
      rest = rest.slice(at);
    }
  }
  pieces.push(rest);
  return { pieces, glues };
}

/** The last match of `pattern` (a whitespace run) in `window` that is not at its start and not inside a tag. */
function lastCut(window: string, pattern: RegExp): { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  for (const match of window.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (start === 0) continue;
    if (window.lastIndexOf('<', start - 1) > window.lastIndexOf('>', start - 1)) continue;
    found = { start, end };
  }
  return found;
}

/** How many UTF-16 units of `text`, from its start, fit in `maxBytes` of UTF-8 without cutting a character. */
function charsWithin(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += code >= 0x10000 ? 2 : 1;
  }
  return Math.max(i, 1);
}

/** Runs `work` on every item, `concurrency` at a time; the first failure stops the rest and is thrown. */
async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  const inner = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item, inner);
      } catch (error) {
        if (failure === null) {
          failure = { error };
          stop.abort();
        }
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

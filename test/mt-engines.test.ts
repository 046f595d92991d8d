import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENGINE_TYPES,
  MtEngineError,
  apertiumCodeCandidates,
  createApertiumEngine,
  createEngine,
  engineRequest,
  openTmsCode,
} from '../src/modules/language-resources/machine-translation/engines/index.js';
import type { FetchImpl, MtEngine } from '../src/modules/language-resources/machine-translation/engines/index.js';
import { apertiumUrl, freePort } from './support/apertium.js';

/**
 * Issue 17: the machine translation engines behind one interface — Apertium against a real
 * apertium-apy (test/support/apertium.ts finds or starts one), the request/retry layer against
 * tiny local servers, and the registry of engine types.
 */

const url = await apertiumUrl();
if (!url)
  console.warn(
    'apertium-apy is not installed: the Apertium engine tests are skipped (apt-get install apertium-apy apertium-eng-spa apertium-eng-cat)',
  );

/** A fetch that records the form fields of every request it passes on. */
function recordingFetch(): { fetchImpl: FetchImpl; requests: Array<{ path: string; form: URLSearchParams | null }> } {
  const requests: Array<{ path: string; form: URLSearchParams | null }> = [];
  const fetchImpl: FetchImpl = (input, init) => {
    const body = init?.body;
    requests.push({ path: new URL(String(input)).pathname, form: body instanceof URLSearchParams ? new URLSearchParams(body) : null });
    return fetch(input, init);
  };
  return { fetchImpl, requests };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.skipIf(!url)(`Apertium engine against apertium-apy (${url ?? 'none'})`, () => {
  const recorder = recordingFetch();
  let engine: MtEngine;
  let pairs: Array<{ sourceLang: string; targetLang: string }>;
  beforeAll(async () => {
    engine = createApertiumEngine({ url: url!, fetchImpl: recorder.fetchImpl });
    pairs = await engine.languagePairs();
  });

  it('lists its language pairs in OpenTMS codes and is reachable', async () => {
    expect(pairs).toContainEqual({ sourceLang: 'en', targetLang: 'es' });
    expect(pairs).toContainEqual({ sourceLang: 'en', targetLang: 'ca' });
    expect(
      pairs.every((pair) => /^[a-z]{2,3}(_[a-z0-9]+)*$/.test(pair.sourceLang) && /^[a-z]{2,3}(_[a-z0-9]+)*$/.test(pair.targetLang)),
    ).toBe(true);
    expect(await engine.status()).toEqual({ ok: true, error: null });
    expect(engine).toMatchObject({ type: 'Apertium', keepsMarkup: true });
  });

  it('translates English into Spanish and Catalan', async () => {
    const texts = ['The red car is fast.', 'The dog eats an apple.', 'I have two houses.'];
    const spanish = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts });
    expect(spanish).toHaveLength(3);
    expect(spanish[0]).toMatch(/coche/);
    expect(spanish[1]).toMatch(/perro/);
    expect(spanish[2]).toMatch(/casas/);
    const catalan = await engine.translate({ sourceLang: 'en', targetLang: 'ca', texts });
    expect(catalan[0]).toMatch(/cotxe|carro/);
    expect(catalan[1]).toMatch(/gos/);
    expect(catalan[2]).toMatch(/cases/);
    // Every request asks for no unknown-word marks.
    const translations = recorder.requests.filter((request) => request.path.endsWith('/translate'));
    expect(translations.length).toBeGreaterThan(0);
    expect(translations.every((request) => request.form?.get('markUnknown') === 'no')).toBe(true);
  });

  it('translates 250 texts in several requests, in order, as one by one', async () => {
    const words = ['car', 'dog', 'house', 'book', 'tree', 'cat', 'table', 'window', 'door', 'street'];
    const adjectives = ['red', 'big', 'old', 'new', 'small'];
    const texts = Array.from({ length: 250 }, (_, i) => {
      const text = `The ${adjectives[i % 5]} ${words[i % 10]} number ${i} is here`;
      return i % 3 === 0 ? text : `${text}.`; // some without a sentence end
    });
    const before = recorder.requests.length;
    const batch = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts });
    const requests = recorder.requests.length - before;
    expect(batch).toHaveLength(250);
    expect(requests).toBeGreaterThanOrEqual(3);
    batch.forEach((translation, i) => expect(translation).toContain(String(i)));
    // One by one (apy takes ~40 ms a request): every text without a sentence end, and every 7th other.
    const sample = texts.map((_, i) => i).filter((i) => i % 3 === 0 || i % 7 === 1);
    const oneByOne: string[] = [];
    for (let start = 0; start < sample.length; start += 10) {
      const slice = sample.slice(start, start + 10);
      oneByOne.push(
        ...(await Promise.all(
          slice.map(async (i) => (await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: [texts[i]!] }))[0]!),
        )),
      );
    }
    expect(sample.map((i) => batch[i])).toEqual(oneByOne);
  });

  it('keeps newlines, surrounding whitespace and empty texts; empty batches ask nothing', async () => {
    const before = recorder.requests.length;
    expect(await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['', '   ', '\n'] })).toEqual(['', '   ', '\n']);
    expect(await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: [] })).toEqual([]);
    expect(recorder.requests.length).toBe(before);

    const texts = [
      'First line.\nSecond line.',
      'One paragraph.\n\nAnother paragraph.',
      '',
      '  The dog.  ',
      'The cat.\n',
      '\n\nThe house.',
      'x\r\ny',
    ];
    const out = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts });
    expect(out).toHaveLength(texts.length);
    expect(out[0]!.split('\n')).toHaveLength(2);
    expect(out[1]).toMatch(/^[^\n]+\n\n[^\n]+$/);
    expect(out[2]).toBe('');
    expect(out[3]).toMatch(/^ {2}\S.*perro\. {2}$/);
    expect(out[4]).toMatch(/gato\.\n$/);
    expect(out[5]).toMatch(/^\n\n\S.*casa\.$/);
    expect(out[6]).toMatch(/\r\n/);
  });

  it('passes inline tags through and leaves no unknown-word marks', async () => {
    const texts = [
      'Click <g1>here</g1> to <x2/> continue.',
      '<g1>The red car</g1> is <g2>fast</g2>.',
      'Flibbertygibbet wugs are zorbling.',
      '*Required field',
      'The <x1/>dog <g3>eats</g3>',
    ];
    const out = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts });
    expect(out[0]).toMatch(/<g1>.+<\/g1>.*<x2\/>/);
    expect(out[1]).toContain('<g1>');
    expect(out[1]).toContain('</g1>');
    expect(out[1]).toMatch(/<g2>.+<\/g2>/);
    expect(out[2]).not.toContain('*');
    expect(out[2]).toContain('Flibbertygibbet');
    expect(out[3]).toMatch(/^\*\S/); // the source's own asterisk stays (apy alone would drop it)
    expect(out[4]).toContain('<x1/>');
    expect(out[4]).toMatch(/<g3>.+<\/g3>/);
  });

  it('keeps texts apart: an abbreviation at the end of one does not pull words from the next', async () => {
    const texts = ['Yes', 'No', 'Cancel', 'Mr', 'Smith house', 'Tom & Jerry', 'tab here', 'if a<b then', 'The big dog'];
    const batch = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts });
    const single = await Promise.all(
      texts.map(async (text) => (await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: [text] }))[0]),
    );
    expect(batch).toEqual(single);
  });

  it('cuts a text longer than a request into pieces and joins them back', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `The red car number ${i} is fast.`).join(' ');
    expect(text.length).toBeGreaterThan(engine.limits.maxCharsPerRequest * 2);
    const [out] = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: [text] });
    expect(out!.match(/rojo/g)).toHaveLength(300); // 'red car number' → 'número automovilístico rojo'
    expect(out).toContain('299');
  });

  it('uses a regional variant the server has (ca_valencia → cat_valencia), else the base language', async () => {
    const hasValencian = pairs.some((pair) => pair.sourceLang === 'en' && pair.targetLang === 'ca_valencia');
    const before = recorder.requests.length;
    await engine.translate({ sourceLang: 'en_gb', targetLang: 'ca_valencia', texts: ['The red car.'] });
    const langpairs = recorder.requests.slice(before).map((request) => request.form?.get('langpair'));
    expect(langpairs).toEqual([hasValencian ? 'eng|cat_valencia' : 'eng|cat']);
  });

  it('answers an unsupported pair with PAIR_NOT_SUPPORTED (not retryable)', async () => {
    const target = pairs.some((pair) => pair.sourceLang === 'en' && pair.targetLang === 'de') ? 'xh' : 'de';
    const error = await caught(engine.translate({ sourceLang: 'en', targetLang: target, texts: ['The red car.'] }));
    expect(error).toBeInstanceOf(MtEngineError);
    expect(error).toMatchObject({ code: 'PAIR_NOT_SUPPORTED', retryable: false });
    const unknownLanguage = await caught(engine.translate({ sourceLang: 'en', targetLang: 'zz_top', texts: ['x'] }));
    expect(unknownLanguage).toMatchObject({ code: 'PAIR_NOT_SUPPORTED' });
  });
});

describe('engine requests: retries, time limits and failures (local servers)', () => {
  const servers: Server[] = [];
  async function serve(
    handler: (request: IncomingMessage, response: ServerResponse, count: number) => void,
  ): Promise<{ url: string; count: () => number }> {
    let count = 0;
    const server = createServer((request, response) => {
      count += 1;
      handler(request, response, count);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => count };
  }
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const fast = { timeoutMs: 1_000, attempts: 3, baseDelayMs: 10, maxDelayMs: 50 };
  const pairsBody = JSON.stringify({ responseData: [{ sourceLanguage: 'eng', targetLanguage: 'spa' }], responseStatus: 200 });

  it('reports an engine with nothing listening as unreachable, after its retries, within a bounded time', async () => {
    const port = await freePort();
    let calls = 0;
    const fetchImpl: FetchImpl = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const engine = createApertiumEngine({ url: `http://127.0.0.1:${port}`, retry: fast, fetchImpl });
    const status = await engine.status();
    expect(status.ok).toBe(false);
    expect(status.error).toMatch(/unreachable.*ECONNREFUSED/);
    calls = 0;
    const started = Date.now();
    const error = await caught(engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['The red car.'] }));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(MtEngineError);
    expect(error).toMatchObject({ code: 'UNREACHABLE', retryable: true });
    expect(calls).toBe(3);
  });

  it('retries HTTP 429 (Retry-After: 0) and succeeds', async () => {
    const server = await serve((request, response, count) => {
      if (request.url === '/listPairs') return void response.end(pairsBody);
      if (count <= 3) {
        response.writeHead(429, { 'Retry-After': '0' });
        return void response.end('slow down');
      }
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(body);
          // The success: from the real apy when there is one, else an echo.
          if (url) {
            const upstream = await fetch(`${url}/translate`, { method: 'POST', body: form });
            response.writeHead(upstream.status, { 'Content-Type': 'application/json' });
            response.end(await upstream.text());
          } else {
            response.end(JSON.stringify({ responseData: { translatedText: form.get('q')!.toUpperCase() }, responseStatus: 200 }));
          }
        })();
      });
    });
    const engine = createApertiumEngine({ url: server.url, retry: fast });
    const [out] = await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['The red car.'] });
    expect(out).toMatch(url ? /coche/ : /THE RED CAR/);
    expect(server.count()).toBe(4); // listPairs, 429, 429, success
  });

  it('caps Retry-After at maxDelayMs and reports RATE_LIMITED after the last 429', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(429, { 'Retry-After': '3600' });
      response.end();
    });
    const started = Date.now();
    const error = await caught(engineRequest(`${server.url}/translate`, { method: 'POST', body: 'q=x' }, fast));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect(server.count()).toBe(3);
  });

  it('times out a server that never answers (TIMEOUT after the per-request time)', async () => {
    const server = await serve(() => {
      // never answers
    });
    const started = Date.now();
    const error = await caught(
      engineRequest(`${server.url}/listPairs`, { method: 'GET' }, { timeoutMs: 300, attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }),
    );
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true });
    expect((error as Error).message).toMatch(/300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);

    const engine = createApertiumEngine({ url: server.url, retry: { timeoutMs: 300, attempts: 2, baseDelayMs: 10, maxDelayMs: 20 } });
    expect(await caught(engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['x'] }))).toMatchObject({ code: 'TIMEOUT' });
  });

  it("stops at once on the caller's abort, without retrying", async () => {
    const server = await serve(() => {
      // never answers
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await caught(
      engineRequest(`${server.url}/listPairs`, { method: 'GET' }, { ...fast, timeoutMs: 5_000 }, controller.signal),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).not.toBeInstanceOf(MtEngineError);
    expect((error as Error).name).toBe('AbortError');
    expect(server.count()).toBe(1);
  });

  it('retries 5xx (ENGINE_ERROR) but never another 4xx; messages hold no credentials', async () => {
    const failing = await serve((request, response) => {
      if (request.url === '/listPairs') return void response.end(pairsBody);
      response.writeHead(503);
      response.end('{"status":"error","explanation":"internal error"}');
    });
    const engine = createApertiumEngine({ url: failing.url, apiKey: 'sekret-api-key-123', retry: fast });
    const error = await caught(engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['x'] }));
    expect(error).toMatchObject({ code: 'ENGINE_ERROR', retryable: true });
    expect((error as Error).message).toMatch(/HTTP 503/);
    expect((error as Error).message).not.toContain('sekret');
    expect(failing.count()).toBe(1 + 3);

    const missing = await serve((_request, response) => {
      response.writeHead(404);
      response.end('not found');
    });
    const notApy = createApertiumEngine({ url: missing.url, retry: fast });
    expect(await caught(notApy.languagePairs())).toMatchObject({ code: 'ENGINE_ERROR', retryable: false });
    expect(missing.count()).toBe(1);
    expect((await notApy.status()).error).toMatch(/HTTP 404/);
  });

  it('falls back to one text per request when a response splits into a different number of parts', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/listPairs') return void response.end(pairsBody);
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const q = new URLSearchParams(body).get('q')!;
        // Loses the separators: the answer cannot be split back.
        response.end(
          JSON.stringify({ responseData: { translatedText: q.split('<hr>.<hr>').join(' ').toUpperCase() }, responseStatus: 200 }),
        );
      });
    });
    const engine = createApertiumEngine({ url: server.url, retry: fast });
    expect(await engine.translate({ sourceLang: 'en', targetLang: 'es', texts: ['one', 'two', 'three'] })).toEqual(['ONE', 'TWO', 'THREE']);
    expect(server.count()).toBe(1 + 1 + 3);
  });
});

describe('engine types and language codes', () => {
  it('lists every engine type; only Apertium is available', () => {
    const types = ENGINE_TYPES.map((entry) => entry.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'Apertium',
        'GoogleTranslate',
        'DeepL',
        'AmazonTranslate',
        'MicrosoftTranslator',
        'ModernMT',
        'MemsourceTranslate',
      ]),
    );
    expect(new Set(types).size).toBe(types.length);
    for (const entry of ENGINE_TYPES) {
      if (entry.type === 'Apertium') expect(entry).toMatchObject({ available: true, reason: null, requiredArgs: ['url'] });
      else expect(entry).toMatchObject({ available: false, reason: 'not available in this installation: no test server' });
    }
    expect(() => createEngine('DeepL', {}, { apiKey: 'k' })).toThrow(/no test server/);
    expect(() => createEngine('NoSuchEngine', {}, {})).toThrow(/unknown/);
    const apertium = createEngine('Apertium', {}, {});
    expect(apertium).toMatchObject({
      type: 'Apertium',
      keepsMarkup: true,
      limits: { maxTextsPerRequest: 100, maxCharsPerRequest: 4_000, concurrency: 2 },
    });
    expect(() => createEngine('Apertium', { url: 'ftp://example.org' }, {})).toThrow(/http/);
  });

  it('maps OpenTMS codes to Apertium codes and back', () => {
    expect(apertiumCodeCandidates('en')).toEqual(['eng']);
    expect(apertiumCodeCandidates('en_us')).toEqual(['eng_us', 'eng']);
    expect(apertiumCodeCandidates('ca_valencia')).toEqual(['cat_valencia', 'cat']);
    expect(apertiumCodeCandidates('ca_es_valencia')).toEqual(['cat_es_valencia', 'cat_es', 'cat_valencia', 'cat']);
    expect(apertiumCodeCandidates('ast')).toEqual(['ast']);
    expect(apertiumCodeCandidates('nb_no')).toEqual(['nob_no', 'nob']);
    expect(apertiumCodeCandidates('zz')).toEqual([]);
    const table = {
      fr: 'fra',
      pt: 'por',
      it: 'ita',
      de: 'deu',
      gl: 'glg',
      oc: 'oci',
      eu: 'eus',
      ro: 'ron',
      nn: 'nno',
      sv: 'swe',
      da: 'dan',
      an: 'arg',
    };
    for (const [code, iso3] of Object.entries(table)) expect(apertiumCodeCandidates(code)).toEqual([iso3]);
    expect(openTmsCode('eng_US')).toBe('en_us');
    expect(openTmsCode('cat_valencia')).toBe('ca_valencia');
    expect(openTmsCode('nob')).toBe('nb');
    expect(openTmsCode('ast')).toBe('ast');
  });
});

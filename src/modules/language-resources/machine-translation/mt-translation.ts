import type { AppDeps } from '../../../deps.js';
import type { Id } from '../../../db/schema.js';
import { nowIso } from '../../../db/ids.js';
import { compileGlossary, protectTags, protectTerms, restoreTags, restoreTerms } from '../../../domain/machine-translation/index.js';
import type { CompiledGlossary, MtWarning, ProtectedText } from '../../../domain/machine-translation/index.js';
import { activeGlossaryEntries } from '../glossaries/index.js';
import { MtEngineError } from './engines/index.js';
import { cachedTranslations, rememberTranslations, storeTranslations, sweepMtCache } from './mt-cache.js';
import type { CacheScope } from './mt-cache.js';
import { engineOf } from './mt-engines.js';
import { charactersOf, countUsage, monthOf } from './mt-usage.js';
import type { MtSettingsRow } from './mt-settings.repository.js';

/**
 * Machine translation of segments (docs/machine-translation.md, "Translating a segment"): tags
 * protected (domain/machine-translation/tag-protection.ts), the active glossary's source terms
 * protected and its target terms put in (glossary-protection.ts), each distinct text asked of the
 * cache and only the missing ones sent to the engine, whose answers are cached and counted in one
 * transaction a chunk at a time.
 */

/** Texts sent to the engine per chunk: each chunk's answers are committed (cache and usage) before the next is sent. */
const ENGINE_CHUNK = 200;

export interface MtRequest {
  organizationId: Id;
  settings: MtSettingsRow;
  sourceLang: string;
  targetLang: string;
  /** Segments with inline tags as display tokens. */
  segments: readonly string[];
  /** Put the organization's active glossary for the pair in (default true). */
  useGlossary?: boolean;
  signal?: AbortSignal;
}

export interface MtSegmentResult {
  /** The translation; null when the engine could not give one (see `error`). */
  text: string | null;
  warnings: MtWarning[];
  error: { code: MtEngineError['code']; message: string } | null;
}

export interface MtOutcome {
  results: MtSegmentResult[];
  /** Characters sent to the engine by this call (cache hits send nothing). */
  charactersSent: number;
  /** Distinct texts answered from the cache, and sent to the engine. */
  cacheHits: number;
  engineTexts: number;
}

const glossaries = new Map<string, { version: string; compiled: CompiledGlossary }>();

async function glossaryFor(deps: AppDeps, organizationId: Id, sourceLang: string, targetLang: string): Promise<CompiledGlossary | null> {
  const active = await activeGlossaryEntries(deps.database.db, organizationId, sourceLang, targetLang);
  if (!active || active.entries.length === 0) return null;
  const key = `${active.glossary.id}|${sourceLang}|${targetLang}`;
  const version = String(active.glossary.version);
  const cached = glossaries.get(key);
  if (cached && cached.version === version) return cached.compiled;
  const compiled = compileGlossary(active.entries.map((entry) => ({ source: entry.sourceText, target: entry.targetText })));
  glossaries.set(key, { version, compiled });
  if (glossaries.size > 200) glossaries.delete(glossaries.keys().next().value!);
  return compiled;
}

interface Prepared {
  tags: ProtectedText;
  terms: ReturnType<typeof protectTerms>['terms'];
  /** Index into `texts` of the segment's engine text (-1: nothing to send). */
  main: number;
  pairs: Array<{ tag: number; at: number; terms: ReturnType<typeof protectTerms>['terms'] }>;
}

/**
 * Translates the segments; a failure of the engine leaves the segments it concerns with `text`
 * null and the error (nothing is thrown for it; the caller decides whether it is fatal).
 */
export async function translateSegments(deps: AppDeps, request: MtRequest): Promise<MtOutcome> {
  const { settings, sourceLang, targetLang } = request;
  const engine = engineOf(deps, settings);
  const mode = engine.keepsMarkup && Boolean(settings.includeTags) ? 'markup' : 'text';
  const glossary = request.useGlossary === false ? null : await glossaryFor(deps, request.organizationId, sourceLang, targetLang);

  // The distinct texts to translate, and where each segment's parts are among them.
  const texts: string[] = [];
  const indexOf = new Map<string, number>();
  const textIndex = (text: string) => {
    let at = indexOf.get(text);
    if (at === undefined) {
      at = texts.length;
      texts.push(text);
      indexOf.set(text, at);
    }
    return at;
  };
  const prepared: Prepared[] = request.segments.map((segment) => {
    const tags = protectTags(segment, mode);
    const main = glossary ? protectTerms(tags.engineText, glossary) : { text: tags.engineText, terms: [] };
    const pairs = tags.pairContents.map((pair) => {
      const protectedPair = glossary ? protectTerms(pair.text, glossary) : { text: pair.text, terms: [] };
      return { tag: pair.tag, at: protectedPair.text.trim() === '' ? -1 : textIndex(protectedPair.text), terms: protectedPair.terms };
    });
    return { tags, terms: main.terms, main: main.text.trim() === '' ? -1 : textIndex(main.text), pairs };
  });

  // The cache, then the engine for the rest, a chunk at a time.
  const scope: CacheScope = { mtSettingsId: settings.id, sourceLang, targetLang };
  const translations = await cachedTranslations(deps, scope, texts);
  const cacheHits = translations.reduce((sum, translation) => sum + (translation === undefined ? 0 : 1), 0);
  const failures = new Map<number, { code: MtEngineError['code']; message: string }>();
  const missing = translations.flatMap((translation, i) => (translation === undefined ? [i] : []));
  let charactersSent = 0;
  for (let from = 0; from < missing.length; from += ENGINE_CHUNK) {
    const chunk = missing.slice(from, from + ENGINE_CHUNK);
    const chunkTexts = chunk.map((i) => texts[i]!);
    let answers: string[];
    try {
      answers = await engine.translate({ sourceLang, targetLang, texts: chunkTexts }, request.signal);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      const failure =
        error instanceof MtEngineError
          ? { code: error.code, message: error.message }
          : { code: 'ENGINE_ERROR' as const, message: 'The engine failed without saying why.' };
      for (let rest = from; rest < missing.length; rest++) failures.set(missing[rest]!, failure);
      // A pair the engine does not have, an engine down after its retries: the later chunks would fail alike.
      break;
    }
    const characters = chunkTexts.reduce((sum, text) => sum + charactersOf(text), 0);
    const entries = chunk.map((i, k) => ({ text: texts[i]!, translation: answers[k]! }));
    await deps.database.db.transaction().execute(async (trx) => {
      await storeTranslations(trx, scope, entries, nowIso(deps.clock));
      await countUsage(trx, {
        organizationId: request.organizationId,
        mtSettingsUid: settings.uid,
        month: monthOf(deps.clock()),
        characters,
        requests: 1,
      });
    });
    rememberTranslations(scope, entries);
    charactersSent += characters;
    chunk.forEach((i, k) => (translations[i] = answers[k]!));
  }
  if (missing.length) await sweepMtCache(deps).catch(() => 0);

  const results = prepared.map((segment): MtSegmentResult => {
    if (segment.main >= 0 && translations[segment.main] === undefined) {
      return { text: null, warnings: [], error: failures.get(segment.main) ?? { code: 'ENGINE_ERROR', message: 'No translation.' } };
    }
    const warnings: MtWarning[] = [];
    const mainOut = segment.main >= 0 ? restoreTerms(translations[segment.main]!, segment.terms) : { text: '', warnings: [] };
    warnings.push(...mainOut.warnings);
    const pairTranslations = new Map<number, string>();
    for (const pair of segment.pairs) {
      const out = pair.at >= 0 ? translations[pair.at] : undefined;
      if (out !== undefined) pairTranslations.set(pair.tag, restoreTerms(out, pair.terms).text);
    }
    const restored = restoreTags(segment.tags, mainOut.text, pairTranslations);
    warnings.push(...restored.warnings);
    return { text: restored.text, warnings, error: null };
  });
  return { results, charactersSent, cacheHits, engineTexts: missing.length };
}

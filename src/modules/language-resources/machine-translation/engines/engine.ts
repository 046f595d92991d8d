/**
 * The one interface every machine translation engine implements (issue 17). An engine turns a
 * batch of texts in one language pair into translations, in order; it splits the batch into
 * requests by its own limits, retries what is worth retrying (http-retry.ts), and reports every
 * failure as an `MtEngineError`. Language codes on this interface are OpenTMS codes (`en`,
 * `en_us`, `ca_valencia`: lowercase, `_`-separated); each engine maps them to its own.
 */

export interface EngineLimits {
  /** Texts (or pieces of long texts) packed into one request at most. */
  maxTextsPerRequest: number;
  /** Size of one request's text at most (Apertium counts UTF-8 bytes, which bounds characters too). */
  maxCharsPerRequest: number;
  /** Requests one `translate` call keeps in flight at most. */
  concurrency: number;
}

/** OpenTMS language codes: 'en', 'en_us', 'es', 'ca', 'ca_valencia' … (lowercase, underscore). */
export interface TranslateBatch {
  sourceLang: string;
  targetLang: string;
  texts: readonly string[];
}

export interface LanguagePair {
  sourceLang: string;
  targetLang: string;
}

export interface EngineStatus {
  ok: boolean;
  /** One line saying why the engine cannot be used; null when `ok`. */
  error: string | null;
}

export interface MtEngine {
  /** The engine type, as listed in engine-types.ts (e.g. 'Apertium'). */
  readonly type: string;
  /** Whether inline markup (`<g1>…</g1>`, `<x2/>`) comes back untouched, so texts may carry it. */
  readonly keepsMarkup: boolean;
  readonly limits: EngineLimits;
  /** Language pairs the engine can translate, in OpenTMS codes. */
  languagePairs(signal?: AbortSignal): Promise<LanguagePair[]>;
  /** One translation per text, in order. Throws MtEngineError. Splits into requests by its limits itself. */
  translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]>;
  /** Reachability: ok, or a one-line reason. Never throws. */
  status(signal?: AbortSignal): Promise<EngineStatus>;
}

export type MtEngineErrorCode = 'UNREACHABLE' | 'TIMEOUT' | 'RATE_LIMITED' | 'PAIR_NOT_SUPPORTED' | 'ENGINE_ERROR' | 'BAD_RESPONSE';

/**
 * A failure of an engine, by kind. `retryable`: trying the same request again later may work
 * (the engine was down, slow, rate-limited or failed on its side); false for a request the
 * engine will never accept (an unsupported pair, an answer it cannot give). Messages name the
 * engine and the condition, never credentials, headers or the texts.
 */
export class MtEngineError extends Error {
  constructor(
    readonly code: MtEngineErrorCode,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MtEngineError';
  }
}

import { MtEngineError } from './engine.js';

/**
 * One HTTP request to an engine, with a time limit per attempt and retries (docs: issue 17).
 *
 * - Each attempt gets `timeoutMs` for everything (connection, answer and body), through
 *   `AbortSignal.timeout` combined with the caller's signal (`AbortSignal.any`).
 * - Retried, with full-jitter exponential backoff (a random wait in
 *   [0, min(maxDelayMs, baseDelayMs × 2^(attempt-1))]): network errors, timeouts, HTTP 429 (its
 *   `Retry-After`, in seconds or as a date, replaces the backoff, capped at `maxDelayMs`) and
 *   5xx. Any other status is returned to the caller, who reads it (a 4xx is never retried).
 * - The caller's abort stops everything at once, during a request or a wait, and rejects with
 *   the signal's reason (no retry, no MtEngineError).
 * - After the last attempt: UNREACHABLE (connection refused, reset, unknown host …), TIMEOUT,
 *   RATE_LIMITED (the last answer was 429) or ENGINE_ERROR (5xx), all retryable.
 *
 * Error messages name the engine (`init.what`, default the URL's origin and path: never its
 * user info or query) and the condition, never headers, bodies or credentials.
 */

export interface RetryPolicy {
  /** Time for one attempt, body included. */
  timeoutMs: number;
  /** Attempts in all (1 = no retry). */
  attempts: number;
  /** First backoff ceiling; doubles with each retry. */
  baseDelayMs: number;
  /** Longest wait between attempts, `Retry-After` included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  timeoutMs: 15_000,
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
});

/** DEFAULT_RETRY_POLICY with the given fields: an absent, undefined or negative/non-finite field keeps its default. */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const key of Object.keys(policy) as (keyof RetryPolicy)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) policy[key] = value;
  }
  return policy;
}

export interface EngineRequestInit {
  method: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | URLSearchParams;
  /** How messages name the engine, e.g. 'Apertium at http://127.0.0.1:2737'. */
  what?: string;
}

export interface EngineResponse {
  status: number;
  headers: Headers;
  body: string;
}

export type FetchImpl = typeof fetch;

/** Network error codes (undici puts them on `error.cause.code`) that mean the engine cannot be reached. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

export async function engineRequest(
  url: string | URL,
  init: EngineRequestInit,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  signal?: AbortSignal,
  fetchImpl: FetchImpl = fetch,
): Promise<EngineResponse> {
  const what = init.what ?? describeUrl(url);
  const attempts = Math.max(1, Math.floor(policy.attempts));
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(Math.max(1, policy.timeoutMs));
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let failure: MtEngineError;
    let retryAfterMs: number | null = null;
    try {
      const response = await fetchImpl(url, {
        method: init.method,
        ...(init.headers ? { headers: { ...init.headers } } : {}),
        ...(init.body !== undefined ? { body: init.body } : {}),
        signal: combined,
      });
      const body = await response.text();
      if (response.status === 429) {
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        failure = new MtEngineError('RATE_LIMITED', `${what} is rate-limiting requests (HTTP 429)`, true);
      } else if (response.status >= 500) {
        failure = new MtEngineError('ENGINE_ERROR', `${what} failed (HTTP ${response.status})`, true);
      } else {
        return { status: response.status, headers: response.headers, body };
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      failure = networkFailure(error, timeout.aborted, what, policy.timeoutMs);
    }
    if (attempt >= attempts) throw failure;
    const backoff = Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    await sleep(retryAfterMs === null ? backoff : Math.min(retryAfterMs, policy.maxDelayMs), signal);
  }
}

function networkFailure(error: unknown, timedOut: boolean, what: string, timeoutMs: number): MtEngineError {
  if (timedOut) return new MtEngineError('TIMEOUT', `${what} did not answer within ${timeoutMs} ms`, true);
  const code = errorCode(error);
  if (code !== null && UNREACHABLE_CODES.has(code)) return new MtEngineError('UNREACHABLE', `${what} is unreachable (${code})`, true);
  // Anything else the network layer throws (a bad URL, a protocol error): name its kind only.
  const kind = code ?? (error instanceof Error ? error.name : 'error');
  return new MtEngineError('UNREACHABLE', `${what} could not be reached (${kind})`, true);
}

/** The error code of a network failure: undici's TypeError('fetch failed') carries it on its cause. */
function errorCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A URL as messages show it: origin and path, without user info, query or fragment. */
export function describeUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the engine (invalid URL)';
  }
}

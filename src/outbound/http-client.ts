import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import https from 'node:https';
import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { VERSION } from '../version.js';
import { ipFamily } from '../domain/network/address-ranges.js';
import type { AddressClass } from '../domain/network/address-ranges.js';
import { OutboundFailed, OutboundRefused } from './errors.js';
import { bareHost, checkOutboundUrl, describeRefusal } from './url-policy.js';
import type { OutboundPolicy } from './url-policy.js';

export { OutboundFailed, OutboundRefused } from './errors.js';

/**
 * The one HTTP client for webhooks and callbacks (docs/outbound-http.md): it resolves the host
 * itself, refuses forbidden addresses, connects only to an address it checked, follows redirects
 * by hand (each hop checked), and bounds the time and the bytes it spends on a receiver.
 */

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (default: the system resolver, `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface PostJsonOptions {
  /** Extra request headers. Host, Content-Type, Content-Length, User-Agent and hop-by-hop headers are the client's own and are ignored here. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Total time for everything: lookups, connections, every redirect hop, and reading the response. */
  readonly timeoutMs: number;
  /** OPENTMS_ALLOW_PRIVATE_CALLBACKS: allow every address. */
  readonly allowPrivate: boolean;
  /** Redirects followed at most (default 3); the response after the last one allowed is returned as it is. */
  readonly maxRedirects?: number;
  /** Aborts the request (`OutboundFailed` with code `ABORTED`). */
  readonly signal?: AbortSignal;
  /**
   * Headers dropped when a redirect leads to another origin (scheme, host or port), compared
   * without regard to case. Default: Authorization, Proxy-Authorization, Cookie and the webhook
   * token X-Memsource-Token. Signatures are not secret and are kept.
   */
  readonly secretHeaders?: readonly string[];
  /** Test seam: how host names are resolved. */
  readonly resolve?: Resolver;
  /** Test seam: how addresses are classified (default `classifyAddress`). */
  readonly classify?: (ip: string) => AddressClass;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The first 2 KiB of the body, as UTF-8 (an incomplete last character is dropped). */
  readonly bodySnippet: string;
  /** The body was longer than the 64 KiB the client reads, or ended early (time ran out, connection closed). */
  readonly bodyTruncated: boolean;
  /** From the start of `postJson`, all hops included. */
  readonly durationMs: number;
  /** The URL that gave this response (differs from the one called after redirects). */
  readonly finalUrl: string;
  /** The address the final response came from. */
  readonly remoteAddress: string;
  readonly redirects: number;
  /** `GET` when a 301/302/303 redirect turned the POST into a GET without body: the receiver has not seen the payload. */
  readonly finalMethod: 'POST' | 'GET';
}

/** Bytes of a response body read at most; the rest is not read (the connection is closed). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Bytes of the body kept in `bodySnippet`. */
export const SNIPPET_BYTES = 2 * 1024;

const DEFAULT_SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-memsource-token'];
/** Set by the client, never by the caller. */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'user-agent',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function userAgent(): string {
  return `OpenTMS/${VERSION} (+webhooks)`;
}

const systemResolver: Resolver = async (hostname) =>
  (await systemLookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * POSTs `body` (JSON text) to `url` and returns the receiver's answer, whatever its status.
 * Throws `OutboundRefused` when the policy forbids the target or a redirect, and `OutboundFailed`
 * when there is no HTTP answer (name not resolved, connection or TLS failure, timeout, abort).
 */
export async function postJson(url: string, body: string, options: PostJsonOptions): Promise<OutboundResponse> {
  const started = performance.now();
  const maxRedirects = options.maxRedirects ?? 3;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0) throw new RangeError('maxRedirects must be a whole number >= 0');
  if (!(options.timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  const policy: OutboundPolicy = { allowPrivate: options.allowPrivate, ...(options.classify ? { classify: options.classify } : {}) };
  const resolver = options.resolve ?? systemResolver;
  const secret = new Set((options.secretHeaders ?? DEFAULT_SECRET_HEADERS).map((h) => h.toLowerCase()));

  // One signal for the whole exchange: the total timeout and the caller's abort.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new OutboundFailed('TIMEOUT', `no complete answer within ${options.timeoutMs} ms`, url)),
    options.timeoutMs,
  );
  const onCallerAbort = () => controller.abort(new OutboundFailed('ABORTED', 'the request was aborted', url));
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = controller.signal;

  try {
    let current = url;
    let method: 'POST' | 'GET' = 'POST';
    let payload: string | null = body;
    let extra: Record<string, string> = { ...options.headers };
    for (let redirects = 0; ; redirects++) {
      const check = checkOutboundUrl(current, policy);
      if (!check.ok) {
        throw new OutboundRefused(redirects === 0 ? check.reason : `the redirect to ${current} is refused: ${check.reason}`, current);
      }
      const target = check.url;
      const addresses = await resolveChecked(target, policy, resolver, signal, redirects > 0);
      const headers = requestHeaders(extra, payload);
      const { response, remoteAddress } = await send(target, addresses, method, headers, payload, signal);

      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location && redirects < maxRedirects) {
        response.on('error', () => undefined);
        response.destroy();
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw new OutboundRefused(`the redirect Location ${JSON.stringify(location.slice(0, 200))} is not a valid URL`, target.href);
        }
        // 307 and 308 repeat the request as it was; 301, 302 and 303 continue with a GET without
        // body, as browsers do.
        if (response.statusCode !== 307 && response.statusCode !== 308) {
          method = 'GET';
          payload = null;
        }
        if (next.origin !== target.origin) {
          extra = Object.fromEntries(Object.entries(extra).filter(([name]) => !secret.has(name.toLowerCase())));
        }
        current = next.href;
        continue;
      }

      const read = await readBody(response, signal);
      return {
        status: response.statusCode ?? 0,
        headers: response.headers,
        bodySnippet: new StringDecoder('utf8').write(read.bytes.subarray(0, SNIPPET_BYTES)),
        bodyTruncated: read.truncated,
        durationMs: Math.round(performance.now() - started),
        finalUrl: target.href,
        remoteAddress,
        redirects,
        finalMethod: method,
      };
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** The addresses of the target's host, every one of them allowed by the policy. */
async function resolveChecked(
  target: URL,
  policy: OutboundPolicy,
  resolver: Resolver,
  signal: AbortSignal,
  afterRedirect: boolean,
): Promise<readonly ResolvedAddress[]> {
  const host = bareHost(target);
  const family = ipFamily(host);
  // A literal was checked with the URL.
  if (family !== null) return [{ address: host, family }];
  let found: readonly ResolvedAddress[];
  try {
    found = await abortable(resolver(host), signal);
  } catch (error) {
    if (signal.aborted) throw aborted(signal, target, error);
    const code = (error as NodeJS.ErrnoException).code;
    throw new OutboundFailed('DNS', `${host} could not be resolved${code ? ` (${code})` : ''}`, target.href, { cause: error });
  }
  if (found.length === 0) throw new OutboundFailed('DNS', `${host} has no address`, target.href);
  // Every address, not only the first: the connection may use any of them.
  for (const { address } of found) {
    const refusal = describeRefusal(address, policy);
    if (refusal) {
      const reason = `${host} resolves to ${address}, which is ${refusal}`;
      throw new OutboundRefused(afterRedirect ? `the redirect to ${target.href} is refused: ${reason}` : reason, target.href);
    }
  }
  return found;
}

/**
 * A `lookup` for `http.request` that answers with the addresses already checked and never asks
 * DNS again: a second resolution could return another (private) address (DNS rebinding).
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no checked IPv${family} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) {
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function requestHeaders(extra: Record<string, string>, payload: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) {
    if (!CLIENT_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['User-Agent'] = userAgent();
  if (payload !== null) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = String(Buffer.byteLength(payload, 'utf8'));
  }
  return headers;
}

function send(
  target: URL,
  addresses: readonly ResolvedAddress[],
  method: 'POST' | 'GET',
  headers: Record<string, string>,
  payload: string | null,
  signal: AbortSignal,
): Promise<{ response: IncomingMessage; remoteAddress: string }> {
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? https : http).request(
      {
        protocol: target.protocol,
        // The original name: Host header, TLS SNI and certificate check. The address comes from
        // pinnedLookup (a literal is not looked up at all).
        hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        lookup: pinnedLookup(addresses),
        // A fresh connection per request: no pooled socket outlives its check.
        agent: false,
        signal,
      },
      (response) => {
        // Set now: a socket destroyed later no longer knows its peer.
        const remoteAddress = response.socket?.remoteAddress ?? addresses[0]?.address ?? '';
        resolve({ response, remoteAddress });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(aborted(signal, target, error));
      else
        reject(
          new OutboundFailed('NETWORK', `${method} ${target.origin} failed: ${error.code ?? error.message}`, target.href, { cause: error }),
        );
    });
    request.end(payload ?? undefined);
  });
}

/** Reads at most MAX_RESPONSE_BYTES, then closes the connection; also stops when the time runs out. */
function readBody(response: IncomingMessage, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', stop);
      resolve({ bytes: Buffer.concat(chunks, size), truncated });
    };
    const stop = () => {
      truncated = true;
      response.destroy();
      finish();
    };
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = MAX_RESPONSE_BYTES - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        stop();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    response.on('end', finish);
    // A connection closed before the end of the body: the status still counts, the body is partial.
    response.on('error', () => {
      truncated = true;
      finish();
    });
    response.on('close', () => {
      if (!response.complete) truncated = true;
      finish();
    });
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/** `promise`, or the signal's reason as soon as it aborts (the work itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The timeout or abort that ended the exchange, for the URL being called when it happened. */
function aborted(signal: AbortSignal, target: URL, cause: unknown): OutboundFailed {
  const reason: unknown = signal.reason;
  if (reason instanceof OutboundFailed)
    return new OutboundFailed(reason.code, `${target.origin}: ${reason.message}`, target.href, { cause });
  return new OutboundFailed('ABORTED', 'the request was aborted', target.href, { cause });
}

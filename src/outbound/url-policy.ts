import { errors } from '../errors/index.js';
import { classifyAddress, ipFamily } from '../domain/network/address-ranges.js';
import type { AddressClass } from '../domain/network/address-ranges.js';

/**
 * Which URLs OpenTMS may send webhooks and callbacks to (docs/outbound-http.md). The check here
 * is the synchronous part, run when a URL is stored: syntax, and the address when the host is an
 * IP literal (or `localhost`). Host names are resolved and their addresses checked at each send,
 * by `postJson`, since what a name resolves to changes.
 */
export interface OutboundPolicy {
  /** OPENTMS_ALLOW_PRIVATE_CALLBACKS: any address may be reached. */
  readonly allowPrivate: boolean;
  /** Test seam: the address classifier (default `classifyAddress`). */
  readonly classify?: (ip: string) => AddressClass;
}

export const MAX_URL_LENGTH = 2048;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const CLASS_NAMES: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved or special-purpose address',
};

const UNLESS = 'such targets are refused unless the installation allows private callbacks (OPENTMS_ALLOW_PRIVATE_CALLBACKS=true).';

/** What kind of forbidden address `address` is (`a loopback address, ...`), or null when it may be reached. */
export function describeRefusal(address: string, policy: OutboundPolicy): string | null {
  if (policy.allowPrivate) return null;
  const kind = (policy.classify ?? classifyAddress)(address);
  if (kind === 'public') return null;
  return `${CLASS_NAMES[kind]}; ${UNLESS}`;
}

/** The host of a parsed http(s) URL without IPv6 brackets or a trailing dot. */
export function bareHost(url: URL): string {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** `localhost` and `*.localhost` always mean the local host (RFC 6761): refused without a lookup. */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
}

export function checkOutboundUrl(url: string, policy: OutboundPolicy): UrlCheck {
  if (typeof url !== 'string' || url === '') return { ok: false, reason: 'The URL is empty.' };
  if (url.length > MAX_URL_LENGTH) return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  // The URL parser silently drops tabs and line breaks and trims spaces: refuse them instead, so
  // that what is stored is what is called.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(url)) return { ok: false, reason: 'The URL contains spaces or control characters.' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https URLs are allowed, not ${parsed.protocol.replace(/:$/, '')}.` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'The URL must not contain a user name or password; use the webhook secret instead.' };
  }
  const host = bareHost(parsed);
  if (host === '') return { ok: false, reason: 'The URL has no host.' };
  if (!policy.allowPrivate && isLocalhostName(host)) {
    return { ok: false, reason: `${host} is the local host; ${UNLESS}` };
  }
  // The parser has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1, and IPv6
  // into its canonical form, so the literal classified here is the address that would be dialled.
  if (ipFamily(host) !== null) {
    const refusal = describeRefusal(host, policy);
    if (refusal) return { ok: false, reason: `${host} is ${refusal}` };
  }
  return { ok: true, url: parsed };
}

/** The policy of an installation (OPENTMS_ALLOW_PRIVATE_CALLBACKS). */
export function outboundPolicy(config: { readonly allowPrivateCallbacks: boolean }): OutboundPolicy {
  return { allowPrivate: config.allowPrivateCallbacks };
}

/**
 * `checkOutboundUrl` for request handlers: the parsed URL, or a 400 `InvalidCallbackUrl` naming
 * the field. Every URL that OpenTMS stores to call later is checked with it when it is stored
 * (webhook URLs, the `callbackUrl` of asynchronous requests), so that a URL the client would
 * refuse at delivery time is refused at once rather than accepted and retried.
 */
export function assertOutboundUrl(url: string, policy: OutboundPolicy, field: string): URL {
  const result = checkOutboundUrl(url, policy);
  if (result.ok) return result.url;
  throw errors.InvalidCallbackUrl({ field, reason: result.reason });
}

/**
 * An optional URL a request stores to call later (the `callbackUrl` of an asynchronous operation):
 * null when not given (absent, null or empty), the URL exactly as given when the policy accepts
 * it, a 400 `InvalidCallbackUrl` naming `field` otherwise.
 */
export function assertOptionalOutboundUrl(url: string | null | undefined, policy: OutboundPolicy, field: string): string | null {
  if (url === null || url === undefined || url === '') return null;
  assertOutboundUrl(url, policy, field);
  return url;
}

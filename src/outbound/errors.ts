/**
 * The two ways an outgoing request ends without an HTTP response (docs/outbound-http.md). An
 * HTTP status, 4xx and 5xx included, is never an error: it is returned.
 */

/** The policy forbids the request: a forbidden address, scheme or redirect. Retrying will not help until the URL or the installation's policy changes. */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  /** Why, readable by the webhook's owner (stored in the delivery log). */
  readonly reason: string;
  /** The URL that was refused (after redirects, the redirect target). */
  readonly url: string;

  constructor(reason: string, url: string) {
    super(`Refused to call ${url}: ${reason}`);
    this.reason = reason;
    this.url = url;
  }
}

export type OutboundFailureCode =
  /** The name did not resolve. */
  | 'DNS'
  /** Connecting, TLS, or the exchange failed. */
  | 'NETWORK'
  /** The total time allowed (`timeoutMs`) ran out before a response. */
  | 'TIMEOUT'
  /** The caller's signal was aborted. */
  | 'ABORTED';

/** No HTTP response: the network failed, or time ran out. Worth retrying later. */
export class OutboundFailed extends Error {
  override readonly name = 'OutboundFailed';
  readonly code: OutboundFailureCode;
  readonly url: string;

  constructor(code: OutboundFailureCode, message: string, url: string, options: { cause?: unknown } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.url = url;
  }
}

/**
 * What went wrong, independent of HTTP. Every error of the TMS API is an entry of the catalogue
 * (./catalogue.ts): a stable `errorCode`, its HTTP status, and its message. Code raises them
 * through the catalogue (`throw errors.NameAlreadyExists({ what: 'a client', name })`); this file
 * holds what an entry is and the `ApiError` it becomes. The error handler (src/http/errors.ts) is
 * the only place that turns an ApiError into a response.
 */

/** The statuses an error can have, by kind (the kind names the status for people and logs). */
export const STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  header_fields_too_large: 431,
  internal: 500,
  not_implemented: 501,
  bad_gateway: 502,
} as const;

export type ErrorKind = keyof typeof STATUS;
export type ErrorStatus = (typeof STATUS)[ErrorKind];

const KIND_OF_STATUS = new Map<number, ErrorKind>(Object.entries(STATUS).map(([kind, status]) => [status, kind as ErrorKind]));

/** One entry of `errorDetails`: which input was wrong and why. */
export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

/** The TMS error body: `{errorCode, errorDescription, errorDetails}`. */
export interface ErrorBody {
  errorCode: string;
  errorDescription: string;
  errorDetails: ErrorDetail[];
}

/**
 * One error of the catalogue, before it is given its code: its status, its message (a fixed text,
 * or a function of the entry's named parameters `P`), and where the error always names the same
 * input or carries a header, the `errorDetails` and headers built from the same parameters.
 */
export interface ErrorDefinition<P> {
  readonly status: ErrorStatus;
  readonly message: string | ((params: P) => string);
  readonly details?: (params: P) => ErrorDetail[];
  readonly headers?: (params: P) => Record<string, string>;
}

/**
 * Declares a catalogue entry. `P` is inferred from the message's parameter (annotate it), or
 * given explicitly when only the details or headers need parameters; an entry with a fixed
 * text and nothing else takes none.
 */
export function define<P = void>(definition: ErrorDefinition<P>): ErrorDefinition<P> {
  return definition;
}

/** Brands the entries of the catalogue; not exported, so no code outside src/errors can make one. */
declare const fromCatalogue: unique symbol;

/** An entry of the catalogue with its code; only ./catalogue.ts makes them. */
export interface CatalogueEntry<P = never> extends ErrorDefinition<P> {
  readonly code: string;
  readonly [fromCatalogue]: true;
}

export class ApiError extends Error {
  readonly errorCode: string;
  readonly status: ErrorStatus;
  readonly details: ErrorDetail[];
  /** Extra response headers, such as `Allow` or `Retry-After`. */
  readonly headers: Record<string, string>;

  /**
   * An error of the catalogue entry `entry`, rendered with `params`. Raise errors with
   * `errors.<Code>(params)` or `apiError(code, params)` (./catalogue.ts), which type the
   * parameters; test/error-catalogue-usage.test.ts fails on `new ApiError(` outside src/errors.
   */
  constructor(entry: CatalogueEntry<never>, params?: unknown) {
    const definition = entry as CatalogueEntry<unknown>;
    const rendered = params ?? {};
    super(typeof definition.message === 'string' ? definition.message : definition.message(rendered));
    this.errorCode = definition.code;
    this.status = definition.status;
    this.details = definition.details?.(rendered) ?? [];
    this.headers = definition.headers?.(rendered) ?? {};
  }

  get kind(): ErrorKind {
    return KIND_OF_STATUS.get(this.status)!;
  }

  get statusCode(): number {
    return this.status;
  }
}

export function errorBody(code: string, description: string, details: readonly ErrorDetail[] = []): ErrorBody {
  return { errorCode: code, errorDescription: description, errorDetails: [...details] };
}

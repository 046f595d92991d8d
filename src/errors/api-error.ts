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

/** What the deprecated four-argument constructor takes besides kind, code and description. */
interface LegacyOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

function isKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && value in STATUS;
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
  constructor(entry: CatalogueEntry<never>, params?: unknown);
  /**
   * @deprecated Issue 12, phase 1 only: the translation-workflow files still build their errors
   * from a kind, a code and a text; phase 2 moves them to the catalogue and removes this form.
   * test/harness.ts fails a test whose response carries a code the catalogue does not have.
   */
  constructor(kind: ErrorKind, errorCode: string, description: string, options?: LegacyOptions);
  constructor(first: CatalogueEntry<never> | ErrorKind, ...rest: unknown[]) {
    if (isKind(first)) {
      const [errorCode, description, options = {}] = rest as [string, string, LegacyOptions | undefined];
      super(description);
      this.errorCode = errorCode;
      this.status = STATUS[first];
      this.details = options.details ?? [];
      this.headers = options.headers ?? {};
      return;
    }
    const entry = first as CatalogueEntry<unknown>;
    const params = rest[0] ?? {};
    super(typeof entry.message === 'string' ? entry.message : entry.message(params));
    this.errorCode = entry.code;
    this.status = entry.status;
    this.details = entry.details?.(params) ?? [];
    this.headers = entry.headers?.(params) ?? {};
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

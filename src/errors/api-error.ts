/**
 * What went wrong, independent of HTTP. Services throw `ApiError`s with a kind; the error handler
 * below is the only place that turns kinds into status codes.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'not_implemented'
  | 'internal';

export const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  not_implemented: 501,
  internal: 500,
};

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

export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly errorCode: string;
  readonly details: ErrorDetail[];
  /** Extra response headers, such as `Allow` or `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    errorCode: string,
    description: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(description);
    this.kind = kind;
    this.errorCode = errorCode;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }

  get statusCode(): number {
    return STATUS[this.kind];
  }
}

export const notFound = (what = 'Resource') => new ApiError('not_found', 'ResourceNotFound', `${what} not found.`);
export const invalid = (description: string, details: ErrorDetail[] = []) =>
  new ApiError('invalid', 'InvalidArguments', description, { details });
export const unauthenticated = (description = 'Authentication is required: send a valid token.') =>
  new ApiError('unauthenticated', 'AuthUnauthorized', description);
export const forbidden = (description = 'You are not allowed to do this.') => new ApiError('forbidden', 'AccessDenied', description);

export function errorBody(code: string, description: string, details: ErrorDetail[] = []): ErrorBody {
  return { errorCode: code, errorDescription: description, errorDetails: details };
}

/** 409 for a name already used in the organization (`what`: "a client", "an additional workflow step"). */
export const nameAlreadyExists = (what: string, name: string) =>
  new ApiError(
    'conflict',
    'NameAlreadyExists',
    `${what.charAt(0).toUpperCase()}${what.slice(1)} named "${name}" already exists in this organization.`,
    {
      details: [{ field: 'name', message: 'already exists' }],
    },
  );

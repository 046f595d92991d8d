import type { ErrorCode } from './catalogue.js';

/**
 * The SCIM family (RFC 7644 §3.12): the SCIM routes (/api2/v1/scim) answer
 * `{"schemas": ["urn:ietf:params:scim:api:messages:2.0:Error"], "status": "400", "scimType", "detail"}`,
 * which SCIM clients expect instead of the TMS body. A SCIM error is an HTTP status, an optional
 * `scimType` saying what kind of 400 (or 409) it is, and a `detail` for people, which the raising
 * code phrases (the filter and PATCH parsers point at the exact spot). Raise them with
 * `scimErrors.<code>(detail)`. TMS errors raised on the SCIM routes (the users service's, the
 * access hook's, the HTTP layer's) keep their status and become SCIM errors through
 * `SCIM_TYPE_OF_TMS_CODE`.
 */
export const SCIM_ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Every scimType of RFC 7644 §3.12 (OpenTMS raises those of SCIM_ERRORS). */
export type ScimErrorType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

interface ScimErrorDefinition {
  readonly status: 400 | 404 | 409;
  readonly scimType: ScimErrorType | null;
}

export const SCIM_ERRORS = {
  /** A search filter that is not valid SCIM filter syntax, or compares what cannot be compared. */
  invalidFilter: { status: 400, scimType: 'invalidFilter' },
  /** A PATCH `path` that is not valid. */
  invalidPath: { status: 400, scimType: 'invalidPath' },
  /** A required value is missing, or a value does not fit its attribute (also sortBy, sortOrder). */
  invalidValue: { status: 400, scimType: 'invalidValue' },
  /** A body without the structure of the message it should be (a User resource, a PatchOp). */
  invalidSyntax: { status: 400, scimType: 'invalidSyntax' },
  /** A PATCH path that selects nothing it could operate on. */
  noTarget: { status: 400, scimType: 'noTarget' },
  /** A change to a read-only attribute, or one the record's current state does not allow. */
  mutability: { status: 400, scimType: 'mutability' },
  /** A value that must be unique (userName) is already in use. */
  uniqueness: { status: 409, scimType: 'uniqueness' },
  /** A user, schema or endpoint that does not exist (another organization's users included). */
  notFound: { status: 404, scimType: null },
} as const satisfies Record<string, ScimErrorDefinition>;

export type ScimErrorCode = keyof typeof SCIM_ERRORS;

export class ScimError extends Error {
  readonly code: ScimErrorCode;
  readonly status: number;
  readonly scimType: ScimErrorType | null;

  constructor(code: ScimErrorCode, detail: string) {
    super(detail);
    this.name = 'ScimError';
    this.code = code;
    this.status = SCIM_ERRORS[code].status;
    this.scimType = SCIM_ERRORS[code].scimType;
  }
}

/** One function per SCIM error: `throw scimErrors.invalidFilter('Invalid filter: ...')`. */
export const scimErrors = Object.freeze(
  Object.fromEntries(Object.keys(SCIM_ERRORS).map((code) => [code, (detail: string) => new ScimError(code as ScimErrorCode, detail)])),
) as { readonly [C in ScimErrorCode]: (detail: string) => ScimError };

/**
 * The scimType a TMS error gets on the SCIM routes; its status stays. Codes not listed have none
 * (401, 403, 404, 405, 413, 415, 429 and 500 carry no scimType).
 */
export const SCIM_TYPE_OF_TMS_CODE: Partial<Record<ErrorCode, ScimErrorType>> = {
  UserNameAlreadyExists: 'uniqueness',
  InvalidArguments: 'invalidValue',
  ReferenceNotFound: 'invalidValue',
  LastAdmin: 'mutability',
  BotUserReadOnly: 'mutability',
  InvalidJson: 'invalidSyntax',
  RequestBodyMissing: 'invalidSyntax',
  InvalidContentLength: 'invalidSyntax',
  InvalidContentType: 'invalidSyntax',
};

/** Where the SCIM routes word a TMS error their own way (SCIM bodies are JSON of two media types). */
export const SCIM_DETAIL_OF_TMS_CODE: Partial<Record<ErrorCode, string>> = {
  UnsupportedMediaType:
    'The request body has a Content-Type this operation does not accept; send application/scim+json or application/json.',
};

/** The SCIM error body (RFC 7644 §3.12); `status` is a string there. */
export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: ScimErrorType;
  detail: string;
}

export function scimErrorBody(status: number, scimType: ScimErrorType | null, detail: string): ScimErrorBody {
  return { schemas: [SCIM_ERROR_URN], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/**
 * SCIM errors (RFC 7644 §3.12): an HTTP status, an optional `scimType` saying what kind of 400
 * (or 409) it is, and a detail for people. Pure: the SCIM routes render them as
 * `{"schemas": ["urn:ietf:params:scim:api:messages:2.0:Error"], "status": "400", "scimType", "detail"}`.
 */
export const SCIM_ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

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

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimErrorType | null,
    detail: string,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

/** The filter is not valid SCIM filter syntax, or compares what cannot be compared. */
export const invalidFilter = (detail: string) => new ScimError(400, 'invalidFilter', detail);
/** A PATCH `path` that is not valid. */
export const invalidPath = (detail: string) => new ScimError(400, 'invalidPath', detail);
/** A required value is missing, or a value does not fit its attribute. */
export const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);
/** The request body does not have the structure of the message it should be. */
export const invalidSyntax = (detail: string) => new ScimError(400, 'invalidSyntax', detail);
/** A PATCH path selects nothing it could operate on. */
export const noTarget = (detail: string) => new ScimError(400, 'noTarget', detail);
/** A change to a read-only attribute, or one the record's current state does not allow. */
export const mutability = (detail: string) => new ScimError(400, 'mutability', detail);
/** A value that must be unique is already in use. */
export const uniqueness = (detail: string) => new ScimError(409, 'uniqueness', detail);

export { ApiError, STATUS, errorBody } from './api-error.js';
export type { ErrorKind, ErrorStatus, ErrorDetail, ErrorBody } from './api-error.js';
export {
  TMS_ERRORS,
  ERROR_CODES,
  CUSTOM_FIELD_RULE_CODES,
  errors,
  apiError,
  isCustomFieldRuleCode,
  isErrorCode,
  statusOf,
} from './catalogue.js';
export type { ErrorCode, ErrorParams, ErrorArgs, CustomFieldRuleCode } from './catalogue.js';
export {
  SCIM_ERRORS,
  SCIM_ERROR_URN,
  SCIM_TYPE_OF_TMS_CODE,
  SCIM_DETAIL_OF_TMS_CODE,
  ScimError,
  scimErrors,
  scimErrorBody,
} from './scim-errors.js';
export type { ScimErrorCode, ScimErrorType, ScimErrorBody } from './scim-errors.js';
export { OAUTH_ERRORS, OAuthError, oauthErrors, oauthRefusal } from './oauth-errors.js';
export type { OAuthErrorCode } from './oauth-errors.js';
export { ASYNC_FAILURES, BULK_ITEM_ERRORS, asyncFailure } from './outcome-codes.js';
export type { AsyncFailureCode, AsyncErrorCode, BulkItemErrorCode } from './outcome-codes.js';

export { ApiError, STATUS, errorBody, notFound, invalid, unauthenticated, forbidden, nameAlreadyExists } from './api-error.js';
export type { ErrorKind, ErrorDetail, ErrorBody } from './api-error.js';

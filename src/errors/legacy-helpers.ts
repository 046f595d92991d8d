import type { ErrorDetail } from './api-error.js';
import { errors } from './catalogue.js';

/**
 * The helpers errors were raised with before the catalogue, kept as thin wrappers over its
 * entries because the translation-workflow files still call them. Issue 12's phase 2 moves those
 * files to `errors.<Code>(...)` and removes this file; new code uses the catalogue directly.
 */

/** @deprecated Use `errors.ResourceNotFound({ what })`. */
export const notFound = (what = 'Resource') => errors.ResourceNotFound({ what });

/** @deprecated Use `errors.InvalidArguments({ reason, details })` or a code of its own. */
export const invalid = (description: string, details: ErrorDetail[] = []) => errors.InvalidArguments({ reason: description, details });

/** @deprecated Use `errors.AuthUnauthorized()`. */
export const unauthenticated = () => errors.AuthUnauthorized();

/** @deprecated Use `errors.AccessDenied({ reason })`. */
export const forbidden = (description?: string) => errors.AccessDenied({ reason: description });

/** @deprecated Use `errors.NameAlreadyExists({ what, name })`. */
export const nameAlreadyExists = (what: string, name: string) => errors.NameAlreadyExists({ what, name });

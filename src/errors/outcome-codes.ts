import type { ErrorCode } from './catalogue.js';

/**
 * Error codes a client reads inside answers that succeeded as HTTP requests:
 *
 * - the `errorCode` and `errorDesc` of an asynchronous request whose work failed
 *   (AsyncResponseDto): the codes below, or, when the work failed with an error of the catalogue
 *   (an input the task found wrong), that error's code and message;
 * - the `code` of each failed item of a bulk job edit (ErrorDetailDtoV3 in
 *   JobPartPatchResultDto): the codes below, or the catalogue code the item's edit failed with.
 */

interface AsyncFailureDefinition<P> {
  readonly message: (params: P) => string;
}

const failure = <P = void>(message: (params: P) => string): AsyncFailureDefinition<P> => ({ message });

export const ASYNC_FAILURES = {
  /** The task failed for a reason it does not know as an input error (the worker gave up on it). */
  AsyncTaskFailed: failure(({ reason }: { reason?: string }) => reason || 'The operation failed.'),
  /** A job's file could not be parsed by its format's filter. */
  ImportFailed: failure(({ filename, reason }: { filename: string; reason: string }) => `${filename}: ${reason}`),
  /** A target file could not be written back into the original format. */
  TargetFileFailed: failure(({ reason }: { reason: string }) => `The target file could not be written: ${reason}`),
  /** A translated file of updateTarget could not be read. */
  UpdateTargetFailed: failure(({ reason }: { reason: string }) => `The translated file could not be read: ${reason}`),
  /** The job of an updateTarget was deleted before its file was read, or the jobs of a file before its import finished (`during`). */
  JobDeleted: failure(({ during }: { during?: 'import' }) =>
    during === 'import'
      ? 'The jobs of this file were deleted before the import finished.'
      : 'The job was deleted before its translated file was read.',
  ),
  /**
   * The jobs of an updateSource were deleted, split or updated before the new source was applied,
   * or the new source itself was removed (`sourceRemoved`).
   */
  JobsChanged: failure(({ sourceRemoved }: { sourceRemoved?: true }) =>
    sourceRemoved
      ? 'The new source was removed before it could be applied.'
      : 'The jobs were deleted, split or updated meanwhile; the new source was not applied.',
  ),
} as const;

export type AsyncFailureCode = keyof typeof ASYNC_FAILURES;
type AsyncFailureParams<C extends AsyncFailureCode> = (typeof ASYNC_FAILURES)[C] extends AsyncFailureDefinition<infer P> ? P : never;

/** What an asynchronous request records when its work failed: `asyncFailure('ImportFailed', { filename, reason })`. */
export function asyncFailure<C extends AsyncFailureCode>(
  code: C,
  ...args: [AsyncFailureParams<C>] extends [void] ? [] : [params: AsyncFailureParams<C>]
): { errorCode: C; errorDesc: string } {
  const definition = ASYNC_FAILURES[code] as AsyncFailureDefinition<unknown>;
  return { errorCode: code, errorDesc: definition.message(args[0] ?? {}) };
}

/** The code an async request records: one of ASYNC_FAILURES, or the catalogue code its work failed with. */
export type AsyncErrorCode = AsyncFailureCode | ErrorCode;

/** Codes of the items of a bulk job edit that were not attempted; an attempted one that failed carries its catalogue code. */
export const BULK_ITEM_ERRORS = {
  /** The job does not exist or the caller cannot see it. */
  NOT_FOUND: 'Job not found.',
  /** The caller may see the job but not change it. */
  FORBIDDEN: 'You may see this job but not change it.',
} as const;

export type BulkItemErrorCode = keyof typeof BULK_ITEM_ERRORS;

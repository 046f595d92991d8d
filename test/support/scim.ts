import { ScimError } from '../../src/errors/index.js';

/** The ScimError that `run` throws (any other error is rethrown; no error fails the test). */
export function scimError(run: () => unknown): ScimError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

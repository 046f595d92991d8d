import type { AppDeps } from '../../../deps.js';
import { errors } from '../../../errors/index.js';
import { CredentialsUnreadable } from './mt-engines.js';
import { translateSegments } from './mt-translation.js';
import type { MtRequest } from './mt-translation.js';

/**
 * MT for an interactive request (translate, translateWithMachineTranslation): every text
 * translated, or the request fails as a whole with the engine's reason (a pair it lacks is 400,
 * an engine down after its retries 502).
 */
export async function translateOrFail(deps: AppDeps, request: MtRequest): Promise<string[]> {
  let outcome;
  try {
    outcome = await translateSegments(deps, request);
  } catch (error) {
    if (error instanceof CredentialsUnreadable) throw errors.MtCredentialsUnreadable({ name: request.settings.name });
    throw error;
  }
  const failed = outcome.results.find((result) => result.error !== null);
  if (failed?.error) {
    if (failed.error.code === 'PAIR_NOT_SUPPORTED')
      throw errors.MtLanguagePairNotSupported({
        name: request.settings.name,
        sourceLang: request.sourceLang,
        targetLang: request.targetLang,
      });
    throw errors.MachineTranslationFailed({ name: request.settings.name, reason: failed.error.message });
  }
  return outcome.results.map((result) => result.text ?? '');
}

import type { AppDeps } from '../../../deps.js';
import { createEngine } from './engines/index.js';
import type { MtEngine } from './engines/index.js';
import { openCredentials } from './credential-seal.js';
import { argsOf } from './mt-settings.repository.js';
import type { MtSettingsRow } from './mt-settings.repository.js';

/**
 * The engine of a settings record, made once per process and settings version (`modified_at`):
 * an edit (a new URL, new credentials) makes a new one on the next use.
 */

const engines = new Map<string, { version: string; engine: MtEngine }>();

export class CredentialsUnreadable extends Error {}

export function engineOf(deps: AppDeps, settings: MtSettingsRow): MtEngine {
  const cached = engines.get(settings.uid);
  if (cached && cached.version === settings.modifiedAt) return cached.engine;
  const secrets = openCredentials(deps.config, settings.credentials);
  if (secrets === null) throw new CredentialsUnreadable(settings.uid);
  const engine = createEngine(settings.type, argsOf(settings), secrets, {
    timeoutMs: deps.config.machineTranslation.requestTimeoutMs,
    attempts: deps.config.machineTranslation.attempts,
  });
  engines.set(settings.uid, { version: settings.modifiedAt, engine });
  return engine;
}

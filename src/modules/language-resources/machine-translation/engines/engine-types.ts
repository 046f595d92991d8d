import { createApertiumEngine } from './apertium.js';
import type { MtEngine } from './engine.js';
import type { FetchImpl, RetryPolicy } from './http-retry.js';

/**
 * The engine types of machine translate settings: every type Phrase TMS offers, by the name its
 * API uses for `type` (GET /machineTranslateSettings/types), plus Apertium. Only the types this
 * installation can run and test against a real server are available; the others are listed so
 * that settings naming them are recognised and answered with their reason.
 */
export interface EngineType {
  /** The `type` of machine translate settings. */
  readonly type: string;
  /** As a user reads it. */
  readonly name: string;
  readonly available: boolean;
  /** Why the type is not available; null when it is. */
  readonly reason: string | null;
  /** Names of the `args` the type needs (Apertium's `url` has a default: APERTIUM_DEFAULT_URL). */
  readonly requiredArgs: readonly string[];
  /** Names of further `args` the type takes. */
  readonly optionalArgs: readonly string[];
  /**
   * Names of the secrets the type takes (credentials: stored sealed, never shown back). Apertium
   * needs none; it takes an optional `apiKey`, sent as apy's `key`.
   */
  readonly secretArgs: readonly string[];
}

const NO_TEST_SERVER = 'not available in this installation: no test server';

function unavailable(type: string, name: string, requiredArgs: string[], secretArgs: string[]): EngineType {
  return Object.freeze({
    type,
    name,
    available: false,
    reason: NO_TEST_SERVER,
    requiredArgs: Object.freeze(requiredArgs),
    optionalArgs: Object.freeze([]),
    secretArgs: Object.freeze(secretArgs),
  });
}

export const APERTIUM_DEFAULT_URL = 'http://127.0.0.1:2737';

export const ENGINE_TYPES: readonly EngineType[] = Object.freeze([
  Object.freeze({
    type: 'Apertium',
    name: 'Apertium (apertium-apy)',
    available: true,
    reason: null,
    requiredArgs: Object.freeze(['url']),
    optionalArgs: Object.freeze([]),
    secretArgs: Object.freeze(['apiKey']),
  }),
  unavailable('MemsourceTranslate', 'Phrase Language AI', [], []),
  unavailable('GoogleTranslate', 'Google Translate', [], ['apiKey']),
  unavailable('GoogleAutoML', 'Google AutoML Translation', ['projectId', 'location', 'modelId'], ['accountKeyFile']),
  unavailable('MicrosoftTranslator', 'Microsoft Translator', ['region'], ['apiKey']),
  unavailable('MicrosoftTranslatorWithFeedback', 'Microsoft Translator with Feedback', [], ['apiKey']),
  unavailable('DeepL', 'DeepL', [], ['apiKey']),
  unavailable('AmazonTranslate', 'Amazon Translate', ['region'], ['accessKey', 'secretKey']),
  unavailable('ModernMT', 'ModernMT', [], ['apiKey']),
  unavailable('Systran', 'SYSTRAN Translate', ['url'], ['apiKey']),
  unavailable('YandexTranslate', 'Yandex Translate', ['folderId'], ['apiKey']),
  unavailable('BaiduTranslate', 'Baidu Translate', ['appId'], ['apiKey']),
  unavailable('TencentTranslate', 'Tencent Machine Translation', ['region', 'secretId'], ['secretKey']),
  unavailable('NaverPapago', 'Naver Papago', ['clientId'], ['clientSecret']),
  unavailable('YoudaoTranslate', 'Youdao Translate', ['appKey'], ['appSecret']),
  unavailable('KantanMT', 'KantanMT', ['engineAlias'], ['apiKey']),
  unavailable('Intento', 'Intento', [], ['apiKey']),
  unavailable('Globalese', 'Globalese', ['url', 'engineId'], ['apiKey']),
  unavailable('Omniscien', 'Omniscien Language Studio', ['url'], ['apiKey']),
  unavailable('Tilde', 'Tilde MT', ['systemId'], ['clientId']),
  unavailable('IBMWatson', 'IBM Watson Language Translator', ['url'], ['apiKey']),
  unavailable('CrossLang', 'CrossLang', ['url'], ['apiKey']),
  unavailable('PangeaMT', 'Pangeanic PangeaMT', ['url', 'engineId'], ['apiKey']),
  unavailable('LanguageWeaver', 'RWS Language Weaver', ['accountId'], ['clientId', 'clientSecret']),
  unavailable('CustomMT', 'Custom MT', ['url'], ['apiKey']),
]);

const BY_TYPE: ReadonlyMap<string, EngineType> = new Map(ENGINE_TYPES.map((entry) => [entry.type.toLowerCase(), entry]));

/** The registry entry of a type, matched without regard to case; null for an unknown type. */
export function findEngineType(type: string): EngineType | null {
  return BY_TYPE.get(type.trim().toLowerCase()) ?? null;
}

/** Tuning that settings do not carry: the retry policy's fields (DEFAULT_RETRY_POLICY for the rest), and a test seam. */
export interface CreateEngineOptions extends Partial<RetryPolicy> {
  fetchImpl?: FetchImpl;
}

/**
 * An engine of an available type from the settings' `args` and `secrets`. Throws an Error naming
 * the reason for an unknown or unavailable type (never echoing the secrets).
 */
export function createEngine(
  type: string,
  args: Readonly<Record<string, string>>,
  secrets: Readonly<Record<string, string>>,
  options: CreateEngineOptions = {},
): MtEngine {
  const { fetchImpl, ...retry } = options;
  const entry = findEngineType(type);
  if (entry === null) throw new Error(`unknown machine translation engine type: ${JSON.stringify(type.slice(0, 100))}`);
  if (!entry.available) throw new Error(`${entry.name} (${entry.type}) is ${entry.reason ?? 'not available'}`);
  switch (entry.type) {
    case 'Apertium':
      return createApertiumEngine({
        url: args.url?.trim() || APERTIUM_DEFAULT_URL,
        ...(secrets.apiKey ? { apiKey: secrets.apiKey } : {}),
        retry,
        ...(fetchImpl ? { fetchImpl } : {}),
      });
    default:
      throw new Error(`${entry.name} (${entry.type}) has no implementation`);
  }
}

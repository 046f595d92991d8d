/** Machine translation engines behind one interface (issue 17): the interface, the registry of types, Apertium. */
export { MtEngineError } from './engine.js';
export type { EngineLimits, EngineStatus, LanguagePair, MtEngine, MtEngineErrorCode, TranslateBatch } from './engine.js';
export { APERTIUM_DEFAULT_URL, ENGINE_TYPES, createEngine, findEngineType } from './engine-types.js';
export type { CreateEngineOptions, EngineType } from './engine-types.js';
export { APERTIUM_LIMITS, apertiumCodeCandidates, createApertiumEngine, openTmsCode } from './apertium.js';
export type { ApertiumEngineOptions } from './apertium.js';
export { DEFAULT_RETRY_POLICY, engineRequest, retryPolicy } from './http-retry.js';
export type { EngineRequestInit, EngineResponse, FetchImpl, RetryPolicy } from './http-retry.js';

/**
 * Machine translation (docs/machine-translation.md): MT settings records with their engines
 * (Apertium through apertium-apy; the cloud engines Phrase knows are listed, not available), the
 * translation of segments with tags and the active glossary protected, the MT cache and the usage
 * counts, and the Language AI operations. The translation workflow reaches it through this door
 * for project MT settings, pre-translation and MT of jobs.
 */
export { machineTranslationRoutes } from './mt-settings.routes.js';
export { requireMtSettings } from './mt-settings.service.js';
export { defaultMtSettings, mtSettingsByIds, mtSettingsByUids } from './mt-settings.repository.js';
export type { MtSettingsRow } from './mt-settings.repository.js';
export { toMtSettingsDtos } from './mt-settings.views.js';
export { MtSettingsSchema, TranslateResponse } from './mt-settings.schemas.js';
export type { MtSettingsDto } from './mt-settings.schemas.js';
export { translateSegments } from './mt-translation.js';
export type { MtOutcome, MtRequest, MtSegmentResult } from './mt-translation.js';
export { translateOrFail } from './mt-translate-request.js';
export { CredentialsUnreadable } from './mt-engines.js';

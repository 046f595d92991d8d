/**
 * The QA settings of projects and templates (docs/qa-settings.md): the settings operations, the
 * views jobs get of them, and the project's settings that QA runs and the delivery gate use.
 */
export { qaSettingsRoutes } from './qa-settings.routes.js';
export { QA_SETTINGS_KEY, projectQaSettings, qaSettingsOf } from './qa-settings.service.js';

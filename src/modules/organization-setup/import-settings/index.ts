export { FileImportSettingsCreateDto, FileImportSettingsDto } from './file-import-settings.schemas.js';
export { FILE_IMPORT_SETTINGS_DEFAULTS, fileImportSettingsView, parseImportSettingsDocument } from './import-settings-document.js';
export type { ImportSettingsDocument } from './import-settings-document.js';
export { importSettingsRoutes, READERS as IMPORT_SETTINGS_READERS, WRITERS as IMPORT_SETTINGS_WRITERS } from './import-settings.routes.js';
export { organizationDefaultImportSettings, referencedImportSettings, storableDocument } from './import-settings.service.js';
export { xmlAssistantRoutes } from './xml-assistant-profiles.js';

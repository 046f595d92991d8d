export { lqaProfilesRoutes } from './lqa-profiles.routes.js';
export { assertLqaProfileExists, LqaSettingsSchema, lqaSettingsFor } from './lqa-settings.js';
export { lqaProfileUidOf } from './lqa-profiles.repository.js';

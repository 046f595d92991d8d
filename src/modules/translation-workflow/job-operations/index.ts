export { MULTILINGUAL_FORMATS } from './job-clone.js';
export { jobOperationsRoutes } from './job-operations.routes.js';
export { ProviderListV2 } from './job-operations.schemas.js';
export { suggestProviders } from './provider-suggestions.js';

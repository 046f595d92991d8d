export { copyCustomFieldValues } from './custom-field-instances.repository.js';
export { customFieldInstancesRoutes } from './custom-field-instances.routes.js';
export { assertRequiredValuesSet, CUSTOM_FIELD_VALUE_ERRORS, writeCustomFieldValues } from './custom-field-instances.service.js';
export type { CustomFieldInstanceInput } from './custom-field-instances.service.js';

export { checkedFieldValue, loadCustomField } from './custom-field-values.js';
export { toCustomFieldDtos } from './custom-field-views.js';
export type { CustomFieldDto, CustomFieldOptionDto } from './custom-field-views.js';
export type { CustomFieldRow } from './custom-fields.repository.js';
export { customFieldsRoutes } from './custom-fields.routes.js';
export { CustomFieldOptionSchema, CustomFieldSchema } from './custom-fields.schemas.js';

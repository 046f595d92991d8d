/** Table types of custom fields and their options (see src/db/schema.ts for the conventions). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CustomFieldTables {}

/** Table types of vendors, buyers (vendor links between organizations) and services (see src/db/schema.ts for the conventions). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VendorTables {}

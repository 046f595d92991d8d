/** Table types of clients, business units, cost centers, domains, subdomains, project templates (see src/db/schema.ts for the conventions). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SetupRecordTables {}

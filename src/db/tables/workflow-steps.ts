/** Table types of workflow steps, additional workflow steps, email templates, due date schemes, notifications (see src/db/schema.ts for the conventions). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorkflowStepTables {}

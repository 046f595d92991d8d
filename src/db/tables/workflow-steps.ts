import type { Generated, SqlBool } from 'kysely';
import type { Id, Timestamp } from '../schema.js';

/** Table types of workflow steps, additional workflow steps, email templates, due date schemes, notifications (see src/db/schema.ts for the conventions). */

/** A step of the organization's translation workflow (Translation, Revision, …). */
export interface WorkflowStepsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  /** Unique in the organization, ignoring case. */
  name: string;
  /** 1 to 3 characters, unique in the organization ignoring case. */
  abbr: string;
  /** The spec's `order`: where the step stands in a workflow. */
  orderIndex: number;
  lqaEnabled: Generated<SqlBool>;
  createdAt: Timestamp;
  createdById: Id | null;
  lastModifiedAt: Timestamp | null;
  lastModifiedById: Id | null;
}

/** Named steps outside the workflow (e.g. "DTP"), for price lists and vendors. */
export interface AdditionalWorkflowStepsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface EmailTemplatesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  /** One of the spec's OrganizationEmailTemplateDto.type values. */
  type: string;
  name: string;
  subject: string;
  body: string;
  ccAddress: string | null;
  bccAddress: string | null;
  /** The template the product uses for its type; at most one per type and organization. */
  isDefault: Generated<SqlBool>;
  createdAt: Timestamp;
  createdById: Id | null;
}

export interface DueDateSchemesTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  name: string;
  description: string | null;
  createdAt: Timestamp;
  createdById: Id | null;
}

/** How long before the project's due date a workflow step is due; deleted with the scheme or the step. */
export interface DueDateSchemeStepsTable {
  id: Generated<Id>;
  dueDateSchemeId: Id;
  workflowStepId: Id;
  offsetDays: Generated<number>;
  offsetHours: Generated<number>;
}

export interface NotificationsTable {
  id: Generated<Id>;
  uid: string;
  organizationId: Id;
  /** The user who receives it; only that user lists it. */
  userId: Id;
  type: string;
  title: string;
  message: string;
  /** JSON object describing what the notification is about. */
  payload: string;
  createdAt: Timestamp;
  readAt: Timestamp | null;
}

export interface WorkflowStepTables {
  workflowSteps: WorkflowStepsTable;
  additionalWorkflowSteps: AdditionalWorkflowStepsTable;
  emailTemplates: EmailTemplatesTable;
  dueDateSchemes: DueDateSchemesTable;
  dueDateSchemeSteps: DueDateSchemeStepsTable;
  notifications: NotificationsTable;
}

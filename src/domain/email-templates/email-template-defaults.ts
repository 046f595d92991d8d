/**
 * Email templates: the types the spec knows and the default template of each type the product
 * sends, which every new organization starts with (seeded by seedOrganizationDefaults; the
 * migration that introduced email templates gave existing organizations the same texts).
 * Placeholders are `{{object.field}}` (src/domain/workflow-steps/placeholders.ts).
 */

/** OrganizationEmailTemplateDto.type of the spec. */
export const EMAIL_TEMPLATE_TYPES = [
  'JobAssigned',
  'JobStatusChanged',
  'NextWorkflowStep',
  'JobRejected',
  'LoginInfo',
  'ProjectTransferredToBuyer',
  'SharedProjectAssigned',
  'SharedProjectStatusChanged',
  'AutomatedProjectCreated',
  'AutomatedProjectSourceUpdated',
  'AutomatedProjectStatusChanged',
  'JobWidgetProjectQuotePrepared',
  'JobWidgetProjectQuotePreparationFailure',
  'JobWidgetProjectCreated',
  'JobWidgetProjectCompleted',
  'CmsQuoteReady',
  'CmsWorkCompleted',
  'CmsJobRejected',
  'QUOTE_UPDATED',
  'QUOTE_STATUS_CHANGED',
  'LQA_SHARE_REPORT',
] as const;
export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

export interface DefaultEmailTemplate {
  readonly type: EmailTemplateType;
  readonly name: string;
  readonly subject: string;
  readonly body: string;
}

/**
 * One default per type the product sends. Types of features OpenTMS does not have (the job
 * widget, CMS connectors, transfer to a buyer) get no default until those features exist.
 */
const SIGNATURE = '\n\nKind regards,\n{{sender.fullName}}\n{{organization.name}}';

export const DEFAULT_EMAIL_TEMPLATES: readonly DefaultEmailTemplate[] = [
  {
    type: 'JobAssigned',
    name: 'Job assigned',
    subject: 'New job in {{project.name}}: {{job.fileName}} ({{job.targetLang}})',
    body:
      'Hello {{recipient.firstName}},\n\nyou have been assigned the {{job.workflowStep}} of {{job.fileName}} ' +
      '({{job.sourceLang}} → {{job.targetLang}}) in the project {{project.name}}.\nDue: {{job.dateDue}}\n\n' +
      'Open the job: {{job.url}}' +
      SIGNATURE,
  },
  {
    type: 'JobStatusChanged',
    name: 'Job status changed',
    subject: '{{job.fileName}} ({{job.targetLang}}) is now {{job.status}}',
    body:
      'Hello {{recipient.firstName}},\n\nthe {{job.workflowStep}} of {{job.fileName}} ({{job.sourceLang}} → ' +
      '{{job.targetLang}}) in the project {{project.name}} changed from {{job.previousStatus}} to {{job.status}}.\n\n' +
      'Open the job: {{job.url}}' +
      SIGNATURE,
  },
  {
    type: 'NextWorkflowStep',
    name: 'Next workflow step can start',
    subject: '{{job.fileName}} ({{job.targetLang}}) is ready for {{job.workflowStep}}',
    body:
      'Hello {{recipient.firstName}},\n\nthe previous workflow step of {{job.fileName}} ({{job.sourceLang}} → ' +
      '{{job.targetLang}}) in the project {{project.name}} is completed; your {{job.workflowStep}} can start.\n' +
      'Due: {{job.dateDue}}\n\nOpen the job: {{job.url}}' +
      SIGNATURE,
  },
  {
    type: 'JobRejected',
    name: 'Job rejected',
    subject: '{{job.fileName}} ({{job.targetLang}}) was rejected',
    body:
      'Hello {{recipient.firstName}},\n\n{{actor.fullName}} rejected the {{job.workflowStep}} of {{job.fileName}} ' +
      '({{job.sourceLang}} → {{job.targetLang}}) in the project {{project.name}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'LoginInfo',
    name: 'Login information',
    subject: 'Your {{organization.name}} account',
    body:
      'Hello {{recipient.firstName}},\n\nan account has been created for you at {{organization.name}}.\n' +
      'User name: {{recipient.userName}}\nSet your password here: {{login.passwordSetUrl}}\n' +
      'Sign in at: {{login.url}}' +
      SIGNATURE,
  },
  {
    type: 'SharedProjectAssigned',
    name: 'Shared project assigned',
    subject: 'Project {{project.name}} was shared with you',
    body:
      'Hello {{recipient.firstName}},\n\n{{actor.fullName}} shared the project {{project.name}} with {{vendor.name}}.\n\n' +
      'Open the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'SharedProjectStatusChanged',
    name: 'Shared project status changed',
    subject: 'Project {{project.name}} is now {{project.status}}',
    body:
      'Hello {{recipient.firstName}},\n\nthe shared project {{project.name}} changed from {{project.previousStatus}} ' +
      'to {{project.status}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'AutomatedProjectCreated',
    name: 'Automated project created',
    subject: 'Project {{project.name}} was created automatically',
    body:
      'Hello {{recipient.firstName}},\n\nthe automation {{automation.name}} created the project {{project.name}}.\n\n' +
      'Open the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'AutomatedProjectSourceUpdated',
    name: 'Automated project source updated',
    subject: 'Source files of {{project.name}} were updated',
    body:
      'Hello {{recipient.firstName}},\n\nthe automation {{automation.name}} updated the source files of the project ' +
      '{{project.name}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'AutomatedProjectStatusChanged',
    name: 'Automated project status changed',
    subject: 'Project {{project.name}} is now {{project.status}}',
    body:
      'Hello {{recipient.firstName}},\n\nthe automated project {{project.name}} changed from {{project.previousStatus}} ' +
      'to {{project.status}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'QUOTE_UPDATED',
    name: 'Quote updated',
    subject: 'Quote {{quote.name}} was updated',
    body:
      'Hello {{recipient.firstName}},\n\nthe quote {{quote.name}} of the project {{project.name}} was updated; ' +
      'its total is now {{quote.totalPrice}} {{quote.currency}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'QUOTE_STATUS_CHANGED',
    name: 'Quote status changed',
    subject: 'Quote {{quote.name}} is now {{quote.status}}',
    body:
      'Hello {{recipient.firstName}},\n\nthe quote {{quote.name}} of the project {{project.name}} changed to ' +
      '{{quote.status}}.\n\nOpen the project: {{project.url}}' +
      SIGNATURE,
  },
  {
    type: 'LQA_SHARE_REPORT',
    name: 'LQA report shared',
    subject: 'LQA report for {{job.fileName}} ({{job.targetLang}})',
    body:
      'Hello {{recipient.firstName}},\n\n{{actor.fullName}} shared the LQA report of {{job.fileName}} ' +
      '({{job.sourceLang}} → {{job.targetLang}}) in the project {{project.name}} with you.\n\n' +
      'Open the report: {{lqa.reportUrl}}' +
      SIGNATURE,
  },
];

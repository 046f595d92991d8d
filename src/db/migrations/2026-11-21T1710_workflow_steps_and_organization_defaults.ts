import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { boolDefault, boolType, isPostgres, refType, withId } from './dialect.js';

// Frozen: this file must never change once released. Add a new dated migration instead.
//
// Workflow steps and the organization records that come with them: additional workflow steps,
// email templates, due date schemes (with per-step offsets) and the users' notifications.
// Organizations that exist already (except the installation's system organization) receive the
// defaults a new organization starts with: the three default workflow steps and one default email
// template per type. The texts are repeated here on purpose (a migration never imports
// application code); they match src/domain/workflow-steps/workflow-steps.ts and
// src/domain/email-templates/email-template-defaults.ts as of this migration (a test compares them).

/** Names unique in the organization, ignoring case. */
async function uniqueIgnoringCase(db: Kysely<unknown>, table: string, column: string) {
  await db.schema
    .createIndex(`${table}_organization_${column}_unique`)
    .on(table)
    .expression(sql`organization_id, lower(${sql.ref(column)})`)
    .unique()
    .execute();
}

export const DEFAULT_WORKFLOW_STEPS = [
  { name: 'Translation', abbr: 'T', order: 1, lqaEnabled: false },
  { name: 'Revision', abbr: 'R', order: 2, lqaEnabled: true },
  { name: 'Client review', abbr: 'C', order: 3, lqaEnabled: false },
];

const SIGNATURE = '\n\nKind regards,\n{{sender.fullName}}\n{{organization.name}}';

export const DEFAULT_EMAIL_TEMPLATES: { type: string; name: string; subject: string; body: string }[] = [
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

/** A reference to the user who made the record; deleting the user keeps the record. */
function createdBy(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return c.references('users.id').onDelete('set null');
}

/** 22 base62 characters, the shape of the application's `newUid()`. */
function randomUid(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let uid = '';
  while (uid.length < 22) {
    const bytes = new Uint8Array(32);
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && uid.length < 22) uid += alphabet[byte % 62];
    }
  }
  return uid;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('workflow_steps'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('abbr', 'varchar(3)', (c) => c.notNull())
    // The spec's `order` (a reserved word in SQL).
    .addColumn('order_index', 'integer', (c) => c.notNull())
    .addColumn('lqa_enabled', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), createdBy)
    .addColumn('last_modified_at', 'varchar(32)')
    .addColumn('last_modified_by_id', refType(db), createdBy)
    .execute();
  await uniqueIgnoringCase(db, 'workflow_steps', 'name');
  await uniqueIgnoringCase(db, 'workflow_steps', 'abbr');
  await db.schema
    .createIndex('workflow_steps_organization_idx')
    .on('workflow_steps')
    .columns(['organization_id', 'order_index', 'id'])
    .execute();

  await withId(db, db.schema.createTable('additional_workflow_steps'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), createdBy)
    .execute();
  await uniqueIgnoringCase(db, 'additional_workflow_steps', 'name');

  await withId(db, db.schema.createTable('email_templates'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('cc_address', 'varchar(1024)')
    .addColumn('bcc_address', 'varchar(1024)')
    .addColumn('is_default', boolType(db), (c) => c.notNull().defaultTo(boolDefault(db, false)))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), createdBy)
    .execute();
  await db.schema
    .createIndex('email_templates_organization_idx')
    .on('email_templates')
    .columns(['organization_id', 'type', 'id'])
    .execute();
  // At most one default template per type and organization.
  await db.schema
    .createIndex('email_templates_default_unique')
    .on('email_templates')
    .columns(['organization_id', 'type'])
    .unique()
    .where(sql.ref('is_default'), '=', boolDefault(db, true))
    .execute();

  await withId(db, db.schema.createTable('due_date_schemes'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by_id', refType(db), createdBy)
    .execute();
  await uniqueIgnoringCase(db, 'due_date_schemes', 'name');

  // The offset of each workflow step from the project's due date; deleting a step deletes its offsets.
  await withId(db, db.schema.createTable('due_date_scheme_steps'))
    .addColumn('due_date_scheme_id', refType(db), (c) => c.notNull().references('due_date_schemes.id').onDelete('cascade'))
    .addColumn('workflow_step_id', refType(db), (c) => c.notNull().references('workflow_steps.id').onDelete('cascade'))
    .addColumn('offset_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('offset_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('due_date_scheme_steps_unique')
    .on('due_date_scheme_steps')
    .columns(['due_date_scheme_id', 'workflow_step_id'])
    .unique()
    .execute();
  await db.schema.createIndex('due_date_scheme_steps_workflow_step_idx').on('due_date_scheme_steps').column('workflow_step_id').execute();

  await withId(db, db.schema.createTable('notifications'))
    .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('organization_id', refType(db), (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', refType(db), (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // JSON object: what the notification is about (uids and names), for links in clients.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'created_at', 'id']).execute();

  await seedExistingOrganizations(db);
}

async function seedExistingOrganizations(db: Kysely<unknown>): Promise<void> {
  const organizations = await sql<{
    id: string | number;
  }>`select id from organizations where is_system = ${boolDefault(db, false)}`.execute(db);
  const now = new Date().toISOString();
  const yes = isPostgres(db) ? true : 1;
  const no = isPostgres(db) ? false : 0;
  for (const organization of organizations.rows) {
    const steps = DEFAULT_WORKFLOW_STEPS.map((step) => ({
      uid: randomUid(),
      organization_id: organization.id,
      name: step.name,
      abbr: step.abbr,
      order_index: step.order,
      lqa_enabled: step.lqaEnabled ? yes : no,
      created_at: now,
    }));
    await (db as Kysely<Record<string, Record<string, unknown>>>).insertInto('workflow_steps').values(steps).execute();
    const templates = DEFAULT_EMAIL_TEMPLATES.map((template) => ({
      uid: randomUid(),
      organization_id: organization.id,
      type: template.type,
      name: template.name,
      subject: template.subject,
      body: template.body,
      is_default: yes,
      created_at: now,
    }));
    await (db as Kysely<Record<string, Record<string, unknown>>>).insertInto('email_templates').values(templates).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('due_date_scheme_steps').execute();
  await db.schema.dropTable('due_date_schemes').execute();
  await db.schema.dropTable('email_templates').execute();
  await db.schema.dropTable('additional_workflow_steps').execute();
  await db.schema.dropTable('workflow_steps').execute();
}

import type { Kysely } from 'kysely';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import { DEFAULT_WORKFLOW_STEPS } from '../../../domain/workflow-steps/workflow-steps.js';
import { DEFAULT_EMAIL_TEMPLATES } from '../../../domain/email-templates/email-template-defaults.js';
import type { OrganizationRow } from './organizations.repository.js';

/**
 * The records a new organization starts with: the default workflow steps (Translation,
 * Revision, Client review) and one default email template per type the product sends. Called
 * by `insertOrganization` in the creator's transaction, for every organization except the
 * installation's system organization; one insert per table keeps it fast. Organizations that
 * existed before a default was introduced get it from that default's migration.
 */
export async function seedOrganizationDefaults(db: Kysely<DB>, organization: OrganizationRow): Promise<void> {
  const organizationId = organization.id;
  const createdAt = organization.createdAt;
  await db
    .insertInto('workflowSteps')
    .values(
      DEFAULT_WORKFLOW_STEPS.map((step) => ({
        uid: newUid(),
        organizationId,
        name: step.name,
        abbr: step.abbr,
        orderIndex: step.order,
        lqaEnabled: step.lqaEnabled,
        createdAt,
        createdById: null,
      })),
    )
    .execute();
  await db
    .insertInto('emailTemplates')
    .values(
      DEFAULT_EMAIL_TEMPLATES.map((template) => ({
        uid: newUid(),
        organizationId,
        type: template.type,
        name: template.name,
        subject: template.subject,
        body: template.body,
        ccAddress: null,
        bccAddress: null,
        isDefault: true,
        createdAt,
        createdById: null,
      })),
    )
    .execute();
}

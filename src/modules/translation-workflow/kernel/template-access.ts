import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { ProjectTemplatesTable } from '../../../db/tables/setup-records.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { forbidden, notFound } from '../../../errors/index.js';

/**
 * Who may see and change a project template (docs/project-templates.md, "Access"):
 *
 * | Caller | Sees | Edits / deletes |
 * |---|---|---|
 * | ADMIN | every template of the organization | every one |
 * | PROJECT_MANAGER | own templates (owner or creator); others' with `projectTemplateViewOther`, narrowed to `projectTemplateClients` / `projectTemplateBusinessUnits` when those lists are set | own; others' with `projectTemplateEditOther` / `projectTemplateDeleteOther` |
 * | other roles | none (the routes refuse them) | none |
 *
 * A template the caller may not see is 404; one they see but may not change is 403.
 */

export type TemplateRow = Selectable<ProjectTemplatesTable>;

/** A template's target languages, stored as a JSON array. */
export function templateTargetLangs(template: Pick<TemplateRow, 'targetLangs'>): string[] {
  try {
    const value: unknown = JSON.parse(template.targetLangs);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
export type TemplateNeed = 'view' | 'edit' | 'delete';

type TemplatesEb = ExpressionBuilder<DB, 'projectTemplates'>;

function referenceLists(caller: Caller) {
  const lists = caller.settings?.referenceLists ?? {};
  return { clientUids: lists['projectTemplateClients'] ?? [], businessUnitUids: lists['projectTemplateBusinessUnits'] ?? [] };
}

const ownTemplate = (eb: TemplatesEb, caller: Caller) =>
  eb.or([eb('projectTemplates.ownerId', '=', caller.userId), eb('projectTemplates.createdById', '=', caller.userId)]);

/** Others' templates a manager's client / business unit lists let through. */
function narrowedOther(eb: TemplatesEb, caller: Caller) {
  const { clientUids, businessUnitUids } = referenceLists(caller);
  const conditions = [];
  if (clientUids.length)
    conditions.push(
      eb('projectTemplates.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', clientUids)),
    );
  if (businessUnitUids.length) {
    conditions.push(
      eb(
        'projectTemplates.businessUnitId',
        'in',
        eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', businessUnitUids),
      ),
    );
  }
  return conditions.length ? eb.and(conditions) : eb.lit(true);
}

/** A filter for `selectFrom('projectTemplates')` keeping the templates `caller` may see. */
export function visibleTemplates(eb: TemplatesEb, caller: Caller) {
  const inOrganization = eb('projectTemplates.organizationId', '=', caller.organizationId);
  if (caller.role === 'ADMIN') return inOrganization;
  if (caller.role !== 'PROJECT_MANAGER') return eb.lit(false);
  const others = hasRight(caller.role, caller.settings, 'projectTemplateViewOther') ? narrowedOther(eb, caller) : eb.lit(false);
  return eb.and([inOrganization, eb.or([ownTemplate(eb, caller), others])]);
}

function isOwn(template: TemplateRow, caller: Caller): boolean {
  return String(template.ownerId) === caller.userId || String(template.createdById) === caller.userId;
}

/** Whether `caller`, who sees `template`, may do `need` with it. */
export function mayDo(template: TemplateRow, caller: Caller, need: TemplateNeed): boolean {
  if (need === 'view' || caller.role === 'ADMIN' || isOwn(template, caller)) return true;
  return hasRight(caller.role, caller.settings, need === 'edit' ? 'projectTemplateEditOther' : 'projectTemplateDeleteOther');
}

/** The template `uid` for an operation that needs `need`: 404 when the caller cannot see it, 403 when they may not do this. */
export async function requireTemplate(db: Kysely<DB>, caller: Caller, uid: string, need: TemplateNeed = 'view'): Promise<TemplateRow> {
  const template = await db
    .selectFrom('projectTemplates')
    .selectAll('projectTemplates')
    .where('projectTemplates.uid', '=', uid)
    .where((eb) => visibleTemplates(eb, caller))
    .executeTakeFirst();
  if (!template) throw notFound('Project template');
  if (!mayDo(template, caller, need)) throw forbidden(`You may see this project template but not ${need} it.`);
  return template;
}

/**
 * The template `uid` for making a project from it (applyTemplate, assignProviders): whoever may
 * see it, and submitters any template of their organization (Phrase's submitter portal creates
 * projects from templates the submitter cannot otherwise see). 404 otherwise.
 */
export async function requireUsableTemplate(db: Kysely<DB>, caller: Caller, uid: string): Promise<TemplateRow> {
  if (caller.role !== 'SUBMITTER') return requireTemplate(db, caller, uid, 'view');
  const template = await db
    .selectFrom('projectTemplates')
    .selectAll()
    .where('uid', '=', uid)
    .where('organizationId', '=', caller.organizationId)
    .executeTakeFirst();
  if (!template) throw notFound('Project template');
  return template;
}

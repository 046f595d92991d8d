import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { ProjectTemplatesTable } from '../../../../db/tables/setup-records.js';
import { errors } from '../../../../errors/index.js';
import type { Caller } from '../../../../http/access.js';
import { grantedPermissions, reveals, viewingRelations } from './workflow-permissions.js';
import type { Permission, Relation } from './workflow-permissions.js';

/**
 * Project templates as the caller may reach them: the template relations of
 * workflow-permissions.ts, in SQL (`visibleTemplates`, for lists) and on a loaded row
 * (`findTemplateAccess`), side by side.
 */

export type TemplateRow = Selectable<ProjectTemplatesTable>;
export type TemplatePermission = Permission<'template'>;

export interface TemplateAccess {
  readonly template: TemplateRow;
  readonly permissions: ReadonlySet<TemplatePermission>;
}

/** A template's target languages, stored as a JSON array. */
export function templateTargetLangs(template: Pick<TemplateRow, 'targetLangs'>): string[] {
  try {
    const value: unknown = JSON.parse(template.targetLangs);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

type TemplatesEb = ExpressionBuilder<DB, 'projectTemplates'>;

function templateLists(caller: Caller) {
  const lists = caller.role === 'PROJECT_MANAGER' ? (caller.settings?.referenceLists ?? {}) : {};
  return { clientUids: lists['projectTemplateClients'] ?? [], businessUnitUids: lists['projectTemplateBusinessUnits'] ?? [] };
}

/** What a single template's relations are decided on. */
interface TemplateFacts {
  readonly template: TemplateRow;
  readonly clientUid: string | null;
  readonly businessUnitUid: string | null;
}

interface TemplateRelation {
  holds(facts: TemplateFacts, caller: Caller): boolean;
  sql(eb: TemplatesEb, caller: Caller): ReturnType<TemplatesEb['and']>;
}

const inOrganization = (eb: TemplatesEb, caller: Caller) => eb('projectTemplates.organizationId', '=', caller.organizationId);
const sameOrganization = (t: TemplateRow, caller: Caller) => t.organizationId === caller.organizationId;

const TEMPLATE_RELATIONS: { readonly [R in Relation<'template'>]: TemplateRelation } = {
  organization: {
    holds: ({ template }, caller) => sameOrganization(template, caller),
    sql: (eb, caller) => eb.and([inOrganization(eb, caller)]),
  },
  owner: {
    holds: ({ template }, caller) =>
      sameOrganization(template, caller) && (template.ownerId === caller.userId || template.createdById === caller.userId),
    sql: (eb, caller) =>
      eb.and([
        inOrganization(eb, caller),
        eb.or([eb('projectTemplates.ownerId', '=', caller.userId), eb('projectTemplates.createdById', '=', caller.userId)]),
      ]),
  },
  managed: {
    holds: ({ template, clientUid, businessUnitUid }, caller) => {
      const { clientUids, businessUnitUids } = templateLists(caller);
      return (
        sameOrganization(template, caller) &&
        (clientUids.length === 0 || (clientUid !== null && clientUids.includes(clientUid))) &&
        (businessUnitUids.length === 0 || (businessUnitUid !== null && businessUnitUids.includes(businessUnitUid)))
      );
    },
    sql: (eb, caller) => {
      const { clientUids, businessUnitUids } = templateLists(caller);
      const conditions = [inOrganization(eb, caller)];
      if (clientUids.length) {
        conditions.push(
          eb('projectTemplates.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', clientUids)),
        );
      }
      if (businessUnitUids.length) {
        conditions.push(
          eb(
            'projectTemplates.businessUnitId',
            'in',
            eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', businessUnitUids),
          ),
        );
      }
      return eb.and(conditions);
    },
  },
};

/** A filter for `selectFrom('projectTemplates')` keeping the templates `caller` may see: the table's `view` rules, in SQL. */
export function visibleTemplates(eb: TemplatesEb, caller: Caller) {
  const relations = viewingRelations('template', caller);
  if (relations.length === 0) return eb.lit(false);
  return eb.or(relations.map((relation) => TEMPLATE_RELATIONS[relation].sql(eb, caller)));
}

/** What `caller` may do to the template the facts describe, by the table. */
function templatePermissions(facts: TemplateFacts, caller: Caller): Set<TemplatePermission> {
  return grantedPermissions('template', caller, (relation) => TEMPLATE_RELATIONS[relation].holds(facts, caller));
}

/** The template `uid` of the caller's organization as the caller may reach it, or null. */
export async function findTemplateAccess(db: Kysely<DB>, caller: Caller, uid: string): Promise<TemplateAccess | null> {
  const row = await db
    .selectFrom('projectTemplates')
    .leftJoin('clients', 'clients.id', 'projectTemplates.clientId')
    .leftJoin('businessUnits', 'businessUnits.id', 'projectTemplates.businessUnitId')
    .selectAll('projectTemplates')
    .select(['clients.uid as clientUid', 'businessUnits.uid as businessUnitUid'])
    .where('projectTemplates.uid', '=', uid)
    .where('projectTemplates.organizationId', '=', caller.organizationId)
    .executeTakeFirst();
  if (!row) return null;
  const { clientUid, businessUnitUid, ...template } = row;
  const permissions = templatePermissions({ template, clientUid, businessUnitUid }, caller);
  return reveals('template', permissions) ? { template, permissions } : null;
}

/** The 403 of a template the caller sees but may not do `need` to. */
export function templateForbidden(need: TemplatePermission) {
  switch (need) {
    case 'writeReferences':
      return errors.AccessDenied({ reason: 'You may see this project template but not change it.' });
    case 'use':
      return errors.AccessDenied({ reason: 'You may not make projects from this project template.' });
    default:
      return errors.AccessDenied({ reason: `You may see this project template but not ${need} it.` });
  }
}

/** The template `uid` for an operation that needs `need`: 404 when the caller cannot see it, 403 when they may not do this. */
export async function requireTemplateAccess(
  db: Kysely<DB>,
  caller: Caller,
  uid: string,
  need: TemplatePermission = 'view',
): Promise<TemplateAccess> {
  const access = await findTemplateAccess(db, caller, uid);
  if (!access) throw errors.ResourceNotFound({ what: 'Project template' });
  if (!access.permissions.has(need)) throw templateForbidden(need);
  return access;
}

/** The template row of `requireTemplateAccess`. */
export async function requireTemplate(
  db: Kysely<DB>,
  caller: Caller,
  uid: string,
  need: TemplatePermission = 'view',
): Promise<TemplateRow> {
  return (await requireTemplateAccess(db, caller, uid, need)).template;
}

/**
 * The template `uid` for making a project from it (applyTemplate, assignProviders): whoever may
 * use it (submitters: any template of their organization, as Phrase's submitter portal does).
 */
export async function requireUsableTemplate(db: Kysely<DB>, caller: Caller, uid: string): Promise<TemplateRow> {
  return requireTemplate(db, caller, uid, 'use');
}

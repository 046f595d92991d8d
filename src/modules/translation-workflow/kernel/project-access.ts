import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { ProjectsTable } from '../../../db/tables/projects.js';
import { hasRight } from '../../../domain/users/role-settings.js';
import type { Caller } from '../../../http/access.js';
import { forbidden, notFound } from '../../../errors/index.js';

/**
 * Who may see and change a project (docs/translation-workflow.md, "Access"). Every module that
 * reaches a project by its uid (projects, jobs, reference files, custom fields) goes through
 * `requireProject`, and every project list through `visibleProjects`, so that the rules live here
 * once:
 *
 * | Caller | Sees | Edits / deletes |
 * |---|---|---|
 * | ADMIN | every project of the organization | every one |
 * | PROJECT_MANAGER | own projects (owner or creator); others' with `projectViewOther`, narrowed to `projectClients` / `projectBusinessUnits` when those lists are set | own; others' with `projectEditOther` / `projectDeleteOther` (same narrowing) |
 * | LINGUIST | projects with a job the linguist is a provider of | none |
 * | GUEST | projects of the guest's client: own ones, others' with `projectViewOther` | none |
 * | SUBMITTER | projects they created; other submitters' with `projectViewCreatedByOtherSubmitters` | none |
 * | ADMIN or PROJECT_MANAGER of a vendor organization | projects the buyer assigned to their organization (`assignVendor`) | none |
 *
 * A project the caller may not see is 404 (as if it did not exist); one they see but may not
 * change is 403. Deleted projects (`deletedAt`) are never found.
 */

export type ProjectRow = Selectable<ProjectsTable>;

/** Which published view of a project the caller gets (the `userRole` of AbstractProjectDto). */
export type ProjectViewKind = 'MANAGER' | 'LINGUIST' | 'VENDOR';

export interface ProjectAccess {
  project: ProjectRow;
  view: ProjectViewKind;
  /** Whether the caller belongs to the project's organization (a vendor's users do not). */
  ownOrganization: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export type ProjectNeed = 'view' | 'edit' | 'delete';

type ProjectsEb = ExpressionBuilder<DB, 'projects'>;

interface ManagerScope {
  viewOther: boolean;
  editOther: boolean;
  deleteOther: boolean;
  /** Client / business unit uids that narrow the "other" rights; empty = no narrowing. */
  clientUids: readonly string[];
  businessUnitUids: readonly string[];
}

function managerScope(caller: Caller): ManagerScope {
  const lists = caller.role === 'PROJECT_MANAGER' ? (caller.settings?.referenceLists ?? {}) : {};
  return {
    viewOther: hasRight(caller.role, caller.settings, 'projectViewOther'),
    editOther: hasRight(caller.role, caller.settings, 'projectEditOther'),
    deleteOther: hasRight(caller.role, caller.settings, 'projectDeleteOther'),
    clientUids: lists['projectClients'] ?? [],
    businessUnitUids: lists['projectBusinessUnits'] ?? [],
  };
}

function callerRight(caller: Caller, right: string, fallback: boolean): boolean {
  return caller.settings?.rights[right] ?? fallback;
}

/** The guest's client id, or null (a guest without a client sees no project). */
async function guestClientId(db: Kysely<DB>, caller: Caller): Promise<string | null> {
  const row = await db.selectFrom('users').select('guestClientId').where('id', '=', caller.userId).executeTakeFirst();
  return row?.guestClientId == null ? null : row.guestClientId;
}

/** Own project: the caller owns or created it. */
const ownProject = (eb: ProjectsEb, caller: Caller) =>
  eb.or([eb('projects.ownerId', '=', caller.userId), eb('projects.createdById', '=', caller.userId)]);

/** Others' projects a manager's client / business unit lists let through. */
function narrowedOther(eb: ProjectsEb, scope: ManagerScope) {
  const conditions = [];
  if (scope.clientUids.length) {
    conditions.push(
      eb('projects.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', scope.clientUids)),
    );
  }
  if (scope.businessUnitUids.length) {
    conditions.push(
      eb(
        'projects.businessUnitId',
        'in',
        eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', scope.businessUnitUids),
      ),
    );
  }
  return conditions.length ? eb.and(conditions) : eb.lit(true);
}

/** Projects shared with the caller's organization as a vendor. */
const sharedWithVendor = (eb: ProjectsEb, caller: Caller) =>
  eb(
    'projects.vendorId',
    'in',
    eb.selectFrom('vendors').select('vendors.id').where('vendors.vendorOrganizationId', '=', caller.organizationId),
  );

/** Projects with a job the caller is a provider of. */
const providerOf = (eb: ProjectsEb, caller: Caller) =>
  eb.exists(
    eb
      .selectFrom('jobs')
      .innerJoin('jobProviders', 'jobProviders.jobId', 'jobs.id')
      .select('jobs.id')
      .whereRef('jobs.projectId', '=', 'projects.id')
      .where('jobProviders.userId', '=', caller.userId),
  );

/**
 * A filter for `selectFrom('projects')` that keeps the projects `caller` may see (deleted ones
 * never): `query.where((eb) => visibleProjects(eb, caller, context))`. `context` comes from
 * `projectVisibilityContext`, read once per request.
 */
export function visibleProjects(eb: ProjectsEb, caller: Caller, context: ProjectVisibilityContext) {
  const live = eb('projects.deletedAt', 'is', null);
  const inOrganization = eb('projects.organizationId', '=', caller.organizationId);
  switch (caller.role) {
    case 'ADMIN':
      return eb.and([live, eb.or([inOrganization, sharedWithVendor(eb, caller)])]);
    case 'PROJECT_MANAGER': {
      const scope = managerScope(caller);
      const own = eb.and([inOrganization, ownProject(eb, caller)]);
      const others = scope.viewOther ? eb.and([inOrganization, narrowedOther(eb, scope)]) : eb.lit(false);
      return eb.and([live, eb.or([own, others, sharedWithVendor(eb, caller)])]);
    }
    case 'LINGUIST':
      return eb.and([live, providerOf(eb, caller)]);
    case 'GUEST': {
      if (context.guestClientId === null) return eb.lit(false);
      const ofClient = eb.and([inOrganization, eb('projects.clientId', '=', context.guestClientId)]);
      const visible = callerRight(caller, 'projectViewOther', true)
        ? ofClient
        : eb.and([ofClient, eb('projects.createdById', '=', caller.userId)]);
      return eb.and([live, visible]);
    }
    case 'SUBMITTER': {
      const own = eb('projects.createdById', '=', caller.userId);
      const visible = callerRight(caller, 'projectViewCreatedByOtherSubmitters', false)
        ? eb.or([
            own,
            eb(
              'projects.createdById',
              'in',
              eb
                .selectFrom('users')
                .select('users.id')
                .where('users.organizationId', '=', caller.organizationId)
                .where('users.role', '=', 'SUBMITTER'),
            ),
          ])
        : own;
      return eb.and([live, inOrganization, visible]);
    }
    default:
      return eb.lit(false);
  }
}

export interface ProjectVisibilityContext {
  guestClientId: string | null;
}

export async function projectVisibilityContext(db: Kysely<DB>, caller: Caller): Promise<ProjectVisibilityContext> {
  return { guestClientId: caller.role === 'GUEST' ? await guestClientId(db, caller) : null };
}

/** What `caller` may do with `project`, which they can see. */
function accessTo(project: ProjectRow, caller: Caller): ProjectAccess {
  const ownOrganization = project.organizationId === caller.organizationId;
  if (!ownOrganization) return { project, view: 'VENDOR', ownOrganization, canEdit: false, canDelete: false };
  if (caller.role === 'ADMIN') return { project, view: 'MANAGER', ownOrganization, canEdit: true, canDelete: true };
  if (caller.role === 'PROJECT_MANAGER') {
    const scope = managerScope(caller);
    const own = String(project.ownerId) === caller.userId || String(project.createdById) === caller.userId;
    return { project, view: 'MANAGER', ownOrganization, canEdit: own || scope.editOther, canDelete: own || scope.deleteOther };
  }
  if (caller.role === 'LINGUIST') return { project, view: 'LINGUIST', ownOrganization, canEdit: false, canDelete: false };
  return { project, view: 'MANAGER', ownOrganization, canEdit: false, canDelete: false };
}

/** The project `uid` as `caller` may see it, or null (unknown, deleted, or not visible to them). */
export async function findVisibleProject(db: Kysely<DB>, caller: Caller, uid: string): Promise<ProjectAccess | null> {
  const context = await projectVisibilityContext(db, caller);
  const project = await db
    .selectFrom('projects')
    .selectAll('projects')
    .where('projects.uid', '=', uid)
    .where((eb) => visibleProjects(eb, caller, context))
    .executeTakeFirst();
  return project ? accessTo(project, caller) : null;
}

/**
 * The project `uid` for an operation that needs `need`: 404 when the caller cannot see it, 403
 * when they see it but may not edit or delete it.
 */
export async function requireProject(db: Kysely<DB>, caller: Caller, uid: string, need: ProjectNeed = 'view'): Promise<ProjectAccess> {
  const access = await findVisibleProject(db, caller, uid);
  if (!access) throw notFound('Project');
  if (need === 'edit' && !access.canEdit) throw forbidden('You may see this project but not change it.');
  if (need === 'delete' && !access.canDelete) throw forbidden('You may see this project but not delete it.');
  return access;
}

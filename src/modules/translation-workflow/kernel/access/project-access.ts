import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { compiledQuery } from '../../../../db/compiled-query.js';
import type { DB } from '../../../../db/schema.js';
import type { ProjectsTable } from '../../../../db/tables/projects.js';
import type { Role } from '../../../../domain/users/role-settings.js';
import { errors } from '../../../../errors/index.js';
import type { Caller } from '../../../../http/access.js';
import { grantedPermissions, reveals, viewingRelations } from './workflow-permissions.js';
import type { Permission, Relation } from './workflow-permissions.js';

/**
 * Projects as the caller may reach them: the relations of workflow-permissions.ts decided for
 * projects, in SQL (`visibleProjects`, for lists) and on a loaded row (`findProjectAccess`, for one
 * project), each relation once in each form, side by side (test/project-access.test.ts checks that
 * both agree on real rows). Deleted projects (`deletedAt`) are never found.
 */

export type ProjectRow = Selectable<ProjectsTable>;

/** Which published view of a project the caller gets (the `userRole` of AbstractProjectDto). */
export type ProjectViewKind = 'MANAGER' | 'LINGUIST' | 'VENDOR';

export type ProjectPermission = Permission<'project'>;

export interface ProjectAccess {
  readonly project: ProjectRow;
  readonly view: ProjectViewKind;
  /** Whether the caller belongs to the project's organization (a vendor's users do not). */
  readonly ownOrganization: boolean;
  /** What the caller may do to it (workflow-permissions.ts). */
  readonly permissions: ReadonlySet<ProjectPermission>;
  readonly canEdit: boolean;
  readonly canDelete: boolean;
}

type ProjectsEb = ExpressionBuilder<DB, 'projects'>;

/** The caller's client and business unit lists that narrow their rights on others' projects (uids; empty = no narrowing). */
function managerLists(caller: Caller) {
  const lists = caller.role === 'PROJECT_MANAGER' ? (caller.settings?.referenceLists ?? {}) : {};
  return { clientUids: lists['projectClients'] ?? [], businessUnitUids: lists['projectBusinessUnits'] ?? [] };
}

/** What a single project's relations are decided on: its row and a few facts read with it. */
export interface ProjectFacts {
  readonly project: ProjectRow;
  readonly clientUid: string | null;
  readonly businessUnitUid: string | null;
  /** The organization of the vendor the project is shared with. */
  readonly vendorOrganizationId: string | null;
  readonly creatorRole: Role | null;
  /** The caller is a provider of one of its jobs. */
  readonly callerIsProvider: boolean;
  /** The caller's client, when the caller is a guest. */
  readonly guestClientId: string | null;
}

/** `accessSettings.vendors.jobVendorsMayUploadReferences` of the project's settings (spec `VendorSecuritySettingsDto`, default false). */
export function vendorsMayUploadReferences(project: Pick<ProjectRow, 'settings'>): boolean {
  try {
    const settings = JSON.parse(project.settings) as { accessSettings?: { vendors?: { jobVendorsMayUploadReferences?: unknown } } } | null;
    return settings?.accessSettings?.vendors?.jobVendorsMayUploadReferences === true;
  } catch {
    return false;
  }
}

interface ProjectRelation {
  /** On one loaded project. */
  holds(facts: ProjectFacts, caller: Caller): boolean;
  /** In SQL, for lists; only relations that grant `view` need it. */
  sql?(eb: ProjectsEb, caller: Caller, context: ProjectVisibilityContext): ReturnType<ProjectsEb['and']>;
}

const inOrganization = (eb: ProjectsEb, caller: Caller) => eb('projects.organizationId', '=', caller.organizationId);
const isOwner = (p: ProjectRow, caller: Caller) => p.ownerId === caller.userId || p.createdById === caller.userId;
const sameOrganization = (p: ProjectRow, caller: Caller) => p.organizationId === caller.organizationId;

/** Each relation of the table, decided once on a row and once in SQL. */
const PROJECT_RELATIONS: { readonly [R in Relation<'project'>]: ProjectRelation } = {
  organization: {
    holds: ({ project }, caller) => sameOrganization(project, caller),
    sql: (eb, caller) => eb.and([inOrganization(eb, caller)]),
  },
  owner: {
    holds: ({ project }, caller) => sameOrganization(project, caller) && isOwner(project, caller),
    sql: (eb, caller) =>
      eb.and([
        inOrganization(eb, caller),
        eb.or([eb('projects.ownerId', '=', caller.userId), eb('projects.createdById', '=', caller.userId)]),
      ]),
  },
  managed: {
    holds: ({ project, clientUid, businessUnitUid }, caller) => {
      const { clientUids, businessUnitUids } = managerLists(caller);
      return (
        sameOrganization(project, caller) &&
        (clientUids.length === 0 || (clientUid !== null && clientUids.includes(clientUid))) &&
        (businessUnitUids.length === 0 || (businessUnitUid !== null && businessUnitUids.includes(businessUnitUid)))
      );
    },
    sql: (eb, caller) => {
      const { clientUids, businessUnitUids } = managerLists(caller);
      const conditions = [inOrganization(eb, caller)];
      if (clientUids.length) {
        conditions.push(
          eb('projects.clientId', 'in', eb.selectFrom('clients').select('clients.id').where('clients.uid', 'in', clientUids)),
        );
      }
      if (businessUnitUids.length) {
        conditions.push(
          eb(
            'projects.businessUnitId',
            'in',
            eb.selectFrom('businessUnits').select('businessUnits.id').where('businessUnits.uid', 'in', businessUnitUids),
          ),
        );
      }
      return eb.and(conditions);
    },
  },
  creator: {
    holds: ({ project }, caller) => sameOrganization(project, caller) && project.createdById === caller.userId,
    sql: (eb, caller) => eb.and([inOrganization(eb, caller), eb('projects.createdById', '=', caller.userId)]),
  },
  submitters: {
    holds: ({ project, creatorRole }, caller) => sameOrganization(project, caller) && creatorRole === 'SUBMITTER',
    sql: (eb, caller) =>
      eb.and([
        inOrganization(eb, caller),
        eb(
          'projects.createdById',
          'in',
          eb
            .selectFrom('users')
            .select('users.id')
            .where('users.organizationId', '=', caller.organizationId)
            .where('users.role', '=', 'SUBMITTER'),
        ),
      ]),
  },
  client: {
    holds: ({ project, guestClientId }, caller) =>
      sameOrganization(project, caller) && guestClientId !== null && project.clientId === guestClientId,
    sql: (eb, caller, context) =>
      context.guestClientId === null
        ? eb.and([eb.lit(false)])
        : eb.and([inOrganization(eb, caller), eb('projects.clientId', '=', context.guestClientId)]),
  },
  clientCreator: {
    holds: (facts, caller) => PROJECT_RELATIONS.client.holds(facts, caller) && facts.project.createdById === caller.userId,
    sql: (eb, caller, context) =>
      eb.and([PROJECT_RELATIONS.client.sql!(eb, caller, context), eb('projects.createdById', '=', caller.userId)]),
  },
  provider: {
    holds: ({ callerIsProvider }) => callerIsProvider,
    sql: (eb, caller) =>
      eb.and([
        eb.exists(
          eb
            .selectFrom('jobs')
            .innerJoin('jobProviders', 'jobProviders.jobId', 'jobs.id')
            .select('jobs.id')
            .whereRef('jobs.projectId', '=', 'projects.id')
            .where('jobProviders.userId', '=', caller.userId),
        ),
      ]),
  },
  vendor: {
    holds: ({ vendorOrganizationId }, caller) => vendorOrganizationId === caller.organizationId,
    sql: (eb, caller) =>
      eb.and([
        eb(
          'projects.vendorId',
          'in',
          eb.selectFrom('vendors').select('vendors.id').where('vendors.vendorOrganizationId', '=', caller.organizationId),
        ),
      ]),
  },
  vendorUploader: {
    holds: (facts, caller) => PROJECT_RELATIONS.vendor.holds(facts, caller) && vendorsMayUploadReferences(facts.project),
  },
};

export interface ProjectVisibilityContext {
  readonly guestClientId: string | null;
}

/** The guest's client id, or null (a guest without a client sees no project); read once per request. */
export async function projectVisibilityContext(db: Kysely<DB>, caller: Caller): Promise<ProjectVisibilityContext> {
  if (caller.role !== 'GUEST') return { guestClientId: null };
  const row = await db.selectFrom('users').select('guestClientId').where('id', '=', caller.userId).executeTakeFirst();
  return { guestClientId: row?.guestClientId ?? null };
}

/**
 * A filter for `selectFrom('projects')` that keeps the projects `caller` may see (deleted ones
 * never): the table's `view` rules for the caller, in SQL. `context` comes from
 * `projectVisibilityContext`, read once per request.
 */
export function visibleProjects(eb: ProjectsEb, caller: Caller, context: ProjectVisibilityContext) {
  const relations = viewingRelations('project', caller);
  if (relations.length === 0) return eb.lit(false);
  return eb.and([
    eb('projects.deletedAt', 'is', null),
    eb.or(relations.map((relation) => PROJECT_RELATIONS[relation].sql!(eb, caller, context))),
  ]);
}

/** What `caller` may do to the project the facts describe, by the table. */
export function projectPermissions(facts: ProjectFacts, caller: Caller): Set<ProjectPermission> {
  return grantedPermissions('project', caller, (relation) => PROJECT_RELATIONS[relation].holds(facts, caller));
}

function accessOf(facts: ProjectFacts, caller: Caller, permissions: ReadonlySet<ProjectPermission>): ProjectAccess {
  const ownOrganization = sameOrganization(facts.project, caller);
  const view: ProjectViewKind = !ownOrganization ? 'VENDOR' : caller.role === 'LINGUIST' ? 'LINGUIST' : 'MANAGER';
  return {
    project: facts.project,
    view,
    ownOrganization,
    permissions,
    canEdit: permissions.has('edit'),
    canDelete: permissions.has('delete'),
  };
}

/**
 * One project by uid with the facts its relations need, in one statement compiled once (this runs
 * on every request that names a project): its client and business unit uids, its vendor's
 * organization, its creator's role, whether the caller provides one of its jobs, and the guest's
 * client (null for callers without one).
 */
const projectFactsQuery = (includeDeleted: boolean) =>
  compiledQuery((db, p: { uid: string; userId: string }) =>
    db
      .selectFrom('projects')
      .leftJoin('clients', 'clients.id', 'projects.clientId')
      .leftJoin('businessUnits', 'businessUnits.id', 'projects.businessUnitId')
      .leftJoin('vendors', 'vendors.id', 'projects.vendorId')
      .leftJoin('users as creators', 'creators.id', 'projects.createdById')
      .selectAll('projects')
      .select((eb) => [
        'clients.uid as clientUid',
        'businessUnits.uid as businessUnitUid',
        'vendors.vendorOrganizationId as vendorOrganizationId',
        'creators.role as creatorRole',
        eb
          .exists(
            eb
              .selectFrom('jobs')
              .innerJoin('jobProviders', 'jobProviders.jobId', 'jobs.id')
              .select('jobs.id')
              .whereRef('jobs.projectId', '=', 'projects.id')
              .where('jobProviders.userId', '=', p.userId),
          )
          .as('callerIsProvider'),
        eb.selectFrom('users as callers').select('callers.guestClientId').where('callers.id', '=', p.userId).as('guestClientId'),
      ])
      .where('projects.uid', '=', p.uid)
      .$if(!includeDeleted, (query) => query.where('projects.deletedAt', 'is', null)),
  );
const LIVE_PROJECT_FACTS = projectFactsQuery(false);
const ANY_PROJECT_FACTS = projectFactsQuery(true);

async function loadProjectFacts(db: Kysely<DB>, caller: Caller, uid: string, includeDeleted: boolean): Promise<ProjectFacts | null> {
  const row = await (includeDeleted ? ANY_PROJECT_FACTS : LIVE_PROJECT_FACTS).first(db, { uid, userId: caller.userId });
  if (!row) return null;
  const { clientUid, businessUnitUid, vendorOrganizationId, creatorRole, callerIsProvider, guestClientId, ...project } = row;
  return {
    project,
    clientUid,
    businessUnitUid,
    vendorOrganizationId,
    creatorRole: creatorRole ?? null,
    callerIsProvider: callerIsProvider === true || Number(callerIsProvider) === 1,
    guestClientId: caller.role === 'GUEST' && guestClientId !== null && guestClientId !== undefined ? String(guestClientId) : null,
  };
}

/**
 * The project `uid` as `caller` may reach it, or null (unknown, deleted, or not visible to them).
 * `includeDeleted` finds projects in the recycle bin too (purging and restoring them).
 */
export async function findVisibleProject(
  db: Kysely<DB>,
  caller: Caller,
  uid: string,
  options: { includeDeleted?: boolean } = {},
): Promise<ProjectAccess | null> {
  const facts = await loadProjectFacts(db, caller, uid, options.includeDeleted === true);
  if (!facts) return null;
  const permissions = projectPermissions(facts, caller);
  return reveals('project', permissions) ? accessOf(facts, caller, permissions) : null;
}

/** The 403 of a project the caller sees but may not do `need` to. */
export function projectForbidden(need: ProjectPermission) {
  switch (need) {
    case 'delete':
      return errors.AccessDenied({ reason: 'You may see this project but not delete it.' });
    case 'createJobs':
      return errors.AccessDenied({ reason: 'You may see this project but not add jobs to it.' });
    case 'writeReferences':
      return errors.AccessDenied({
        reason:
          "You may see this project but not add or delete its reference files (for vendors: the project's jobVendorsMayUploadReferences).",
      });
    case 'setVendorStatus':
      return errors.AccessDenied({ reason: 'Only the vendor the project is shared with sets the vendor statuses.' });
    default:
      return errors.AccessDenied({ reason: 'You may see this project but not change it.' });
  }
}

/** 403 unless the caller holds `need` on the project they already reached (a second permission a request needs). */
export function requireProjectPermission(access: ProjectAccess, need: ProjectPermission): ProjectAccess {
  if (!access.permissions.has(need)) throw projectForbidden(need);
  return access;
}

/**
 * The project `uid` for an operation that needs `need`: 404 when the caller cannot see it, 403
 * when they see it but may not do this.
 */
export async function requireProject(
  db: Kysely<DB>,
  caller: Caller,
  uid: string,
  need: ProjectPermission = 'view',
): Promise<ProjectAccess> {
  const access = await findVisibleProject(db, caller, uid);
  if (!access) throw errors.ResourceNotFound({ what: 'Project' });
  if (!access.permissions.has(need)) throw projectForbidden(need);
  return access;
}

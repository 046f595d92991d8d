import type { Kysely } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../../../../db/schema.js';
import type { UserRole } from '../../../../db/schema.js';
import { errors } from '../../../../errors/index.js';
import { AUTHENTICATED, callerOf, roles } from '../../../../http/access.js';
import type { Access, Caller, RecordRule } from '../../../../http/access.js';
import { requireJobOf } from './job-access.js';
import type { JobAccess, JobPermission } from './job-access.js';
import { findVisibleProject, projectForbidden } from './project-access.js';
import type { ProjectAccess, ProjectPermission, ProjectViewKind } from './project-access.js';
import { requireTemplateAccess } from './template-access.js';
import type { TemplateAccess, TemplatePermission } from './template-access.js';

/**
 * Routes of the translation workflow declare the record they address and the permission they need
 * (`config.access = onJob(EDITORS, 'edit')`); `workflowRecordAccess`, one preHandler for the whole
 * app, loads that record once, answers 404 or 403 from the permission table, and leaves the
 * result on the request for the handler (`jobAccessOf(request)`). The access matrix reads the same
 * declarations (test/access-matrix.test.ts).
 */

/** Reading projects: every role the table lets see projects. */
export const PROJECT_READERS: Access = AUTHENTICATED;
/** Changing projects: ADMIN and PROJECT_MANAGER (own projects; others' with projectEditOther / projectDeleteOther). */
export const PROJECT_EDITORS: Access = roles('ADMIN', 'PROJECT_MANAGER');
/** Creating projects from nothing (create v3, clone): ADMIN, and PROJECT_MANAGER with projectCreate. */
export const PROJECT_CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'projectCreate' };
/** Creating projects from a template: also SUBMITTER (the submitter portal); project managers need projectCreate. */
export const TEMPLATE_PROJECT_CREATORS: Access = { roles: ['ADMIN', 'PROJECT_MANAGER', 'SUBMITTER'], right: 'projectCreate' };

/** The view kind of a project of the caller's own organization. */
export function ownView(caller: Caller): ProjectViewKind {
  return caller.role === 'LINGUIST' ? 'LINGUIST' : 'MANAGER';
}

type RouteRoles = Access | readonly UserRole[];
const rolesOf = (who: RouteRoles): Access => (Array.isArray(who) ? { roles: who as readonly UserRole[] } : (who as Access));

export interface ProjectRouteOptions {
  /** The path parameter naming the project (default `projectUid`). */
  readonly param?: string;
  /** The project may be in the recycle bin (purge, restore). */
  readonly includeDeleted?: boolean;
  /** A template the path names too, and what the route needs on it (a template applied to the project). */
  readonly template?: { readonly need: TemplatePermission; readonly param: string };
}

/** A route on one project (`:projectUid`) that needs `need` on it. */
export function onProject(who: RouteRoles, need: ProjectPermission, options: string | ProjectRouteOptions = {}): Access {
  const { param = 'projectUid', includeDeleted, template } = typeof options === 'string' ? { param: options } : options;
  return {
    ...rolesOf(who),
    record: {
      kind: 'project',
      need,
      params: { project: param },
      ...(includeDeleted ? { includeDeleted } : {}),
      ...(template ? { also: { kind: 'template', need: template.need, params: { template: template.param } } } : {}),
    },
  };
}

/** A route on one job of a project (`:projectUid/jobs/:jobUid`) that needs `need` on the job. */
export function onJob(who: RouteRoles, need: JobPermission, params: { project?: string; job?: string } = {}): Access {
  return {
    ...rolesOf(who),
    record: { kind: 'job', need, params: { project: params.project ?? 'projectUid', job: params.job ?? 'jobUid' } },
  };
}

/** A route on one project template (`:projectTemplateUid`) that needs `need` on it. */
export function onTemplate(who: RouteRoles, need: TemplatePermission, param = 'projectTemplateUid'): Access {
  return { ...rolesOf(who), record: { kind: 'template', need, params: { template: param } } };
}

/** What the preHandler loaded for the request's route. */
interface LoadedRecord {
  readonly project?: ProjectAccess;
  readonly job?: JobAccess;
  readonly template?: TemplateAccess;
}

declare module 'fastify' {
  interface FastifyRequest {
    workflowRecord: LoadedRecord | null;
  }
}

function pathParam(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string') throw new Error(`route ${request.routeOptions.url} declares path parameter "${name}" but has none`);
  return value;
}

/**
 * Loads and checks the record a route declares (404 or 403 by the table), then the second record
 * it names, if any; for any database handle.
 */
export async function loadDeclaredRecord(
  db: Kysely<DB>,
  caller: Caller,
  rule: RecordRule,
  param: (name: string) => string,
): Promise<LoadedRecord> {
  const first = await loadOneRecord(db, caller, rule, param);
  return rule.also ? { ...first, ...(await loadOneRecord(db, caller, rule.also, param)) } : first;
}

async function loadOneRecord(db: Kysely<DB>, caller: Caller, rule: RecordRule, param: (name: string) => string): Promise<LoadedRecord> {
  switch (rule.kind) {
    case 'project': {
      const project = await findVisibleProject(db, caller, param(rule.params['project']!), {
        includeDeleted: rule.includeDeleted === true,
      });
      if (!project) throw errors.ResourceNotFound({ what: 'Project' });
      const need = rule.need as ProjectPermission;
      if (!project.permissions.has(need)) throw projectForbidden(need);
      return { project };
    }
    case 'job': {
      const project = await findVisibleProject(db, caller, param(rule.params['project']!));
      if (!project) throw errors.ResourceNotFound({ what: 'Project' });
      const job = await requireJobOf(db, caller, project, param(rule.params['job']!), rule.need as JobPermission);
      return { project, job };
    }
    case 'template':
      return { template: await requireTemplateAccess(db, caller, param(rule.params['template']!), rule.need as TemplatePermission) };
    default:
      throw new Error(`unknown record kind "${rule.kind}"`);
  }
}

/**
 * Installs the app-wide preHandler (src/app.ts calls it) that enforces the declared record rule of
 * each route, if it has one. It runs after validation, as the handlers' own lookups did.
 */
export function installWorkflowRecordAccess(app: FastifyInstance, db: Kysely<DB>): void {
  app.decorateRequest('workflowRecord', null);
  app.addHook('preHandler', async (request) => {
    const rule = request.routeOptions.config.access?.record;
    if (!rule) return;
    request.workflowRecord = await loadDeclaredRecord(db, callerOf(request), rule, (name) => pathParam(request, name));
  });
}

function loaded(request: FastifyRequest): LoadedRecord {
  if (!request.workflowRecord)
    throw new Error(`route ${request.routeOptions.url} reads a workflow record it does not declare (config.access.record)`);
  return request.workflowRecord;
}

/** The project the route declared (`onProject`, or the project of `onJob`), as the caller reaches it. */
export function projectAccessOf(request: FastifyRequest): ProjectAccess {
  const { project, job } = loaded(request);
  const access = project ?? job?.project;
  if (!access) throw new Error(`route ${request.routeOptions.url} declares no project`);
  return access;
}

/** The job the route declared (`onJob`). */
export function jobAccessOf(request: FastifyRequest): JobAccess {
  const { job } = loaded(request);
  if (!job) throw new Error(`route ${request.routeOptions.url} declares no job`);
  return job;
}

/** The template the route declared (`onTemplate`). */
export function templateAccessOf(request: FastifyRequest): TemplateAccess {
  const { template } = loaded(request);
  if (!template) throw new Error(`route ${request.routeOptions.url} declares no project template`);
  return template;
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import type { Caller } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import type { ProjectRow } from '../kernel/index.js';
import { PROJECT_CREATORS, PROJECT_EDITORS, PROJECT_READERS, onProject, ownView, projectAccessOf } from '../kernel/index.js';
import { requireProject } from '../kernel/index.js';
import { CUSTOM_FIELD_VALUE_ERRORS } from '../custom-field-instances/index.js';
import { listVisibleProjects } from './project-list.js';
import { projectSettingsRoutes } from './project-settings.routes.js';
import { projectTemplateRoutes } from './project-template.routes.js';
import { toProjectViewsV1, toProjectViewsV2 } from '../kernel/index.js';
import { projectWorkflowRoutes } from './project-workflow.routes.js';
import { projectLqaSettingsRoutes } from './project-lqa-settings.routes.js';
import {
  CloneProjectBody,
  CreateProjectV3Body,
  DeleteProjectQuery,
  EditProjectV2Body,
  ListProjectsQuery,
  PatchProjectBody,
  ProjectUidParams,
  SetProjectStatusBody,
} from './projects.schemas.js';
import { ProjectPage, ProjectV1, ProjectV2 } from '../kernel/index.js';
import {
  cloneProject,
  createProjectV3,
  deleteProject,
  editProject,
  patchProject,
  restoreProject,
  setProjectStatus,
} from './projects.service.js';

const TAGS = ['Project'];

/** Project operations (issue 6): records, views by role, settings, workflow, templates. */
export function projectsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const now = () => deps.clock().toISOString();
  const v1 = async (caller: Caller, project: ProjectRow, view = ownView(caller)) =>
    (await toProjectViewsV1(db, caller, [{ project, view }], now()))[0]!;
  const v2 = async (caller: Caller, project: ProjectRow, view = ownView(caller)) =>
    (await toProjectViewsV2(db, caller, [{ project, view }], now()))[0]!;
  /** The caller's view of a project after a change (re-read through the access rules). */
  const fresh = async (caller: Caller, project: ProjectRow) => requireProject(db, caller, project.uid, 'view');

  return async (app) => {
    // Create project: v3 is current; v1 and v2 are older versions clients still call (issue 13).
    // All three take the v3 body and make the project the same way; each answers its own shape:
    // v1 the v1 project view (AbstractProjectDto), v2 and v3 the v2 view (AbstractProjectDtoV2).
    for (const [version, operationId, view] of [
      ['v1', 'createProject', 'v1'],
      ['v2', 'createProjectV2', 'v2'],
      ['v3', 'createProjectV3', 'v2'],
    ] as const) {
      const deprecated = version !== 'v3';
      app.post(
        `/${version}/projects`,
        {
          config: { access: PROJECT_CREATORS, errors: ['UnsupportedLanguage', ...CUSTOM_FIELD_VALUE_ERRORS] },
          schema: {
            tags: TAGS,
            operationId,
            summary: 'Create project',
            ...(deprecated ? { deprecated: true } : {}),
            description:
              (version === 'v1'
                ? 'Replaced by v3 (and by POST /api2/v2/projects/applyTemplate/{templateUid}); still works. Takes the v3 body and answers the v1 view of the project (AbstractProjectDto). '
                : version === 'v2'
                  ? 'Replaced by POST /api2/v2/projects/applyTemplate/{templateUid} (description, "Versioning") and by v3; still works. Takes the v3 body and answers the v2 view (AbstractProjectDtoV2). '
                  : '') +
              'CreateProjectV3Dto. References (`client`, `businessUnit`, `domain`, `subDomain`, `costCenter`, `workflowSteps`) take the numeric id or the uid in `id`. The caller owns the project. LQA profiles do not exist yet: naming one (`lqaProfiles[].lqaProfile`) is 400 ReferenceNotFound, and any other non-empty `lqaProfiles` 400 InvalidArguments.',
            body: CreateProjectV3Body,
            response: { 201: view === 'v1' ? ProjectV1 : ProjectV2 },
          },
        },
        async (request, reply) => {
          const caller = callerOf(request);
          const project = await createProjectV3(deps, caller, request.body);
          return reply.code(201).send(view === 'v1' ? await v1(caller, project) : await v2(caller, project));
        },
      );
    }

    app.get(
      '/v1/projects',
      {
        config: { access: PROJECT_READERS },
        schema: {
          tags: TAGS,
          operationId: 'listProjects',
          summary: 'List projects',
          description:
            'The projects the caller may see, newest first, with the published filters (docs/projects.md). Archived projects only with `includeArchived` or `archivedOnly`.',
          querystring: ListProjectsQuery,
          response: { 200: ProjectPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { rows, total } = await listVisibleProjects(db, caller, request.query, deps.clock());
        const targets = rows.map((project) => ({
          project,
          view: project.organizationId === caller.organizationId ? ownView(caller) : ('VENDOR' as const),
        }));
        return toPage(await toProjectViewsV1(db, caller, targets, now()), total, request.query);
      },
    );

    app.get(
      '/v1/projects/:projectUid',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: TAGS,
          operationId: 'getProject',
          summary: 'Get project',
          description: "The view depends on the caller's role (`userRole`).",
          params: ProjectUidParams,
          response: { 200: ProjectV1 },
        },
      },
      async (request) => {
        const access = projectAccessOf(request);
        return v1(callerOf(request), access.project, access.view);
      },
    );

    app.patch(
      '/v1/projects/:projectUid',
      {
        config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: [...CUSTOM_FIELD_VALUE_ERRORS] },
        schema: {
          tags: TAGS,
          operationId: 'patchProject',
          summary: 'Edit project',
          description:
            'PatchProjectDto: fields left out keep their values; null clears a reference, purchaseOrder, dateDue or note. `machineTranslateSettings` (by uid; null removes the MT settings) serves every target language; `machineTranslateSettingsPerLangs` changes only the listed target languages (an entry without settings clears its language), its values winning over `machineTranslateSettings`; switching to per-language settings first gives the unlisted target languages the settings switched from. Unknown settings: 400 ReferenceNotFound; a language that is not a target language of the project: 400.',
          params: ProjectUidParams,
          body: PatchProjectBody,
          response: { 200: ProjectV1 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = await patchProject(deps, caller, projectAccessOf(request), request.body);
        const access = await fresh(caller, project);
        return v1(caller, access.project, access.view);
      },
    );

    // Edit project as a whole: v3 is current; v1 (an older version clients still call, issue 13)
    // and v2 take the same body. v1 answers the v1 view (AbstractProjectDto), v2 and v3 the v2 view.
    for (const [version, operationId, deprecated] of [
      ['v1', 'editProject', true],
      ['v2', 'editProjectV2', true],
      ['v3', 'editProjectV3', false],
    ] as const) {
      app.put(
        `/${version}/projects/:projectUid`,
        {
          config: { access: onProject(PROJECT_EDITORS, 'edit'), errors: [...CUSTOM_FIELD_VALUE_ERRORS] },
          schema: {
            tags: TAGS,
            operationId,
            summary: 'Edit project',
            ...(deprecated ? { deprecated: true } : {}),
            description:
              (version === 'v1'
                ? 'Replaced by v3 (and by PATCH /api2/v1/projects/{projectUid}); still works, answering the v1 view of the project (AbstractProjectDto). '
                : '') +
              'EditProjectV2Dto (v1 and v3 take the same body). The body replaces the editable fields: references, purchaseOrder, dateDue and note left out are cleared, fileHandover, archived and propagateTranslationsToLowerWfDuringUpdateSource take their defaults (false); status and owner left out keep their values.',
            params: ProjectUidParams,
            body: EditProjectV2Body,
            response: { 200: version === 'v1' ? ProjectV1 : ProjectV2 },
          },
        },
        async (request) => {
          const caller = callerOf(request);
          const project = await editProject(deps, caller, projectAccessOf(request), request.body);
          const access = await fresh(caller, project);
          return version === 'v1' ? v1(caller, access.project, access.view) : v2(caller, access.project, access.view);
        },
      );
    }

    app.delete(
      '/v1/projects/:projectUid',
      {
        config: { access: onProject(PROJECT_EDITORS, 'delete', { includeDeleted: true }) },
        schema: {
          tags: TAGS,
          operationId: 'deleteProject',
          summary: 'Delete project',
          description:
            'Moves the project to the recycle bin (restore brings it back). `purge=true` removes it, its jobs and its files for good, also from the recycle bin.',
          params: ProjectUidParams,
          querystring: DeleteProjectQuery,
        },
      },
      async (request, reply) => {
        await deleteProject(deps, callerOf(request), projectAccessOf(request), request.query.purge);
        return reply.code(204).send();
      },
    );

    app.patch(
      '/v1/projects/:projectUid/restore',
      {
        config: { access: onProject(PROJECT_EDITORS, 'delete', { includeDeleted: true }) },
        schema: {
          tags: TAGS,
          operationId: 'restoreProject',
          summary: 'Restore project',
          description: 'Brings a deleted project back from the recycle bin and un-archives it (docs/projects.md). Answers the project.',
          params: ProjectUidParams,
          response: { 200: ProjectV1 },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const project = await restoreProject(deps, caller, projectAccessOf(request));
        return v1(caller, project);
      },
    );

    app.post(
      '/v1/projects/:projectUid/setStatus',
      {
        config: { access: onProject(PROJECT_EDITORS, 'setStatus') },
        schema: {
          tags: TAGS,
          operationId: 'setProjectStatus',
          summary: 'Edit project status',
          description:
            "The buyer's editors set NEW, ASSIGNED, COMPLETED and CANCELLED; the vendor the project is shared with sets ACCEPTED_BY_VENDOR, DECLINED_BY_VENDOR and COMPLETED_BY_VENDOR.",
          params: ProjectUidParams,
          body: SetProjectStatusBody,
        },
      },
      async (request, reply) => {
        await setProjectStatus(deps, callerOf(request), projectAccessOf(request), request.body.status);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/clone',
      {
        config: { access: onProject(PROJECT_CREATORS, 'clone') },
        schema: {
          tags: TAGS,
          operationId: 'cloneProject',
          summary: 'Clone project',
          description:
            'A new project (owned by the caller, status NEW) with the languages, workflow steps, setup references and settings of the source; not its jobs, files, providers or vendor.',
          params: ProjectUidParams,
          body: CloneProjectBody,
          response: { 201: ProjectV1 },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const project = await cloneProject(deps, caller, projectAccessOf(request), request.body.name);
        return reply.code(201).send(await v1(caller, project));
      },
    );

    await app.register(projectSettingsRoutes(deps));
    await app.register(projectWorkflowRoutes(deps));
    await app.register(projectLqaSettingsRoutes(deps));
    await app.register(projectTemplateRoutes(deps));
  };
}

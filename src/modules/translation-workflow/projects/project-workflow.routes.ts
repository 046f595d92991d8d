import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { bool } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { containsText } from '../../../db/text-match.js';
import type { WebhookEvent } from '../../../domain/webhooks/events.js';
import { callerOf } from '../../../http/access.js';
import type { Caller } from '../../../http/access.js';
import { invalid } from '../../../errors/index.js';
import { PageOf, PagingQuery, pageWindow, toPage } from '../../../http/paging.js';
import { requireProject } from '../kernel/index.js';
import type { ProjectRow } from '../kernel/index.js';
import { resolveVendor, resolveWorkflowSteps } from '../kernel/index.js';
import { PROJECT_EDITORS, PROJECT_READERS } from '../kernel/index.js';
import { parseSettings, writeSetting } from '../kernel/index.js';
import { appendWorkflowSteps, replaceTargetLanguages } from './projects.repository.js';
import { projectTargetLanguages } from '../kernel/index.js';
import { IdReference, ProjectUidParams } from './projects.schemas.js';
import { ProjectWorkflowStepList, WorkflowStepsQuery } from '../kernel/index.js';
import { assertTargetLangs, normalizeDate } from './projects.service.js';
import { emitProjectEvents } from '../kernel/index.js';

/**
 * A project's workflow steps and target languages, its providers, the vendor it is shared with,
 * and its content group (docs/projects.md).
 */

const TAGS = ['Project'];

const AddWorkflowStepsBody = Type.Object({ workflowSteps: Type.Array(IdReference, { minItems: 1, maxItems: 100 }) });
const AddTargetLangsBody = Type.Object({ targetLangs: Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: 500 }) });
const AssignVendorBody = Type.Object({ vendor: Type.Optional(IdReference), dateDue: Type.Optional(Type.String({ format: 'date-time' })) });
const ProviderReference = Type.Object({ type: Type.String(), id: Type.String(), uid: Type.String() });
const ProvidersQuery = Type.Object({ providerName: Type.Optional(Type.String({ maxLength: 255 })), ...PagingQuery });

/** Content group link (no published DTO; docs/projects.md). */
const ContentGroup = Type.Object({
  uid: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.Optional(Type.String({ maxLength: 255 })),
});
const ContentGroupBody = Type.Object({ contentGroup: ContentGroup });
const ContentGroupSchema = Type.Object(
  { contentGroup: Type.Union([Type.Object({ uid: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]) },
  { title: 'ProjectContentGroupDto' },
);

interface ProviderRow {
  type: 'USER' | 'VENDOR';
  id: string;
  uid: string;
  name: string;
}

/** The distinct providers (users and vendors) of the project's jobs, by name. */
async function projectProviders(db: Kysely<DB>, project: ProjectRow, providerName: string | undefined): Promise<ProviderRow[]> {
  let users = db
    .selectFrom('jobProviders')
    .innerJoin('jobs', 'jobs.id', 'jobProviders.jobId')
    .innerJoin('users', 'users.id', 'jobProviders.userId')
    .select(['users.id', 'users.uid', 'users.userName', 'users.firstName', 'users.lastName'])
    .where('jobs.projectId', '=', project.id)
    .distinct();
  let vendors = db
    .selectFrom('jobProviders')
    .innerJoin('jobs', 'jobs.id', 'jobProviders.jobId')
    .innerJoin('vendors', 'vendors.id', 'jobProviders.vendorId')
    .innerJoin('organizations', 'organizations.id', 'vendors.vendorOrganizationId')
    .select(['vendors.id', 'vendors.uid', 'organizations.name'])
    .where('jobs.projectId', '=', project.id)
    .distinct();
  if (providerName) {
    users = users.where((eb) =>
      eb.or([
        containsText('users.userName', providerName),
        containsText('users.firstName', providerName),
        containsText('users.lastName', providerName),
      ]),
    );
    vendors = vendors.where(containsText('organizations.name', providerName));
  }
  const rows: ProviderRow[] = [
    ...(await users.execute()).map((u) => ({
      type: 'USER' as const,
      id: u.id,
      uid: u.uid,
      name: `${u.firstName} ${u.lastName}`.trim() || u.userName,
    })),
    ...(await vendors.execute()).map((v) => ({ type: 'VENDOR' as const, id: v.id, uid: v.uid, name: v.name })),
  ];
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type) || Number(a.id) - Number(b.id));
}

export function projectWorkflowRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  /** Runs `change` on a project the caller may edit, in one transaction that also emits `events`. */
  async function change(
    caller: Caller,
    uid: string,
    events: WebhookEvent[],
    work: (trx: Kysely<DB>, project: ProjectRow) => Promise<void>,
  ) {
    const { project } = await requireProject(db, caller, uid, 'edit');
    await db.transaction().execute(async (trx) => {
      await work(trx, project);
      await trx
        .updateTable('projects')
        .set({ lastModifiedAt: deps.clock().toISOString(), lastModifiedById: caller.userId })
        .where('id', '=', project.id)
        .execute();
      await emitProjectEvents(deps, trx, caller, project.id, events);
    });
    deps.taskWakeup.notify();
  }

  return async (app) => {
    app.get(
      '/v2/projects/:projectUid/workflowSteps',
      {
        config: { access: PROJECT_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getProjectWorkflowStepsV2',
          summary: 'Get workflow steps',
          description:
            'The project-specific steps (their `id` is what job assignments take), by workflow level. `withAssignedJobs`: only steps with a job the caller is a provider of.',
          params: ProjectUidParams,
          querystring: WorkflowStepsQuery,
          response: { 200: ProjectWorkflowStepList },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { project } = await requireProject(db, caller, request.params.projectUid, 'view');
        let query = db
          .selectFrom('projectWorkflowSteps as pws')
          .innerJoin('workflowSteps as ws', 'ws.id', 'pws.workflowStepId')
          .select(['pws.id', 'pws.workflowLevel', 'ws.id as stepId', 'ws.uid', 'ws.name', 'ws.abbr', 'ws.orderIndex', 'ws.lqaEnabled'])
          .where('pws.projectId', '=', project.id)
          .orderBy('pws.workflowLevel');
        if (request.query.withAssignedJobs) {
          query = query.where((eb) =>
            eb.exists(
              eb
                .selectFrom('jobs')
                .innerJoin('jobProviders', 'jobProviders.jobId', 'jobs.id')
                .select('jobs.id')
                .whereRef('jobs.projectWorkflowStepId', '=', 'pws.id')
                .where('jobProviders.userId', '=', caller.userId),
            ),
          );
        }
        const rows = await query.execute();
        return {
          projectWorkflowSteps: rows.map((s) => ({
            id: Number(s.id),
            abbreviation: s.abbr,
            name: s.name,
            workflowLevel: s.workflowLevel,
            workflowStep: { id: s.stepId, uid: s.uid, name: s.name, order: s.orderIndex, lqaEnabled: bool(s.lqaEnabled) },
          })),
        };
      },
    );

    app.post(
      '/v1/projects/:projectUid/workflowSteps',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'addWorkflowSteps',
          summary: 'Add workflow steps',
          description:
            "Appends the steps (numeric id or uid) after the project's last level, in the organization's workflow order; a step the project already has is 400. Jobs of files already in the project get no jobs for the new levels.",
          params: ProjectUidParams,
          body: AddWorkflowStepsBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await change(caller, request.params.projectUid, ['PROJECT_METADATA_UPDATED'], async (trx, project) => {
          const stepIds = await resolveWorkflowSteps(trx, caller.organizationId, 'workflowSteps', request.body.workflowSteps);
          const existing = await trx
            .selectFrom('projectWorkflowSteps')
            .select('workflowStepId')
            .where('projectId', '=', project.id)
            .execute();
          const taken = stepIds.find((id) => existing.some((e) => e.workflowStepId === id));
          if (taken)
            throw invalid('The project already has this workflow step.', [
              { field: 'workflowSteps', message: `workflow step ${taken} is already in the project` },
            ]);
          await appendWorkflowSteps(trx, project.id, stepIds);
        });
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/projects/:projectUid/targetLangs',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'addTargetLanguageToProject',
          summary: 'Add target languages',
          description: "Adds the languages after the project's current ones (languages it has already are ignored); creates no jobs.",
          params: ProjectUidParams,
          body: AddTargetLangsBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        await change(caller, request.params.projectUid, ['PROJECT_METADATA_UPDATED'], async (trx, project) => {
          const added = assertTargetLangs(project.sourceLang, request.body.targetLangs);
          const current = await projectTargetLanguages(trx, project.id);
          await replaceTargetLanguages(trx, project.id, [...current, ...added.filter((l) => !current.includes(l))]);
        });
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/providers',
      {
        config: { access: PROJECT_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getProjectAssignments',
          summary: 'List project providers',
          description:
            "The users and vendors assigned to the project's jobs, by name; `providerName` matches part of a user's name or user name, or a vendor's name.",
          params: ProjectUidParams,
          querystring: ProvidersQuery,
          response: { 200: PageOf(ProviderReference, 'PageDtoProviderReference') },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { project } = await requireProject(db, caller, request.params.projectUid, 'view');
        const all = await projectProviders(db, project, request.query.providerName);
        const { offset, limit } = pageWindow(request.query);
        return toPage(
          all.slice(offset, offset + limit).map(({ type, id, uid }) => ({ type, id, uid })),
          all.length,
          request.query,
        );
      },
    );

    app.post(
      '/v1/projects/:projectUid/assignVendor',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'assignVendorToProject',
          summary: 'Assign vendor',
          description:
            "Shares the project with a vendor of the organization (`vendor.id`: the vendor's id or uid) and sets the project's due date when `dateDue` is given; an empty body `{}` unassigns the vendor.",
          params: ProjectUidParams,
          body: AssignVendorBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { vendor, dateDue } = request.body;
        const before = (await requireProject(db, caller, request.params.projectUid, 'edit')).project;
        const vendorId = vendor ? await resolveVendor(db, caller.organizationId, 'vendor', vendor) : null;
        const due = dateDue ? normalizeDate(dateDue) : undefined;
        const events: WebhookEvent[] = [];
        if (vendorId !== null && vendorId !== (before.vendorId ?? '')) events.push('SHARED_PROJECT_ASSIGNED');
        if (vendorId === null && before.vendorId !== null) events.push('PROJECT_UNSHARED');
        if (due !== undefined && due !== before.dateDue) events.push('PROJECT_DUE_DATE_CHANGED');
        await change(caller, request.params.projectUid, events, async (trx, project) => {
          await trx
            .updateTable('projects')
            .set({ vendorId, ...(due !== undefined ? { dateDue: due } : {}) })
            .where('id', '=', project.id)
            .execute();
        });
        return reply.code(204).send();
      },
    );

    app.get(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: PROJECT_READERS },
        schema: {
          tags: TAGS,
          operationId: 'getProjectContentGroup',
          summary: 'Get project content group',
          description: '`{contentGroup: {uid, name}}`, or `{contentGroup: null}` when the project has none.',
          params: ProjectUidParams,
          response: { 200: ContentGroupSchema },
        },
      },
      async (request) => {
        const { project } = await requireProject(db, callerOf(request), request.params.projectUid, 'view');
        return { contentGroup: (parseSettings(project.settings).contentGroup as { uid: string; name: string | null } | undefined) ?? null };
      },
    );

    app.post(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'linkProjectContentGroup',
          summary: 'Link content group',
          description:
            'Links the project to the content group `{contentGroup: {uid, name}}` (content groups live in the adjacent content service; the link replaces any earlier one).',
          params: ProjectUidParams,
          body: ContentGroupBody,
          response: { 200: ContentGroupSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const group = { uid: request.body.contentGroup.uid, name: request.body.contentGroup.name ?? null };
        await change(caller, request.params.projectUid, ['PROJECT_METADATA_UPDATED'], async (trx, project) => {
          await writeSetting(trx, project.id, 'contentGroup', group, deps.clock().toISOString(), caller.userId);
        });
        return { contentGroup: group };
      },
    );

    app.delete(
      '/v1/projects/:projectUid/contentGroup',
      {
        config: { access: PROJECT_EDITORS },
        schema: {
          tags: TAGS,
          operationId: 'unlinkProjectContentGroup',
          summary: 'Unlink content group',
          description: 'Idempotent: 204 also when the project has no content group.',
          params: ProjectUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { project } = await requireProject(db, caller, request.params.projectUid, 'edit');
        if (parseSettings(project.settings).contentGroup !== undefined) {
          await change(caller, request.params.projectUid, ['PROJECT_METADATA_UPDATED'], async (trx) => {
            await writeSetting(trx, project.id, 'contentGroup', null, deps.clock().toISOString(), caller.userId);
          });
        }
        return reply.code(204).send();
      },
    );
  };
}

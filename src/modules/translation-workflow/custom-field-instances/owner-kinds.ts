import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { AUTHENTICATED, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { requireJob } from '../kernel/index.js';
import { emitTemplateEvent } from '../kernel/index.js';
import { requireTemplate } from '../kernel/index.js';
import { requireProject } from '../kernel/index.js';
import { emitProjectEvents, eventUser } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { CustomFieldOwner, CustomFieldOwnerKind } from './custom-field-instances.repository.js';

/**
 * The three kinds of records that hold custom field values, as the instance kit
 * (custom-field-instances.routes.ts) serves them: paths, operationIds, who may call, how the
 * record is found with its access rules, and which webhook event announces a change of values.
 */

export type OwnerNeed = 'view' | 'edit';

/** A record the caller may address, with the event that announces a change of its values. */
export interface ResolvedOwner {
  owner: CustomFieldOwner;
  /** Emits the record's "updated" event in the transaction of the change. */
  announce: (deps: AppDeps, trx: Kysely<DB>, caller: Caller) => Promise<void>;
}

export interface OwnerKind {
  kind: CustomFieldOwnerKind;
  tag: string;
  label: string;
  /** The collection path relative to /api2. */
  path: string;
  pathParams: readonly string[];
  instanceParam: string;
  operationIds: { list: string; create: string; editBatch: string; get: string; edit: string; delete: string };
  access: { read: Access; write: Access };
  resolve: (db: Kysely<DB>, caller: Caller, params: Record<string, string>, need: OwnerNeed) => Promise<ResolvedOwner>;
}

/** Changing values is editing the record: only the roles that edit projects, templates and jobs. */
const EDITORS = roles('ADMIN', 'PROJECT_MANAGER');

export const PROJECT_OWNER: OwnerKind = {
  kind: 'project',
  tag: 'Project',
  label: 'project',
  path: '/v1/projects/:projectUid/customFields',
  pathParams: ['projectUid'],
  instanceParam: 'fieldInstanceUid',
  operationIds: {
    list: 'getCustomFieldsPage',
    create: 'createCustomFields',
    editBatch: 'editCustomFields',
    get: 'getCustomField_1',
    edit: 'editCustomField',
    delete: 'deleteCustomField_1',
  },
  // Whoever sees the project reads its values (project-access.ts decides who sees it).
  access: { read: AUTHENTICATED, write: EDITORS },
  async resolve(db, caller, params, need) {
    const { project } = await requireProject(db, caller, params['projectUid']!, need);
    return {
      owner: { kind: 'project', id: project.id, createdAt: project.createdAt },
      announce: (deps, trx, by) => emitProjectEvents(deps, trx, by, project.id, ['PROJECT_METADATA_UPDATED']),
    };
  },
};

export const TEMPLATE_OWNER: OwnerKind = {
  kind: 'template',
  tag: 'Project Template',
  label: 'project template',
  path: '/v1/projectTemplates/:projectTemplateUid/customFields',
  pathParams: ['projectTemplateUid'],
  instanceParam: 'fieldInstanceUid',
  operationIds: {
    list: 'getCustomFieldsPage_1',
    create: 'createCustomFields_1',
    editBatch: 'editCustomFields_1',
    get: 'getCustomField_2',
    edit: 'editCustomField_1',
    delete: 'deleteCustomField_2',
  },
  access: { read: EDITORS, write: EDITORS },
  async resolve(db, caller, params, need) {
    const template = await requireTemplate(db, caller, params['projectTemplateUid']!, need);
    return {
      owner: { kind: 'template', id: template.id, createdAt: template.createdAt },
      announce: (deps, trx, by) => emitTemplateEvent(deps, trx, by, template.id, 'PROJECT_TEMPLATE_UPDATED'),
    };
  },
};

/** JOB_UPDATED's record: the job's summary, as the event previews show it (src/domain/webhooks/events.ts). */
async function jobEventRecord(db: Kysely<DB>, jobId: string) {
  const job = await db
    .selectFrom('jobs')
    .innerJoin('jobSources', 'jobSources.id', 'jobs.jobSourceId')
    .innerJoin('projects', 'projects.id', 'jobs.projectId')
    .select([
      'jobs.uid',
      'jobSources.innerId',
      'jobs.status',
      'jobs.targetLang',
      'jobs.workflowLevel',
      'jobSources.filename',
      'jobs.dateDue',
      'projects.uid as projectUid',
      'projects.name as projectName',
    ])
    .where('jobs.id', '=', jobId)
    .executeTakeFirstOrThrow();
  return {
    uid: job.uid,
    innerId: String(job.innerId),
    status: job.status,
    targetLang: job.targetLang,
    workflowLevel: job.workflowLevel,
    filename: job.filename,
    dateDue: job.dateDue,
    project: { uid: job.projectUid, name: job.projectName },
  };
}

export const JOB_OWNER: OwnerKind = {
  kind: 'job',
  tag: 'Custom Fields',
  label: 'job',
  path: '/v1/projects/:projectUid/jobs/:jobPartUid/customFields',
  pathParams: ['projectUid', 'jobPartUid'],
  instanceParam: 'instanceUid',
  operationIds: {
    list: 'getCustomFieldsJob',
    create: 'createCustomFieldsJob',
    editBatch: 'editCustomFieldsJob',
    get: 'getCustomFieldJob',
    edit: 'editCustomFieldJob',
    delete: 'deleteCustomFieldJob',
  },
  // Whoever sees the job (its providers among linguists) reads its values.
  access: { read: AUTHENTICATED, write: EDITORS },
  async resolve(db, caller, params, need) {
    const { job } = await requireJob(db, caller, params['projectUid']!, params['jobPartUid']!, need);
    return {
      owner: { kind: 'job', id: job.id, createdAt: job.createdAt },
      announce: async (deps, trx, by) => {
        const records = [await jobEventRecord(trx, job.id)];
        await emitEvent(deps, trx, {
          organizationId: job.organizationId,
          event: 'JOB_UPDATED',
          records,
          user: await eventUser(trx, by),
        });
      },
    };
  },
};

export const OWNER_KINDS: readonly OwnerKind[] = [PROJECT_OWNER, TEMPLATE_OWNER, JOB_OWNER];

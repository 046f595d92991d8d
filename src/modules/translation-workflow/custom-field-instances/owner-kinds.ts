import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { AUTHENTICATED, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { emitProjectEvents, emitTemplateEvent, eventUser, jobEventSummaries } from '../kernel/index.js';
import { jobAccessOf, onJob, onProject, onTemplate, projectAccessOf, templateAccessOf } from '../kernel/index.js';
import { emitEvent } from '../../integration/webhooks/index.js';
import type { CustomFieldOwner, CustomFieldOwnerKind } from './custom-field-instances.repository.js';

/**
 * The three kinds of records that hold custom field values, as the instance kit
 * (custom-field-instances.routes.ts) serves them: paths, operationIds, who may call and what
 * they need on the record (the kernel's declarations: reading values needs `view`, changing them
 * `edit`), the record the kernel loaded for the request, and which webhook event announces a
 * change of values.
 */

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
  /** The routes' declarations: who may call, and the record and permission they need. */
  access: { read: Access; write: Access };
  /** The record the route declared, as the kernel loaded it for the request. */
  resolve: (request: FastifyRequest) => ResolvedOwner;
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
  // Whoever sees the project reads its values (the kernel's table decides who sees it).
  access: { read: onProject(AUTHENTICATED, 'view'), write: onProject(EDITORS, 'edit') },
  resolve(request) {
    const { project } = projectAccessOf(request);
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
  access: { read: onTemplate(EDITORS, 'view'), write: onTemplate(EDITORS, 'edit') },
  resolve(request) {
    const { template } = templateAccessOf(request);
    return {
      owner: { kind: 'template', id: template.id, createdAt: template.createdAt },
      announce: (deps, trx, by) => emitTemplateEvent(deps, trx, by, template.id, 'PROJECT_TEMPLATE_UPDATED'),
    };
  },
};

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
  access: { read: onJob(AUTHENTICATED, 'view', { job: 'jobPartUid' }), write: onJob(EDITORS, 'edit', { job: 'jobPartUid' }) },
  resolve(request) {
    const { job } = jobAccessOf(request);
    return {
      owner: { kind: 'job', id: job.id, createdAt: job.createdAt },
      announce: async (deps, trx, by) => {
        const records = await jobEventSummaries(trx, [job]);
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

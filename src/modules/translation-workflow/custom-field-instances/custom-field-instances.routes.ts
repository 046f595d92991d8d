import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { PathUid } from '../../../http/schema-helpers.js';
import { ProjectTemplateUid, ProjectUid } from '../kernel/index.js';
import {
  CreateInstancesBody,
  CustomFieldInstancePage,
  CustomFieldInstanceSchema,
  CustomFieldInstancesSchema,
  InstanceListQuery,
  UpdateInstanceBody,
  UpdateInstancesBody,
} from './custom-field-instances.schemas.js';
import { CUSTOM_FIELD_VALUE_ERRORS, customFieldInstanceDtos, toInstanceDtos } from './custom-field-instances.service.js';
import { createInstances, deleteInstance, editInstance, editInstances, instancePage, requireInstance } from './instance-edits.service.js';
import { OWNER_KINDS } from './owner-kinds.js';
import type { OwnerKind } from './owner-kinds.js';

/**
 * Custom field values of projects, templates and jobs (issue 6): one kit of six operations per
 * owner kind (owner-kinds.ts). Rules: docs/custom-fields.md, "Values on records".
 */
export function customFieldInstancesRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const kind of OWNER_KINDS) await app.register(instanceRoutes(deps, kind));
  };
}

/** Owners' path parameters that take a numeric id too (src/http/record-ids.ts); jobs show none. */
const RECORD_PARAMS: Record<string, TSchema> = { projectUid: ProjectUid, projectTemplateUid: ProjectTemplateUid };

function instanceRoutes(deps: AppDeps, kind: OwnerKind): FastifyPluginAsync {
  const db = deps.database.db;
  const Params = Type.Object(Object.fromEntries(kind.pathParams.map((p) => [p, RECORD_PARAMS[p] ?? PathUid])));
  const InstanceParams = Type.Object({ ...Params.properties, [kind.instanceParam]: Type.String({ minLength: 1, maxLength: 64 }) });
  const instancePath = `${kind.path}/:${kind.instanceParam}`;
  const paramsOf = (request: { params: unknown }) => request.params as Record<string, string>;
  const schema = (operationId: string, summary: string, extra: Record<string, unknown>) => ({
    tags: [kind.tag],
    operationId,
    summary,
    ...extra,
  });

  return async (app) => {
    app.get(
      kind.path,
      {
        config: { access: kind.access.read },
        schema: schema(kind.operationIds.list, `Get custom fields of ${kind.label} (page)`, {
          description: '`createdBy` / `modifiedBy`: user uids. Sorted by `sortField` (CREATED by default) and `sortTrend`.',
          params: Params,
          querystring: InstanceListQuery,
          response: { 200: CustomFieldInstancePage },
        }),
      },
      async (request) => {
        const query = request.query as Static<typeof InstanceListQuery>;
        const page = { pageNumber: query.pageNumber, pageSize: query.pageSize };
        const { rows, total } = await instancePage(db, callerOf(request), kind.resolve(request).owner, query, page);
        return toPage(await toInstanceDtos(db, rows), total, page);
      },
    );

    app.post(
      kind.path,
      {
        config: { access: kind.access.write, errors: [...CUSTOM_FIELD_VALUE_ERRORS] },
        schema: schema(kind.operationIds.create, 'Create custom field instances', {
          description:
            'Adds values of fields the record does not have yet (400 CustomFieldAlreadySet otherwise); answers the instances created.',
          params: Params,
          body: CreateInstancesBody,
          response: { 200: CustomFieldInstancesSchema },
        }),
      },
      async (request) => {
        const inputs = (request.body as Static<typeof CreateInstancesBody>).customFieldInstances ?? [];
        const rows = await createInstances(deps, callerOf(request), kind.resolve(request), inputs);
        return { customFieldInstances: await toInstanceDtos(db, rows) };
      },
    );

    app.put(
      kind.path,
      {
        config: { access: kind.access.write, errors: ['ConflictingInstanceEdits', 'InstanceNotFound', ...CUSTOM_FIELD_VALUE_ERRORS] },
        schema: schema(kind.operationIds.editBatch, `Edit custom fields of the ${kind.label} (batch)`, {
          description: 'Removes, then updates, then adds instances, all or nothing; answers every instance of the record afterwards.',
          params: Params,
          body: UpdateInstancesBody,
          response: { 200: CustomFieldInstancesSchema },
        }),
      },
      async (request) => {
        const resolved = kind.resolve(request);
        await editInstances(deps, callerOf(request), resolved, request.body as Static<typeof UpdateInstancesBody>);
        return { customFieldInstances: await customFieldInstanceDtos(db, resolved.owner) };
      },
    );

    app.get(
      instancePath,
      {
        config: { access: kind.access.read },
        schema: schema(kind.operationIds.get, `Get custom field of ${kind.label}`, {
          params: InstanceParams,
          response: { 200: CustomFieldInstanceSchema },
        }),
      },
      async (request) => {
        const row = await requireInstance(db, kind.resolve(request).owner, paramsOf(request)[kind.instanceParam]!);
        return (await toInstanceDtos(db, [row]))[0];
      },
    );

    app.put(
      instancePath,
      {
        config: {
          access: kind.access.write,
          errors: [
            'DuplicateSelectedOption',
            'InvalidDate',
            'InvalidNumber',
            'InvalidUrl',
            'OptionDeprecated',
            'OptionNotFound',
            'OptionsNotAllowed',
            'ReferenceNotFound',
            'TooManySelectedOptions',
            'ValueNotAllowed',
            'ValueRequired',
            'ValueTooLong',
          ],
        },
        schema: schema(kind.operationIds.edit, `Edit custom field of ${kind.label}`, {
          description: 'Sets the instance’s value whole: `selectedOptions` for select fields, `value` for the others (left out = none).',
          params: InstanceParams,
          body: UpdateInstanceBody,
          response: { 200: CustomFieldInstanceSchema },
        }),
      },
      async (request) => {
        const resolved = kind.resolve(request);
        const existing = await requireInstance(db, resolved.owner, paramsOf(request)[kind.instanceParam]!);
        const body = request.body as Static<typeof UpdateInstanceBody>;
        const row = await editInstance(deps, callerOf(request), resolved, existing, body);
        return (await toInstanceDtos(db, [row]))[0];
      },
    );

    app.delete(
      instancePath,
      {
        config: { access: kind.access.write, errors: ['ValueRequired'] },
        schema: schema(kind.operationIds.delete, `Delete custom field of ${kind.label}`, {
          description: 'Removes the value; 400 ValueRequired for a required field the record must have.',
          params: InstanceParams,
          response: { 204: Type.Null() },
        }),
      },
      async (request, reply) => {
        const resolved = kind.resolve(request);
        const row = await requireInstance(db, resolved.owner, paramsOf(request)[kind.instanceParam]!);
        await deleteInstance(deps, callerOf(request), resolved, row, kind.instanceParam);
        return reply.code(204).send();
      },
    );
  };
}

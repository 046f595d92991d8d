import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { DB } from '../../../db/schema.js';
import { callerOf } from '../../../http/access.js';
import type { Caller } from '../../../http/access.js';
import { ApiError, notFound } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { findValue, listValues } from './custom-field-instances.repository.js';
import type { CustomFieldOwner, CustomFieldValueRow } from './custom-field-instances.repository.js';
import {
  CreateInstancesBody,
  CustomFieldInstancePage,
  CustomFieldInstanceSchema,
  CustomFieldInstancesSchema,
  InstanceListQuery,
  UpdateInstanceBody,
  UpdateInstancesBody,
} from './custom-field-instances.schemas.js';
import {
  customFieldInstanceDtos,
  removeCustomFieldValues,
  toInstanceDtos,
  writeCustomFieldValue,
} from './custom-field-instances.service.js';
import { writeCustomFieldValues } from './custom-field-instances.service.js';
import { OWNER_KINDS } from './owner-kinds.js';
import type { OwnerKind, ResolvedOwner } from './owner-kinds.js';

/**
 * Custom field values of projects, templates and jobs (issue 6): one kit of six operations per
 * owner kind (owner-kinds.ts). Rules: docs/custom-fields.md, "Values on records".
 */
export function customFieldInstancesRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const kind of OWNER_KINDS) await app.register(instanceRoutes(deps, kind));
  };
}

const instanceNotFound = () => notFound('Custom field instance');

/** The uid of the field a value belongs to. */
async function fieldUidOf(db: Kysely<DB>, row: CustomFieldValueRow): Promise<string> {
  const field = await db.selectFrom('customFields').select('uid').where('id', '=', row.customFieldId).executeTakeFirstOrThrow();
  return field.uid;
}

async function userIdsOf(db: Kysely<DB>, organizationId: string, uids: readonly string[] | undefined): Promise<string[] | undefined> {
  if (!uids?.length) return undefined;
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('uid', 'in', [...uids])
    .execute();
  return rows.map((r) => r.id);
}

/** An instance named in a batch edit that the record does not have: 400, naming the input. */
const notAnInstance = (field: string, uid: string) =>
  new ApiError('invalid', 'InstanceNotFound', `${field}: ${uid} is not a custom field instance of this record.`, {
    details: [{ field, message: `unknown instance "${uid}"` }],
  });

type BatchBody = Static<typeof UpdateInstancesBody>;

/**
 * The batch edit: removals first, then updates, then additions, all or nothing. An instance may
 * be named once; an update's `customField`, when given, must be the instance's field.
 */
async function applyBatch(deps: AppDeps, trx: Kysely<DB>, caller: Caller, owner: CustomFieldOwner, body: BatchBody): Promise<boolean> {
  const named = new Set<string>();
  const claim = (field: string, uid: string) => {
    if (named.has(uid))
      throw new ApiError('invalid', 'ConflictingInstanceEdits', `${field}: the instance ${uid} is named twice.`, {
        details: [{ field, message: 'named twice' }],
      });
    named.add(uid);
  };
  const removals: CustomFieldValueRow[] = [];
  for (const [index, ref] of (body.removeInstances ?? []).entries()) {
    const field = `removeInstances[${index}]`;
    claim(field, ref.uid);
    const row = await findValue(trx, owner, ref.uid);
    if (!row) throw notAnInstance(field, ref.uid);
    removals.push(row);
  }
  await removeCustomFieldValues(trx, owner, removals, 'removeInstances');
  for (const [index, update] of (body.updateInstances ?? []).entries()) {
    const path = `updateInstances[${index}]`;
    claim(`${path}.customFieldInstance`, update.customFieldInstance.uid);
    const row = await findValue(trx, owner, update.customFieldInstance.uid);
    if (!row) throw notAnInstance(`${path}.customFieldInstance`, update.customFieldInstance.uid);
    const fieldUid = await fieldUidOf(trx, row);
    if (update.customField && update.customField.uid !== fieldUid) {
      throw new ApiError(
        'invalid',
        'InvalidArguments',
        `${path}: the instance holds the field ${fieldUid}, not ${update.customField.uid}.`,
        {
          details: [{ field: `${path}.customField`, message: 'not the instance’s field' }],
        },
      );
    }
    await writeCustomFieldValue(
      deps,
      trx,
      caller,
      owner,
      { customField: { uid: fieldUid }, selectedOptions: update.selectedOptions, value: update.value },
      path,
    );
  }
  const added = await writeCustomFieldValues(deps, trx, caller, owner, body.addInstances ?? [], 'add', 'addInstances');
  return removals.length + (body.updateInstances?.length ?? 0) + added.length > 0;
}

function instanceRoutes(deps: AppDeps, kind: OwnerKind): FastifyPluginAsync {
  const db = deps.database.db;
  const Params = Type.Object(Object.fromEntries(kind.pathParams.map((p) => [p, Type.String({ minLength: 1, maxLength: 64 })])));
  const InstanceParams = Type.Object({ ...Params.properties, [kind.instanceParam]: Type.String({ minLength: 1, maxLength: 64 }) });
  const instancePath = `${kind.path}/:${kind.instanceParam}`;
  const paramsOf = (request: { params: unknown }) => request.params as Record<string, string>;
  const schema = (operationId: string, summary: string, extra: Record<string, unknown>) => ({
    tags: [kind.tag],
    operationId,
    summary,
    ...extra,
  });

  async function resolve(caller: Caller, params: Record<string, string>, need: 'view' | 'edit'): Promise<ResolvedOwner> {
    return kind.resolve(db, caller, params, need);
  }

  /** Runs a change of values in one transaction and announces it when something changed. */
  async function change<T>(
    caller: Caller,
    resolved: ResolvedOwner,
    work: (trx: Kysely<DB>) => Promise<{ result: T; changed: boolean }>,
  ): Promise<T> {
    const { result, changed } = await db.transaction().execute(async (trx) => {
      const outcome = await work(trx);
      if (outcome.changed) await resolved.announce(deps, trx, caller);
      return outcome;
    });
    if (changed) deps.taskWakeup.notify();
    return result;
  }

  async function oneInstance(resolved: ResolvedOwner, uid: string): Promise<CustomFieldValueRow> {
    const row = await findValue(db, resolved.owner, uid);
    if (!row) throw instanceNotFound();
    return row;
  }

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
        const caller = callerOf(request);
        const { owner } = await resolve(caller, paramsOf(request), 'view');
        const query = request.query as Static<typeof InstanceListQuery>;
        const page = { pageNumber: query.pageNumber, pageSize: query.pageSize };
        const filter = {
          createdByIds: await userIdsOf(db, caller.organizationId, query.createdBy),
          modifiedByIds: await userIdsOf(db, caller.organizationId, query.modifiedBy),
          sortField: query.sortField,
          sortTrend: query.sortTrend,
        };
        const { rows, total } = await listValues(db, owner, filter, page);
        return toPage(await toInstanceDtos(db, rows), total, page);
      },
    );

    app.post(
      kind.path,
      {
        config: { access: kind.access.write },
        schema: schema(kind.operationIds.create, 'Create custom field instances', {
          description:
            'Adds values of fields the record does not have yet (400 CustomFieldAlreadySet otherwise); answers the instances created.',
          params: Params,
          body: CreateInstancesBody,
          response: { 200: CustomFieldInstancesSchema },
        }),
      },
      async (request) => {
        const caller = callerOf(request);
        const resolved = await resolve(caller, paramsOf(request), 'edit');
        const inputs = (request.body as Static<typeof CreateInstancesBody>).customFieldInstances ?? [];
        const rows = await change(caller, resolved, async (trx) => {
          const written = await writeCustomFieldValues(deps, trx, caller, resolved.owner, inputs, 'add', 'customFieldInstances');
          return { result: written, changed: written.length > 0 };
        });
        return { customFieldInstances: await toInstanceDtos(db, rows) };
      },
    );

    app.put(
      kind.path,
      {
        config: { access: kind.access.write },
        schema: schema(kind.operationIds.editBatch, `Edit custom fields of the ${kind.label} (batch)`, {
          description: 'Removes, then updates, then adds instances, all or nothing; answers every instance of the record afterwards.',
          params: Params,
          body: UpdateInstancesBody,
          response: { 200: CustomFieldInstancesSchema },
        }),
      },
      async (request) => {
        const caller = callerOf(request);
        const resolved = await resolve(caller, paramsOf(request), 'edit');
        const body = request.body as BatchBody;
        await change(caller, resolved, async (trx) => ({
          result: null,
          changed: await applyBatch(deps, trx, caller, resolved.owner, body),
        }));
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
        const caller = callerOf(request);
        const resolved = await resolve(caller, paramsOf(request), 'view');
        const row = await oneInstance(resolved, paramsOf(request)[kind.instanceParam]!);
        return (await toInstanceDtos(db, [row]))[0];
      },
    );

    app.put(
      instancePath,
      {
        config: { access: kind.access.write },
        schema: schema(kind.operationIds.edit, `Edit custom field of ${kind.label}`, {
          description: 'Sets the instance’s value whole: `selectedOptions` for select fields, `value` for the others (left out = none).',
          params: InstanceParams,
          body: UpdateInstanceBody,
          response: { 200: CustomFieldInstanceSchema },
        }),
      },
      async (request) => {
        const caller = callerOf(request);
        const resolved = await resolve(caller, paramsOf(request), 'edit');
        const existing = await oneInstance(resolved, paramsOf(request)[kind.instanceParam]!);
        const body = request.body as Static<typeof UpdateInstanceBody>;
        const row = await change(caller, resolved, async (trx) => {
          const input = { customField: { uid: await fieldUidOf(trx, existing) }, selectedOptions: body.selectedOptions, value: body.value };
          return { result: await writeCustomFieldValue(deps, trx, caller, resolved.owner, input, 'body'), changed: true };
        });
        return (await toInstanceDtos(db, [row]))[0];
      },
    );

    app.delete(
      instancePath,
      {
        config: { access: kind.access.write },
        schema: schema(kind.operationIds.delete, `Delete custom field of ${kind.label}`, {
          description: 'Removes the value; 400 ValueRequired for a required field the record must have.',
          params: InstanceParams,
          response: { 204: Type.Null() },
        }),
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const resolved = await resolve(caller, paramsOf(request), 'edit');
        const row = await oneInstance(resolved, paramsOf(request)[kind.instanceParam]!);
        await change(caller, resolved, async (trx) => {
          await removeCustomFieldValues(trx, resolved.owner, [row], kind.instanceParam);
          return { result: null, changed: true };
        });
        return reply.code(204).send();
      },
    );
  };
}

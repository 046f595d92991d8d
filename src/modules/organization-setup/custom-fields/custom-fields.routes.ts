import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely, Transaction } from 'kysely';
import type { AppDeps } from '../../../deps.js';
import { isUniqueViolation } from '../../../db/constraint-errors.js';
import { bool } from '../../../db/database.js';
import { newUid } from '../../../db/ids.js';
import type { DB } from '../../../db/schema.js';
import {
  deprecationMove,
  optionState,
  planOptionEdits,
  requiredFromAfter,
  validateNewOptions,
} from '../../../domain/custom-fields/custom-field-rules.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { toPage } from '../../../http/paging.js';
import { withRuleErrors } from './custom-field-values.js';
import { toOptionDto } from './custom-field-views.js';
import { toCustomFieldDtos } from './custom-field-views.js';
import { fieldNameTaken, findField, findOption, listFields, listOptions, optionsOf } from './custom-fields.repository.js';
import type { CustomFieldRow } from './custom-fields.repository.js';
import {
  CreateCustomFieldBody,
  CustomFieldListQuery,
  CustomFieldOptionListQuery,
  CustomFieldOptionPage,
  CustomFieldPage,
  DeprecateOptionBody,
  FieldUidParams,
  OptionUidParams,
  UpdateCustomFieldBody,
} from './custom-fields.schemas.js';
import { CustomFieldSchema } from './custom-fields.schemas.js';

/**
 * Custom fields (issue 5; docs/custom-fields.md). Reading: internal users (ADMIN,
 * PROJECT_MANAGER), who set up projects and fill their fields. Changing: ADMIN, or a project
 * manager with the setup-server right (custom fields are organization setup records).
 */
const READ: Access = roles('ADMIN', 'PROJECT_MANAGER');
const SETUP: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };
const TAG = 'Custom Fields';

const nameAlreadyExists = (name: string) => errors.NameAlreadyExists({ what: 'a custom field', name });

const duplicateOptionValue = () =>
  errors.DuplicateOptionValue({
    field: 'options',
    reason: 'Option values are unique in a field, ignoring case.',
    detail: 'duplicate value',
  });

/** Which unique index refused a write: the option values' or (otherwise) the field names'. */
const isOptionValueViolation = (error: unknown) => {
  const e = error as { constraint?: string; message?: string };
  return `${e.constraint ?? ''} ${e.message ?? ''}`.includes('custom_field_options');
};

function assertNameNotBlank(name: string | undefined): void {
  if (name !== undefined && name.trim() === '')
    throw errors.InvalidArguments({ reason: 'name must not be blank.', details: [{ field: 'name', message: 'must not be blank' }] });
}

export function customFieldsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const now = () => deps.clock().toISOString();

  async function one(caller: Caller, uid: string): Promise<CustomFieldRow> {
    const row = await findField(db, caller.organizationId, uid);
    if (!row) throw errors.ResourceNotFound({ what: 'Custom field' });
    return row;
  }

  async function dto(caller: Caller, row: CustomFieldRow) {
    return (await toCustomFieldDtos(db, caller.organizationId, [row]))[0]!;
  }

  /** Runs a write in one transaction; a unique index that refuses it answers like the checks before it. */
  async function write<T>(name: string | undefined, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (isOptionValueViolation(error)) throw duplicateOptionValue();
        if (name !== undefined) throw nameAlreadyExists(name);
      }
      throw error;
    }
  }

  async function insertOptions(trx: Kysely<DB>, fieldId: CustomFieldRow['id'], values: string[], at: string): Promise<void> {
    // In chunks, so that a field with many options stays under the databases' parameter limits.
    for (let start = 0; start < values.length; start += 200) {
      const chunk = values.slice(start, start + 200);
      await trx
        .insertInto('customFieldOptions')
        .values(chunk.map((value) => ({ uid: newUid(), fieldId, value, deprecated: false, createdAt: at })))
        .execute();
    }
  }

  return async (app) => {
    app.get(
      '/v1/customFields',
      {
        config: { access: READ },
        schema: {
          tags: [TAG],
          operationId: 'getCustomFieldList',
          summary: 'Lists custom fields',
          description:
            'Filters: `name` (part of the name, ignoring case), `allowedEntities` and `types` (any of), `createdBy` / `modifiedBy` (user uids), `uids`, `required`. ' +
            'Sorted by `sortField` (default CREATED) and `sortTrend`; ties break on creation order.',
          querystring: CustomFieldListQuery,
          response: { 200: CustomFieldPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { pageNumber, pageSize, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listFields(db, caller.organizationId, filter, page);
        return toPage(await toCustomFieldDtos(db, caller.organizationId, rows), total, page);
      },
    );

    app.post(
      '/v1/customFields',
      {
        config: {
          access: SETUP,
          errors: [
            'NameAlreadyExists',
            'DuplicateOptionValue',
            'OptionsRequired',
            'TooManyOptions',
            'InvalidOptionValue',
            'OptionsNotAllowed',
          ],
        },
        schema: {
          tags: [TAG],
          operationId: 'createCustomField',
          summary: 'Create custom field',
          description:
            'Names are unique in the organization, ignoring case (409 NameAlreadyExists). `options` (values) only for SINGLE_SELECT and MULTI_SELECT, which need at least one; ' +
            'values are trimmed, 1-255 characters and unique in the field ignoring case. A required field is required from its creation (`requiredFrom`).',
          body: CreateCustomFieldBody,
          response: { 201: CustomFieldSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const body = request.body;
        assertNameNotBlank(body.name);
        const options = withRuleErrors(() => validateNewOptions(body.type, body.options));
        const at = now();
        const required = body.required ?? false;
        const row = await write(body.name, async (trx) => {
          if (await fieldNameTaken(trx, caller.organizationId, body.name)) throw nameAlreadyExists(body.name);
          const field = await trx
            .insertInto('customFields')
            .values({
              uid: newUid(),
              organizationId: caller.organizationId,
              name: body.name,
              type: body.type,
              allowedEntities: JSON.stringify([...new Set(body.allowedEntities)]),
              required,
              requiredFrom: requiredFromAfter(false, null, required, at),
              description: body.description ?? null,
              createdAt: at,
              createdById: caller.userId,
              lastModifiedAt: at,
              lastModifiedById: caller.userId,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await insertOptions(trx, field.id, options, at);
          return field;
        });
        return reply.code(201).send(await dto(caller, row));
      },
    );

    app.get(
      '/v1/customFields/:fieldUid',
      {
        config: { access: READ },
        schema: {
          tags: [TAG],
          operationId: 'getCustomField',
          summary: 'Get custom field',
          params: FieldUidParams,
          response: { 200: CustomFieldSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return dto(caller, await one(caller, request.params.fieldUid));
      },
    );

    app.put(
      '/v1/customFields/:fieldUid',
      {
        config: {
          access: SETUP,
          errors: [
            'NameAlreadyExists',
            'TypeCannotChange',
            'DuplicateOptionValue',
            'OptionNotFound',
            'ConflictingOptionEdits',
            'TooManyOptions',
            'InvalidOptionValue',
            'OptionsNotAllowed',
          ],
        },
        schema: {
          tags: [TAG],
          operationId: 'updateCustomField',
          summary: 'Edit custom field',
          description:
            'Partial: fields left out keep their values (`description: null` clears it). `type` cannot change (400 TypeCannotChange). ' +
            'Options of select fields: `addOptions` (values), `updateOptions` ([{uid, value}]: new values, same uids), `removeOptions` (uids; values on records go with them), ' +
            '`deprecateOptions` / `undeprecateOptions` (uids). All edits apply at once or not at all. Turning `required` on sets `requiredFrom` to now.',
          params: FieldUidParams,
          body: UpdateCustomFieldBody,
          response: { 200: CustomFieldSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const body = request.body;
        const current = await one(caller, request.params.fieldUid);
        if (body.type !== undefined && body.type !== current.type) {
          throw errors.TypeCannotChange({ type: current.type });
        }
        if ('options' in (body as Record<string, unknown>)) {
          throw errors.InvalidArguments({
            reason: 'Edit options with addOptions, updateOptions, removeOptions, deprecateOptions and undeprecateOptions.',
            details: [{ field: 'options', message: 'not accepted on edit' }],
          });
        }
        assertNameNotBlank(body.name);
        const at = now();
        const row = await write(body.name, async (trx) => {
          if (body.name !== undefined && (await fieldNameTaken(trx, caller.organizationId, body.name, current.id)))
            throw nameAlreadyExists(body.name);
          const existing = await optionsOf(trx, current.id);
          const plan = withRuleErrors(() =>
            planOptionEdits(
              current.type,
              existing.map((o) => ({ uid: o.uid, value: o.value, deprecated: bool(o.deprecated) })),
              body,
            ),
          );
          const idOf = new Map(existing.map((o) => [o.uid, o.id]));
          if (plan.remove.length)
            await trx
              .deleteFrom('customFieldOptions')
              .where(
                'id',
                'in',
                plan.remove.map((uid) => idOf.get(uid)!),
              )
              .execute();
          // Two steps, so that values may be swapped without meeting the unique index halfway (stored
          // values are trimmed, so the interim ` <uid>` is never one of them).
          for (const { uid } of plan.update)
            await trx
              .updateTable('customFieldOptions')
              .set({ value: ` ${uid}` })
              .where('id', '=', idOf.get(uid)!)
              .execute();
          for (const { uid, value } of plan.update)
            await trx.updateTable('customFieldOptions').set({ value }).where('id', '=', idOf.get(uid)!).execute();
          for (const [uids, deprecated] of [
            [plan.deprecate, true],
            [plan.reactivate, false],
          ] as const) {
            if (uids.length)
              await trx
                .updateTable('customFieldOptions')
                .set({ deprecated })
                .where(
                  'id',
                  'in',
                  uids.map((uid) => idOf.get(uid)!),
                )
                .execute();
          }
          await insertOptions(trx, current.id, plan.add, at);
          const wasRequired = bool(current.required);
          const required = body.required ?? wasRequired;
          return trx
            .updateTable('customFields')
            .set({
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.allowedEntities !== undefined ? { allowedEntities: JSON.stringify([...new Set(body.allowedEntities)]) } : {}),
              ...(body.description !== undefined ? { description: body.description } : {}),
              required,
              requiredFrom: requiredFromAfter(wasRequired, current.requiredFrom, required, at),
              lastModifiedAt: at,
              lastModifiedById: caller.userId,
            })
            .where('id', '=', current.id)
            .returningAll()
            .executeTakeFirstOrThrow();
        });
        return dto(caller, row);
      },
    );

    app.get(
      '/v1/customFields/:fieldUid/options',
      {
        config: { access: READ },
        schema: {
          tags: [TAG],
          operationId: 'getCustomFieldOptionList',
          summary: 'Lists options of custom field',
          description:
            'Every option, deprecated ones included (flagged `deprecated`). `name`: part of the value, ignoring case. Default order: as added; `sortField=NAME` sorts by value.',
          params: FieldUidParams,
          querystring: CustomFieldOptionListQuery,
          response: { 200: CustomFieldOptionPage },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const field = await one(caller, request.params.fieldUid);
        const { pageNumber, pageSize, ...filter } = request.query;
        const page = { pageNumber, pageSize };
        const { rows, total } = await listOptions(db, field.id, filter, page);
        return toPage(rows.map(toOptionDto), total, page);
      },
    );

    app.put(
      '/v1/customFields/:fieldUid/options/:optionUid/deprecate',
      {
        config: { access: SETUP },
        schema: {
          tags: [TAG],
          operationId: 'deprecateCustomField',
          summary: 'Deprecate custom field option',
          description:
            '`deprecated: true` deprecates the option (it can no longer be newly set on records; records that have it keep it), `false` makes it active again. ' +
            'Asking for the state the option already has changes nothing and also answers 204. 404 when the field has no such option (also for fields that are not SINGLE_SELECT or MULTI_SELECT, which have none).',
          params: OptionUidParams,
          body: DeprecateOptionBody,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const field = await one(caller, request.params.fieldUid);
        const option = await findOption(db, field.id, request.params.optionUid);
        if (!option) throw errors.ResourceNotFound({ what: 'Custom field option' });
        const move = deprecationMove(optionState(bool(option.deprecated)), request.body.deprecated);
        if (move !== 'UNCHANGED') {
          await db.transaction().execute(async (trx) => {
            await trx
              .updateTable('customFieldOptions')
              .set({ deprecated: move === 'DEPRECATE' })
              .where('id', '=', option.id)
              .execute();
            await trx
              .updateTable('customFields')
              .set({ lastModifiedAt: now(), lastModifiedById: caller.userId })
              .where('id', '=', field.id)
              .execute();
          });
        }
        return reply.code(204).send();
      },
    );

    app.delete(
      '/v1/customFields/:fieldUid',
      {
        config: { access: SETUP },
        schema: {
          tags: [TAG],
          operationId: 'deleteCustomField',
          summary: 'Delete custom field',
          description: 'Deletes the field for good, with its options and the values stored on records.',
          params: FieldUidParams,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const current = await one(caller, request.params.fieldUid);
        await db.deleteFrom('customFields').where('id', '=', current.id).execute();
        return reply.code(204).send();
      },
    );
  };
}

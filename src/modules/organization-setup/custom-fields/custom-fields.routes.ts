import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import type { Access, Caller } from '../../../http/access.js';
import { toPage } from '../../../http/paging.js';
import { toOptionDto } from './custom-field-views.js';
import { toCustomFieldDtos } from './custom-field-views.js';
import { listFields, listOptions } from './custom-fields.repository.js';
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
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  setCustomFieldOptionDeprecated,
  updateCustomField,
} from './custom-fields.service.js';

/**
 * Custom fields (issue 5; docs/custom-fields.md). Reading: internal users (ADMIN,
 * PROJECT_MANAGER), who set up projects and fill their fields. Changing: ADMIN, or a project
 * manager with the setup-server right (custom fields are organization setup records).
 */
const READ: Access = roles('ADMIN', 'PROJECT_MANAGER');
const SETUP: Access = { roles: ['ADMIN', 'PROJECT_MANAGER'], right: 'setupServer' };
const TAG = 'Custom Fields';

export function customFieldsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  async function dto(caller: Caller, row: CustomFieldRow) {
    return (await toCustomFieldDtos(db, caller.organizationId, [row]))[0]!;
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
        const row = await createCustomField(deps, caller, request.body);
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
        return dto(caller, await getCustomField(deps, caller, request.params.fieldUid));
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
        const row = await updateCustomField(deps, caller, request.params.fieldUid, request.body);
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
        const field = await getCustomField(deps, caller, request.params.fieldUid);
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
        await setCustomFieldOptionDeprecated(deps, caller, request.params.fieldUid, request.params.optionUid, request.body.deprecated);
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
        await deleteCustomField(deps, caller, request.params.fieldUid);
        return reply.code(204).send();
      },
    );
  };
}

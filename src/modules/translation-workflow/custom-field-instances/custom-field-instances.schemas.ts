import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { CustomFieldOptionSchema, CustomFieldSchema } from '../../organization-setup/custom-fields/index.js';
import { UidReference } from '../../organization-setup/setup-records/index.js';

/** Wire shapes of custom field values on records (spec definitions CustomFieldInstanceDto, …). */

const UidRef = Type.Object({ uid: Type.String() });

/** Spec definition `CustomFieldInstanceDto`. */
export const CustomFieldInstanceSchema = Type.Object(
  {
    uid: Type.String(),
    customField: CustomFieldSchema,
    selectedOptions: Type.Array(CustomFieldOptionSchema),
    value: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UidRef),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Nullable(UidRef),
  },
  { title: 'CustomFieldInstanceDto' },
);

/** Spec definition `CustomFieldInstancesDto`. */
export const CustomFieldInstancesSchema = Type.Object(
  { customFieldInstances: Type.Array(CustomFieldInstanceSchema) },
  { title: 'CustomFieldInstancesDto' },
);

export const CustomFieldInstancePage = PageOf(CustomFieldInstanceSchema, 'PageDtoCustomFieldInstanceDto');

/** At most this many instances in one request (a record holds one value per field). */
export const MAX_INSTANCES_PER_REQUEST = 100;

/**
 * `value` is bounded loosely here: the value rules answer a too long one with the precise
 * 400 ValueTooLong (4096 characters, CreateCustomFieldInstanceDto).
 */
const Value = Type.Optional(Nullable(Type.String({ maxLength: 65_536 })));
const SelectedOptions = Type.Optional(Nullable(Type.Array(UidReference, { maxItems: 1000 })));

/** Spec definition `CreateCustomFieldInstanceDto`. */
export const CreateInstanceInput = Type.Object({ customField: UidReference, selectedOptions: SelectedOptions, value: Value });

/** Spec definition `CreateCustomFieldInstancesDto`. */
export const CreateInstancesBody = Type.Object({
  customFieldInstances: Type.Optional(Type.Array(CreateInstanceInput, { maxItems: MAX_INSTANCES_PER_REQUEST })),
});

/** Spec definition `UpdateCustomFieldInstancesDto`: removals, then updates, then additions. */
export const UpdateInstancesBody = Type.Object({
  addInstances: Type.Optional(Type.Array(CreateInstanceInput, { maxItems: MAX_INSTANCES_PER_REQUEST })),
  removeInstances: Type.Optional(Type.Array(UidReference, { maxItems: MAX_INSTANCES_PER_REQUEST })),
  updateInstances: Type.Optional(
    Type.Array(
      Type.Object({
        customFieldInstance: UidReference,
        customField: Type.Optional(UidReference),
        selectedOptions: SelectedOptions,
        value: Value,
      }),
      { maxItems: MAX_INSTANCES_PER_REQUEST },
    ),
  ),
});

/** Spec definition `UpdateCustomFieldInstanceDto`: the instance's new value, whole. */
export const UpdateInstanceBody = Type.Object({ selectedOptions: SelectedOptions, value: Value });

const UserUids = (description: string) => Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description }));

export const InstanceListQuery = Type.Object({
  ...PagingQuery,
  pageSize: Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Page size, accepts values between 1 and 50, default 20' }),
  createdBy: UserUids('Creators’ user uids'),
  modifiedBy: UserUids('Last editors’ user uids'),
  sortField: Type.Optional(Type.Enum(['CREATED', 'LAST_MODIFIED'])),
  sortTrend: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
});

import { Type } from 'typebox';
import {
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  FIELD_DESCRIPTION_MAX_LENGTH,
  FIELD_NAME_MAX_LENGTH,
  MAX_OPTIONS_PER_FIELD,
} from '../../../domain/custom-fields/custom-field-rules.js';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/** Wire shapes of custom fields (spec definitions CustomFieldDto, CreateCustomFieldDto, …; docs/custom-fields.md). */

const FieldType = Type.Enum([...CUSTOM_FIELD_TYPES]);
const Entity = Type.Enum([...CUSTOM_FIELD_ENTITIES]);
const Uid = Type.String({ minLength: 1, maxLength: 64 });
/** Values are checked (trimmed, 1-255 characters) by the domain rules; this only bounds the input. */
const OptionValueInput = Type.String({ maxLength: 1000 });
const Name = Type.String({ minLength: 1, maxLength: FIELD_NAME_MAX_LENGTH, description: 'Unique in the organization, ignoring case.' });
const Description = Type.String({ maxLength: FIELD_DESCRIPTION_MAX_LENGTH });
const AllowedEntities = Type.Array(Entity, { minItems: 1, maxItems: 10 });
const UidList = (description: string) => Type.Optional(Type.Array(Uid, { maxItems: MAX_OPTIONS_PER_FIELD, description }));

/** Spec definition `CustomFieldOptionDto`, plus `deprecated` (OpenTMS extension, as Phrase shows it). */
export const CustomFieldOptionSchema = Type.Object(
  {
    uid: Type.String(),
    value: Type.String(),
    deprecated: Type.Boolean({
      description: 'OpenTMS extension: a deprecated option cannot be newly set on records; records that have it keep it.',
    }),
  },
  { title: 'CustomFieldOptionDto' },
);

/** Spec definition `CustomFieldDto`. */
export const CustomFieldSchema = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    type: FieldType,
    allowedEntities: Type.Array(Entity),
    options: Nullable(
      Type.Object(
        {
          truncatedOptions: Type.Array(CustomFieldOptionSchema, {
            description: 'The first 5 options; the options endpoint lists them all.',
          }),
          remainingCount: Type.Integer(),
        },
        { title: 'CustomFieldOptionsTruncatedDto' },
      ),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    lastModified: Type.String({ format: 'date-time' }),
    lastModifiedBy: Nullable(UserReference),
    requiredFrom: Nullable(Type.String({ format: 'date-time' })),
    required: Type.Boolean(),
    description: Nullable(Type.String()),
  },
  { title: 'CustomFieldDto' },
);

export const CustomFieldPage = PageOf(CustomFieldSchema, 'PageDtoCustomFieldDto');
export const CustomFieldOptionPage = PageOf(CustomFieldOptionSchema, 'PageDtoCustomFieldOptionDto');

/** Spec definition `CreateCustomFieldDto` (`type` required here: a field without a type means nothing). */
export const CreateCustomFieldBody = Type.Object({
  name: Name,
  type: FieldType,
  allowedEntities: AllowedEntities,
  options: Type.Optional(
    Type.Array(OptionValueInput, {
      maxItems: MAX_OPTIONS_PER_FIELD + 1,
      description: 'Values of the options; SINGLE_SELECT and MULTI_SELECT only.',
    }),
  ),
  required: Type.Optional(Type.Boolean()),
  description: Type.Optional(Nullable(Description)),
});

/** `UpdateCustomFieldDto` (designed, modelled on Phrase's edit; docs/custom-fields.md): every field optional. */
export const UpdateCustomFieldBody = Type.Object({
  name: Type.Optional(Name),
  type: Type.Optional(FieldType),
  allowedEntities: Type.Optional(AllowedEntities),
  required: Type.Optional(Type.Boolean()),
  description: Type.Optional(Nullable(Description)),
  addOptions: Type.Optional(Type.Array(OptionValueInput, { maxItems: MAX_OPTIONS_PER_FIELD + 1, description: 'Values of new options.' })),
  updateOptions: Type.Optional(
    Type.Array(Type.Object({ uid: Uid, value: OptionValueInput }), {
      maxItems: MAX_OPTIONS_PER_FIELD,
      description: 'New values of existing options (the option keeps its uid).',
    }),
  ),
  removeOptions: UidList('Options to delete (their values on records go with them).'),
  deprecateOptions: UidList('Options to deprecate.'),
  undeprecateOptions: UidList('Deprecated options to make active again.'),
});

export const CustomFieldListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, ignoring case' })),
  allowedEntities: Type.Optional(Type.Array(Entity)),
  types: Type.Optional(Type.Array(FieldType)),
  createdBy: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Creators’ user uids' })),
  modifiedBy: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Last editors’ user uids' })),
  uids: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
  required: Type.Optional(Type.Boolean()),
  sortField: Type.Optional(Type.Enum(['NAME', 'CREATED', 'LAST_MODIFIED'])),
  sortTrend: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
  ...PagingQuery,
});

export const CustomFieldOptionListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the option value, ignoring case' })),
  sortField: Type.Optional(Type.Enum(['NAME'])),
  sortTrend: Type.Enum(['ASC', 'DESC'], { default: 'ASC' }),
  ...PagingQuery,
});

export const FieldUidParams = Type.Object({ fieldUid: Uid });
export const OptionUidParams = Type.Object({ fieldUid: Uid, optionUid: Uid });

/** The description's deprecation request. */
export const DeprecateOptionBody = Type.Object({
  deprecated: Type.Boolean({ description: 'true deprecates the option, false reactivates it' }),
});

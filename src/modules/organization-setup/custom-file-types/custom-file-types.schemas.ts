import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { FileImportSettingsCreateDto, FileImportSettingsDto } from '../import-settings/index.js';
import { PATTERN_MAX_LENGTH } from './filename-pattern.js';

/**
 * Custom file types (spec definitions CustomFileTypeDto, CreateCustomFileTypeDto,
 * UpdateCustomFileTypeDto, DeleteCustomFileTypeDto). docs/import-settings-and-file-types.md.
 */

/** Phrase's file types a custom file type may pick (the enum of CreateCustomFileTypeDto.type). */
export const CUSTOM_FILE_TYPES = ['html', 'json', 'xml', 'multiling_xml', 'txt'] as const;
export type CustomFileTypeName = (typeof CUSTOM_FILE_TYPES)[number];

const TypeName = Type.Union(
  CUSTOM_FILE_TYPES.map((t) => Type.Literal(t)),
  { description: 'The file type files matching the pattern are imported as; anything else is 400.' },
);
const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Trimmed; not blank.' });
const Pattern = Type.String({
  minLength: 1,
  maxLength: PATTERN_MAX_LENGTH,
  description: 'A glob over the file name, ignoring case: `*` any characters, `?` one character (`*.json`, `strings_??.xml`).',
});

/** Spec definition `CustomFileTypeDto`. */
export const CustomFileTypeDto = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    filenamePattern: Type.String(),
    type: Type.String(),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    fileImportSettings: FileImportSettingsDto,
    supportsContinuousJob: Type.Boolean(),
  },
  { title: 'CustomFileTypeDto' },
);

export const CustomFileTypePage = PageOf(CustomFileTypeDto, 'PageDtoCustomFileTypeDto');

/** Spec definition `CreateCustomFileTypeDto`. */
export const CreateCustomFileTypeBody = Type.Object(
  { name: Name, filenamePattern: Pattern, type: TypeName, fileImportSettings: Type.Optional(FileImportSettingsCreateDto) },
  { title: 'CreateCustomFileTypeDto' },
);
export type CreateCustomFileTypeBody = Static<typeof CreateCustomFileTypeBody>;

/** Spec definition `UpdateCustomFileTypeDto`: fields left out keep their values. */
export const UpdateCustomFileTypeBody = Type.Object(
  {
    name: Type.Optional(Name),
    filenamePattern: Type.Optional(Pattern),
    type: Type.Optional(TypeName),
    fileImportSettings: Type.Optional(FileImportSettingsCreateDto),
  },
  { title: 'UpdateCustomFileTypeDto' },
);
export type UpdateCustomFileTypeBody = Static<typeof UpdateCustomFileTypeBody>;

/** Spec definition `DeleteCustomFileTypeDto`. */
export const DeleteCustomFileTypesBody = Type.Object(
  { customFileTypes: Type.Array(Type.Object({ uid: PathUid }, { title: 'UidReference' }), { maxItems: 1000 }) },
  { title: 'DeleteCustomFileTypeDto' },
);
export type DeleteCustomFileTypesBody = Static<typeof DeleteCustomFileTypesBody>;

export const CustomFileTypeListQuery = Type.Object({ ...PagingQuery });
export const FindCustomFileTypeQuery = Type.Object({
  fileName: Type.Optional(
    Type.String({ maxLength: 4096, description: 'The file name (folders allowed) to find the custom file type of.' }),
  ),
});
export const CustomFileTypeUidParams = Type.Object({ customFileTypeUid: PathUid });

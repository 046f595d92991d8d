import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { FileImportSettingsCreateDto, FileImportSettingsDto } from './file-import-settings.schemas.js';

/**
 * The organization's import settings (spec definitions ImportSettingsReference,
 * ImportSettingsDto, ImportSettingsCreateDto, ImportSettingsEditDto) and the XML assistant
 * profiles they make (XmlAssistantProfileListDto). docs/import-settings-and-file-types.md.
 */

export const NAME_MAX_LENGTH = 255;
const Name = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'Trimmed; not blank.' });

/** Spec definition `ImportSettingsReference`. */
export const ImportSettingsReference = Type.Object(
  { uid: Type.String(), name: Type.String(), createdBy: Nullable(UserReference), dateCreated: Type.String({ format: 'date-time' }) },
  { title: 'ImportSettingsReference' },
);

/** Spec definition `ImportSettingsDto`. */
export const ImportSettingsDto = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    createdBy: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    fileImportSettings: FileImportSettingsDto,
  },
  { title: 'ImportSettingsDto' },
);

export const ImportSettingsPage = PageOf(ImportSettingsReference, 'PageDtoImportSettingsReference');

/** Spec definition `ImportSettingsCreateDto`. */
export const CreateImportSettingsBody = Type.Object(
  { name: Name, fileImportSettings: FileImportSettingsCreateDto },
  { title: 'ImportSettingsCreateDto' },
);
export type CreateImportSettingsBody = Static<typeof CreateImportSettingsBody>;

/** Spec definition `ImportSettingsEditDto`: the uid names the settings to replace. */
export const EditImportSettingsBody = Type.Object(
  { uid: PathUid, name: Name, fileImportSettings: FileImportSettingsCreateDto },
  { title: 'ImportSettingsEditDto' },
);
export type EditImportSettingsBody = Static<typeof EditImportSettingsBody>;

/**
 * Body of editDefaultImportSettings (2025; the spec of 2024 does not have it): the
 * FileImportSettingsCreateDto itself, as the project and template edits take it, or the
 * ImportSettingsCreateDto envelope `{name, fileImportSettings}` (then `fileImportSettings` is the
 * document and `name` renames the default).
 */
export const EditDefaultImportSettingsBody = Type.Object(
  {
    ...FileImportSettingsCreateDto.properties,
    name: Type.Optional(Name),
    fileImportSettings: Type.Optional(FileImportSettingsCreateDto),
  },
  { title: 'FileImportSettingsCreateDto' },
);
export type EditDefaultImportSettingsBody = Static<typeof EditDefaultImportSettingsBody>;

export const ImportSettingsListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH, description: 'Part of the name, ignoring case.' })),
  ...PagingQuery,
});

export const ImportSettingsUidParams = Type.Object({ uid: PathUid });

// ---- XML assistant profiles

/** Spec definition `XmlAssistantProfileListDto`. */
export const XmlAssistantProfile = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    description: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Nullable(UserReference),
  },
  { title: 'XmlAssistantProfileListDto' },
);
export type XmlAssistantProfile = Static<typeof XmlAssistantProfile>;

export const XmlAssistantProfilePage = PageOf(XmlAssistantProfile, 'PageDtoXmlAssistantProfileListDto');

const Filter = (description: string) => Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH, description }));

export const XmlAssistantProfileQuery = Type.Object({
  name: Filter('Part of the name, ignoring case.'),
  description: Filter('Part of the description, ignoring case.'),
  createdBy: Filter('The uid or user name of the creator.'),
  updatedBy: Filter('The uid or user name of the last editor.'),
  createdAt: Filter('A date (`2026-11-30`) or the start of a date-time: the profiles created then.'),
  updatedAt: Filter('A date (`2026-11-30`) or the start of a date-time: the profiles last edited then.'),
  search: Filter('Part of the name or the description, ignoring case.'),
  pageNumber: PagingQuery.pageNumber,
  pageSize: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description: 'Page size, accepts values between 1 and 1000, default 50',
  }),
  sort: Type.Optional(
    Type.Union(
      [Type.Literal('name'), Type.Literal('createdAt'), Type.Literal('createdBy'), Type.Literal('updatedAt'), Type.Literal('updatedBy')],
      {
        description: 'Default: name',
      },
    ),
  ),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default: asc' })),
});
export type XmlAssistantProfileQuery = Static<typeof XmlAssistantProfileQuery>;

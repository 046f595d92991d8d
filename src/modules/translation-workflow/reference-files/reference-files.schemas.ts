import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { ProjectTemplateUid, ProjectUid } from '../kernel/index.js';

/**
 * Wire shapes of reference files (description, "Reference file record", "Project template
 * reference file record", "Reference-file selectors for batch deletion"; spec definitions
 * `ReferenceFileReference`, `ReferenceFilePageDto`, `ReferenceFilesDto`, `UserReferencesDto`).
 */

export { ProjectUidParams, TemplateUidParams } from '../kernel/index.js';
export const ProjectReferenceParams = Type.Object({ projectUid: ProjectUid, referenceFileId: PathUid });
export const TemplateReferenceParams = Type.Object({ projectTemplateUid: ProjectTemplateUid, referenceFileId: PathUid });

/** Spec `ReferenceFileReference`: the record of a project reference file. */
export const ReferenceFileReference = Type.Object(
  {
    id: Type.String({ description: 'Integer-style id; project reference operations address references by it.' }),
    uid: Type.String(),
    filename: Type.String(),
    note: Nullable(Type.String()),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
  },
  { title: 'ReferenceFileReference' },
);
export type ReferenceFileReference = Static<typeof ReferenceFileReference>;

/** The creator of a template reference: a UserReference without `role` (description). */
export const TemplateReferenceCreator = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    userName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
  },
  { title: 'ProjectTemplateReferenceFileCreator' },
);

/** Description, "Project template reference file record": `createdBy` has no role, null for another organization's user. */
export const TemplateReferenceFile = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    filename: Type.String(),
    note: Nullable(Type.String()),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(TemplateReferenceCreator),
  },
  { title: 'ProjectTemplateReferenceFile' },
);
export type TemplateReferenceFile = Static<typeof TemplateReferenceFile>;

export const ReferenceFilesDto = Type.Object({ referenceFiles: Type.Array(ReferenceFileReference) }, { title: 'ReferenceFilesDto' });
export const TemplateReferenceFilesDto = Type.Object(
  { referenceFiles: Type.Array(TemplateReferenceFile) },
  { title: 'ProjectTemplateReferenceFilesDto' },
);

export const ReferenceFilePageDto = Type.Object(
  {
    ...PageOf(ReferenceFileReference).properties,
    access: Type.Object(
      { canCreate: Type.Boolean({ description: 'Whether the caller may add reference files to the project.' }) },
      { title: 'ReferenceFileAccessDto' },
    ),
  },
  { title: 'ReferenceFilePageDto' },
);
export const TemplateReferenceFilePage = PageOf(TemplateReferenceFile, 'PageDtoProjectTemplateReferenceFile');

export const UserReferencesDto = Type.Object({ users: Type.Array(UserReference) }, { title: 'UserReferencesDto' });

export const SORT_FIELDS = ['FILENAME', 'DATE_CREATED', 'CREATED_BY'] as const;
export const TEMPLATE_SORT_FIELDS = ['ID', ...SORT_FIELDS] as const;
const Order = Type.Union([Type.Literal('ASC'), Type.Literal('DESC')]);

export const ProjectReferenceListQuery = Type.Object({
  filename: Type.Optional(Type.String({ maxLength: 1024, description: 'Part of the file name, ignoring case' })),
  dateCreatedSince: Type.Optional(Type.String({ format: 'date-time', description: 'date time in ISO 8601 UTC format' })),
  createdBy: Type.Optional(Type.String({ maxLength: 64, description: 'UID of user' })),
  ...PagingQuery,
  sort: Type.Union(
    SORT_FIELDS.map((s) => Type.Literal(s)),
    { default: 'DATE_CREATED' },
  ),
  order: Type.Union(Order.anyOf, { default: 'DESC' }),
});

export const TemplateReferenceListQuery = Type.Object({
  filename: Type.Optional(Type.String({ maxLength: 1024, description: 'Part of the file name, ignoring case' })),
  ...PagingQuery,
  sort: Type.Union(
    TEMPLATE_SORT_FIELDS.map((s) => Type.Literal(s)),
    { default: 'ID' },
  ),
  order: Type.Union(Order.anyOf, { default: 'ASC' }),
});
export type SortOrder = Static<typeof Order>;

export const CreatorsQuery = Type.Object({
  userName: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the user name, first or last name, ignoring case' })),
});

/** The most references one batch request may name. */
export const MAX_SELECTED_REFERENCES = 500;

/** A project reference by its integer id; a JSON number is taken as well. */
const ReferenceId = Type.Union([Type.String({ pattern: '^[0-9]{1,18}$' }), Type.Integer({ minimum: 1 })]);

/** Description: `{ referenceFiles: [ { id } ] }`, integer ids, not empty (spec `ProjectReferenceFilesRequestDto`). */
export const ProjectReferenceSelection = Type.Object(
  { referenceFiles: Type.Array(Type.Object({ id: ReferenceId }), { minItems: 1, maxItems: MAX_SELECTED_REFERENCES }) },
  { title: 'ProjectReferenceFilesRequestDto' },
);
export type ProjectReferenceSelection = Static<typeof ProjectReferenceSelection>;

/** Description: `{ referenceFiles: [ { uid } ] }`, not empty. */
export const TemplateReferenceSelection = Type.Object(
  {
    referenceFiles: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), {
      minItems: 1,
      maxItems: MAX_SELECTED_REFERENCES,
    }),
  },
  { title: 'ProjectTemplateReferenceFilesRequestDto' },
);
export type TemplateReferenceSelection = Static<typeof TemplateReferenceSelection>;

/** Spec `CreateReferenceFileNoteDto`: the `json` part of multipart creation, and the v1 JSON body. */
export const ReferenceNote = Type.Object({ note: Type.String({ maxLength: 100_000 }) }, { title: 'CreateReferenceFileNoteDto' });

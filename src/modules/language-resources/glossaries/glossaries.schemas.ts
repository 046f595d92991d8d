import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/** Wire shapes of glossaries (spec definitions named on each; docs/terminology.md, "Glossaries (built)"). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });
/** Spec `IdReference`: the numeric id or the uid of a record of the organization. */
const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const GlossaryUidParams = Type.Object({ glossaryUid: recordUid('glossaries') });

/** Spec definition `GlossaryEditDto` (create and edit). */
export const GlossaryEditBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  langs: Type.Array(Lang, {
    minItems: 1,
    maxItems: 500,
    description:
      "The first language is the glossary's source language, the others its target languages. On edit, every language the glossary has must be sent again (languages can only be added); they keep their order and new ones are appended.",
  }),
  owner: Type.Optional(IdReference),
});
export type GlossaryEditBody = Static<typeof GlossaryEditBody>;

/** Spec definition `GlossaryActivationDto`. */
export const GlossaryActivationBody = Type.Object({
  active: Type.Boolean({
    default: true,
    description:
      'true (the default): activate the glossary, deactivating in the same transaction every other active glossary of the organization that shares a language pair with it; false: deactivate it.',
  }),
});

export const ListGlossariesQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Glossaries whose name contains this, ignoring case.' })),
  lang: Type.Optional(Type.Array(Lang, { maxItems: 100, description: 'Glossaries with every one of these languages.' })),
  ...PagingQuery,
});

export const DeleteGlossaryQuery = Type.Object({
  purge: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Accepted; the glossary is removed either way (OpenTMS keeps no recycle bin for glossaries, as for term bases).',
    }),
  ),
});

export const UploadGlossaryQuery = Type.Object({
  strictLangMatching: Type.Boolean({
    default: false,
    description: 'true: a term in `en_us` goes only to a glossary language `en_us`, not to `en`.',
  }),
  updateTerms: Type.Boolean({
    default: true,
    description:
      'true: an entry the glossary already holds (same source term and target language) takes the target term of the file; false: it stays as it is.',
  }),
});

export const ExportGlossaryQuery = Type.Object({
  format: Type.Union([Type.Literal('Xlsx'), Type.Literal('Tbx'), Type.Literal('Csv')], {
    default: 'Xlsx',
    description: 'Xlsx (the default), Tbx or Csv (UTF-8 with a byte-order mark); each uploads back to the same entries.',
  }),
});

/** The answer of uploadGlossary (Phrase: `createdTermsCount`, `langs`, `updatedTermsCount`). */
export const GlossaryUploadResponse = Type.Object(
  {
    langs: Type.Array(Type.String()),
    createdTermsCount: Type.Integer(),
    updatedTermsCount: Type.Integer(),
    warnings: Type.Array(Type.String(), {
      description: 'OpenTMS extension: what was skipped and why (rows or entries that cannot be read, other languages), at most 100.',
    }),
  },
  { title: 'ImportGlossaryResponseDto' },
);
export type GlossaryUploadResponse = Static<typeof GlossaryUploadResponse>;

/** Spec definition `MemsourceTranslateProfileSimpleDto`: the MT profiles that use a glossary (none yet: issue 17). */
const TranslateProfileSchema = Type.Object(
  {
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
    locked: Type.Boolean(),
  },
  { title: 'MemsourceTranslateProfileSimpleDto' },
);

/** Spec definition `GlossaryDto`. */
export const GlossarySchema = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    internalId: Type.Integer(),
    name: Type.String(),
    langs: Type.Array(Type.String()),
    createdBy: Nullable(UserReference),
    owner: Nullable(UserReference),
    dateCreated: Type.String({ format: 'date-time' }),
    profileCount: Type.Integer(),
    active: Type.Boolean(),
    profiles: Type.Array(TranslateProfileSchema),
  },
  { title: 'GlossaryDto' },
);
export type GlossaryDto = Static<typeof GlossarySchema>;
export const GlossaryPage = PageOf(GlossarySchema, 'PageDtoGlossaryDto');

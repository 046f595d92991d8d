import { Type } from 'typebox';
import type { Static } from 'typebox';
import { GENDERS, NUMBERS, PARTS_OF_SPEECH, TERM_TYPES } from '../../../formats/term-entries.js';
import { PagingQuery } from '../../../http/paging.js';
import { recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { UidReference } from '../../organization-setup/setup-records/index.js';

/** Wire shapes of concepts and terms (spec definitions named on each; docs/terminology.md). */

const TermBaseUid = recordUid('termBases');
const ConceptKey = Type.String({ minLength: 1, maxLength: 64, description: 'The concept id (`id` of ConceptWithMetadataDto).' });
const TermKey = Type.String({ minLength: 1, maxLength: 64, description: 'The term id (`id` of TermDto).' });

export const ConceptUidParams = Type.Object({ termBaseUid: TermBaseUid, conceptUid: ConceptKey });
export const ConceptIdParams = Type.Object({ termBaseUid: TermBaseUid, conceptId: ConceptKey });
export const TermIdParams = Type.Object({ termBaseUid: TermBaseUid, termId: TermKey });

export const ConceptsQuery = Type.Object({ ...PagingQuery });

/** Spec definition `ConceptEditDto` (create and update: the whole concept; omitted fields clear). */
export const ConceptEditBody = Type.Object({
  domain: Type.Optional(UidReference),
  subdomains: Type.Optional(Type.Array(UidReference, { maxItems: 100 })),
  definition: Type.Optional(Type.String({ maxLength: 16_384 })),
  url: Type.Optional(Type.String({ maxLength: 4096 })),
  conceptNote: Type.Optional(Type.String({ maxLength: 16_384 })),
});
export type ConceptEditBody = Static<typeof ConceptEditBody>;

/** Spec definition `ConceptListReference` (bulk delete). */
export const ConceptListBody = Type.Object({
  concepts: Type.Array(Type.Object({ id: ConceptKey }), { minItems: 1, maxItems: 100 }),
});

/** One of `values` (a JSON schema `enum`). */
export const Enum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

const TermFields = {
  text: Type.String({ minLength: 1, maxLength: 2000 }),
  caseSensitive: Type.Optional(Type.Boolean({ description: 'Default: false' })),
  exactMatch: Type.Optional(Type.Boolean({ description: 'Default: false' })),
  forbidden: Type.Optional(Type.Boolean({ description: 'Default: false' })),
  preferred: Type.Optional(Type.Boolean({ description: 'Default: false' })),
  status: Type.Optional(
    Enum(['New', 'Approved', 'Rejected'] as const, '`Rejected` is an OpenTMS extension: stored and exported, answered as `New`.'),
  ),
  usage: Type.Optional(Type.String({ maxLength: 255 })),
  note: Type.Optional(Type.String({ maxLength: 16_384 })),
  shortTranslation: Type.Optional(Type.String({ maxLength: 2000 })),
  termType: Type.Optional(Enum(TERM_TYPES)),
  partOfSpeech: Type.Optional(Enum(PARTS_OF_SPEECH)),
  gender: Type.Optional(Enum(GENDERS)),
  number: Type.Optional(Enum(NUMBERS)),
};

/** Spec definition `TermCreateDto`. */
export const TermCreateBody = Type.Object({
  ...TermFields,
  lang: Type.String({ minLength: 1, maxLength: 64 }),
  conceptId: Type.Optional(ConceptKey),
});
export type TermCreateBody = Static<typeof TermCreateBody>;

/** Spec definition `TermEditDto`. */
export const TermEditBody = Type.Object({ ...TermFields, lang: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
export type TermEditBody = Static<typeof TermEditBody>;

const Reference = Type.Object({ id: Type.Optional(Type.String()), uid: Type.Optional(Type.String()), name: Type.Optional(Type.String()) });

/** Spec definition `ConceptWithMetadataDto`. */
export const ConceptSchema = Type.Object(
  {
    id: Type.String(),
    domain: Type.Optional(Reference),
    subdomains: Type.Array(Reference),
    url: Type.Optional(Type.String()),
    definition: Type.Optional(Type.String()),
    conceptNote: Type.Optional(Type.String()),
  },
  { title: 'ConceptWithMetadataDto' },
);
export type ConceptDto = Static<typeof ConceptSchema>;

export const ConceptPage = Type.Object(
  { concepts: Type.Array(ConceptSchema), totalCount: Type.Integer() },
  { title: 'ConceptListResponseDto' },
);

/** Spec definition `TermDto`. */
export const TermSchema = Type.Object(
  {
    id: Type.String(),
    text: Type.String(),
    lang: Type.String(),
    rtl: Type.Boolean(),
    modifiedAt: Type.String({ format: 'date-time' }),
    createdAt: Type.String({ format: 'date-time' }),
    modifiedBy: Type.Optional(UserReference),
    createdBy: Type.Optional(UserReference),
    caseSensitive: Type.Boolean(),
    exactMatch: Type.Boolean(),
    forbidden: Type.Boolean(),
    preferred: Type.Boolean(),
    status: Type.Union([Type.Literal('New'), Type.Literal('Approved')]),
    conceptId: Type.String(),
    usage: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
    writable: Type.Boolean(),
    shortTranslation: Type.Optional(Type.String()),
    termType: Type.Optional(Type.String()),
    partOfSpeech: Type.Optional(Type.String()),
    gender: Type.Optional(Type.String()),
    number: Type.Optional(Type.String()),
    definition: Type.Optional(Type.String()),
    domain: Type.Optional(Type.String()),
    subDomains: Type.Array(Type.String()),
    url: Type.Optional(Type.String()),
    conceptNote: Type.Optional(Type.String()),
  },
  { title: 'TermDto' },
);
export type TermDto = Static<typeof TermSchema>;

/** Spec definition `ConceptDto`: the concept's terms, one array per language (the term base's order). */
export const ConceptTermsSchema = Type.Object(
  { id: Type.String(), writable: Type.Boolean(), terms: Type.Array(Type.Array(TermSchema)) },
  { title: 'ConceptDto' },
);

/** Spec definition `MetadataTbDto`. */
export const TermBaseMetadataSchema = Type.Object(
  { termsCount: Type.Integer(), metadataByLanguage: Type.Record(Type.String(), Type.Integer()) },
  { title: 'MetadataTbDto' },
);

const Status = Type.Union([Type.Literal('New'), Type.Literal('Approved')]);

/** Spec definition `TermBaseSearchRequestDto`. */
export const TermSearchBody = Type.Object({
  targetLangs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }),
  sourceLang: Type.String({ minLength: 1, maxLength: 64 }),
  query: Type.String({ minLength: 1, maxLength: 2000 }),
  status: Type.Optional(Status),
});

/** Spec definition `BrowseRequestDto`. */
export const BrowseBody = Type.Object({
  queryLang: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Default: the first language of the term base.' })),
  query: Type.Optional(Type.String({ maxLength: 2000, description: 'A prefix of the terms in queryLang (case-insensitive).' })),
  status: Type.Optional(Status),
  pageNumber: Type.Integer({ minimum: 0, default: 0 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 50, default: 50 }),
});

/** Spec definition `BrowseResponseListDto`. */
export const BrowseResponse = Type.Object({ searchResults: Type.Array(ConceptTermsSchema) }, { title: 'BrowseResponseListDto' });

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable, recordUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { NamedReference } from '../../organization-setup/setup-records/index.js';

/** Wire shapes of translation memories and their units (spec definitions named on each). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });
const Langs = Type.Array(Lang, { maxItems: 500 });
/** Spec `IdReference`: the numeric id or the uid of a record of the organization. */
const IdReference = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** A segment text as the API carries it: inline tags as display tokens (`{1>`, `<1}`, `{1}`). */
const SegmentText = Type.String({ maxLength: 100_000 });

export const TransMemoryUidParams = Type.Object({ transMemoryUid: recordUid('transMemories') });
export const SegmentParams = Type.Object({
  transMemoryUid: recordUid('transMemories'),
  segmentId: Type.String({ minLength: 1, maxLength: 200 }),
});
export const SegmentLangParams = Type.Object({
  transMemoryUid: recordUid('transMemories'),
  segmentId: Type.String({ minLength: 1, maxLength: 200 }),
  lang: Lang,
});

/** Spec definition `TransMemoryCreateDto`. */
export const CreateTransMemoryBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  sourceLang: Lang,
  targetLangs: Type.Array(Lang, { minItems: 1, maxItems: 500 }),
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  note: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type CreateTransMemoryBody = Static<typeof CreateTransMemoryBody>;

/** Spec definition `TransMemoryEditDto`: the whole record (null or omitted references clear them). */
export const EditTransMemoryBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  targetLangs: Type.Array(Lang, { minItems: 1, maxItems: 500 }),
  client: Type.Optional(IdReference),
  businessUnit: Type.Optional(IdReference),
  domain: Type.Optional(IdReference),
  subDomain: Type.Optional(IdReference),
  owner: Type.Optional(IdReference),
  note: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type EditTransMemoryBody = Static<typeof EditTransMemoryBody>;

/** Spec definition `TargetLanguageDto`. */
export const TargetLanguageBody = Type.Object({ language: Lang });

export const ListTransMemoriesQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  sourceLang: Type.Optional(Lang),
  targetLang: Type.Optional(Lang),
  clientId: Type.Optional(Type.String({ maxLength: 64 })),
  domainId: Type.Optional(Type.String({ maxLength: 64 })),
  subDomainId: Type.Optional(Type.String({ maxLength: 64 })),
  businessUnitId: Type.Optional(Type.String({ maxLength: 64 })),
  ...PagingQuery,
});

export const DeleteTransMemoryQuery = Type.Object({
  purge: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Remove the TM and its units at once (default: the same; OpenTMS keeps no recycle bin for TMs).',
    }),
  ),
});

/** `bulkDeleteTransMemories`: `{ transMemories: [{uid}] }` (spec 2025 changelog). */
export const BulkDeleteTransMemoriesBody = Type.Object({
  transMemories: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }),
  purge: Type.Optional(Type.Boolean()),
});

/** Spec definition `BusinessUnitReference`. */
const BusinessUnitReference = Type.Object({ id: Type.String(), uid: Type.String(), name: Type.String() });

const transMemoryFields = {
  id: Type.String(),
  uid: Type.String(),
  internalId: Type.Integer(),
  name: Type.String(),
  sourceLang: Type.String(),
  targetLangs: Type.Array(Type.String()),
  client: Nullable(NamedReference),
  businessUnit: Nullable(BusinessUnitReference),
  domain: Nullable(NamedReference),
  subDomain: Nullable(NamedReference),
  note: Nullable(Type.String()),
  dateCreated: Type.String({ format: 'date-time' }),
  createdBy: Nullable(UserReference),
};

/** Spec definition `TransMemoryDto` (and `TransMemoryDtoV2`). */
export const TransMemorySchema = Type.Object({ ...transMemoryFields, owner: Nullable(UserReference) }, { title: 'TransMemoryDto' });
export type TransMemoryDto = Static<typeof TransMemorySchema>;
/** Spec definition `TransMemoryDtoV3` (no owner). */
export const TransMemoryV3Schema = Type.Object(transMemoryFields, { title: 'TransMemoryDtoV3' });
export const TransMemoryPage = PageOf(TransMemorySchema, 'PageDtoTransMemoryDto');

/** Spec definition `TagMetadataDto`: what a display token stands for. */
export const TagMetadata = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.Optional(Type.String({ maxLength: 64 })),
  content: Type.Optional(Type.String({ maxLength: 100_000 })),
  transAttributes: Type.Optional(Type.String({ maxLength: 100_000 })),
});
export type TagMetadata = Static<typeof TagMetadata>;
const TagMetadataList = Type.Array(TagMetadata, { maxItems: 10_000 });

/** Spec definition `SegmentDto` (insertToTransMemory). */
export const InsertSegmentBody = Type.Object({
  targetLang: Lang,
  sourceSegment: SegmentText,
  targetSegment: SegmentText,
  previousSourceSegment: Type.Optional(SegmentText),
  nextSourceSegment: Type.Optional(SegmentText),
  sourceTagMetadata: Type.Optional(TagMetadataList),
  targetTagMetadata: Type.Optional(TagMetadataList),
});
export type InsertSegmentBody = Static<typeof InsertSegmentBody>;

/** Spec definition `TranslationDto` (updateTranslation). */
export const TranslationBody = Type.Object({ lang: Lang, text: SegmentText });

/** Spec definition `SearchRequestDto`. */
export const SearchBody = Type.Object({
  query: SegmentText,
  sourceLang: Lang,
  targetLangs: Type.Optional(Langs),
  previousSegment: Type.Optional(SegmentText),
  nextSegment: Type.Optional(SegmentText),
  tagMetadata: Type.Optional(TagMetadataList),
  trimQuery: Type.Optional(Type.Boolean()),
  phraseQuery: Type.Optional(Type.Boolean()),
});
export type SearchBody = Static<typeof SearchBody>;

/** Spec definition `WildCardSearchRequestDto`. */
export const WildCardSearchBody = Type.Object({
  query: Type.Optional(Type.String({ maxLength: 1000 })),
  sourceLang: Lang,
  targetLangs: Type.Optional(Langs),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  sourceLangs: Type.Optional(Langs),
});
export type WildCardSearchBody = Static<typeof WildCardSearchBody>;

const ProjectOfSegment = Type.Object({ id: Type.Integer(), uid: Type.String(), name: Type.String() });
const NumberNamed = Type.Object({ id: Type.Integer(), name: Type.String() });

/** Spec definitions `SearchTMSegmentDto` / `SearchTMSegmentDtoV3` (V3 adds `targetNote`). */
const segmentFields = {
  id: Type.String(),
  text: Type.String(),
  lang: Type.String(),
  rtl: Type.Boolean(),
  modifiedAt: Type.Integer(),
  createdAt: Type.Integer(),
  modifiedBy: Nullable(UserReference),
  createdBy: Nullable(UserReference),
  filename: Nullable(Type.String()),
  project: Nullable(ProjectOfSegment),
  client: Nullable(NumberNamed),
  domain: Nullable(NumberNamed),
  subDomain: Nullable(NumberNamed),
  tagMetadata: Type.Array(TagMetadata),
  previousSegment: Nullable(Type.String()),
  nextSegment: Nullable(Type.String()),
  key: Nullable(Type.String()),
};
const SearchSegment = Type.Object(segmentFields, { title: 'SearchTMSegmentDto' });
const SearchSegmentV3 = Type.Object({ ...segmentFields, targetNote: Nullable(Type.String()) }, { title: 'SearchTMSegmentDtoV3' });
const SearchTransMemory = Type.Object({ uid: Type.String(), id: Type.String(), name: Type.String(), reverse: Type.Boolean() });

const resultFields = {
  segmentId: Type.String(),
  transMemory: SearchTransMemory,
  grossScore: Type.Number(),
  score: Type.Number(),
  subSegment: Type.Boolean(),
};
/** Spec definition `SearchResponseListTmDto`. */
export const SearchResults = Type.Object(
  {
    searchResults: Type.Array(
      Type.Object({ ...resultFields, source: SearchSegment, translations: Type.Array(SearchSegment) }, { title: 'SearchTMResponseDto' }),
    ),
  },
  { title: 'SearchResponseListTmDto' },
);
/** Spec definition `SearchResponseListTmDtoV3`. */
export const SearchResultsV3 = Type.Object(
  {
    searchResults: Type.Array(
      Type.Object(
        { ...resultFields, source: SearchSegmentV3, translations: Type.Array(SearchSegmentV3) },
        { title: 'SearchTMResponseDtoV3' },
      ),
    ),
  },
  { title: 'SearchResponseListTmDtoV3' },
);

/** Spec definition `MetadataResponse`. */
export const MetadataSchema = Type.Object(
  {
    segmentsCount: Type.Integer(),
    deduplicatedSegmentsCount: Type.Integer(),
    metadataByLanguage: Type.Optional(Type.Record(Type.String(), Type.Object({ segmentsCount: Type.Integer() }))),
  },
  { title: 'MetadataResponse' },
);
export const MetadataQuery = Type.Object({ byLanguage: Type.Optional(Type.Boolean({ default: false })) });

export const RelatedProjectsQuery = Type.Object({ ...PagingQuery });

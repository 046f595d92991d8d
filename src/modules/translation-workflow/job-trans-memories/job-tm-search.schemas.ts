import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { Nullable } from '../../../http/schema-helpers.js';
import { TagMetadata } from '../../language-resources/translation-memories/index.js';

/** Bodies of the searches of a job's (or a project's) TMs (spec definitions named on each). */

const Text = Type.String({ maxLength: 100_000 });
const Threshold = Type.Number({ minimum: 0, maximum: 1.01 });
const opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(schema);

/** Spec `SearchTMByJobRequestDtoV3`. */
export const SearchByJobV3Body = Type.Object({
  query: Text,
  reverse: opt(Type.Boolean({ description: 'Default: false' })),
  scoreThreshold: opt(Threshold),
  maxResults: opt(Type.Integer({ minimum: 1, maximum: 100, description: 'Default: 15' })),
});
export type SearchByJobV3Body = Static<typeof SearchByJobV3Body>;

/** Spec `WildCardSearchByJobRequestDtoV3`. */
export const WildCardSearchByJobV3Body = Type.Object({
  query: Type.String({ maxLength: 1000 }),
  reverse: opt(Type.Boolean({ description: 'Default: false' })),
  count: opt(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: opt(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
});
export type WildCardSearchByJobV3Body = Static<typeof WildCardSearchByJobV3Body>;

const segmentSearchFields = {
  segment: Text,
  workflowLevel: opt(Type.Integer({ minimum: 1, maximum: 15 })),
  scoreThreshold: opt(Threshold),
  previousSegment: opt(Text),
  nextSegment: opt(Text),
  contextKey: opt(Type.String({ maxLength: 10_000 })),
  maxSegments: opt(Type.Integer({ minimum: 0, maximum: 5, description: 'Default: 5' })),
  maxSubSegments: opt(Type.Integer({ minimum: 0, maximum: 5, description: 'Default: 5' })),
  tagMetadata: opt(Type.Array(TagMetadata, { maxItems: 10_000 })),
};

/** Spec `SearchTMByJobRequestDto`. */
export const SearchSegmentByJobBody = Type.Object(segmentSearchFields);
export type SearchSegmentByJobBody = Static<typeof SearchSegmentByJobBody>;

/** Spec `SearchTMRequestDto`. */
export const SearchSegmentInProjectBody = Type.Object({
  ...segmentSearchFields,
  targetLangs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500 }),
});
export type SearchSegmentInProjectBody = Static<typeof SearchSegmentInProjectBody>;

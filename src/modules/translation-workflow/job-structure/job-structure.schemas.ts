import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';

const Uid = Type.String({ minLength: 1, maxLength: 64 });
const UidRef = Type.Object({ uid: Uid });

// ---- listProviders_3

const Limit = Type.Integer({
  minimum: 1,
  maximum: 10_000,
  description: 'At most this many `relevant` providers, best first; omitted: all.',
});

export const ProjectSuggestQuery = Type.Object({ limit: Type.Optional(Limit) });

/**
 * The spec declares no body for listProviders_3. An optional one (OpenTMS extension, the shape of
 * the job-level suggestions' body) narrows the suggestions to some jobs; `limit` may come here or
 * in the query.
 */
export const ProjectSuggestBody = Nullable(
  Type.Object({
    jobs: Type.Optional(Nullable(Type.Array(UidRef, { minItems: 1, maxItems: 100 }))),
    limit: Type.Optional(Nullable(Limit)),
  }),
);
export type ProjectSuggestBody = Static<typeof ProjectSuggestBody>;

// ---- split

/** Spec `SplitJobActionDto`: exactly one of the options. */
export const SplitJobAction = Type.Object(
  {
    segmentOrdinals: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 10_000 }))),
    partCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000 }))),
    partSize: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    wordCount: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    byDocumentPart: Type.Optional(Nullable(Type.Boolean())),
  },
  { title: 'SplitJobActionDto' },
);

// ---- comparePart

const Level = Type.Integer({ minimum: 1, maximum: 15, default: 1 });
export const CompareQuery = Type.Object({ atWorkflowLevel: Type.Optional(Level), withWorkflowLevel: Type.Optional(Level) });

/** Spec `ComparedSegmentsDto`; `jobUid` and `index` are OpenTMS extensions (a file's segment ids are shared by its target languages). */
export const ComparedSegments = Type.Object(
  {
    segments: Type.Array(
      Type.Object(
        {
          uid: Type.String(),
          state: Type.Union([Type.Literal('Miss'), Type.Literal('Diff')]),
          jobUid: Type.String(),
          index: Type.Integer(),
        },
        { title: 'ComparedSegmentDto' },
      ),
    ),
  },
  { title: 'ComparedSegmentsDto' },
);

import { Type } from 'typebox';
import { WARNING_TYPES } from '../../../domain/quality-assurance/types.js';
import { ProjectUid } from '../kernel/index.js';

/** Wire shapes of the QA run and ignored-warning operations (spec definitions named in each title). */

export const WarningTypeSchema = Type.Union(WARNING_TYPES.map((t) => Type.Literal(t)));
const WarningTypes = Type.Array(WarningTypeSchema, { minItems: 0, maxItems: 100 });
const MaxQaWarningsCount = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'Most warnings the answer holds (default 100), whole segments at a time.',
});

export const QaRunSettings = Type.Object(
  {
    initialSegment: Type.Optional(Type.Object({ uid: Type.Optional(Type.String()) }, { title: 'SegmentReference' })),
    maxQaWarningsCount: Type.Optional(MaxQaWarningsCount),
    warningTypes: Type.Optional(WarningTypes),
  },
  { title: 'QualityAssuranceRunDtoV3' },
);

const UidReference = Type.Object({ uid: Type.String({ minLength: 1 }) }, { title: 'UidReference' });

export const QaBatchRunBody = Type.Object(
  {
    jobs: Type.Array(UidReference, { minItems: 1, maxItems: 500 }),
    settings: Type.Optional(QaRunSettings),
    maxQaWarningsCount: Type.Optional(MaxQaWarningsCount),
  },
  { title: 'QualityAssuranceBatchRunDtoV3' },
);

export const QaSegmentsRunBody = Type.Object(
  {
    jobsAndSegments: Type.Array(
      Type.Object(
        {
          job: UidReference,
          segments: Type.Array(Type.String(), { maxItems: 1000 }),
          /** OpenTMS extension: targets not yet saved, checked in place of the stored ones (nothing is saved or stored). */
          targets: Type.Optional(
            Type.Array(
              Type.Object({ segmentId: Type.String({ minLength: 1, maxLength: 200 }), target: Type.String({ maxLength: 100_000 }) }),
              {
                maxItems: 1000,
                description:
                  'OpenTMS extension: texts the editor holds but has not saved, each for a segment listed in `segments`; they are checked instead of the stored targets, and the run is not stored.',
              },
            ),
          ),
        },
        { title: 'JobPartSegmentsDtoV3' },
      ),
      { minItems: 1, maxItems: 100 },
    ),
    warningTypes: Type.Optional(WarningTypes),
    maxQaWarningsCount: Type.Optional(MaxQaWarningsCount),
  },
  { title: 'QualityAssuranceSegmentsRunDtoV3' },
);

/** runQaAndSaveV4 (not in the published description): the job, the segment's new target and, optionally, its confirmation. */
export const QaRunWithUpdateBody = Type.Object(
  {
    job: UidReference,
    target: Type.String({ maxLength: 100_000 }),
    confirmed: Type.Optional(Type.Boolean()),
    warningTypes: Type.Optional(WarningTypes),
    maxQaWarningsCount: Type.Optional(MaxQaWarningsCount),
  },
  { title: 'QualityAssuranceRunWithUpdateDtoV4' },
);

export const SegmentIdParams = Type.Object({ projectUid: ProjectUid, segmentId: Type.String({ minLength: 1, maxLength: 200 }) });

export const QaResponse = Type.Object(
  {
    segmentWarnings: Type.Array(
      Type.Object(
        {
          segmentId: Type.String(),
          warnings: Type.Array(
            Type.Object(
              { id: Type.String(), ignored: Type.Boolean(), type: Type.String(), repetitionGroupId: Type.Optional(Type.String()) },
              { additionalProperties: true },
            ),
          ),
          ignoredChecks: Type.Array(Type.String()),
        },
        { title: 'SegmentWarningsDto' },
      ),
    ),
    finished: Type.Boolean(),
    uncheckedChecks: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'OpenTMS extension: checks the run was asked for but could not do, so their silence is no pass: `SpellCheck` when the target language has no spelling dictionary.',
      }),
    ),
  },
  { title: 'QualityAssuranceResponseDto' },
);

export const UpdateIgnoredWarningsBody = Type.Object(
  {
    jobParts: Type.Array(
      Type.Object(
        {
          jobPartUid: Type.String({ minLength: 1 }),
          segments: Type.Array(
            Type.Object(
              {
                uid: Type.String({ minLength: 1 }),
                warnings: Type.Array(Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }),
              },
              { title: 'UpdateIgnoredSegment' },
            ),
            { minItems: 1, maxItems: 500 },
          ),
        },
        { title: 'UpdateIgnoredJobPartSegment' },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { title: 'UpdateIgnoredWarningsDto' },
);

export const UpdateIgnoredChecksBody = Type.Object(
  {
    segment: Type.Object({ uid: Type.String({ minLength: 1 }) }, { title: 'SegmentReference' }),
    warningTypes: Type.Array(WarningTypeSchema, { minItems: 1, maxItems: 100 }),
  },
  { title: 'UpdateIgnoredChecksDto' },
);

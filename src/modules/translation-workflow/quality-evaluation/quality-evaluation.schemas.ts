import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';

/**
 * Wire shapes of quality evaluation (docs/quality-evaluation.md). None of these operations is in the
 * published Swagger; the shapes follow Phrase's public reference pages for the same paths, plus
 * the OpenTMS extensions named below.
 */

const Uid = Type.String({ minLength: 1, maxLength: 255 });
const JobRef = Type.Object({ uid: Uid });

/** The extension both evaluate operations take: the pass mark of a job part's word-weighted score. */
const Threshold = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'OpenTMS extension: a job part passes when its word-weighted score is at least this (default 80).',
});

/** Body of POST /api2/v1/projects/{projectUid}/jobs/evaluateQuality. */
export const EvaluateQualityBody = Type.Object({
  jobs: Type.Array(JobRef, { minItems: 1, maxItems: 50, description: 'Job parts to evaluate: 1 to 50, of one workflow step.' }),
  lockSegments: Type.Optional(
    Type.Boolean({
      description: 'Accepted and stored; OpenTMS never locks segments on a heuristic estimate (docs/quality-evaluation.md).',
    }),
  ),
  confirmSegments: Type.Optional(
    Type.Boolean({
      description: 'Accepted and stored; OpenTMS never confirms segments on a heuristic estimate (docs/quality-evaluation.md).',
    }),
  ),
  threshold: Type.Optional(Threshold),
});
export type EvaluateQualityBody = Static<typeof EvaluateQualityBody>;

/** Body of the deprecated POST /api2/v1/qualityProfiles/evaluate. */
export const EvaluateByProfileBody = Type.Object({
  jobs: Type.Array(JobRef, { minItems: 1, maxItems: 50, description: 'Job parts to evaluate: 1 to 50, of one project and workflow step.' }),
  qualityProfileUid: Type.Optional(Uid),
  threshold: Type.Optional(Threshold),
});
export type EvaluateByProfileBody = Static<typeof EvaluateByProfileBody>;

/** Body of POST /api2/v1/qualityProfiles/qeWarnings. */
export const QeWarningsBody = Type.Object({
  jobParts: Type.Array(JobRef, { minItems: 1, maxItems: 100, description: 'Job parts of one project and workflow step: 1 to 100.' }),
  initialSegmentId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Resume after this segment (the last segmentId of the previous page); absent (or null, read as absent): from the first segment.',
    }),
  ),
});
export type QeWarningsBody = Static<typeof QeWarningsBody>;

const QeWarning = Type.Object({ type: Type.String(), message: Type.String(), qeId: Nullable(Type.String()) });

export const QeWarningsResponse = Type.Object({
  endReached: Type.Boolean(),
  segmentWarnings: Type.Array(
    Type.Object({
      jobPartUid: Type.String(),
      segmentId: Type.String(),
      warnings: Type.Array(QeWarning),
      score: Nullable(
        Type.Integer({
          description:
            'OpenTMS extension: the estimator’s score 0..100 (a heuristic, not a trained model); null for warnings stored by segmentWarnings.',
        }),
      ),
      passed: Type.Boolean({ description: 'OpenTMS extension: the score reaches the threshold (external results: no warnings).' }),
    }),
  ),
  jobParts: Type.Array(
    Type.Object({
      uid: Type.String(),
      evaluated: Type.Boolean(),
      score: Nullable(Type.Integer()),
      threshold: Nullable(Type.Integer()),
      passed: Nullable(Type.Boolean()),
      words: Nullable(Type.Integer()),
      segmentsBelowThreshold: Nullable(Type.Integer()),
      dateEvaluated: Nullable(Type.String({ format: 'date-time' })),
    }),
    {
      description:
        'OpenTMS extension: per job part, the last finished evaluation’s word-weighted score and pass/fail (nulls and evaluated=false before one finished).',
    },
  ),
});
export type QeWarningsResponse = Static<typeof QeWarningsResponse>;

/** Body of POST /api2/v1/qualityProfiles/segmentWarnings. */
export const SegmentWarningsBody = Type.Object({
  jobPartUid: Uid,
  segments: Type.Array(
    Type.Object({
      segmentId: Type.String({ minLength: 1, maxLength: 255 }),
      results: Type.Array(
        Type.Object({
          type: Type.String({ minLength: 1, maxLength: 255 }),
          message: Type.String({ maxLength: 1000 }),
          qeId: Type.Optional(Type.String({ maxLength: 255 })),
        }),
        { maxItems: 100, description: 'The segment’s warnings; [] records a passing run.' },
      ),
    }),
    { minItems: 1, maxItems: 500, description: 'At most 500 segments a request.' },
  ),
  evaluationId: Type.Optional(Type.String({ maxLength: 255 })),
  qualityProfileUid: Type.Optional(Type.String({ maxLength: 255 })),
});
export type SegmentWarningsBody = Static<typeof SegmentWarningsBody>;

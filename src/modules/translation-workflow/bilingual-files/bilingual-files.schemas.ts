import { Type } from 'typebox';
import { JobPartReference } from '../kernel/index.js';

/** Wire shapes of the Bilingual File operations (spec definitions named in each title). */

export const BilingualFormat = Type.Union([Type.Literal('MXLF'), Type.Literal('DOCX'), Type.Literal('XLIFF'), Type.Literal('TMX')]);

export const GetBilingualFileBody = Type.Object(
  { jobs: Type.Array(Type.Object({ uid: Type.String() }), { minItems: 1, maxItems: 1000 }) },
  { title: 'GetBilingualFileDto' },
);

export const GetBilingualFileQuery = Type.Object({
  format: Type.Optional(BilingualFormat),
  preview: Type.Optional(Type.Boolean()),
});

export const UploadBilingualFileQuery = Type.Object({
  saveToTransMemory: Type.Optional(Type.Union([Type.Literal('All'), Type.Literal('Confirmed'), Type.Literal('None')])),
  setCompleted: Type.Optional(Type.Boolean()),
});

export const ProjectJobParts = Type.Object(
  {
    jobs: Type.Array(JobPartReference),
    project: Type.Object({ name: Type.String(), uid: Type.String() }),
    segments: Type.Object(
      {
        changed: Type.Integer(),
        unchanged: Type.Integer(),
        refused: Type.Integer(),
        refusedSegments: Type.Array(
          Type.Object({
            jobUid: Type.String(),
            segment: Type.String(),
            reason: Type.Union([Type.Literal('LOCKED'), Type.Literal('LOCK_NOT_ALLOWED')]),
          }),
        ),
      },
      {
        description:
          'OpenTMS extension: the segments the upload changed, left as they were, and refused (a locked segment whose text the file changed; a lock change by someone who may not lock), with the first 1,000 refused segments.',
      },
    ),
  },
  { title: 'ProjectJobPartsDto' },
);

export const CompareBilingualQuery = Type.Object({
  workflowLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 15 })),
});

export const ComparedSegments = Type.Object(
  {
    segments: Type.Array(
      Type.Object({ uid: Type.String(), state: Type.Union([Type.Literal('Miss'), Type.Literal('Diff')]) }, { title: 'ComparedSegmentDto' }),
    ),
  },
  { title: 'ComparedSegmentsDto' },
);

export const ConvertBilingualQuery = Type.Object({
  from: Type.Union([Type.Literal('MXLF'), Type.Literal('DOCX')]),
  to: Type.Union([Type.Literal('MXLF'), Type.Literal('DOCX'), Type.Literal('XLIFF2')], {
    description: '`XLIFF2` is an OpenTMS extension: XLIFF 2.0 of the same segments (export only).',
  }),
});

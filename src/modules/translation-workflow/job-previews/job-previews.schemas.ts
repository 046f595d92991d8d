import { Type } from 'typebox';
import type { Static } from 'typebox';
import { PathUid } from '../../../http/schema-helpers.js';
import { JobUidParams } from '../kernel/index.js';

/** Spec `PreviewUrlsDto` (`PreviewUrlDto` items). */
export const PreviewUrls = Type.Object(
  {
    previews: Type.Array(
      Type.Object(
        {
          type: Type.Union([Type.Literal('ORIGINAL'), Type.Literal('PDF')]),
          url: Type.String(),
        },
        { title: 'PreviewUrlDto' },
      ),
    ),
  },
  { title: 'PreviewUrlsDto' },
);

export const PreviewUrlsQuery = Type.Object({
  workflowLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 15, default: 1 })),
});

/** Spec `TargetFileWarningsDto`. */
export const TargetFileWarnings = Type.Object({ warnings: Type.Array(Type.String()) }, { title: 'TargetFileWarningsDto' });

export const AssetParams = Type.Object({ jobPartUid: PathUid, assetFileUid: PathUid });

export const PreviewParams = JobUidParams;

/** The optional `json` part of uploadJobPreviewPackage (an OpenTMS extension): the jobs the package is for. */
export const PreviewPackageJson = Type.Object({
  jobs: Type.Optional(Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { maxItems: 1000 })),
});
export type PreviewPackageJson = Static<typeof PreviewPackageJson>;

/**
 * `JobPreviewPackageDto` (2025 operation; its fields are not published): the package's `uid` (the
 * reference a job refers to), its file, the jobs it serves and its assets (getAsset's
 * assetFileUid for each entry path).
 */
export const JobPreviewPackage = Type.Object(
  {
    uid: Type.String(),
    filename: Type.String(),
    size: Type.Integer(),
    jobs: Type.Array(Type.Object({ uid: Type.String() })),
    assets: Type.Array(
      Type.Object(
        { uid: Type.String(), path: Type.String(), contentType: Type.String(), size: Type.Integer() },
        { title: 'JobPreviewAssetDto' },
      ),
    ),
  },
  { title: 'JobPreviewPackageDto' },
);
export type JobPreviewPackage = Static<typeof JobPreviewPackage>;

import { Type } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { JobUidParams } from '../kernel/index.js';

export const TargetFileDownloadParams = Type.Object({
  ...JobUidParams.properties,
  asyncRequestId: Type.String({ minLength: 1, maxLength: 32 }),
});

export const TargetFileDownloadQuery = Type.Object({
  format: Type.Union([Type.Literal('ORIGINAL'), Type.Literal('PDF')], {
    default: 'ORIGINAL',
    description: 'ORIGINAL only: PDF conversion is not implemented (501).',
  }),
});

const ErrorDetailV2 = Type.Object({
  code: Type.String(),
  message: Type.Optional(Type.String()),
  args: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** Spec definition `AsyncResponseV2Dto`. */
const AsyncResponseV2 = Type.Object(
  {
    dateCreated: Type.String({ format: 'date-time' }),
    errorCode: Nullable(Type.String()),
    errorDesc: Nullable(Type.String()),
    errorDetails: Type.Array(ErrorDetailV2),
    warnings: Type.Array(ErrorDetailV2),
  },
  { title: 'AsyncResponseV2Dto' },
);

const AsyncRequestV2Core = {
  id: Type.String(),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time' }),
  action: Type.String(),
  asyncResponse: Nullable(AsyncResponseV2),
  project: Nullable(Type.Object({ uid: Type.String(), name: Type.String() })),
};

/** Spec definition `AsyncRequestWrapperV2Dto` (`AsyncRequestV2Dto`, its parent one level deep). */
export const AsyncRequestWrapperV2 = Type.Object(
  {
    asyncRequest: Type.Object(
      { ...AsyncRequestV2Core, parent: Nullable(Type.Object({ ...AsyncRequestV2Core, parent: Type.Null() })) },
      { title: 'AsyncRequestV2Dto' },
    ),
  },
  { title: 'AsyncRequestWrapperV2Dto' },
);

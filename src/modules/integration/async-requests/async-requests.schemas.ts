import { Type } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { UserReference } from '../../identity/users/index.js';
import { Nullable } from '../../../http/schema-helpers.js';

/** Spec enum of AsyncRequestDto.action. */
export const ASYNC_ACTIONS = [
  'PRE_ANALYSE',
  'POST_ANALYSE',
  'COMPARE_ANALYSE',
  'PARENT_ANALYSE',
  'PRE_TRANSLATE',
  'ASYNC_TRANSLATE',
  'IMPORT_JOB',
  'IMPORT_FILE',
  'ALIGN',
  'EXPORT_TMX_BY_QUERY',
  'EXPORT_TMX',
  'IMPORT_TMX',
  'IMPORT_TBX',
  'INSERT_INTO_TM',
  'DELETE_TM',
  'CLEAR_TM',
  'QA',
  'QA_V3',
  'UPDATE_CONTINUOUS_JOB',
  'UPDATE_SOURCE',
  'UPDATE_TARGET',
  'EXTRACT_CLEANED_TMS',
  'GLOSSARY_PUT',
  'GLOSSARY_DELETE',
  'CREATE_PROJECT',
  'EXPORT_COMPLETE_FILE',
  'IMPORT_ANNOTATIONS',
  'FILE_FLOW_CONVERTER_IMPORT',
  'FILE_FLOW_MT_PRETRANSLATE',
  'FILE_FLOW_QUALITY_ESTIMATION',
] as const;
export type AsyncAction = (typeof ASYNC_ACTIONS)[number];

const ErrorDetail = Type.Object({
  code: Type.String(),
  message: Type.Optional(Type.String()),
  args: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** Spec definition `AsyncResponseDto`. */
export const AsyncResponseSchema = Type.Object(
  {
    dateCreated: Type.String({ format: 'date-time' }),
    errorCode: Nullable(Type.String()),
    errorDesc: Nullable(Type.String()),
    errorDetails: Type.Array(ErrorDetail),
    warnings: Type.Array(ErrorDetail),
    acceptedSegmentsCount: Type.Optional(Nullable(Type.Integer())),
  },
  { title: 'AsyncResponseDto' },
);

const AsyncRequestCore = {
  id: Type.String(),
  uid: Type.String(),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time' }),
  action: Type.String(),
  asyncResponse: Nullable(AsyncResponseSchema),
  project: Nullable(Type.Object({ uid: Type.String(), name: Type.String() })),
  progress: Type.Optional(
    Type.Object(
      { done: Type.Integer(), total: Type.Integer() },
      {
        description:
          'OpenTMS extension: what the request has done of how much (segments of a pre-translation), for requests that report it.',
      },
    ),
  ),
};

/** Spec definition `AsyncRequestDto` (the parent is shown one level deep). */
export const AsyncRequestSchema = Type.Object(
  { ...AsyncRequestCore, parent: Nullable(Type.Object({ ...AsyncRequestCore, parent: Type.Null() })) },
  { title: 'AsyncRequestDto' },
);

/** Spec definition `AsyncRequestV2Dto` (the parent one level deep). */
const AsyncRequestV2Core = {
  id: Type.String(),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time' }),
  action: Type.String(),
  asyncResponse: Nullable(
    Type.Object(
      {
        dateCreated: Type.String({ format: 'date-time' }),
        errorCode: Nullable(Type.String()),
        errorDesc: Nullable(Type.String()),
        errorDetails: Type.Array(ErrorDetail),
        warnings: Type.Array(ErrorDetail),
      },
      { title: 'AsyncResponseV2Dto' },
    ),
  ),
  project: Nullable(Type.Object({ uid: Type.String(), name: Type.String() })),
};
export const AsyncRequestV2Schema = Type.Object(
  { ...AsyncRequestV2Core, parent: Nullable(Type.Object({ ...AsyncRequestV2Core, parent: Type.Null() })) },
  { title: 'AsyncRequestV2Dto' },
);

/** Spec definition `AsyncRequestWrapperV2Dto`: what asynchronous v2 operations answer. */
export const AsyncRequestWrapperV2 = Type.Object({ asyncRequest: AsyncRequestV2Schema }, { title: 'AsyncRequestWrapperV2Dto' });
/** Spec definition `AsyncRequestWrapperDto`. */
export const AsyncRequestWrapper = Type.Object({ asyncRequest: AsyncRequestSchema }, { title: 'AsyncRequestWrapperDto' });

export const AsyncRequestParams = Type.Object({ asyncRequestId: Type.String({ minLength: 1, maxLength: 32 }) });

export const PendingQuery = Type.Object({
  all: Type.Boolean({ default: false, description: 'Pending requests for organization instead of current user. Only for ADMIN.' }),
  ...PagingQuery,
});

export const AsyncRequestPage = PageOf(AsyncRequestSchema, 'PageDtoAsyncRequestDto');

/** Spec definition `AsyncRequestStatusDto`. */
export const AsyncStatusSchema = Type.Object(
  { concurrentRequests: Type.Object({ limit: Nullable(Type.Integer()), count: Type.Integer() }) },
  { title: 'AsyncRequestStatusDto' },
);

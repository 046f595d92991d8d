import { Type } from 'typebox';
import type { Static } from 'typebox';
import { recordUid } from '../../../http/schema-helpers.js';
import {
  AsyncRequestSchema,
  AsyncRequestV2Schema,
  AsyncRequestWrapper,
  AsyncRequestWrapperV2,
  backgroundTasksSchema,
} from '../../integration/async-requests/index.js';
import { MetadataSchema } from './translation-memories.schemas.js';

/** Wire shapes of TM imports and exports (spec definitions named on each). */

const Lang = Type.String({ minLength: 1, maxLength: 64 });
const Langs = Type.Array(Lang, { maxItems: 500 });

export const TransferUidParams = Type.Object({ transMemoryUid: recordUid('transMemories') });
export const AsyncRequestIdParams = Type.Object({ asyncRequestId: Type.String({ minLength: 1, maxLength: 32 }) });

export const ImportQuery = Type.Object({
  strictLangMatching: Type.Boolean({
    default: false,
    description: 'true: a language of the file goes only to the TM language with the same code (`en_us` is not `en`).',
  }),
  stripNativeCodes: Type.Boolean({
    default: true,
    description: 'true: inline tags keep their TMX element (`<bpt>`, `<ph>`…) but not the native code inside it (`<b>`).',
  }),
});

/** Spec definition `ExportTMDto` (a null is absent, as everywhere: src/http/json-leniency.ts). */
export const ExportBody = Type.Object({
  exportTargetLangs: Type.Optional(Langs),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type ExportBody = Static<typeof ExportBody>;

const DateTime = Type.String({ format: 'date-time', maxLength: 64 });
/** Spec definition `ExportByQueryDto`. */
export const ExportByQueryBody = Type.Object({
  exportTargetLangs: Langs,
  queries: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 100 }),
  queryLangs: Langs,
  createdAtMin: Type.Optional(DateTime),
  createdAtMax: Type.Optional(DateTime),
  modifiedAtMin: Type.Optional(DateTime),
  modifiedAtMax: Type.Optional(DateTime),
  createdBy: Type.Optional(Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })),
  modifiedBy: Type.Optional(Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })),
  filename: Type.Optional(Type.String({ maxLength: 1024 })),
  project: Type.Optional(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) })),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type ExportByQueryBody = Static<typeof ExportByQueryBody>;

/** Spec definition `CleanedTransMemoriesDto`. */
export const CleanedBody = Type.Object({
  uids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }),
  outputFormat: Type.Optional(Type.Union([Type.Literal('TXT'), Type.Literal('TSV')])),
  preserveRatio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
  targetLangs: Type.Optional(Langs),
});
export type CleanedBody = Static<typeof CleanedBody>;

const XLSX_FIELDS = [
  'ID',
  'TEXT',
  'PREVIOUS_SEGMENT',
  'NEXT_SEGMENT',
  'CONTEXT_KEY',
  'CREATED_BY',
  'CREATED_AT',
  'MODIFIED_BY',
  'MODIFIED_AT',
  'CLIENT',
  'PROJECT',
  'DOMAIN',
  'SUBDOMAIN',
  'NOTE',
  'REVIEWED',
  'ALIGNED',
  'FILENAME',
  'METADATA',
] as const;

export const DownloadExportQuery = Type.Object({
  format: Type.Union([Type.Literal('TMX'), Type.Literal('XLSX')], { default: 'TMX' }),
  fields: Type.Optional(
    Type.Array(Type.Union(XLSX_FIELDS.map((f) => Type.Literal(f))), {
      maxItems: XLSX_FIELDS.length * 2,
      description:
        'XLSX: PREVIOUS_SEGMENT, NEXT_SEGMENT, CONTEXT_KEY or NOTE add the context columns (context_prev, context_next, key, note); the texts are always there; other fields are accepted and not written.',
    }),
  ),
});

export { AsyncRequestWrapper, AsyncRequestWrapperV2 };

const TmReference = Type.Object({ id: Type.String(), uid: Type.String() });

/** Spec definition `AsyncExportTMResponseDto`. */
export const AsyncExportResponse = Type.Object(
  {
    asyncRequest: AsyncRequestV2Schema,
    asyncExport: Type.Object({ transMemory: TmReference, exportTargetLangs: Type.Array(Type.String()) }, { title: 'AsyncExportTMDto' }),
  },
  { title: 'AsyncExportTMResponseDto' },
);

/** Spec definition `AsyncExportTMByQueryResponseDto`. */
export const AsyncExportByQueryResponse = Type.Object(
  {
    asyncRequest: AsyncRequestSchema,
    asyncExport: Type.Object(
      {
        asyncRequest: Type.Object({ id: Type.String() }),
        transMemory: TmReference,
        exportTargetLangs: Type.Array(Type.String()),
        queries: Type.Array(Type.Object({ query: Type.String(), lang: Type.String() })),
      },
      { title: 'AsyncExportTMByQueryDto' },
    ),
  },
  { title: 'AsyncExportTMByQueryResponseDto' },
);

/** Spec definition `BackgroundTasksTmDto`. */
export const BackgroundTasksSchema = backgroundTasksSchema('BackgroundTasksTmDto', MetadataSchema);

export const FILE_RESPONSE = { 200: { description: 'The file, named by Content-Disposition', type: 'string', format: 'binary' } } as const;

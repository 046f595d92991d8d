import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { PageOf, PagingQuery } from '../../../http/paging.js';
import { Nullable } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';
import { AsyncRequestReference, ProviderInput, ProviderReference } from '../../translation-workflow/kernel/index.js';

/** Wire shapes of analyses (spec definitions named in each title). */

const Flag = Type.Optional(Type.Boolean());
const IdRef = Type.Object({ id: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Integer({ minimum: 1 })]) });
const UidRef = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) });

/** The most jobs one request may name. */
export const MAX_JOBS_PER_REQUEST = 5000;

const settingsFields = {
  type: Type.Optional(Type.Union([Type.Literal('PreAnalyse'), Type.Literal('PostAnalyse'), Type.Literal('Compare')])),
  includeFuzzyRepetitions: Flag,
  separateFuzzyRepetitions: Flag,
  includeConfirmedSegments: Flag,
  includeNumbers: Flag,
  includeLockedSegments: Flag,
  countSourceUnits: Flag,
  includeTransMemory: Flag,
  includeNonTranslatables: Flag,
  includeMachineTranslationMatches: Flag,
  transMemoryPostEditing: Flag,
  nonTranslatablePostEditing: Flag,
  machineTranslatePostEditing: Flag,
  name: Type.Optional(Type.String({ maxLength: 255 })),
  netRateScheme: Type.Optional(IdRef),
  compareWorkflowLevel: Type.Optional(Type.Integer({ minimum: 1, maximum: 15 })),
  useProjectAnalysisSettings: Flag,
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
};

/** Spec `CreateAnalyseListAsyncDto` (byLanguages, byProviders). */
export const CreateAnalyseListBody = Type.Object({
  jobs: Type.Array(UidRef, { minItems: 1, maxItems: MAX_JOBS_PER_REQUEST }),
  ...settingsFields,
});

/** Spec `CreateAnalyseAsyncV2Dto`. */
export const CreateAnalyseV2Body = Type.Object({
  jobs: Type.Array(UidRef, { minItems: 1, maxItems: MAX_JOBS_PER_REQUEST }),
  ...settingsFields,
  provider: Type.Optional(ProviderInput),
});

/** Spec `EditAnalyseV2Dto`. */
export const EditAnalyseV2Body = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  provider: Type.Optional(ProviderInput),
  netRateScheme: Type.Optional(Nullable(UidRef)),
});

/** Spec `BulkEditAnalyseV2Dto`. */
export const BulkEditAnalyseV2Body = Type.Object({
  analyses: Type.Array(IdRef, { minItems: 1, maxItems: 100 }),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  provider: Type.Optional(ProviderInput),
  netRateScheme: Type.Optional(Nullable(UidRef)),
});

/** Spec `AnalyseRecalculateRequestDto`. */
export const RecalculateBody = Type.Object({
  analyses: Type.Array(IdRef, { minItems: 1, maxItems: 100 }),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});

/** Spec `BulkDeleteAnalyseDto`. */
export const BulkDeleteBody = Type.Object({
  analyses: Type.Array(IdRef, { minItems: 1, maxItems: 100 }),
  purge: Flag,
});

export const DeleteQuery = Type.Object({ purge: Type.Optional(Type.Boolean({ default: false })) });

export const AnalyseUidParams = Type.Object({ analyseUid: Type.String({ minLength: 1, maxLength: 64 }) });
export const LanguagePartParams = Type.Object({
  analyseUid: Type.String({ minLength: 1, maxLength: 64 }),
  analyseLanguagePartId: Type.String({ pattern: '^[0-9]{1,18}$' }),
});
export const AnalyseJobParams = Type.Object({
  analyseUid: Type.String({ minLength: 1, maxLength: 64 }),
  jobUid: Type.String({ minLength: 1, maxLength: 64 }),
});

export const AnalysesListQuery = Type.Object({
  ...PagingQuery,
  projectUid: Type.Optional(Type.String({ maxLength: 64 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  uid: Type.Optional(Type.String({ maxLength: 64 })),
  sort: Type.Optional(Type.Union([Type.Literal('NAME'), Type.Literal('DATE_CREATED')])),
  order: Type.Optional(Type.Union([Type.Literal('ASC'), Type.Literal('DESC'), Type.Literal('asc'), Type.Literal('desc')])),
  onlyOwnerOrg: Type.Optional(Type.Boolean()),
});

// ---- responses

const Counts = Type.Object(
  {
    segments: Type.Number(),
    words: Type.Number(),
    characters: Type.Number(),
    normalizedPages: Type.Number(),
    percent: Type.Number(),
    editingTime: Type.Number(),
  },
  { title: 'CountsDto' },
);
const bands = (names: string[], title: string) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Counts])) as Record<string, TSchema>, { title });
const SIX = ['match100', 'match95', 'match85', 'match75', 'match50', 'match0'];
const MatchCounts101 = bands(['match101', ...SIX], 'MatchCounts101Dto');
const MatchCounts = bands(SIX, 'MatchCountsDto');

/** Spec `DataDto`. */
export const Data = Type.Object(
  {
    available: Type.Boolean(),
    estimate: Type.Boolean(),
    all: Counts,
    repetitions: Counts,
    transMemoryMatches: MatchCounts101,
    machineTranslationMatches: MatchCounts,
    nonTranslatablesMatches: bands(SIX, 'MatchCountsNTDto'),
    internalFuzzyMatches: MatchCounts,
  },
  { title: 'DataDto' },
);
/** Spec `DataDtoV1`. */
export const DataV1 = Type.Object(
  {
    available: Type.Boolean(),
    all: Counts,
    repetitions: Counts,
    transMemoryMatches: MatchCounts101,
    machineTranslationMatches: MatchCounts,
    nonTranslatablesMatches: bands(['match100', 'match99'], 'MatchCountsNTDtoV1'),
    internalFuzzyMatches: MatchCounts,
  },
  { title: 'DataDtoV1' },
);

export const AnalyseJobReference = Type.Object(
  { uid: Type.String(), filename: Type.String(), innerId: Type.String() },
  { title: 'AnalyseJobReference' },
);
export const NetRateSchemeReference = Type.Object(
  {
    id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    dateCreated: Type.String({ format: 'date-time' }),
    createdBy: Nullable(UserReference),
  },
  { title: 'NetRateSchemeReference' },
);
const TransMemoryReference = Type.Object(
  {
    internalId: Type.Integer(),
    uid: Type.String(),
    name: Type.String(),
    sourceLang: Type.String(),
    targetLangs: Type.Array(Type.String()),
  },
  { title: 'TransMemoryReferenceDtoV2' },
);
const ImportStatus = Type.Object({ status: Type.String(), errorMessage: Nullable(Type.String()) }, { title: 'ImportStatusDto' });
const ProjectReference = Type.Object({ name: Type.String(), uid: Type.String() }, { title: 'ProjectReference' });

/** Spec `AbstractAnalyseSettingsDto` as an analysis carries it. */
export const AnalysisSettingsSchema = Type.Object(
  {
    type: Type.String(),
    includeFuzzyRepetitions: Type.Boolean(),
    separateFuzzyRepetitions: Type.Boolean(),
    includeConfirmedSegments: Type.Boolean(),
    includeNumbers: Type.Boolean(),
    includeLockedSegments: Type.Boolean(),
    countSourceUnits: Type.Boolean(),
    includeTransMemory: Type.Boolean(),
    includeNonTranslatables: Type.Boolean(),
    includeMachineTranslationMatches: Type.Boolean(),
    transMemoryPostEditing: Type.Boolean(),
    nonTranslatablePostEditing: Type.Boolean(),
    machineTranslatePostEditing: Type.Boolean(),
    namingPattern: Nullable(Type.String()),
    analyzeByLanguage: Type.Boolean(),
    analyzeByProvider: Type.Boolean(),
    allowAutomaticPostAnalysis: Type.Boolean(),
  },
  { title: 'AbstractAnalyseSettingsDto' },
);

const common = {
  id: Type.String(),
  uid: Type.String(),
  type: Type.String(),
  name: Type.String(),
  provider: Nullable(ProviderReference),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time' }),
  netRateScheme: Nullable(NetRateSchemeReference),
};

export const LanguagePartV3 = Type.Object(
  {
    id: Type.String(),
    sourceLang: Type.String(),
    targetLang: Type.String(),
    data: Data,
    discountedData: Data,
    jobs: Type.Array(AnalyseJobReference),
    transMemories: Type.Array(TransMemoryReference),
  },
  { title: 'AnalyseLanguagePartV3Dto' },
);

/** Spec `AnalyseV3Dto`. */
export const AnalyseV3 = Type.Object(
  {
    ...common,
    innerId: Type.Integer(),
    canChangeNetRateScheme: Type.Boolean(),
    analyseLanguageParts: Type.Array(LanguagePartV3),
    settings: AnalysisSettingsSchema,
    outdated: Type.Boolean(),
    importStatus: ImportStatus,
    pureWarnings: Type.Array(Type.String()),
    project: ProjectReference,
  },
  { title: 'AnalyseV3Dto' },
);

/** Spec `AnalyseV2Dto`. */
export const AnalyseV2 = Type.Object(
  {
    ...common,
    analyseLanguageParts: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          sourceLang: Type.String(),
          targetLang: Type.String(),
          data: Data,
          discountedData: Data,
          jobs: Type.Array(AnalyseJobReference),
        },
        { title: 'AnalyseLanguagePartV2Dto' },
      ),
    ),
  },
  { title: 'AnalyseV2Dto' },
);
export const AnalysesV2 = Type.Object({ analyses: Type.Array(AnalyseV2) }, { title: 'AnalysesV2Dto' });

/** Spec `AnalyseLanguagePartDto` (v1). */
export const LanguagePartV1 = Type.Object(
  {
    id: Type.String(),
    sourceLang: Type.String(),
    targetLang: Type.String(),
    data: DataV1,
    discountedData: DataV1,
    jobs: Type.Array(AnalyseJobReference),
  },
  { title: 'AnalyseLanguagePartDto' },
);

/** Spec `AnalyseJobDto`. */
export const AnalyseJob = Type.Object(
  { uid: Type.String(), filename: Type.String(), data: DataV1, discountedData: DataV1 },
  { title: 'AnalyseJobDto' },
);
export const AnalyseJobPage = PageOf(AnalyseJob, 'PageDtoAnalyseJobDto');

/** Spec `AnalyseReference`. */
export const AnalyseReference = Type.Object(
  {
    ...common,
    innerId: Type.String(),
    analyseLanguageParts: Type.Array(
      Type.Object(
        { id: Type.String(), sourceLang: Type.String(), targetLang: Type.String(), jobs: Type.Array(AnalyseJobReference) },
        { title: 'AnalyseLanguagePartReference' },
      ),
    ),
    outdated: Type.Boolean(),
    importStatus: ImportStatus,
    pureWarnings: Type.Array(Type.String()),
  },
  { title: 'AnalyseReference' },
);
export const AnalyseReferencePage = PageOf(AnalyseReference, 'PageDtoAnalyseReference');

const ObjectReference = Type.Object({ id: Type.String(), uid: Type.String() }, { title: 'ObjectReference' });
/** Spec `AsyncAnalyseListResponseV2Dto`. */
export const AsyncAnalyseListV2 = Type.Object(
  {
    asyncRequests: Type.Array(
      Type.Object({ asyncRequest: AsyncRequestReference, analyse: ObjectReference }, { title: 'AsyncAnalyseResponseV2Dto' }),
    ),
  },
  { title: 'AsyncAnalyseListResponseV2Dto' },
);
/** Spec `AsyncAnalyseListResponseDto`. */
export const AsyncAnalyseList = Type.Object(
  {
    analyses: Type.Array(
      Type.Object({ asyncRequest: AsyncRequestReference, analyse: ObjectReference }, { title: 'AsyncAnalyseResponseDto' }),
    ),
  },
  { title: 'AsyncAnalyseListResponseDto' },
);
/** Spec `AnalyseRecalculateResponseDto`. */
export const RecalculateResponse = Type.Object(
  {
    analyses: Type.Array(
      Type.Object({ asyncRequest: AsyncRequestReference, analyse: ObjectReference }, { title: 'AsyncAnalyseResponseDto' }),
    ),
  },
  { title: 'AnalyseRecalculateResponseDto' },
);

import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import {
  ERROR_CATEGORY_GROUP_NAMES,
  ERROR_CATEGORY_GROUPS,
  PENALTY_MAX,
  PENALTY_MIN,
  SEVERITY_NAMES,
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  WEIGHT_MAX,
  WEIGHT_MIN,
} from '../../../domain/quality-assurance/lqa-profile.js';
import { PageOf, PAGE_SIZE_MAX } from '../../../http/paging.js';
import { Nullable, PathUid } from '../../../http/schema-helpers.js';
import { UserReference } from '../../identity/users/index.js';

/** Spec definitions of the LQA profile operations (Quality Assurance group; docs/lqa-profiles.md). */

const TITLES: Record<string, string> = {
  accuracy: 'AccuracyWeightsDto',
  fluency: 'FluencyWeightsDto',
  terminology: 'TerminologyWeightsDto',
  style: 'StyleWeightsDto',
  localeConvention: 'LocaleConventionWeightsDto',
  verity: 'VerityWeightsDto',
  design: 'DesignWeightsDto',
  other: 'OtherWeightsDto',
};

/** ErrorCategoriesDto with each entry shaped by `entry` (required in answers, optional in requests). */
function errorCategories(entry: TSchema, optional: boolean) {
  const groups: Record<string, TSchema> = {};
  for (const group of ERROR_CATEGORY_GROUP_NAMES) {
    const entries: Record<string, TSchema> = {};
    for (const key of ERROR_CATEGORY_GROUPS[group]) entries[key] = optional ? Type.Optional(entry) : entry;
    const object = Type.Object(entries, { title: TITLES[group] });
    groups[group] = optional ? Type.Optional(object) : object;
  }
  return Type.Object(groups, {
    title: 'ErrorCategoriesDto',
    description: 'Error categories and their importance weight. If not provided, defaults will be created.',
  });
}

function penaltyPoints(severity: TSchema, optional: boolean) {
  const fields: Record<string, TSchema> = {};
  for (const name of SEVERITY_NAMES) fields[name] = optional ? Type.Optional(severity) : severity;
  return Type.Object(fields, {
    title: 'PenaltyPointsDto',
    description: 'Penalty points for each severity level. By default neutral is 0, minor is 1, major is 5, critical is 10.',
  });
}

// ---- answers

const ToggleableWeight = Type.Object(
  {
    enabled: Type.Boolean({ description: 'If this error category is enabled' }),
    weight: Type.Number({ description: `Weight of this error category (${WEIGHT_MIN} - ${WEIGHT_MAX})` }),
    code: Type.Integer({ description: 'Code of the error category (fixed: docs/lqa-profiles.md)' }),
  },
  { title: 'ToggleableWeightDto' },
);
const SeveritySchema = Type.Object(
  { code: Type.Integer({ description: 'Code of the severity (fixed: neutral 1, minor 2, major 3, critical 4)' }), value: Type.Number() },
  { title: 'SeverityDto' },
);
const PassFailThreshold = Type.Object({ minScorePercentage: Type.Number() }, { title: 'PassFailThresholdDto' });
const OrganizationReference = Type.Object({ uid: Type.String() }, { title: 'UidReference' });

const referenceFields = {
  uid: Type.String({ description: 'UID of the profile' }),
  name: Type.String({ description: 'Name of the profile' }),
  isDefault: Type.Boolean({ description: 'If profile is set as default for organization' }),
  createdBy: Nullable(UserReference),
  dateCreated: Type.String({ format: 'date-time', description: 'When profile was created' }),
  organization: OrganizationReference,
};

/** Spec definition `LqaProfileReferenceDto` (list items, make default, duplicate). */
export const LqaProfileReferenceSchema = Type.Object(referenceFields, { title: 'LqaProfileReferenceDto' });
export type LqaProfileReferenceDto = Static<typeof LqaProfileReferenceSchema>;

/** Spec definition `LqaProfileDetailDto` (create, get, update). */
export const LqaProfileDetailSchema = Type.Object(
  {
    ...referenceFields,
    errorCategories: errorCategories(ToggleableWeight, false),
    penaltyPoints: penaltyPoints(SeveritySchema, false),
    passFailThreshold: PassFailThreshold,
  },
  { title: 'LqaProfileDetailDto' },
);
export type LqaProfileDetailDto = Static<typeof LqaProfileDetailSchema>;

/** getLqaProfileDefaultValues: an LqaProfileDetailDto of no stored profile (uid, name, createdBy, dateCreated null). */
export const LqaProfileDefaultsSchema = Type.Object(
  {
    uid: Type.Null(),
    name: Type.Null(),
    isDefault: Type.Boolean(),
    createdBy: Type.Null(),
    dateCreated: Type.Null(),
    organization: OrganizationReference,
    errorCategories: errorCategories(ToggleableWeight, false),
    penaltyPoints: penaltyPoints(SeveritySchema, false),
    passFailThreshold: PassFailThreshold,
  },
  { title: 'LqaProfileDetailDto' },
);

export const LqaProfilePage = PageOf(LqaProfileReferenceSchema, 'PageDtoLqaProfileReferenceDto');
export const UserReferencePage = PageOf(UserReference, 'PageDtoUserReference');

// ---- requests

const ToggleableWeightInput = Type.Object({
  enabled: Type.Optional(Type.Boolean({ description: 'Default false' })),
  weight: Type.Optional(Type.Number({ minimum: WEIGHT_MIN, maximum: WEIGHT_MAX, description: 'Default 1' })),
  code: Type.Optional(Type.Integer({ description: 'Ignored: the codes are fixed' })),
});
const SeverityInput = Type.Object({
  code: Type.Optional(Type.Integer({ description: 'Ignored: the codes are fixed' })),
  value: Type.Optional(Type.Number({ minimum: PENALTY_MIN, maximum: PENALTY_MAX })),
});

/** Spec definitions `CreateLqaProfileDto` and `UpdateLqaProfileDto` (the same fields). */
export const LqaProfileBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  errorCategories: errorCategories(ToggleableWeightInput, true),
  penaltyPoints: Type.Optional(penaltyPoints(SeverityInput, true)),
  passFailThreshold: Type.Optional(
    Type.Object({
      minScorePercentage: Type.Number({
        minimum: THRESHOLD_MIN,
        maximum: THRESHOLD_MAX,
        description: 'Minimum allowed LQA score in percentage in line with MQM scoring (1 - penalties/word-count)',
      }),
    }),
  ),
});
export type LqaProfileBody = Static<typeof LqaProfileBody>;

const Paging = {
  pageNumber: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0, description: 'Page number, starting with 0, default 0' }),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: PAGE_SIZE_MAX,
    default: 20,
    description: 'Page size, accepts values between 1 and 50, default 20',
  }),
};

export const LQA_PROFILE_SORTS = ['NAME', 'CREATED_BY', 'DATE_CREATED'] as const;
export type LqaProfileSort = (typeof LQA_PROFILE_SORTS)[number];

export const LqaProfileListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, ignoring case' })),
  createdBy: Type.Optional(Type.String({ maxLength: 64, description: 'The uid (or numeric id) of the user who created the profile' })),
  dateCreated: Type.Optional(
    Type.String({ maxLength: 64, description: 'A day (`2026-12-01`) or an ISO 8601 date-time: profiles created on that day (UTC)' }),
  ),
  ...Paging,
  sort: Type.Optional(Type.Array(Type.Enum([...LQA_PROFILE_SORTS]), { maxItems: 3 })),
  order: Type.Optional(
    Type.Array(Type.Enum(['ASC', 'DESC']), { maxItems: 3, description: 'The direction of the sort key at the same position; default ASC' }),
  ),
});
export type LqaProfileListQuery = Static<typeof LqaProfileListQuery>;

export const AuthorsPageQuery = Type.Object(Paging);

export const ProfileUidParams = Type.Object({ profileUid: PathUid });

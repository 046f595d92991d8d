/**
 * LQA profiles (docs/lqa-profiles.md): the error categories of the MQM typology a reviewer may
 * report, each with a weight and an on/off switch, the penalty points of the four severities, and
 * the pass/fail threshold. Pure: the built-in defaults, how a request body is completed from them,
 * and the LqaSettingsDto view of a profile.
 *
 * Codes: the spec gives `code` fields (ToggleableWeightDto, SeverityDto) and ids with minimum 1
 * (LQAReference.errorCategoryId, severityId) but never their values. OpenTMS numbers the
 * severities 1..4 (neutral, minor, major, critical) and the error categories 1..41 in the order
 * the spec's ErrorCategoriesDto and its *WeightsDto definitions list them; a code sent in a request
 * is ignored (the codes are fixed).
 */

/** One error category (or subcategory): `enabled`, `weight` and its fixed `code` (ToggleableWeightDto). */
export interface ToggleableWeight {
  enabled: boolean;
  weight: number;
  code: number;
}

/** One severity: its fixed `code` and penalty points `value` (SeverityDto). */
export interface Severity {
  code: number;
  value: number;
}

export const SEVERITY_NAMES = ['neutral', 'minor', 'major', 'critical'] as const;
export type SeverityName = (typeof SEVERITY_NAMES)[number];

/** The groups of ErrorCategoriesDto, each with its entries; the first entry of a group is the group itself. */
export const ERROR_CATEGORY_GROUPS = {
  accuracy: [
    'accuracy',
    'addition',
    'omission',
    'mistranslation',
    'underTranslation',
    'untranslated',
    'improperTmMatch',
    'overTranslation',
  ],
  fluency: ['fluency', 'punctuation', 'spelling', 'grammar', 'grammaticalRegister', 'inconsistency', 'crossReference', 'characterEncoding'],
  terminology: ['terminology', 'inconsistentWithTb', 'inconsistentUseOfTerminology'],
  style: ['style', 'awkward', 'companyStyle', 'inconsistentStyle', 'thirdPartyStyle', 'unidiomatic'],
  localeConvention: [
    'localeConvention',
    'addressFormat',
    'dateFormat',
    'currencyFormat',
    'measurementFormat',
    'shortcutKey',
    'telephoneFormat',
  ],
  verity: ['verity', 'cultureSpecificReference'],
  design: ['design', 'length', 'localFormatting', 'markup', 'missingText', 'truncation'],
  other: ['other'],
} as const;
export type ErrorCategoryGroup = keyof typeof ERROR_CATEGORY_GROUPS;
export const ERROR_CATEGORY_GROUP_NAMES = Object.keys(ERROR_CATEGORY_GROUPS) as ErrorCategoryGroup[];

/** Display names of the categories (LqaErrorCategoryDto.name): MQM's names. */
const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  accuracy: 'Accuracy',
  addition: 'Addition',
  omission: 'Omission',
  mistranslation: 'Mistranslation',
  underTranslation: 'Under-translation',
  untranslated: 'Untranslated',
  improperTmMatch: 'Improper TM match',
  overTranslation: 'Over-translation',
  fluency: 'Fluency',
  punctuation: 'Punctuation',
  spelling: 'Spelling',
  grammar: 'Grammar',
  grammaticalRegister: 'Grammatical register',
  inconsistency: 'Inconsistency',
  crossReference: 'Cross-reference',
  characterEncoding: 'Character encoding',
  terminology: 'Terminology',
  inconsistentWithTb: 'Inconsistent with termbase',
  inconsistentUseOfTerminology: 'Inconsistent use of terminology',
  style: 'Style',
  awkward: 'Awkward',
  companyStyle: 'Company style',
  inconsistentStyle: 'Inconsistent style',
  thirdPartyStyle: 'Third-party style',
  unidiomatic: 'Unidiomatic',
  localeConvention: 'Locale convention',
  addressFormat: 'Address format',
  dateFormat: 'Date format',
  currencyFormat: 'Currency format',
  measurementFormat: 'Measurement format',
  shortcutKey: 'Shortcut key',
  telephoneFormat: 'Telephone format',
  verity: 'Verity',
  cultureSpecificReference: 'Culture-specific reference',
  design: 'Design',
  length: 'Length',
  localFormatting: 'Local formatting',
  markup: 'Markup',
  missingText: 'Missing text',
  truncation: 'Truncation',
  other: 'Other',
};

export const SEVERITY_DISPLAY_NAMES: Readonly<Record<SeverityName, string>> = {
  neutral: 'Neutral',
  minor: 'Minor',
  major: 'Major',
  critical: 'Critical',
};

/** The fixed code of each category, 1.. in the spec's order (group by group, the group's own entry first). */
export const ERROR_CATEGORY_CODES: ReadonlyMap<string, number> = (() => {
  const codes = new Map<string, number>();
  for (const group of ERROR_CATEGORY_GROUP_NAMES)
    for (const key of ERROR_CATEGORY_GROUPS[group]) codes.set(`${group}.${key}`, codes.size + 1);
  return codes;
})();

/** The fixed codes of the severities: neutral 1, minor 2, major 3, critical 4. */
export const SEVERITY_CODES: Readonly<Record<SeverityName, number>> = { neutral: 1, minor: 2, major: 3, critical: 4 };

/** Penalty points by default (PenaltyPointsDto: "By default neutral is 0, minor is 1, major is 5, critical is 10"). */
export const DEFAULT_PENALTY_POINTS: Readonly<Record<SeverityName, number>> = { neutral: 0, minor: 1, major: 5, critical: 10 };
/** The default weight of every category (ToggleableWeightDto's example). */
export const DEFAULT_WEIGHT = 1;
/** The default pass/fail threshold (PassFailThresholdDto's example: the spec states no default). */
export const DEFAULT_PASS_FAIL_THRESHOLD = 99;

/** Limits of the spec's descriptions: weight 0.1 - 99.9, penalty points 0.0 - 100,000.0; the threshold is a percentage. */
export const WEIGHT_MIN = 0.1;
export const WEIGHT_MAX = 99.9;
export const PENALTY_MIN = 0;
export const PENALTY_MAX = 100_000;
export const THRESHOLD_MIN = 0;
export const THRESHOLD_MAX = 100;

export type ErrorCategories = { [G in ErrorCategoryGroup]: { [K in (typeof ERROR_CATEGORY_GROUPS)[G][number]]: ToggleableWeight } };
export type PenaltyPoints = Record<SeverityName, Severity>;

/** What a profile holds besides its name and bookkeeping. */
export interface LqaProfileDefinition {
  errorCategories: ErrorCategories;
  penaltyPoints: PenaltyPoints;
  passFailThreshold: { minScorePercentage: number };
}

/** A profile as a request gives it: everything optional (ErrorCategoriesDto: "If not provided, defaults will be created"). */
export interface LqaProfileInput {
  errorCategories?: Partial<
    Record<string, Partial<Record<string, Partial<Pick<ToggleableWeight, 'enabled' | 'weight'>> | undefined>> | undefined>
  >;
  penaltyPoints?: Partial<Record<string, Partial<Pick<Severity, 'value'>> | undefined>>;
  passFailThreshold?: { minScorePercentage: number } | undefined;
}

/**
 * Whether a category is on in the built-in defaults: the eight top-level MQM categories are, their
 * subcategories are not (a reviewer picks a group's own entry unless the profile refines it).
 */
function enabledByDefault(group: ErrorCategoryGroup, key: string): boolean {
  return group === key;
}

/** The built-in default values (getLqaProfileDefaultValues; what a new organization's first profile starts from). */
export function defaultLqaDefinition(): LqaProfileDefinition {
  const errorCategories = {} as Record<string, Record<string, ToggleableWeight>>;
  for (const group of ERROR_CATEGORY_GROUP_NAMES) {
    errorCategories[group] = {};
    for (const key of ERROR_CATEGORY_GROUPS[group]) {
      errorCategories[group][key] = {
        enabled: enabledByDefault(group, key),
        weight: DEFAULT_WEIGHT,
        code: ERROR_CATEGORY_CODES.get(`${group}.${key}`)!,
      };
    }
  }
  const penaltyPoints = {} as PenaltyPoints;
  for (const name of SEVERITY_NAMES) penaltyPoints[name] = { code: SEVERITY_CODES[name], value: DEFAULT_PENALTY_POINTS[name] };
  return {
    errorCategories: errorCategories as unknown as ErrorCategories,
    penaltyPoints,
    passFailThreshold: { minScorePercentage: DEFAULT_PASS_FAIL_THRESHOLD },
  };
}

/**
 * The definition a create or update request stands for. A category the request leaves out takes
 * its default (enabled for the eight groups, weight 1); a category it gives is enabled only when
 * it says so (ToggleableWeightDto: "enabled ... default false") and weighs 1 unless it says
 * otherwise. A severity left out, or without `value`, keeps its default points; the threshold left
 * out is 99. Ranges are the request schema's (400 before this runs).
 */
export function completeLqaDefinition(input: LqaProfileInput): LqaProfileDefinition {
  const result = defaultLqaDefinition();
  const categories = result.errorCategories as unknown as Record<string, Record<string, ToggleableWeight>>;
  for (const group of ERROR_CATEGORY_GROUP_NAMES) {
    const given = input.errorCategories?.[group];
    if (!given) continue;
    for (const key of ERROR_CATEGORY_GROUPS[group]) {
      const entry = given[key];
      if (!entry) continue;
      categories[group]![key] = {
        enabled: entry.enabled ?? false,
        weight: entry.weight ?? DEFAULT_WEIGHT,
        code: categories[group]![key]!.code,
      };
    }
  }
  for (const name of SEVERITY_NAMES) {
    const value = input.penaltyPoints?.[name]?.value;
    if (value !== undefined) result.penaltyPoints[name] = { code: SEVERITY_CODES[name], value };
  }
  if (input.passFailThreshold) result.passFailThreshold = { minScorePercentage: input.passFailThreshold.minScorePercentage };
  return result;
}

/**
 * A stored definition read back: the stored values over the defaults, so that a document written
 * before a category existed still reads whole. Anything unreadable reads as the default.
 */
export function readLqaDefinition(json: string): LqaProfileDefinition {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = {};
  }
  const doc = (stored && typeof stored === 'object' ? stored : {}) as Partial<LqaProfileDefinition>;
  const result = defaultLqaDefinition();
  const categories = result.errorCategories as unknown as Record<string, Record<string, ToggleableWeight>>;
  const storedCategories = (doc.errorCategories ?? {}) as unknown as Record<string, Record<string, Partial<ToggleableWeight>> | undefined>;
  for (const group of ERROR_CATEGORY_GROUP_NAMES) {
    for (const key of ERROR_CATEGORY_GROUPS[group]) {
      const entry = storedCategories[group]?.[key];
      const current = categories[group]![key]!;
      if (entry && typeof entry.enabled === 'boolean') current.enabled = entry.enabled;
      if (entry && typeof entry.weight === 'number') current.weight = entry.weight;
    }
  }
  for (const name of SEVERITY_NAMES) {
    const value = doc.penaltyPoints?.[name]?.value;
    if (typeof value === 'number') result.penaltyPoints[name].value = value;
  }
  const threshold = doc.passFailThreshold?.minScorePercentage;
  if (typeof threshold === 'number') result.passFailThreshold.minScorePercentage = threshold;
  return result;
}

/** Spec LqaSeverityDto / LqaErrorCategoryDto / LqaSettingsDto. */
export interface LqaSeverityView {
  severityId: number;
  name: string;
  weight: number;
}
export interface LqaErrorCategoryView {
  errorCategoryId: number;
  name: string;
  enabled: boolean;
  errorCategories: LqaErrorCategoryView[];
}
export interface LqaSettingsView {
  enabled: boolean;
  severities: LqaSeverityView[];
  categories: LqaErrorCategoryView[];
}

/**
 * The LqaSettingsDto of a profile: its severities (the weight is the penalty points, rounded to a
 * whole number since LqaSeverityDto.weight is an integer) and its eight groups, each with its
 * subcategories nested. Without a profile LQA is off: `enabled: false` and empty lists.
 */
export function lqaSettingsOf(definition: LqaProfileDefinition | null): LqaSettingsView {
  if (!definition) return { enabled: false, severities: [], categories: [] };
  const categories = definition.errorCategories as unknown as Record<string, Record<string, ToggleableWeight>>;
  return {
    enabled: true,
    severities: SEVERITY_NAMES.map((name) => ({
      severityId: SEVERITY_CODES[name],
      name: SEVERITY_DISPLAY_NAMES[name],
      weight: Math.round(definition.penaltyPoints[name].value),
    })),
    categories: ERROR_CATEGORY_GROUP_NAMES.map((group) => {
      const [own, ...subs] = ERROR_CATEGORY_GROUPS[group];
      const self = categories[group]![own]!;
      return {
        errorCategoryId: self.code,
        name: DISPLAY_NAMES[own]!,
        enabled: self.enabled,
        errorCategories: subs.map((key) => {
          const sub = categories[group]![key]!;
          return { errorCategoryId: sub.code, name: DISPLAY_NAMES[key]!, enabled: sub.enabled, errorCategories: [] };
        }),
      };
    }),
  };
}

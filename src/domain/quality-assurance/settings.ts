import { errors } from '../../errors/index.js';
import type { ErrorDetail } from '../../errors/index.js';
import { QaRegexpError, compileForbiddenStrings, compileQaRegexpRule } from './checks/strings.js';
import { CHECK_WARNING_TYPES } from './engine.js';
import { CUSTOM_CHECK_NAMES, QA_CHECK_NAMES, WARNING_TYPES } from './types.js';
import type { CustomCheckName, QaCheckName, QaCheckSetting, QaRegexpRule, QaSettings, WarningType } from './types.js';

/**
 * The QA settings document of projects and templates (docs/qa-settings.md): its defaults, how an
 * edit (EditQASettingsDtoV2) changes it, and the views the settings operations answer
 * (QASettingsDtoV2, QualityAssuranceChecksDtoV2, EnabledQualityChecksDto). Pure: no I/O.
 */

// ---------------------------------------------------------------------------------------------
// The checks and their kinds
// ---------------------------------------------------------------------------------------------

/** The discriminator of QACheckDtoV2: what a check carries besides `enabled`, `ignorable`, `instant`. */
export type QaCheckType = 'VOID' | 'NUMBER' | 'STRING' | 'REGEX' | 'MORAVIA';

/** NUMBER checks carry a limit (`value`), the STRING check the forbidden strings, REGEX the rules, MORAVIA a profile. */
export const CHECK_TYPES: Readonly<Record<QaCheckName, QaCheckType>> = Object.fromEntries(
  QA_CHECK_NAMES.map((name) => [
    name,
    name === 'targetLength' || name === 'absoluteTargetLength' || name === 'relativeTargetLength' || name === 'targetLengthPercent'
      ? 'NUMBER'
      : name === 'forbiddenStringsEnabled'
        ? 'STRING'
        : name === 'regexp'
          ? 'REGEX'
          : name === 'moravia'
            ? 'MORAVIA'
            : 'VOID',
  ]),
) as Record<QaCheckName, QaCheckType>;

/**
 * Names an edit accepts for a check besides the published ones: the published edit example names
 * the forbidden strings check `forbiddenStrings` (the settings' own name is `forbiddenStringsEnabled`).
 */
const NAME_ALIASES: Readonly<Record<string, QaCheckName>> = { forbiddenStrings: 'forbiddenStringsEnabled' };

/**
 * `customQa` (a VOID check of the published edit example: Phrase's custom QA providers, reported
 * as CustomQA warnings) switches every OpenTMS custom check (CUSTOM_CHECK_NAMES) at once.
 */
const CUSTOM_QA = 'customQa';

/** Settings that are not checks: they change how a run or the delivery gate behaves and report no warning of their own. */
export const FLAG_NAMES: ReadonlySet<QaCheckName> = new Set<QaCheckName>([
  'strictJobStatus',
  'excludeLockedSegments',
  'ignoreNotApprovedTerms',
  'ignoreInAllWorkflowSteps',
]);

/**
 * The warning types each check reports: the engine's table (engine.ts, CHECK_WARNING_TYPES), so
 * that the settings views list exactly what a run reports. `enabledChecks` lists a running check
 * once per type (QualityAssuranceChecksDtoV2's published example names one per check, and two for
 * inconsistent translations).
 */
export const REPORTED_WARNING_TYPES: Readonly<Record<QaCheckName, readonly WarningType[]>> = CHECK_WARNING_TYPES;
export const CHECKER_TYPES = REPORTED_WARNING_TYPES;

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

/**
 * Checks on in a project or template that never set its QA settings. Phrase documents that every
 * warning may be ignored by default; which checks are on it leaves to each organization's setup,
 * so OpenTMS turns on those that need no parameter and rarely fire on a correct translation
 * (docs/qa-settings.md, "Defaults"). Off: the length checks (they need a limit), forbidden strings
 * (they need the strings), unconfirmed segments, target equal to source, the unmodified fuzzy
 * match checks, regular expressions (no rules), Moravia, and the four flags.
 */
export const DEFAULT_ENABLED: ReadonlySet<QaCheckName> = new Set<QaCheckName>([
  'emptyTarget',
  'endPunctuation',
  'inconsistentTranslation',
  'inconsistentFormatting',
  'newerAtLowerLevel',
  'missingNumber',
  'extraNumbers',
  'repeatedWords',
  'multipleSpaces',
  'leadingAndTrailingSpaces',
  'inconsistentTagContent',
  'emptyTagContent',
  'joinMarksInconsistency',
  'emptyPairTags',
  'nestedTags',
  'malformed',
  'nonConformingTerms',
  'forbiddenTerms',
  'spellCheck',
  'unresolvedComment',
  'targetLengthPerSegment',
]);

/** OpenTMS's own checks on by default: those whose rule holds in every language (quotes and capitalization differ by language). */
export const DEFAULT_CUSTOM_ENABLED: ReadonlySet<CustomCheckName> = new Set<CustomCheckName>([
  'unbalancedBrackets',
  'urlsAndEmails',
  'placeholders',
]);

export function defaultQaSettings(): QaSettings {
  const checks = {} as Record<QaCheckName, QaCheckSetting>;
  for (const name of QA_CHECK_NAMES) {
    const setting: QaCheckSetting = { enabled: DEFAULT_ENABLED.has(name), ignorable: true, instant: false };
    if (CHECK_TYPES[name] === 'NUMBER') setting.value = null;
    if (CHECK_TYPES[name] === 'STRING') setting.value = '';
    checks[name] = setting;
  }
  const customChecks = {} as QaSettings['customChecks'];
  for (const name of CUSTOM_CHECK_NAMES) customChecks[name] = { enabled: DEFAULT_CUSTOM_ENABLED.has(name), ignorable: true };
  return { checks, regexpRules: [], moraviaProfile: null, customChecks, inconsistencyScope: 'JOB' };
}

// ---------------------------------------------------------------------------------------------
// The stored document
// ---------------------------------------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonNegative = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * A stored document (whatever an older version wrote) over the defaults, field by field: a value
 * of the right type replaces the default, anything else leaves it. Rules without an id or with no
 * expression are dropped (an edit never stores one).
 */
export function qaSettingsDocument(stored: unknown): QaSettings {
  const result = defaultQaSettings();
  if (!isObject(stored)) return result;
  const checks = isObject(stored.checks) ? stored.checks : {};
  for (const name of QA_CHECK_NAMES) {
    const from = checks[name];
    if (!isObject(from)) continue;
    const setting = result.checks[name];
    for (const flag of ['enabled', 'ignorable', 'instant'] as const) if (typeof from[flag] === 'boolean') setting[flag] = from[flag];
    if (CHECK_TYPES[name] === 'NUMBER' && (isNonNegative(from.value) || from.value === null)) setting.value = from.value;
    if (CHECK_TYPES[name] === 'STRING' && typeof from.value === 'string') setting.value = from.value;
  }
  if (Array.isArray(stored.regexpRules)) {
    result.regexpRules = stored.regexpRules.filter(isObject).flatMap((rule): QaRegexpRule[] => {
      const side = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
      const sourceRegexp = side(rule.sourceRegexp);
      const targetRegexp = side(rule.targetRegexp);
      if (typeof rule.id !== 'string' || (sourceRegexp === null && targetRegexp === null)) return [];
      return [
        {
          id: rule.id,
          description: typeof rule.description === 'string' ? rule.description : '',
          sourceRegexp,
          targetRegexp,
          ignorable: typeof rule.ignorable === 'boolean' ? rule.ignorable : true,
          instant: typeof rule.instant === 'boolean' ? rule.instant : false,
        },
      ];
    });
  }
  if (typeof stored.moraviaProfile === 'string') result.moraviaProfile = stored.moraviaProfile;
  const custom = isObject(stored.customChecks) ? stored.customChecks : {};
  for (const name of CUSTOM_CHECK_NAMES) {
    const from = custom[name];
    if (!isObject(from)) continue;
    for (const flag of ['enabled', 'ignorable'] as const) if (typeof from[flag] === 'boolean') result.customChecks[name][flag] = from[flag];
  }
  if (stored.inconsistencyScope === 'JOB' || stored.inconsistencyScope === 'PROJECT') result.inconsistencyScope = stored.inconsistencyScope;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Edits
// ---------------------------------------------------------------------------------------------

/** At most this many regular expression rules (each is tried on every segment of a run). */
export const MAX_REGEXP_RULES = 500;

/** Compiles a rule as a run does; throws QaRegexpError naming the side that does not compile. */
export type RuleCompiler = (rule: QaRegexpRule) => unknown;

export interface QaEditOptions {
  /** The `customChecks` extension field of the body: `[{name, enabled?, ignorable?}]`. */
  customChecks?: unknown;
  /** The `inconsistencyScope` extension field of the body: `JOB` or `PROJECT`. */
  inconsistencyScope?: unknown;
  /** A new rule id (a uid); default `crypto.randomUUID()`. */
  newId?: () => string;
  /** Compiles a rule, as a run will (default: compileQaRegexpRule of checks/strings.ts). */
  compile?: RuleCompiler;
}

const refuse = (field: string, message: string, reason?: string): never => {
  const details: ErrorDetail[] = [{ field, message }];
  throw errors.InvalidArguments({ reason: reason ?? `${field}: ${message}.`, details });
};

/** A boolean field: absent or null keeps `current`. */
function flag(item: Record<string, unknown>, key: string, path: string, current: boolean): boolean {
  const value = item[key];
  if (value === undefined || value === null) return current;
  if (typeof value !== 'boolean') refuse(`${path}.${key}`, 'must be a boolean');
  return value as boolean;
}

const NUMERIC_TEXT = /^\s*\d+(?:\.\d+)?\s*$/;

/** A NUMBER check's value: a non-negative number, or the same as text ("12"), as real clients send it. */
function numberValue(value: unknown, path: string): number {
  const number = typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return refuse(`${path}.value`, 'must be a number');
  if (number < 0) refuse(`${path}.value`, 'must not be negative');
  return number;
}

/** 400 naming the rule's side (or the rule) when it does not compile as a run compiles it. */
function assertCompiles(rule: QaRegexpRule, at: string, compile: RuleCompiler): void {
  try {
    compile(rule);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const field = error instanceof QaRegexpError ? `${at}.${error.side}` : at;
    const why = error instanceof QaRegexpError ? error.reason : error.message;
    refuse(field, `does not compile: ${why}`, `${field} is not a valid regular expression: ${why}`);
  }
}

function editRules(
  rules: unknown,
  path: string,
  current: readonly QaRegexpRule[],
  newId: () => string,
  compile: RuleCompiler,
): QaRegexpRule[] {
  if (!Array.isArray(rules)) return refuse(`${path}.rules`, 'must be an array of rules');
  if (rules.length > MAX_REGEXP_RULES) refuse(`${path}.rules`, `at most ${MAX_REGEXP_RULES} rules`);
  const byId = new Map(current.map((rule) => [rule.id, rule]));
  const ids = new Set<string>();
  return rules.map((rule, j): QaRegexpRule => {
    const at = `${path}.rules[${j}]`;
    if (!isObject(rule)) return refuse(at, 'must be an object');
    const text = (key: string): string | null => {
      const value = rule[key];
      if (value === undefined || value === null || value === '') return null;
      if (typeof value !== 'string') return refuse(`${at}.${key}`, 'must be a string');
      return value;
    };
    const id = text('id');
    if (id !== null && ids.has(id)) refuse(`${at}.id`, 'repeated');
    const sourceRegexp = text('sourceRegexp');
    const targetRegexp = text('targetRegexp');
    if (sourceRegexp === null && targetRegexp === null)
      refuse(at, 'needs sourceRegexp or targetRegexp', `${at} needs sourceRegexp or targetRegexp (or both).`);
    const before = id === null ? undefined : byId.get(id);
    const made: QaRegexpRule = {
      id: id ?? newId(),
      description: text('description') ?? '',
      sourceRegexp,
      targetRegexp,
      ignorable: flag(rule, 'ignorable', at, before?.ignorable ?? true),
      instant: flag(rule, 'instant', at, before?.instant ?? false),
    };
    assertCompiles(made, at, compile);
    ids.add(made.id);
    return made;
  });
}

/** The name of a check of the body, resolved (aliases), or CUSTOM_QA. */
function checkName(item: Record<string, unknown>, path: string): QaCheckName | typeof CUSTOM_QA {
  const name = item.name;
  if (typeof name !== 'string') return refuse(`${path}.name`, 'required: the name of a check');
  if (name === CUSTOM_QA) return CUSTOM_QA;
  const resolved = Object.hasOwn(NAME_ALIASES, name) ? NAME_ALIASES[name]! : name;
  if (!(QA_CHECK_NAMES as readonly string[]).includes(resolved))
    refuse(`${path}.name`, `unknown check "${name}"`, `${path}.name: unknown check "${name}".`);
  return resolved as QaCheckName;
}

/**
 * The settings after an edit (EditQASettingsDtoV2 and OpenTMS's extension fields): each listed
 * check changes the fields it gives; checks not listed, and fields a check leaves out (or sends
 * as null), keep their values ("Only checks listed in the request are updated; omitted checks
 * keep their current settings", Phrase's documentation of the edit). A REGEX check's `rules`
 * replaces the rule list. Anything invalid is a 400 InvalidArguments naming the check by its index
 * (`checks[3].value`), and `base` is never changed.
 */
export function applyQaChecks(base: QaSettings, checks: readonly unknown[], options: QaEditOptions = {}): QaSettings {
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  const compile = options.compile ?? compileQaRegexpRule;
  const result: QaSettings = structuredClone(base);
  checks.forEach((item, i) => {
    const path = `checks[${i}]`;
    if (!isObject(item)) return refuse(path, 'must be an object');
    const name = checkName(item, path);
    const expected = name === CUSTOM_QA ? 'VOID' : CHECK_TYPES[name];
    if (item.type !== undefined && item.type !== null && item.type !== expected)
      refuse(`${path}.type`, `must be ${expected} for ${String(item.name)}`, `${path}.type: ${String(item.name)} is a ${expected} check.`);
    if (name === CUSTOM_QA) {
      for (const custom of CUSTOM_CHECK_NAMES) {
        const setting = result.customChecks[custom];
        result.customChecks[custom] = {
          enabled: flag(item, 'enabled', path, setting.enabled),
          ignorable: flag(item, 'ignorable', path, setting.ignorable),
        };
      }
      return;
    }
    const setting = result.checks[name];
    const next: QaCheckSetting = {
      ...setting,
      enabled: flag(item, 'enabled', path, setting.enabled),
      ignorable: flag(item, 'ignorable', path, setting.ignorable),
      instant: flag(item, 'instant', path, setting.instant),
    };
    const value = item.value;
    switch (expected) {
      case 'NUMBER':
        if (value !== undefined && value !== null) next.value = numberValue(value, path);
        if (next.enabled && (next.value === undefined || next.value === null))
          refuse(`${path}.value`, 'required when the check is enabled', `${path}: ${name} needs a value (a limit) when it is enabled.`);
        break;
      case 'STRING':
        if (value !== undefined && value !== null) {
          if (typeof value !== 'string') refuse(`${path}.value`, 'must be a string');
          next.value = value as string;
        }
        break;
      case 'REGEX':
        if (item.rules !== undefined && item.rules !== null) {
          result.regexpRules = editRules(item.rules, path, result.regexpRules, newId, compile);
          // The rules switch the check on or off unless the edit says which.
          if (item.enabled === undefined || item.enabled === null) next.enabled = result.regexpRules.length > 0;
        }
        break;
      case 'MORAVIA':
        if (item.profile !== undefined && item.profile !== null) {
          if (typeof item.profile !== 'string') refuse(`${path}.profile`, 'must be a string');
          result.moraviaProfile = item.profile === '' ? null : (item.profile as string);
        }
        break;
      default:
        break;
    }
    result.checks[name] = next;
  });
  if (options.customChecks !== undefined && options.customChecks !== null) applyCustomChecks(result, options.customChecks);
  if (options.inconsistencyScope !== undefined && options.inconsistencyScope !== null) {
    const scope = options.inconsistencyScope;
    if (scope !== 'JOB' && scope !== 'PROJECT') refuse('inconsistencyScope', 'must be JOB or PROJECT');
    result.inconsistencyScope = scope as 'JOB' | 'PROJECT';
  }
  return result;
}

/** The `customChecks` extension field: `[{name, enabled?, ignorable?}]`, merged by name like `checks`. */
function applyCustomChecks(result: QaSettings, list: unknown): void {
  if (!Array.isArray(list)) return refuse('customChecks', 'must be an array of {name, enabled, ignorable}');
  list.forEach((item, i) => {
    const path = `customChecks[${i}]`;
    if (!isObject(item)) return refuse(path, 'must be an object');
    const name = item.name;
    if (typeof name !== 'string' || !(CUSTOM_CHECK_NAMES as readonly string[]).includes(name))
      return refuse(`${path}.name`, `must be one of ${CUSTOM_CHECK_NAMES.join(', ')}`);
    const setting = result.customChecks[name as CustomCheckName];
    result.customChecks[name as CustomCheckName] = {
      enabled: flag(item, 'enabled', path, setting.enabled),
      ignorable: flag(item, 'ignorable', path, setting.ignorable),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

/** RegexpCheckRuleDtoV2; an absent side is left out. */
export interface RegexpRuleView {
  id: string;
  description: string;
  sourceRegexp?: string;
  targetRegexp?: string;
  ignorable: boolean;
  instant: boolean;
}

export const regexpRuleView = (rule: QaRegexpRule): RegexpRuleView => ({
  id: rule.id,
  description: rule.description,
  ...(rule.sourceRegexp === null ? {} : { sourceRegexp: rule.sourceRegexp }),
  ...(rule.targetRegexp === null ? {} : { targetRegexp: rule.targetRegexp }),
  ignorable: rule.ignorable,
  instant: rule.instant,
});

/** One QACheckDtoV2 of the GET shape. */
export interface QaCheckView {
  type: QaCheckType;
  name: QaCheckName;
  enabled: boolean;
  ignorable?: boolean;
  instant?: boolean;
  value?: number | string;
  profile?: string;
  rules?: RegexpRuleView[];
}

/**
 * The `checks` of QASettingsDtoV2, one per name in the published order: VOID checks with
 * `enabled`, `ignorable`, `instant`; NUMBER ones with their `value` when set; the STRING one with
 * its text; MORAVIA with its `profile` when set; REGEX with `enabled` and its `rules`.
 */
export function qaChecksView(settings: QaSettings): QaCheckView[] {
  return QA_CHECK_NAMES.map((name): QaCheckView => {
    const setting = settings.checks[name];
    const type = CHECK_TYPES[name];
    if (type === 'REGEX') return { type, name, enabled: setting.enabled, rules: settings.regexpRules.map(regexpRuleView) };
    const view: QaCheckView = { type, name, enabled: setting.enabled, ignorable: setting.ignorable, instant: setting.instant };
    if (type === 'NUMBER' && typeof setting.value === 'number') view.value = setting.value;
    if (type === 'STRING') view.value = typeof setting.value === 'string' ? setting.value : '';
    if (type === 'MORAVIA' && settings.moraviaProfile !== null) view.profile = settings.moraviaProfile;
    return view;
  });
}

/** The `customChecks` extension field of QASettingsDtoV2. */
export const customChecksView = (settings: QaSettings) =>
  CUSTOM_CHECK_NAMES.map((name) => ({
    name,
    enabled: settings.customChecks[name].enabled,
    ignorable: settings.customChecks[name].ignorable,
  }));

/** QASettingsDtoV2 with OpenTMS's extension fields. */
export const qaSettingsView = (settings: QaSettings) => ({
  checks: qaChecksView(settings),
  customChecks: customChecksView(settings),
  inconsistencyScope: settings.inconsistencyScope,
});

/** The forbidden strings of the STRING check, as a run reads them (comma-separated, trimmed, empty ones and repeats left out). */
export const forbiddenStrings = (settings: QaSettings): string[] =>
  compileForbiddenStrings(settings.checks.forbiddenStringsEnabled.value).map((s) => s.text);

/** Whether a check runs: on, and for the ones that need a parameter, given one. */
export function checkRuns(settings: QaSettings, name: QaCheckName): boolean {
  const setting = settings.checks[name];
  if (!setting.enabled || FLAG_NAMES.has(name)) return false;
  switch (CHECK_TYPES[name]) {
    case 'NUMBER':
      // As the engine reads a limit: 0 (or none) is no limit.
      return typeof setting.value === 'number' && setting.value > 0;
    case 'STRING':
      return forbiddenStrings(settings).length > 0;
    case 'REGEX':
      return settings.regexpRules.length > 0;
    default:
      return true;
  }
}

/** EnabledCheckDtoV2 (with the `ignorable` and `instant` the published example shows). */
export interface EnabledCheckView {
  checkerType: WarningType;
  ignorable: boolean;
  instant: boolean;
  context?: { moraviaProfileId?: string; customQaDisplayName?: string; provider?: string };
}

/**
 * QualityAssuranceChecksDtoV2: the checks that run, each under its checker types (CHECKER_TYPES;
 * a type two running checks share is listed once, ignorable only when both are),
 * OpenTMS's custom checks as `CustomQA` with the check's name as `customQaDisplayName` (the
 * `subType` of its warnings); the forbidden strings and regular expression rules when their checks
 * run; the flags. `userCanSetInstantQA` is the project's access setting `userMaySetInstantQA`.
 */
export function enabledChecksView(settings: QaSettings, userCanSetInstantQA = true) {
  const enabledChecks: EnabledCheckView[] = [];
  const byType = new Map<WarningType, EnabledCheckView>();
  for (const name of QA_CHECK_NAMES) {
    if (!checkRuns(settings, name)) continue;
    const { ignorable, instant } = settings.checks[name];
    for (const checkerType of CHECKER_TYPES[name]) {
      // Two checks of one type (targetLength and absoluteTargetLength): listed once, ignorable only when both are.
      const listed = byType.get(checkerType);
      if (listed) {
        listed.ignorable &&= ignorable;
        listed.instant ||= instant;
        continue;
      }
      const check: EnabledCheckView = { checkerType, ignorable, instant };
      if (name === 'moravia' && settings.moraviaProfile !== null) check.context = { moraviaProfileId: settings.moraviaProfile };
      byType.set(checkerType, check);
      enabledChecks.push(check);
    }
  }
  for (const name of CUSTOM_CHECK_NAMES) {
    const custom = settings.customChecks[name];
    if (custom.enabled)
      enabledChecks.push({
        checkerType: 'CustomQA',
        ignorable: custom.ignorable,
        instant: false,
        context: { customQaDisplayName: name, provider: 'OpenTMS' },
      });
  }
  return {
    forbiddenStrings: checkRuns(settings, 'forbiddenStringsEnabled') ? forbiddenStrings(settings) : [],
    enabledChecks,
    excludeLockedSegments: settings.checks.excludeLockedSegments.enabled,
    userCanSetInstantQA,
    strictJobStatus: settings.checks.strictJobStatus.enabled,
    regexpRules: checkRuns(settings, 'regexp') ? settings.regexpRules.map(regexpRuleView) : [],
  };
}

/**
 * EnabledQualityChecksDto: every warning type the running checks may report
 * (REPORTED_WARNING_TYPES), once each, in the order of WARNING_TYPES' published enum; `CustomQA`
 * when one of OpenTMS's custom checks is on.
 */
export function enabledWarningTypes(settings: QaSettings): WarningType[] {
  const types = new Set<WarningType>();
  for (const name of QA_CHECK_NAMES) if (checkRuns(settings, name)) for (const type of REPORTED_WARNING_TYPES[name]) types.add(type);
  if (CUSTOM_CHECK_NAMES.some((name) => settings.customChecks[name].enabled)) types.add('CustomQA');
  return WARNING_TYPES.filter((type) => types.has(type));
}

/**
 * The shared model of quality assurance (docs/quality-assurance.md): the names of the settings'
 * checks (QACheckDtoV2.name), the warning types a run reports (the v3 `warningTypes` enum), the
 * settings a run is given, the segments it reads and the warnings it returns. Pure data: the
 * checks (checks/), the engine (engine.ts), the settings documents (settings.ts) and the HTTP
 * modules all speak it.
 */

/** The checks of the QA settings document, as the published QACheckDtoV2 names them. */
export const QA_CHECK_NAMES = [
  'emptyTarget',
  'inconsistentTranslation',
  'joinMarksInconsistency',
  'missingNumber',
  'segmentNotConfirmed',
  'nonConformingTerms',
  'multipleSpaces',
  'endPunctuation',
  'targetLength',
  'absoluteTargetLength',
  'relativeTargetLength',
  'inconsistentFormatting',
  'unresolvedComment',
  'emptyPairTags',
  'strictJobStatus',
  'forbiddenStringsEnabled',
  'excludeLockedSegments',
  'ignoreNotApprovedTerms',
  'spellCheck',
  'repeatedWords',
  'inconsistentTagContent',
  'emptyTagContent',
  'malformed',
  'forbiddenTerms',
  'targetLengthPercent',
  'targetLengthPerSegment',
  'newerAtLowerLevel',
  'leadingAndTrailingSpaces',
  'targetSourceIdentical',
  'ignoreInAllWorkflowSteps',
  'regexp',
  'unmodifiedFuzzyTranslation',
  'unmodifiedFuzzyTranslationTM',
  'unmodifiedFuzzyTranslationMTNT',
  'moravia',
  'extraNumbers',
  'nestedTags',
] as const;
export type QaCheckName = (typeof QA_CHECK_NAMES)[number];

/** The kinds of warning a run reports (the v3 `warningTypes` enum, also `segmentWarning.type`). */
export const WARNING_TYPES = [
  'EmptyTranslation',
  'TrailingPunctuation',
  'Formatting',
  'JoinTags',
  'MissingNumbersV3',
  'MultipleSpacesV3',
  'NonConformingTerm',
  'NotConfirmed',
  'TranslationLength',
  'AbsoluteLength',
  'RelativeLength',
  'UnresolvedComment',
  'EmptyPairTags',
  'InconsistentTranslationTargetSource',
  'InconsistentTranslationSourceTarget',
  'ForbiddenString',
  'SpellCheck',
  'RepeatedWord',
  'InconsistentTagContent',
  'EmptyTagContent',
  'Malformed',
  'ForbiddenTerm',
  'NewerAtLowerLevel',
  'LeadingAndTrailingSpaces',
  'LeadingSpaces',
  'TrailingSpaces',
  'TargetSourceIdentical',
  'SourceOrTargetRegexp',
  'UnmodifiedFuzzyTranslation',
  'UnmodifiedFuzzyTranslationTM',
  'UnmodifiedFuzzyTranslationMTNT',
  'Moravia',
  'ExtraNumbersV3',
  'UnresolvedConversation',
  'NestedTags',
  'FuzzyInconsistencyTargetSource',
  'FuzzyInconsistencySourceTarget',
  'CustomQA',
  'MissingNonTranslatableAnnotation',
] as const;
export type WarningType = (typeof WARNING_TYPES)[number];

/**
 * OpenTMS's own checks beyond Phrase's list (issue 19), reported as `CustomQA` warnings whose
 * `subType` is the name. They are switched on in the settings' `customChecks` extension field.
 */
export const CUSTOM_CHECK_NAMES = ['unbalancedBrackets', 'unbalancedQuotes', 'capitalization', 'urlsAndEmails', 'placeholders'] as const;
export type CustomCheckName = (typeof CUSTOM_CHECK_NAMES)[number];

/** One check of the settings, as stored. `value` only for the NUMBER and STRING checks. */
export interface QaCheckSetting {
  enabled: boolean;
  ignorable: boolean;
  instant: boolean;
  /** NUMBER checks: the limit (characters, or a percentage); STRING checks: the text (forbidden strings, comma-separated). */
  value?: number | string | null;
}

/** A `regexp` rule (RegexpCheckRuleDtoV2): Java regular expressions, either side may be absent. */
export interface QaRegexpRule {
  id: string;
  description: string;
  sourceRegexp: string | null;
  targetRegexp: string | null;
  ignorable: boolean;
  instant: boolean;
}

/** The QA settings of a project or template, complete (every name present). */
export interface QaSettings {
  checks: Record<QaCheckName, QaCheckSetting>;
  regexpRules: QaRegexpRule[];
  /** The Moravia profile name, kept and shown back; OpenTMS has no Moravia checker (docs/quality-assurance.md). */
  moraviaProfile: string | null;
  /** Extension: OpenTMS's own checks (CUSTOM_CHECK_NAMES) and whether each is on and ignorable. */
  customChecks: Record<CustomCheckName, { enabled: boolean; ignorable: boolean }>;
  /** Extension: inconsistent translations are looked for in the job (default) or across the project's jobs of the same target language. */
  inconsistencyScope: 'JOB' | 'PROJECT';
}

/** A term of the job's term bases found in a segment's source (or, for forbidden terms, target). */
export interface QaTermHit {
  /** The source term as found, and where (code units of the source). */
  sourceTerm: string;
  /** Target-language terms of the same concept that the target should use. */
  targetTerms: { text: string; preferred: boolean; approved: boolean }[];
}

/** A forbidden target-language term found in the target. */
export interface QaForbiddenTermHit {
  term: string;
  beginIndex: number;
  endIndex: number;
  sourceTerms: { text: string; preferred: boolean }[];
}

/** One segment as a run reads it. Texts carry inline tags as display tokens ({1>, <1}, {1}). */
export interface QaSegment {
  /** The segment's wire id. */
  id: string;
  source: string;
  target: string;
  confirmed: boolean;
  locked: boolean;
  /** The file's length limit for the unit (targetLengthPerSegment), if any. */
  maxLength: number | null;
  /** Where the target came from when pre-translation or MT filled it and no person has changed it since: 'tm', 'mt', 'nt'; null otherwise. */
  unmodifiedOrigin: 'tm' | 'mt' | 'nt' | null;
  /** The score of that origin, 0..1.01 (TM); null otherwise. */
  unmodifiedOriginScore: number | null;
  /** True when the same segment was changed at an earlier workflow level after it was last changed at this one. */
  newerAtLowerLevel: boolean;
  /** Terms of the job's term bases found in the source, and forbidden terms found in the target. */
  terms?: QaTermHit[];
  forbiddenTerms?: QaForbiddenTermHit[];
}

/** Beginning and end (exclusive) in code units of the target (or source, for `srcPosition`). */
export interface QaPosition {
  beginIndex: number;
  endIndex: number;
}

/**
 * One warning of a segment. `details` are the published subtype's own fields (for example
 * `number` and `positions` of MissingNumbersV3WarningDto). `key` tells warnings of the same type
 * on the same segment apart (the number, the word, the rule id); with the segment's target it makes
 * the warning's id, so an ignored warning stays ignored until the target changes.
 */
export interface QaWarning {
  type: WarningType;
  key: string;
  ignorable: boolean;
  details: Record<string, unknown>;
}

/** A word list that answers whether a word is spelled right in one language. */
export interface QaSpeller {
  /** Misspelled words of `text`, each with its offset in code units; tags, placeholders, URLs and numbers are never reported. */
  misspelled(text: string): { word: string; offset: number }[];
}

/** What a run knows beyond the segments. */
export interface QaContext {
  sourceLang: string;
  targetLang: string;
  /** null when the target language has no dictionary: spelling is then reported unchecked, never clean. */
  speller: QaSpeller | null;
  /**
   * Segments outside the run that inconsistency checks compare with (the rest of the job, or of the
   * project's jobs of the same target language): source and target only.
   */
  otherSegments?: { id: string; source: string; target: string }[];
}

/**
 * The QA engine (docs/quality-assurance.md): runs the enabled checks of the settings over segments
 * and returns their warnings. Pure: no I/O, no clock; the caller loads the segments, the term hits,
 * the other segments for the inconsistency check and the speller, and stores the result.
 *
 * Cost: one pass over the segments, each check linear in the segment's text; the inconsistency
 * check indexes the texts in hash maps first (linear too). Expressions (forbidden strings, regexp
 * rules) are compiled once per run; disabled checks are not visited at all.
 */
import { checkBrackets, checkCapitalization, checkPlaceholders, checkQuotes, checkUrlsAndEmails } from './checks/custom.js';
import { inconsistencyIndex } from './checks/inconsistency.js';
import { checkNumbers } from './checks/numbers.js';
import { checkEndPunctuation } from './checks/punctuation.js';
import {
  checkAbsoluteTargetLength,
  checkEmptyTarget,
  checkNewerAtLowerLevel,
  checkNotConfirmed,
  checkRelativeTargetLength,
  checkTargetLength,
  checkTargetLengthPerSegment,
  checkTargetLengthPercent,
  checkTargetSourceIdentical,
  checkUnmodifiedFuzzy,
  checkUnmodifiedFuzzyMtNt,
  checkUnmodifiedFuzzyTm,
  lengthLimit,
} from './checks/segment.js';
import { checkSpelling } from './checks/spelling.js';
import type { CompiledQaRegexpRule, ForbiddenString } from './checks/strings.js';
import { checkForbiddenStrings, checkRegexpRule, compileForbiddenStrings, compileQaRegexpRule } from './checks/strings.js';
import { checkFormatting, checkJoinTags, checkMalformed, checkNestedTags, checkTagContent } from './checks/tags.js';
import { checkForbiddenTerms, checkNonConformingTerms } from './checks/terms.js';
import { checkLeadingAndTrailingSpaces, checkMultipleSpaces } from './checks/whitespace.js';
import { checkRepeatedWords } from './checks/words.js';
import { QaText, textHasContent } from './text.js';
import type { CustomCheckName, QaCheckName, QaContext, QaSegment, QaSettings, QaWarning, WarningType } from './types.js';

export { compileQaRegexpRule, QaRegexpError } from './checks/strings.js';
export type { CompiledQaRegexpRule } from './checks/strings.js';

/**
 * The warning types each setting's check reports. Modifiers (excludeLockedSegments,
 * ignoreNotApprovedTerms, strictJobStatus, ignoreInAllWorkflowSteps) report none, and neither do
 * unresolvedComment (no segment comments exist yet) and moravia (no Moravia checker).
 */
export const CHECK_WARNING_TYPES: Readonly<Record<QaCheckName, readonly WarningType[]>> = {
  emptyTarget: ['EmptyTranslation'],
  inconsistentTranslation: ['InconsistentTranslationSourceTarget', 'InconsistentTranslationTargetSource'],
  joinMarksInconsistency: ['JoinTags'],
  missingNumber: ['MissingNumbersV3'],
  segmentNotConfirmed: ['NotConfirmed'],
  nonConformingTerms: ['NonConformingTerm'],
  multipleSpaces: ['MultipleSpacesV3'],
  endPunctuation: ['TrailingPunctuation'],
  targetLength: ['AbsoluteLength'],
  absoluteTargetLength: ['AbsoluteLength'],
  relativeTargetLength: ['RelativeLength'],
  inconsistentFormatting: ['Formatting'],
  unresolvedComment: ['UnresolvedComment'],
  emptyPairTags: ['EmptyPairTags'],
  strictJobStatus: [],
  forbiddenStringsEnabled: ['ForbiddenString'],
  excludeLockedSegments: [],
  ignoreNotApprovedTerms: [],
  spellCheck: ['SpellCheck'],
  repeatedWords: ['RepeatedWord'],
  inconsistentTagContent: ['InconsistentTagContent'],
  emptyTagContent: ['EmptyTagContent'],
  malformed: ['Malformed'],
  forbiddenTerms: ['ForbiddenTerm'],
  targetLengthPercent: ['RelativeLength'],
  targetLengthPerSegment: ['TranslationLength'],
  newerAtLowerLevel: ['NewerAtLowerLevel'],
  leadingAndTrailingSpaces: ['LeadingAndTrailingSpaces'],
  targetSourceIdentical: ['TargetSourceIdentical'],
  ignoreInAllWorkflowSteps: [],
  regexp: ['SourceOrTargetRegexp'],
  unmodifiedFuzzyTranslation: ['UnmodifiedFuzzyTranslation'],
  unmodifiedFuzzyTranslationTM: ['UnmodifiedFuzzyTranslationTM'],
  unmodifiedFuzzyTranslationMTNT: ['UnmodifiedFuzzyTranslationMTNT'],
  moravia: ['Moravia'],
  extraNumbers: ['ExtraNumbersV3'],
  nestedTags: ['NestedTags'],
};

export interface QaRunOptions {
  /**
   * Only checks reporting one of these types run (the v3 run's `warningTypes`). LeadingSpaces and
   * TrailingSpaces (the older split) select leadingAndTrailingSpaces.
   */
  only?: ReadonlySet<WarningType>;
}

export interface QaRunResult {
  /** Warnings per segment id, for the segments that have any (in the order of the run's segments). */
  warnings: Map<string, QaWarning[]>;
  /** True when spelling was to be checked and the target language has no speller: unchecked, not clean. */
  spellingUnchecked: boolean;
  /** Segments the checks looked at (locked ones are skipped under excludeLockedSegments). */
  segmentsChecked: number;
  /** Locked segments skipped under excludeLockedSegments. */
  lockedSkipped: number;
}

/** An ignorable flag per active check, null for a check that does not run. */
type Flag = boolean | null;

interface Plan {
  emptyTarget: Flag;
  targetSourceIdentical: Flag;
  leadingAndTrailingSpaces: Flag;
  multipleSpaces: Flag;
  endPunctuation: Flag;
  repeatedWords: Flag;
  missingNumber: Flag;
  extraNumbers: Flag;
  joinTags: Flag;
  nestedTags: Flag;
  emptyPairTags: Flag;
  malformed: Flag;
  formatting: Flag;
  inconsistentTagContent: Flag;
  emptyTagContent: Flag;
  targetLength: { limit: number; ignorable: boolean } | null;
  absoluteTargetLength: { limit: number; ignorable: boolean } | null;
  targetLengthPercent: { limit: number; ignorable: boolean } | null;
  relativeTargetLength: { limit: number; ignorable: boolean } | null;
  targetLengthPerSegment: Flag;
  notConfirmed: Flag;
  forbiddenStrings: { strings: ForbiddenString[]; ignorable: boolean } | null;
  regexpRules: CompiledQaRegexpRule[];
  inconsistent: Flag;
  nonConformingTerms: Flag;
  forbiddenTerms: Flag;
  spelling: Flag;
  unmodifiedFuzzy: Flag;
  unmodifiedFuzzyTm: Flag;
  unmodifiedFuzzyMtNt: Flag;
  newerAtLowerLevel: Flag;
  brackets: Flag;
  quotes: Flag;
  capitalization: Flag;
  urlsAndEmails: Flag;
  placeholders: Flag;
  /** Any check that reads the text (all but the segment-state ones). */
  content: boolean;
}

function planOf(settings: QaSettings, only: ReadonlySet<WarningType> | undefined): Plan {
  // The older split types select the check that reports LeadingAndTrailingSpaces.
  const asksForSpaces = only !== undefined && (only.has('LeadingSpaces') || only.has('TrailingSpaces'));
  const flag = (name: QaCheckName): Flag => {
    const check = settings.checks[name];
    if (!check?.enabled) return null;
    if (only && !CHECK_WARNING_TYPES[name].some((type) => only.has(type)) && !(name === 'leadingAndTrailingSpaces' && asksForSpaces))
      return null;
    return check.ignorable;
  };
  const limited = (name: QaCheckName): { limit: number; ignorable: boolean } | null => {
    const ignorable = flag(name);
    const limit = lengthLimit(settings.checks[name]?.value);
    return ignorable === null || limit === null ? null : { limit, ignorable };
  };
  const customFlag = (name: CustomCheckName): Flag => {
    const check = settings.customChecks?.[name];
    if (!check?.enabled || (only && !only.has('CustomQA'))) return null;
    return check.ignorable;
  };
  const forbiddenIgnorable = flag('forbiddenStringsEnabled');
  const forbiddenStrings = forbiddenIgnorable === null ? [] : compileForbiddenStrings(settings.checks.forbiddenStringsEnabled.value);
  const plan: Plan = {
    emptyTarget: flag('emptyTarget'),
    targetSourceIdentical: flag('targetSourceIdentical'),
    leadingAndTrailingSpaces: flag('leadingAndTrailingSpaces'),
    multipleSpaces: flag('multipleSpaces'),
    endPunctuation: flag('endPunctuation'),
    repeatedWords: flag('repeatedWords'),
    missingNumber: flag('missingNumber'),
    extraNumbers: flag('extraNumbers'),
    joinTags: flag('joinMarksInconsistency'),
    nestedTags: flag('nestedTags'),
    emptyPairTags: flag('emptyPairTags'),
    malformed: flag('malformed'),
    formatting: flag('inconsistentFormatting'),
    inconsistentTagContent: flag('inconsistentTagContent'),
    emptyTagContent: flag('emptyTagContent'),
    targetLength: limited('targetLength'),
    absoluteTargetLength: limited('absoluteTargetLength'),
    targetLengthPercent: limited('targetLengthPercent'),
    relativeTargetLength: limited('relativeTargetLength'),
    targetLengthPerSegment: flag('targetLengthPerSegment'),
    notConfirmed: flag('segmentNotConfirmed'),
    forbiddenStrings:
      forbiddenIgnorable === null || forbiddenStrings.length === 0 ? null : { strings: forbiddenStrings, ignorable: forbiddenIgnorable },
    regexpRules: flag('regexp') === null ? [] : settings.regexpRules.map(compileQaRegexpRule).filter((rule) => rule.source || rule.target),
    inconsistent: flag('inconsistentTranslation'),
    nonConformingTerms: flag('nonConformingTerms'),
    forbiddenTerms: flag('forbiddenTerms'),
    spelling: flag('spellCheck'),
    unmodifiedFuzzy: flag('unmodifiedFuzzyTranslation'),
    unmodifiedFuzzyTm: flag('unmodifiedFuzzyTranslationTM'),
    unmodifiedFuzzyMtNt: flag('unmodifiedFuzzyTranslationMTNT'),
    newerAtLowerLevel: flag('newerAtLowerLevel'),
    brackets: customFlag('unbalancedBrackets'),
    quotes: customFlag('unbalancedQuotes'),
    capitalization: customFlag('capitalization'),
    urlsAndEmails: customFlag('urlsAndEmails'),
    placeholders: customFlag('placeholders'),
    content: false,
  };
  plan.content =
    [
      plan.targetSourceIdentical,
      plan.leadingAndTrailingSpaces,
      plan.multipleSpaces,
      plan.endPunctuation,
      plan.repeatedWords,
      plan.missingNumber,
      plan.extraNumbers,
      plan.joinTags,
      plan.nestedTags,
      plan.emptyPairTags,
      plan.malformed,
      plan.formatting,
      plan.inconsistentTagContent,
      plan.emptyTagContent,
      plan.inconsistent,
      plan.nonConformingTerms,
      plan.forbiddenTerms,
      plan.spelling,
      plan.brackets,
      plan.quotes,
      plan.capitalization,
      plan.urlsAndEmails,
      plan.placeholders,
    ].some((f) => f !== null) ||
    plan.forbiddenStrings !== null ||
    plan.regexpRules.length > 0;
  return plan;
}

/**
 * Runs the settings' enabled checks over `segments` (docs/quality-assurance.md). A segment whose
 * target has no content gets only EmptyTranslation and the checks of its state (NotConfirmed,
 * the unmodified-origin checks, NewerAtLowerLevel, TranslationLength): every text check would fire
 * on it for the one reason. Throws QaRegexpError when a regexp rule does not compile.
 */
export function runQa(segments: readonly QaSegment[], settings: QaSettings, context: QaContext, options: QaRunOptions = {}): QaRunResult {
  const plan = planOf(settings, options.only);
  const excludeLocked = settings.checks.excludeLockedSegments?.enabled === true;
  const speller = plan.spelling !== null ? context.speller : null;
  const approvedOnly = settings.checks.ignoreNotApprovedTerms?.enabled === true;
  const warnings = new Map<string, QaWarning[]>();
  const result: QaRunResult = {
    warnings,
    spellingUnchecked: plan.spelling !== null && context.speller === null,
    segmentsChecked: 0,
    lockedSkipped: 0,
  };
  const targetLang = context.targetLang;
  const sourceLang = context.sourceLang;
  const inconsistent = plan.inconsistent !== null ? inconsistencyIndex(segments, context.otherSegments, textHasContent) : null;
  const out: QaWarning[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (excludeLocked && segment.locked) {
      result.lockedSkipped++;
      continue;
    }
    result.segmentsChecked++;
    out.length = 0;
    const source = new QaText(segment.source, sourceLang);
    const target = new QaText(segment.target, targetLang);
    if (plan.emptyTarget !== null) checkEmptyTarget(source, target, out, plan.emptyTarget);
    if (plan.notConfirmed !== null) checkNotConfirmed(segment, out, plan.notConfirmed);
    if (plan.unmodifiedFuzzy !== null) checkUnmodifiedFuzzy(segment, out, plan.unmodifiedFuzzy);
    if (plan.unmodifiedFuzzyTm !== null) checkUnmodifiedFuzzyTm(segment, out, plan.unmodifiedFuzzyTm);
    if (plan.unmodifiedFuzzyMtNt !== null) checkUnmodifiedFuzzyMtNt(segment, out, plan.unmodifiedFuzzyMtNt);
    if (plan.newerAtLowerLevel !== null) checkNewerAtLowerLevel(segment, out, plan.newerAtLowerLevel);
    if (plan.targetLengthPerSegment !== null) checkTargetLengthPerSegment(target, segment.maxLength, out, plan.targetLengthPerSegment);
    if (plan.targetLength) checkTargetLength(target, plan.targetLength.limit, out, plan.targetLength.ignorable);
    if (plan.absoluteTargetLength)
      checkAbsoluteTargetLength(source, target, plan.absoluteTargetLength.limit, out, plan.absoluteTargetLength.ignorable);
    if (plan.targetLengthPercent)
      checkTargetLengthPercent(source, target, plan.targetLengthPercent.limit, out, plan.targetLengthPercent.ignorable);
    if (plan.relativeTargetLength)
      checkRelativeTargetLength(source, target, plan.relativeTargetLength.limit, out, plan.relativeTargetLength.ignorable);
    if (plan.content && target.hasContent) {
      if (plan.targetSourceIdentical !== null) checkTargetSourceIdentical(source, target, out, plan.targetSourceIdentical);
      if (plan.leadingAndTrailingSpaces !== null) checkLeadingAndTrailingSpaces(source, target, out, plan.leadingAndTrailingSpaces);
      if (plan.multipleSpaces !== null) checkMultipleSpaces(source, target, out, plan.multipleSpaces);
      if (plan.endPunctuation !== null) checkEndPunctuation(source, target, out, plan.endPunctuation);
      if (plan.repeatedWords !== null) checkRepeatedWords(target, out, plan.repeatedWords);
      if (plan.missingNumber !== null || plan.extraNumbers !== null)
        checkNumbers(source, target, out, plan.missingNumber, plan.extraNumbers);
      if (plan.joinTags !== null) checkJoinTags(source, target, out, plan.joinTags);
      if (plan.malformed !== null) checkMalformed(source, target, out, plan.malformed);
      if (plan.nestedTags !== null) checkNestedTags(source, target, out, plan.nestedTags);
      if (plan.formatting !== null) checkFormatting(source, target, out, plan.formatting);
      if (plan.emptyPairTags !== null || plan.emptyTagContent !== null || plan.inconsistentTagContent !== null)
        checkTagContent(source, target, out, plan.emptyPairTags, plan.emptyTagContent, plan.inconsistentTagContent);
      if (plan.forbiddenStrings) checkForbiddenStrings(target, plan.forbiddenStrings.strings, out, plan.forbiddenStrings.ignorable);
      for (const rule of plan.regexpRules) checkRegexpRule(source, target, rule, out);
      if (inconsistent) inconsistent(index, out, plan.inconsistent!);
      if (plan.nonConformingTerms !== null)
        checkNonConformingTerms(source, target, segment.terms, approvedOnly, out, plan.nonConformingTerms);
      if (plan.forbiddenTerms !== null) checkForbiddenTerms(segment.forbiddenTerms, out, plan.forbiddenTerms);
      if (speller) checkSpelling(source, target, speller, out, plan.spelling!);
      if (plan.brackets !== null) checkBrackets(source, target, out, plan.brackets);
      if (plan.quotes !== null) checkQuotes(source, target, out, plan.quotes);
      if (plan.capitalization !== null) checkCapitalization(source, target, out, plan.capitalization);
      if (plan.urlsAndEmails !== null) checkUrlsAndEmails(source, target, out, plan.urlsAndEmails);
      if (plan.placeholders !== null) checkPlaceholders(source, target, out, plan.placeholders);
    }
    if (out.length > 0) warnings.set(segment.id, out.slice());
  }
  return result;
}

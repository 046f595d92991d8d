/**
 * The pure core of machine translation (issue 17): inline tags and glossary terms through an
 * engine, the pre-translation decision, MT settings per target language, and retry timing.
 */
export { protectTags, restoreTags } from './tag-protection.js';
export type { MtWarning, ProtectedText, TagMode, TagRestoreData } from './tag-protection.js';
export { compileGlossary, protectTerms, restoreTerms } from './glossary-protection.js';
export type { CompiledGlossary, GlossaryTerm, ProtectedTerm } from './glossary-protection.js';
export { DEFAULT_TM_THRESHOLD, decide, rulesFromV4 } from './pre-translate-decisions.js';
export type { Decision, PreTranslateRules, PreTranslateSettingsV4Like, SegmentState, TmMatch } from './pre-translate-decisions.js';
export { applyMtAssignmentUpdate, replaceAll, replacePerLanguage, settingsForLanguage } from './mt-assignment-rules.js';
export type { MtAssignment, MtAssignmentUpdate } from './mt-assignment-rules.js';
export { MAX_RETRY_AFTER_MS, retryAfterMs, retryDelays } from './backoff.js';
export type { BackoffOptions } from './backoff.js';

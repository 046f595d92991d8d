/**
 * Spell Check (docs/spelling.md): the organization's spelling dictionary, the check, suggest and
 * addWord operations, and what QA runs and the job's spell check use: a speller with the
 * organization's words (`spellerForJob`) and the words themselves (`organizationWords`, to build
 * a speller in a worker thread with src/spelling's `loadSpeller`).
 */
export { spellCheckRoutes } from './spell-check.routes.js';
export { SpellCheckRequest, SpellCheckResponse } from './spell-check.schemas.js';
export { checkTexts, organizationWords, spellerForJob } from './spell-check.service.js';
export type { CheckedText } from './spell-check.service.js';

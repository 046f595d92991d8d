/** checkByJob, the Spell Check operation on one job (docs/spelling.md); the rest of Spell Check is language-resources/spell-check. */
export { jobSpellCheckRoutes } from './job-spell-check.routes.js';

/**
 * The translation memory's pure core (docs/translation-memory.md): normalization, the
 * bit-parallel edit distance and the published score. No I/O.
 */
export { foldCase, foldWhitespace, normalize, NUMBER_CHARACTER, TAG_CHARACTERS } from './normalize.js';
export type { NormalizedText } from './normalize.js';
export { levenshtein } from './levenshtein.js';
export { baseScore, compareMatches, EXACT, IN_CONTEXT, isInContext, PENALTIES, penalties, rankMatches, scoreMatch } from './score.js';
export type { MatchContext, RankedMatch, ScoreOptions } from './score.js';
export { CandidateIndex, CANDIDATE_INDEX_DEFAULTS } from './candidate-index.js';
export type { CandidateIndexOptions, CandidateIndexSnapshot, IndexMatch, IndexSearchOptions, SearchStats } from './candidate-index.js';
export { BAND_FLOORS, bandMatch, bandStages } from './band-search.js';

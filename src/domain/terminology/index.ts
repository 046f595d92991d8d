export { TermMatcher } from './term-recognition.js';
export type { FindOptions, RecognizableTerm, TermOccurrence } from './term-recognition.js';
export { primaryLanguage, stemmerFor } from './stemmers.js';

/**
 * Spelling with Hunspell on the installed dictionaries (docs/spelling.md): which dictionary
 * serves a language, a speller that also accepts extra words, and ranked suggestions. No
 * database: usable from worker threads.
 */
export { DICTIONARY_DIRECTORIES, dictionaryCandidates, dictionaryFor, installedDictionaries } from './dictionaries.js';
export type { DictionaryFiles } from './dictionaries.js';
export { MAX_SUGGESTIONS, MAX_WORD_LENGTH, dictionaryNameFor, editDistanceAtMostTwo, loadSpeller, suggest } from './speller.js';

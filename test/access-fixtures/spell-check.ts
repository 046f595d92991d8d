import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Spell Check: check, suggest and addWord take the organization of the caller; checkByJob the
 * shared `jobUid` of organization A (the kernel's `view` decides, and another organization's
 * caller gets 404). English bodies: with hunspell-en-us installed every allowed call succeeds;
 * without it the calls are 400 SpellingDictionaryMissing, which the matrix accepts as well.
 */
const build: FixtureBuilder = async () => ({
  bodies: {
    'POST /api2/v1/spellCheck/check': { lang: 'en', texts: ['A speling mistake'] },
    'POST /api2/v1/spellCheck/check/:jobUid': { lang: 'en', texts: ['A speling mistake'] },
    'POST /api2/v1/spellCheck/suggest': { lang: 'en', words: ['speling'] },
    'POST /api2/v1/spellCheck/words': { lang: 'en', word: 'OpenTMS' },
  },
});
export default build;

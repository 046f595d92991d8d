import { Type } from 'typebox';

/**
 * Spell Check (spec definitions SpellCheckRequestDto, SpellCheckResponseDto, SuggestRequestDto,
 * SuggestResponseDto, DictionaryItemDto; docs/spelling.md). The limits bound one request's work.
 */

/** Texts one check request may hold at most, and their characters in total. */
export const MAX_TEXTS = 1000;
export const MAX_TOTAL_CHARS = 1_000_000;
/** The longest text a check takes (one text is checked without a break for other requests). */
export const MAX_TEXT_CHARS = 100_000;
/** Words one suggest request may hold at most. */
export const MAX_SUGGEST_WORDS = 100;
/** The longest word addWord and suggest take. */
export const MAX_WORD_CHARS = 100;

const Lang = Type.String({ minLength: 1, maxLength: 64 });

export const SpellCheckRequest = Type.Object(
  {
    lang: Lang,
    texts: Type.Array(Type.String({ maxLength: MAX_TEXT_CHARS }), { maxItems: MAX_TEXTS }),
    /** Accepted and not used (docs/spelling.md). */
    referenceTexts: Type.Optional(Type.Array(Type.String({ maxLength: MAX_TOTAL_CHARS }), { maxItems: MAX_TEXTS })),
    zeroLengthSeparator: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { title: 'SpellCheckRequestDto' },
);

const MisspelledWord = Type.Object({ word: Type.String(), offset: Type.Integer() }, { title: 'MisspelledWord' });
export const SpellCheckResponse = Type.Object(
  {
    spellCheckResults: Type.Array(
      Type.Object({ text: Type.String(), misspelledWords: Type.Array(MisspelledWord) }, { title: 'CheckResponse' }),
    ),
  },
  { title: 'SpellCheckResponseDto' },
);

export const SuggestRequest = Type.Object(
  {
    lang: Lang,
    words: Type.Array(Type.String({ maxLength: MAX_WORD_CHARS }), { maxItems: MAX_SUGGEST_WORDS }),
    /** Accepted and not used (docs/spelling.md). */
    referenceTexts: Type.Optional(Type.Array(Type.String({ maxLength: MAX_TOTAL_CHARS }), { maxItems: MAX_TEXTS })),
  },
  { title: 'SuggestRequestDto' },
);

export const SuggestResponse = Type.Object(
  {
    suggestResults: Type.Array(
      Type.Object(
        { word: Type.String(), suggestions: Type.Array(Type.Object({ text: Type.String() }, { title: 'Suggestion' })) },
        { title: 'SuggestResponse' },
      ),
    ),
  },
  { title: 'SuggestResponseDto' },
);

export const DictionaryItem = Type.Object({ lang: Lang, word: Type.String({ maxLength: 1000 }) }, { title: 'DictionaryItemDto' });

import { describe, expect, it } from 'vitest';
import { applyMtAssignmentUpdate, replaceAll, replacePerLanguage, settingsForLanguage } from './mt-assignment-rules.js';
import type { MtAssignment, MtAssignmentUpdate } from './mt-assignment-rules.js';

const TARGETS = ['de', 'fr', 'ja'];
const NONE: MtAssignment = { kind: 'none' };
const all = (settingsId: string): MtAssignment => ({ kind: 'all', settingsId });
const per = (byLang: Record<string, string>): MtAssignment => ({ kind: 'perLanguage', byLang: new Map(Object.entries(byLang)) });

describe('applyMtAssignmentUpdate (v3 PUT mtSettings)', () => {
  it.each<[string, MtAssignment, MtAssignmentUpdate, MtAssignment]>([
    // Neither field.
    ['an empty body changes nothing', per({ de: 'a' }), {}, per({ de: 'a' })],
    ['an empty body on all', all('a'), {}, all('a')],
    // Only bulk.
    ['bulk on none', NONE, { bulk: 'a' }, all('a')],
    ['bulk replaces per-language', per({ de: 'a', fr: 'b' }), { bulk: 'c' }, all('c')],
    ['bulk null clears all', all('a'), { bulk: null }, NONE],
    ['bulk null clears per-language', per({ de: 'a' }), { bulk: null }, NONE],
    // Per-language on per-language: only the listed change.
    [
      'a listed language changes, the rest stays',
      per({ de: 'a', fr: 'b' }),
      { perLanguage: [{ targetLang: 'fr', settingsId: 'c' }] },
      per({ de: 'a', fr: 'c' }),
    ],
    ['a language added', per({ de: 'a' }), { perLanguage: [{ targetLang: 'ja', settingsId: 'c' }] }, per({ de: 'a', ja: 'c' })],
    ['a language cleared', per({ de: 'a', fr: 'b' }), { perLanguage: [{ targetLang: 'de', settingsId: null }] }, per({ fr: 'b' })],
    ['the last language cleared: none', per({ de: 'a' }), { perLanguage: [{ targetLang: 'de', settingsId: null }] }, NONE],
    ['an empty list changes nothing', per({ de: 'a' }), { perLanguage: [] }, per({ de: 'a' })],
    [
      'listed twice: the last wins',
      per({}),
      {
        perLanguage: [
          { targetLang: 'de', settingsId: 'x' },
          { targetLang: 'de', settingsId: 'y' },
        ],
      },
      per({ de: 'y' }),
    ],
    // Switching from bulk: its value is copied to the unlisted languages first.
    [
      'from all: copied, then the listed set',
      all('a'),
      { perLanguage: [{ targetLang: 'fr', settingsId: 'b' }] },
      per({ de: 'a', fr: 'b', ja: 'a' }),
    ],
    ['from all: a listed language cleared', all('a'), { perLanguage: [{ targetLang: 'ja', settingsId: null }] }, per({ de: 'a', fr: 'a' })],
    ['from all with an empty list: all, per language', all('a'), { perLanguage: [] }, per({ de: 'a', fr: 'a', ja: 'a' })],
    ['from none: only the listed', NONE, { perLanguage: [{ targetLang: 'de', settingsId: 'b' }] }, per({ de: 'b' })],
    // Both fields: per-language wins; the body's bulk is what is copied when not per-language yet.
    [
      'both on none: bulk copied, listed set',
      NONE,
      { bulk: 'a', perLanguage: [{ targetLang: 'de', settingsId: 'b' }] },
      per({ de: 'b', fr: 'a', ja: 'a' }),
    ],
    [
      'both on all: the body bulk is copied, not the old',
      all('old'),
      { bulk: 'a', perLanguage: [{ targetLang: 'de', settingsId: 'b' }] },
      per({ de: 'b', fr: 'a', ja: 'a' }),
    ],
    [
      'both on all, bulk null: nothing copied',
      all('old'),
      { bulk: null, perLanguage: [{ targetLang: 'de', settingsId: 'b' }] },
      per({ de: 'b' }),
    ],
    [
      'both on per-language: bulk ignored',
      per({ fr: 'x' }),
      { bulk: 'a', perLanguage: [{ targetLang: 'de', settingsId: 'b' }] },
      per({ de: 'b', fr: 'x' }),
    ],
    // Validation is the caller's: an extra language is stored as given.
    ['a language outside the targets is kept as given', NONE, { perLanguage: [{ targetLang: 'es', settingsId: 'b' }] }, per({ es: 'b' })],
  ])('%s', (_name, current, update, expected) => {
    expect(applyMtAssignmentUpdate(current, update, TARGETS)).toEqual(expected);
  });

  it('does not change the current map', () => {
    const current = per({ de: 'a' });
    applyMtAssignmentUpdate(current, { perLanguage: [{ targetLang: 'de', settingsId: 'b' }] }, TARGETS);
    expect(current).toEqual(per({ de: 'a' }));
  });
});

describe('replaceAll (v1 PUT mtSettings) and replacePerLanguage (v1 PUT mtSettingsPerLanguage)', () => {
  it.each<[string, MtAssignment, MtAssignment]>([
    ['an id: all', replaceAll('a'), all('a')],
    ['null: none', replaceAll(null), NONE],
    [
      'exactly the listed languages',
      replacePerLanguage([
        { targetLang: 'de', settingsId: 'a' },
        { targetLang: 'fr', settingsId: 'b' },
      ]),
      per({ de: 'a', fr: 'b' }),
    ],
    [
      'a null entry: left out',
      replacePerLanguage([
        { targetLang: 'de', settingsId: 'a' },
        { targetLang: 'fr', settingsId: null },
      ]),
      per({ de: 'a' }),
    ],
    ['an empty list: none', replacePerLanguage([]), NONE],
    ['only nulls: none', replacePerLanguage([{ targetLang: 'de', settingsId: null }]), NONE],
  ])('%s', (_name, actual, expected) => expect(actual).toEqual(expected));
});

describe('settingsForLanguage', () => {
  it.each<[string, MtAssignment, string, string | null]>([
    ['none', NONE, 'de', null],
    ['all', all('a'), 'de', 'a'],
    ['all, any language', all('a'), 'xx', 'a'],
    ['per language, listed', per({ de: 'a', fr: 'b' }), 'fr', 'b'],
    ['per language, absent', per({ de: 'a' }), 'fr', null],
    ['per language, stored null', { kind: 'perLanguage', byLang: new Map([['de', null]]) }, 'de', null],
    ['languages compared as given', per({ de: 'a' }), 'DE', null],
  ])('%s', (_name, assignment, lang, expected) => expect(settingsForLanguage(assignment, lang)).toBe(expected));
});

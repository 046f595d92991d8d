import { describe, expect, it } from 'vitest';
import { filterOptionsFromImportSettings } from './import-settings.js';

describe('filter options from import settings', () => {
  it.each([
    ['plain-text', { txt: { tagRegexp: '\\{\\w+\\}' } }, { tagRegexp: '\\{\\w+\\}', formatSettings: { tagRegexp: '\\{\\w+\\}' } }],
    [
      'json',
      { json: { tagRegexp: '%s', importNotes: true } },
      { tagRegexp: '%s', importNotes: true, formatSettings: { tagRegexp: '%s', importNotes: true } },
    ],
    ['xliff12', { xlf: { importNotes: false } }, { importNotes: false, formatSettings: { importNotes: false } }],
    ['xliff12', { txt: { tagRegexp: 'x' } }, {}],
    ['plain-text', { txt: { tagRegexp: '' } }, { formatSettings: { tagRegexp: '' } }],
    ['gettext-po', { po: { exportMultiline: false } }, { formatSettings: { exportMultiline: false } }],
    ['unknown-filter', { txt: { tagRegexp: 'x' } }, {}],
  ])('%s with %j gives %j', (filter, settings, expected) => {
    expect(filterOptionsFromImportSettings(filter, JSON.stringify(settings))).toEqual(expected);
  });

  it('falls back to the defaults for missing or unreadable settings', () => {
    expect(filterOptionsFromImportSettings('plain-text', null)).toEqual({});
    expect(filterOptionsFromImportSettings('plain-text', '{not json')).toEqual({});
  });
});

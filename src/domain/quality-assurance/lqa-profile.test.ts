import { describe, expect, it } from 'vitest';
import { ERROR_CATEGORY_CODES, completeLqaDefinition, defaultLqaDefinition, lqaSettingsOf, readLqaDefinition } from './lqa-profile.js';

describe('LQA profile definitions', () => {
  it('numbers the 41 categories 1..41 in the spec order and the severities 1..4', () => {
    expect(ERROR_CATEGORY_CODES.size).toBe(41);
    expect(ERROR_CATEGORY_CODES.get('accuracy.accuracy')).toBe(1);
    expect(ERROR_CATEGORY_CODES.get('accuracy.overTranslation')).toBe(8);
    expect(ERROR_CATEGORY_CODES.get('fluency.fluency')).toBe(9);
    expect(ERROR_CATEGORY_CODES.get('other.other')).toBe(41);
    const d = defaultLqaDefinition();
    expect(Object.values(d.penaltyPoints).map((s) => s.code)).toEqual([1, 2, 3, 4]);
  });

  it('has the spec defaults: penalty points 0/1/5/10, weight 1, groups on, subcategories off, threshold 99', () => {
    const d = defaultLqaDefinition();
    expect(d.penaltyPoints).toEqual({
      neutral: { code: 1, value: 0 },
      minor: { code: 2, value: 1 },
      major: { code: 3, value: 5 },
      critical: { code: 4, value: 10 },
    });
    expect(d.errorCategories.accuracy.accuracy).toEqual({ enabled: true, weight: 1, code: 1 });
    expect(d.errorCategories.accuracy.omission).toEqual({ enabled: false, weight: 1, code: 3 });
    expect(d.errorCategories.other.other.enabled).toBe(true);
    expect(d.passFailThreshold).toEqual({ minScorePercentage: 99 });
  });

  it.each([
    ['an empty input is the defaults', {}, (d: ReturnType<typeof defaultLqaDefinition>) => expect(d).toEqual(defaultLqaDefinition())],
    [
      'an entry given is off unless it says so, weight 1 unless given',
      { errorCategories: { accuracy: { accuracy: { weight: 2.5 }, omission: { enabled: true } } } },
      (d: ReturnType<typeof defaultLqaDefinition>) => {
        expect(d.errorCategories.accuracy.accuracy).toEqual({ enabled: false, weight: 2.5, code: 1 });
        expect(d.errorCategories.accuracy.omission).toEqual({ enabled: true, weight: 1, code: 3 });
        expect(d.errorCategories.accuracy.addition).toEqual({ enabled: false, weight: 1, code: 2 });
        expect(d.errorCategories.fluency.fluency.enabled).toBe(true);
      },
    ],
    [
      'a severity value replaces its default; a severity without value keeps it',
      { penaltyPoints: { major: { value: 7.5 }, minor: {} } },
      (d: ReturnType<typeof defaultLqaDefinition>) => {
        expect(d.penaltyPoints.major).toEqual({ code: 3, value: 7.5 });
        expect(d.penaltyPoints.minor).toEqual({ code: 2, value: 1 });
      },
    ],
    [
      'the threshold',
      { passFailThreshold: { minScorePercentage: 80 } },
      (d: ReturnType<typeof defaultLqaDefinition>) => expect(d.passFailThreshold.minScorePercentage).toBe(80),
    ],
  ])('completes a request: %s', (_name, input, check) => {
    check(completeLqaDefinition(input));
  });

  it('reads stored documents over the defaults, and garbage as the defaults', () => {
    const stored = completeLqaDefinition({ errorCategories: { style: { awkward: { enabled: true, weight: 3 } } } });
    expect(readLqaDefinition(JSON.stringify(stored))).toEqual(stored);
    expect(readLqaDefinition('not json')).toEqual(defaultLqaDefinition());
    expect(readLqaDefinition('{"penaltyPoints":{"critical":{"value":25}}}').penaltyPoints.critical.value).toBe(25);
  });

  it('shows a profile as LqaSettingsDto, and no profile as LQA off', () => {
    expect(lqaSettingsOf(null)).toEqual({ enabled: false, severities: [], categories: [] });
    const view = lqaSettingsOf(completeLqaDefinition({ penaltyPoints: { major: { value: 4.6 } } }));
    expect(view.enabled).toBe(true);
    expect(view.severities).toEqual([
      { severityId: 1, name: 'Neutral', weight: 0 },
      { severityId: 2, name: 'Minor', weight: 1 },
      { severityId: 3, name: 'Major', weight: 5 },
      { severityId: 4, name: 'Critical', weight: 10 },
    ]);
    expect(view.categories).toHaveLength(8);
    expect(view.categories[0]).toMatchObject({ errorCategoryId: 1, name: 'Accuracy', enabled: true });
    expect(view.categories[0]!.errorCategories).toHaveLength(7);
    expect(view.categories[7]).toEqual({ errorCategoryId: 41, name: 'Other', enabled: true, errorCategories: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { bandMatch, bandStages } from './band-search.js';
import { CandidateIndex } from './candidate-index.js';

const bandOf = (score: number) => [100, 95, 85, 75, 50].find((floor) => score >= floor) ?? 0;

describe('band search', () => {
  it.each([
    [0, [100, 95, 85, 75, 50]],
    [3, [100, 98, 88, 78, 53]],
    [5, [100, 90, 80, 55]],
    [60, [100]],
  ])('stages for a penalty of %i', (penalty, stages) => expect(bandStages(penalty)).toEqual(stages));

  it('finds the band a full scan finds, text after text', () => {
    // Texts that share words in many ways, so that every band is met.
    const words = ['open', 'the', 'file', 'folder', 'window', 'close', 'save', 'all', 'new', 'old', 'printer', 'settings'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sentence = () => Array.from({ length: 3 + Math.floor(random() * 6) }, () => words[Math.floor(random() * words.length)]).join(' ');
    const index = new CandidateIndex();
    for (let i = 0; i < 3000; i++) index.put(String(i), sentence(), ['de']);
    for (let q = 0; q < 300; q++) {
      const query = sentence();
      const scanned = index.scan(query, { minScore: 50, limit: 1, langs: null })[0];
      const found = bandMatch(index, query, bandStages(0), null);
      expect(found === null ? 0 : bandOf(found.score), query).toBe(scanned === undefined ? 0 : bandOf(scanned.score));
    }
  });
});

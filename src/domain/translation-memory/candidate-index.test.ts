import { describe, expect, it } from 'vitest';
import { CandidateIndex } from './candidate-index.js';
import type { IndexMatch, IndexSearchOptions } from './candidate-index.js';
import { normalize } from './normalize.js';
import { scoreMatch } from './score.js';

const OPEN1 = '\uE001';
const CLOSE1 = '\uE801';
const ALONE1 = '\uF001';
const ALONE2 = '\uF002';

const AT_75 = { minScore: 75, limit: 10 };

/** The score as published: what the index must return for a pair. */
function expected(query: string, text: string, minScore = 0): number | null {
  return scoreMatch(normalize(query), normalize(text), { minScore });
}

function indexOf(texts: Record<string, string>, langs: readonly string[] = ['de']): CandidateIndex {
  const index = new CandidateIndex();
  for (const [key, text] of Object.entries(texts)) index.put(key, text, langs);
  return index;
}

describe('CandidateIndex: table', () => {
  const SENTENCE = 'The quick brown fox jumps over the lazy dog today';

  // [name, entry text, query, expected score (null: not found at 75)]
  const cases: [string, string, string, number | null][] = [
    ['exact', SENTENCE, SENTENCE, 100],
    ['one word changed', SENTENCE, SENTENCE.replace('fox', 'cat'), 93],
    ['a number differs', 'Version 2 of 10 is out', 'Version 3 of 10 is out', 99],
    ['two numbers differ', 'Pay 5 of 10 now', 'Pay 6 of 11 now', 98],
    ['a tag differs', `Click ${ALONE1} to save the file`, `Click ${ALONE2} to save the file`, 99],
    ['a paired tag missing', `Click ${OPEN1}Save${CLOSE1} now`, 'Click Save now', 85],
    ['punctuation only', 'Hello, world!', 'Hello world', 99],
    ['case only', 'Hello World', 'hello world', 99],
    ['whitespace only', 'Hello  world', 'Hello world', 99],
    ['too different', SENTENCE, 'Something else entirely, nothing shared', null],
    ['short: one letter of four (trigrams)', 'Rama', 'Roma', 75],
    ['short: two words, each changed', 'colour setting', 'color settings', 85],
    ['CJK without spaces', '今日は晴れです。明日は雨でしょう', '今日は晴れです。明日は雪でしょう', 93],
    ['CJK, one character more', 'ファイルを開けませんでした', 'ファイルが開けませんでした', 92],
  ];

  it.each(cases)('%s', (_name, text, query, score) => {
    const index = indexOf({ a: text, filler: 'An unrelated text about gardening and weather' });
    const found = index.search(query, AT_75);
    expect(found).toEqual(index.scan(query, AT_75));
    if (score === null) expect(found).toEqual([]);
    else {
      expect(found).toEqual([{ key: 'a', score }]);
      expect(expected(query, text)).toBe(score);
    }
  });

  it('never gives 100 to a difference in numbers or tags', () => {
    const index = indexOf({ n: 'Page 1 of 2', t: `Press ${ALONE1} now` });
    expect(index.search('Page 1 of 3', AT_75)).toEqual([{ key: 'n', score: 99 }]);
    expect(index.search(`Press ${ALONE2} now`, AT_75)).toEqual([{ key: 't', score: 99 }]);
    expect(index.search('Page 1 of 2', AT_75)).toEqual([{ key: 'n', score: 100 }]);
  });

  it('respects minScore', () => {
    const index = indexOf({ a: 'Open the file', b: 'Open the files', c: 'Open a file now please' });
    const all = index.scan('Open the file', { minScore: 0, limit: 10 });
    for (const minScore of [50, 75, 90, 95, 100]) {
      const found = index.search('Open the file', { minScore, limit: 10 });
      expect(found).toEqual(all.filter((match) => match.score >= minScore));
    }
    expect(index.search('Open the file', { minScore: 101, limit: 10 })).toEqual([]);
  });

  it('returns at most limit matches, best first', () => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 20; i++) texts[`k${String(i).padStart(2, '0')}`] = `Delete the selected item number ${i} from the list`;
    const index = indexOf(texts);
    const found = index.search('Delete the selected item number 3 from the list', { minScore: 75, limit: 3 });
    expect(found).toHaveLength(3);
    expect(found[0]).toEqual({ key: 'k03', score: 100 });
    // The others tie at 99 (one number differs): by key.
    expect(found.slice(1)).toEqual([
      { key: 'k00', score: 99 },
      { key: 'k01', score: 99 },
    ]);
    expect(index.search('Delete the selected item number 3 from the list', { minScore: 75, limit: 0 })).toEqual([]);
  });

  it('with band floors, keeps looking only for a better band', () => {
    const index = indexOf({
      far: 'Open the file in the editor window now',
      near: 'Open the file in the editor window',
      exact: 'Open the file in the editor',
    });
    const query = 'Open the file in the editor';
    const scores = Object.fromEntries(index.scan(query, { minScore: 0, limit: 3 }).map((m) => [m.key, m.score]));
    expect(scores.exact).toBe(100);
    // Whatever the order of verification, the band found is the best one.
    for (const floors of [
      [100, 95, 85, 75, 50],
      [85, 75, 50],
      [75, 50],
    ]) {
      const found = index.search(query, { minScore: floors[floors.length - 1]!, limit: 1, floors });
      expect(found).toHaveLength(1);
      const band = (score: number) => floors.find((floor) => score >= floor);
      expect(band(found[0]!.score)).toBe(band(100));
    }
    // Without the exact text, the near one is the band's.
    index.remove('exact');
    const found = index.search(query, { minScore: 50, limit: 1, floors: [95, 85, 75, 50] });
    expect(found[0]?.key).toBe('near');
  });

  it('examines at most maxExamined candidates', () => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 50; i++) texts[`k${i}`] = `Remove the selected entry ${'x'.repeat(i % 7)} from list ${i}`;
    const index = indexOf(texts);
    const query = 'Remove the selected entry from the list';
    expect(index.search(query, { minScore: 50, limit: 50 }).length).toBeGreaterThan(1);
    expect(index.search(query, { minScore: 50, limit: 50, maxExamined: 1 })).toHaveLength(1);
    expect(index.search(query, { minScore: 50, limit: 50, maxExamined: 0 })).toEqual([]);
  });

  it('reads only the lengths that could reach lengthsFor, or leaves out those of skipLengthsFor', () => {
    // A query of 21 code units: 75 needs a length in 16..28, 50 one in 11..42.
    const query = 'abcdefghij klmnopqrst';
    const index = indexOf({
      near: 'abcdefghij klmnopqrsx',
      short: 'abcdefghij kl',
      long: 'abcdefghij klmnopqrst uvwxyzabcd',
    });
    const keys = (options: Partial<IndexSearchOptions>) =>
      index
        .search(query, { minScore: 50, limit: 10, ...options })
        .map((match) => match.key)
        .sort();
    expect(keys({})).toEqual(['long', 'near', 'short']);
    expect(keys({ lengthsFor: 75 })).toEqual(['near']);
    expect(keys({ skipLengthsFor: 75 })).toEqual(['long', 'short']);
    // The scores are the same whichever lengths were read.
    const all = new Map(index.search(query, { minScore: 50, limit: 10 }).map((match) => [match.key, match.score]));
    for (const match of index.search(query, { minScore: 50, limit: 10, skipLengthsFor: 75 })) expect(match.score).toBe(all.get(match.key));
  });

  it('orders ties by key (code units)', () => {
    const index = new CandidateIndex();
    // Inserted in an order that is not the key order.
    for (const key of ['b', 'B', 'a2', 'a10', 'é']) index.put(key, 'Save the document as', ['de']);
    const found = index.search('Save the document as', AT_75);
    expect(found.map((match) => match.key)).toEqual(['B', 'a10', 'a2', 'b', 'é']);
    expect(found.every((match) => match.score === 100)).toBe(true);
  });

  it('filters by target language', () => {
    const index = new CandidateIndex();
    index.put('de', 'Cannot open the file', ['de']);
    index.put('fr', 'Cannot open the files', ['fr']);
    index.put('both', 'Cannot open this file', ['fr', 'de']);
    const keys = (langs: string[] | null) => index.search('Cannot open the file', { ...AT_75, langs }).map((match) => match.key);
    expect(keys(['de']).sort()).toEqual(['both', 'de']);
    expect(keys(['fr']).sort()).toEqual(['both', 'fr']);
    expect(keys(['it'])).toEqual([]);
    expect(keys(null).sort()).toEqual(['both', 'de', 'fr']);
    expect(
      index
        .scan('Cannot open the file', { ...AT_75, langs: ['fr'] })
        .map((match) => match.key)
        .sort(),
    ).toEqual(['both', 'fr']);
  });

  it('removes entries', () => {
    const index = indexOf({ a: 'Cannot open the file', b: 'Cannot open the files' });
    expect(index.size).toBe(2);
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.has('a')).toBe(false);
    expect(index.size).toBe(1);
    expect(index.search('Cannot open the file', AT_75)).toEqual([{ key: 'b', score: 95 }]);
    expect(index.scan('Cannot open the file', AT_75)).toEqual([{ key: 'b', score: 95 }]);
    index.remove('b');
    expect(index.size).toBe(0);
    expect(index.search('Cannot open the file', AT_75)).toEqual([]);
  });

  it('replaces an entry put again under the same key', () => {
    const index = indexOf({ a: 'Cannot open the file' });
    index.put('a', 'Printing the page failed', ['de']);
    expect(index.size).toBe(1);
    expect(index.search('Cannot open the file', AT_75)).toEqual([]);
    expect(index.search('Printing the page failed', AT_75)).toEqual([{ key: 'a', score: 100 }]);
    // The same text with other languages: only the languages change.
    index.put('a', 'Printing the page failed', ['fr']);
    expect(index.search('Printing the page failed', { ...AT_75, langs: ['de'] })).toEqual([]);
    expect(index.search('Printing the page failed', { ...AT_75, langs: ['fr'] })).toEqual([{ key: 'a', score: 100 }]);
  });

  it('compacts after many removals and stays right', () => {
    const random = prng(3);
    const index = new CandidateIndex();
    const texts = new Map<string, string>();
    for (let i = 0; texts.size < 3000; i++) texts.set(`k${i}`, `${sentence(random)} ${i}`);
    for (const [key, text] of texts) index.put(key, text, ['de']);
    const before = index.approximateBytes();
    const removed: string[] = [];
    for (const key of [...texts.keys()].filter((_, i) => i % 3 === 0)) {
      index.remove(key);
      removed.push(key);
    }
    index.compact();
    expect(index.size).toBe(2000);
    expect(index.approximateBytes()).toBeLessThan(before);
    // New entries take the removed ids.
    for (let i = 0; i < 600; i++) index.put(`n${i}`, `${sentence(random)} new`, ['de']);
    expect(index.size).toBe(2600);
    const gone = new Set(removed);
    for (const key of removed.slice(0, 30)) {
      const text = texts.get(key)!;
      const found = index.search(text, { minScore: 75, limit: 50 });
      expect(found.some((match) => gone.has(match.key))).toBe(false);
      expect(index.scan(text, { minScore: 75, limit: 50 }).some((match) => gone.has(match.key))).toBe(false);
    }
    for (const [key, text] of [...texts].filter(([key]) => !gone.has(key)).slice(0, 100)) {
      expect(index.search(text, { minScore: 75, limit: 1 })).toEqual([{ key, score: 100 }]);
    }
  });

  it('compares only the first maxTextLength code units, and keeps 100 for equal texts only', () => {
    const index = new CandidateIndex({ maxTextLength: 100 });
    const head = 'word '.repeat(30);
    index.put('a', `${head}tail one`, ['de']);
    index.put('b', `${head}tail one`.replace('tail one', 'tail two'), ['de']);
    expect(index.search(`${head}tail one`, AT_75)).toEqual([
      { key: 'a', score: 100 },
      { key: 'b', score: 99 },
    ]);
  });

  it('handles empty and punctuation-only texts', () => {
    const index = indexOf({ dots: '...', bang: '!!!', word: 'Go' });
    expect(index.search('...', AT_75)).toEqual([
      { key: 'dots', score: 100 },
      { key: 'bang', score: 99 },
    ]);
    expect(index.search('', AT_75)).toEqual(index.scan('', AT_75));
  });

  it('rejects bad options', () => {
    const index = new CandidateIndex();
    expect(() => index.search('x', { minScore: Number.NaN, limit: 1 })).toThrow(RangeError);
    expect(() => index.search('x', { minScore: 75, limit: -1 })).toThrow(RangeError);
    expect(() => new CandidateIndex({ minShare: 2 })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Property-style: generated sentences and variants, search against scan.
// ---------------------------------------------------------------------------------------------

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'file folder open close save print cannot could not the a an of to in for with on from by new old ' +
  'user account password server network connection error warning message window dialog button menu item ' +
  'select delete remove add create update settings option value default invalid missing required ' +
  'document page line column row table image color font size format export import project job task ' +
  'translation memory source target language segment unit match score search result list view edit'
).split(' ');

function sentence(random: () => number): string {
  const length = 1 + Math.floor(random() * random() * 16);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]!);
  if (random() < 0.3) words.splice(Math.floor(random() * words.length), 0, String(Math.floor(random() * 100)));
  const text = words.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + (random() < 0.5 ? '.' : '');
}

function variant(text: string, random: () => number): string {
  const words = text.split(' ');
  const at = Math.floor(random() * words.length);
  switch (Math.floor(random() * 6)) {
    case 0:
      words[at] = WORDS[Math.floor(random() * WORDS.length)]!;
      break;
    case 1:
      words.splice(at, 0, WORDS[Math.floor(random() * WORDS.length)]!);
      break;
    case 2:
      if (words.length > 1) words.splice(at, 1);
      break;
    case 3:
      return /\d/.test(text) ? text.replace(/\d+/, String(Math.floor(random() * 1000))) : `${text} ${Math.floor(random() * 10)}`;
    case 4:
      return text.endsWith('.') ? `${text.slice(0, -1)}!` : `${text},`;
    default:
      // A letter changed inside a word.
      words[at] = words[at]!.length > 2 ? words[at]!.slice(0, -2) + words[at]!.slice(-1) : `${words[at]}s`;
  }
  return words.join(' ');
}

describe('CandidateIndex: search against scan', () => {
  const random = prng(7);
  const texts = new Set<string>();
  const bases: string[] = [];
  while (bases.length < 400) {
    const text = sentence(random);
    if (texts.has(text)) continue;
    texts.add(text);
    bases.push(text);
  }
  // Variants in the memory too, so that queries have several near matches.
  for (const base of bases) {
    for (let k = 0; k < 2; k++) {
      let text = variant(base, random);
      if (random() < 0.3) text = variant(text, random);
      texts.add(text);
    }
  }
  const index = new CandidateIndex();
  const entries = [...texts];
  entries.forEach((text, i) => index.put(`t${String(i).padStart(4, '0')}`, text, [i % 3 === 0 ? 'fr' : 'de']));
  const queries: string[] = [];
  for (let i = 0; i < 300; i++) {
    const base = bases[Math.floor(random() * bases.length)]!;
    let query = variant(base, random);
    if (random() < 0.5) query = variant(query, random);
    queries.push(query);
  }

  it('gives the same top matches as a full scan on at least 98 % of queries, with the same scores', () => {
    let same = 0;
    let scanMatches = 0;
    let found = 0;
    for (const query of queries) {
      const options = { minScore: 75, limit: 5 };
      if (JSON.stringify(index.search(query, options)) === JSON.stringify(index.scan(query, options))) same++;
      const wide = { minScore: 75, limit: 1000 };
      const scanned = new Map(index.scan(query, wide).map((match) => [match.key, match.score]));
      const searched: IndexMatch[] = index.search(query, wide);
      // Every match search returns is one scan returns, with the same score.
      for (const match of searched) expect(scanned.get(match.key)).toBe(match.score);
      scanMatches += scanned.size;
      found += searched.length;
    }
    expect(scanMatches).toBeGreaterThan(300);
    expect(same / queries.length).toBeGreaterThanOrEqual(0.98);
    expect(found / scanMatches).toBeGreaterThanOrEqual(0.98);
  });

  it('scores exactly as scoreMatch does', () => {
    const byKey = new Map(entries.map((text, i) => [`t${String(i).padStart(4, '0')}`, text]));
    for (const query of queries.slice(0, 100)) {
      for (const match of index.search(query, { minScore: 60, limit: 20 })) {
        expect(match.score).toBe(expected(query, byKey.get(match.key)!));
      }
    }
  });

  it('sized for its entries beforehand (expectedEntries), or for fewer, answers exactly as one grown from nothing', () => {
    for (const expectedEntries of [entries.length, 100]) {
      const sized = new CandidateIndex({ expectedEntries, shared: true });
      entries.forEach((text, i) => sized.put(`t${String(i).padStart(4, '0')}`, text, [i % 3 === 0 ? 'fr' : 'de']));
      const reader = CandidateIndex.reader(sized.snapshot());
      for (const query of queries.slice(0, 60)) {
        const options = { minScore: 50, limit: 5, floors: [85, 75, 50] };
        expect(sized.search(query, options)).toEqual(index.search(query, options));
        expect(reader.search(query, options)).toEqual(index.search(query, options));
      }
    }
    expect(() => new CandidateIndex({ expectedEntries: -1 })).toThrow(/expectedEntries/);
  });

  it('is deterministic', () => {
    const again = new CandidateIndex();
    entries.forEach((text, i) => again.put(`t${String(i).padStart(4, '0')}`, text, [i % 3 === 0 ? 'fr' : 'de']));
    for (const query of queries.slice(0, 50)) {
      const options = { minScore: 70, limit: 5, langs: ['de'] };
      expect(again.search(query, options)).toEqual(index.search(query, options));
    }
  });
});

describe('CandidateIndex: snapshots for readers in other threads', () => {
  function sharedIndexOf(count: number, seed: number): { index: CandidateIndex; texts: Map<string, string> } {
    const random = prng(seed);
    const index = new CandidateIndex({ shared: true });
    const texts = new Map<string, string>();
    for (let i = 0; texts.size < count; i++)
      texts.set(`k${i}`, i % 50 === 0 ? `Ελληνικά ${sentence(random)} ${i}` : `${sentence(random)} ${i}`);
    for (const [key, text] of texts) index.put(key, text, i(key) % 3 === 0 ? ['fr'] : ['de']);
    return { index, texts };
  }
  const i = (key: string) => Number(key.slice(1));

  it('a reader of a snapshot answers every search as the index does, over the same shared memory', () => {
    const { index, texts } = sharedIndexOf(2000, 5);
    const snapshot = index.snapshot();
    expect(snapshot.pool.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(snapshot.unitBytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const reader = CandidateIndex.reader(snapshot);
    expect(reader.size).toBe(index.size);
    const random = prng(9);
    const queries = [...texts.values()].slice(0, 60).map((text, n) => (n % 2 ? text : `${text.slice(0, -3)} ${sentence(random)}`));
    for (const query of queries) {
      for (const options of [
        { minScore: 100, limit: 1 },
        { minScore: 60, limit: 5, langs: ['de'] },
        { minScore: 50, limit: 1, floors: [85, 75, 50], maxExamined: 400 },
      ]) {
        expect(reader.search(query, options)).toEqual(index.search(query, options));
      }
    }
    expect(reader.has('k7')).toBe(true);
    expect(reader.has('nope')).toBe(false);
  });

  it('a new snapshot shows changes (growth, removals, compaction); a reader cannot change the index', () => {
    const { index, texts } = sharedIndexOf(500, 6);
    const before = CandidateIndex.reader(index.snapshot());
    const removed = [...texts.keys()].filter((key) => i(key) % 2 === 0);
    for (const key of removed) index.remove(key);
    const random = prng(10);
    for (let n = 0; n < 3000; n++) index.put(`n${n}`, `${sentence(random)} added ${n}`, ['de']);
    index.compact();
    const after = CandidateIndex.reader(index.snapshot());
    expect(after.size).toBe(index.size);
    for (const key of removed.slice(0, 20)) {
      const text = texts.get(key)!;
      expect(after.search(text, AT_75)).toEqual(index.search(text, AT_75));
      expect(after.search(text, AT_75).some((match) => match.key === key)).toBe(false);
    }
    expect(after.search('added 2999', { minScore: 50, limit: 3 })).toEqual(index.search('added 2999', { minScore: 50, limit: 3 }));
    expect(() => before.put('x', 'text', ['de'])).toThrow(/cannot change/);
    expect(() => after.remove('n1')).toThrow(/cannot change/);
    expect(() => new CandidateIndex().snapshot()).toThrow(/shared/);
  });
});

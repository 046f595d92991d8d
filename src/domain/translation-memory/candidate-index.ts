/**
 * A pure, in-memory fuzzy-search index over the distinct source texts of one translation memory
 * (docs/translation-memory.md, "Search and the index" and "Candidate index: measured"). No I/O.
 *
 * Entries: the caller's key of a distinct source text, the text (inline tags as one placeholder
 * character each, see normalize.ts) and the target languages it has translations in. The score of
 * a match is exactly `scoreMatch(normalize(query), normalize(text), { minScore })` (no context, no
 * per-TM penalty: the caller adds those), computed over at most `maxTextLength` code units of each
 * side (see below).
 *
 * Search = candidates from an inverted index, then verification:
 *
 * - Features of a text, from its `compared` form: its distinct word tokens (split at spaces); and,
 *   for texts of at most `trigramMaxTokens` tokens or with characters of a script written without
 *   spaces (CJK, Thai, Lao, Khmer, Myanmar, Tibetan), its distinct character trigrams (the text
 *   padded with one boundary character on each side). Each feature is a 32-bit hash combined with
 *   the entry's LENGTH BUCKET (the compared length, exact below 16, then geometric by
 *   `lengthBucketRatio`), so that a query reads only the postings of entries whose length can reach
 *   the minimum score: with base ≥ s, the lengths n (query) and m (entry) satisfy
 *   s·n/100 ≤ m ≤ 100·n/s. A hash collision merges two posting lists: more candidates, never fewer.
 * - Posting lists: entry ids (integers, reused through a free list) in one pooled `Int32Array`,
 *   each list one block of a power-of-two size class, moved to the next class when full; freed
 *   blocks are reused per class. The feature → list map is an open-addressing table in two
 *   `Int32Array`s. No object per list or per posting.
 * - Query: the lists of its features in the buckets of the allowed length range, read RAREST
 *   FIRST while the postings read stay within `maxPostingsRead` (a longer list is skipped; the
 *   very common tokens are the ones left out). Each posting outside the exact length range or of a
 *   removed entry is dropped at once; the others accumulate, per entry, the number of shared word
 *   tokens, their weight (token length + 1) and the number of shared trigrams.
 * - Bound before any edit distance: every edit destroys at most 2 word tokens and at most 3 padded
 *   trigrams of either side, so d ≥ ⌈(max(Dq, De) − shared) / 2⌉ (distinct tokens) and, for
 *   trigram-indexed entries, d ≥ ⌈(max(Gq, Ge) − shared) / 3⌉, and d ≥ |n − m|. An entry whose
 *   resulting upper bound on the base is below what it needs (the minimum score, or the score of
 *   the current last of `limit` results) is skipped. (A bound is used only when none of the lists
 *   it depends on was skipped by the budget.)
 * - Verification, in order of promise (the share of the longer text's characters covered by
 *   shared tokens, or of trigrams shared), of at most `maxVerified` candidates: `baseScore` (the
 *   bounded bit-parallel Levenshtein, cut off at the distance the needed score allows) against the
 *   stored compared form, then, only for those that pass, the full `normalize` and `scoreMatch`.
 *
 * `scan` answers the same question by verifying EVERY entry in range (the exact length filter
 * only), for recall measurement and tests.
 *
 * Costs: a search is linear in the query's length (capped at `maxTextLength`) plus the postings
 * read (capped at `maxPostingsRead`), plus at most `maxVerified` bounded edit distances of texts of
 * at most `maxTextLength` code units. Texts longer than `maxTextLength` code units are compared on
 * their first `maxTextLength` code units; a 100 there is 99 when the full texts differ.
 *
 * Removal tombstones the entry at once (it is never returned again, its texts are released) and
 * its postings are dropped by a compaction that repacks the pool once the dead postings reach half
 * of the live ones (or on `compact()`); removed ids are reused only after that.
 *
 * Deterministic: the same calls in the same order give the same answers. Ties are ordered by key
 * (ascending, by code units).
 */
import { normalize } from './normalize.js';
import type { NormalizedText } from './normalize.js';
import { baseScore, EXACT, scoreMatch } from './score.js';

export interface CandidateIndexOptions {
  /**
   * Code units of a text (and of a query) compared; the rest is ignored except that a 100 becomes
   * 99 when the full texts differ. Default 2000, at most 65535.
   */
  maxTextLength?: number;
  /** Texts with at most this many word tokens are also indexed by trigrams. Default 3. */
  trigramMaxTokens?: number;
  /** Index every text by trigrams too (more recall on heavily edited long texts, about 4× the memory). Default false. */
  trigramsForAll?: boolean;
  /** Ratio between successive length buckets above 16 code units. Default 1.25 (min 1.05). */
  lengthBucketRatio?: number;
  /** Postings read per search, at most: the rarest lists first, a list that does not fit is skipped. Default 60,000. */
  maxPostingsRead?: number;
  /** Candidates verified with an edit distance per search, at most. Default 400. */
  maxVerified?: number;
  /**
   * The least share a candidate must have to be verified: of the longer text's characters (plus
   * one) in word tokens it shares with the query, or of the trigrams (of the text with more) it
   * shares. Lists read once no new candidate can reach it only count for the candidates met
   * before. Default 0.3; 0 verifies everything met.
   */
  minShare?: number;
}

export interface IndexMatch {
  key: string;
  score: number;
}

export interface IndexSearchOptions {
  /** 0..100; matches below are not returned. */
  minScore: number;
  /** At most this many, best first. */
  limit: number;
  /** When given, only entries having at least one of these target languages. */
  langs?: readonly string[] | null;
}

export const CANDIDATE_INDEX_DEFAULTS = {
  maxTextLength: 2000,
  trigramMaxTokens: 3,
  trigramsForAll: false,
  lengthBucketRatio: 1.25,
  maxPostingsRead: 60_000,
  maxVerified: 400,
  minShare: 0.3,
} as const;

/** Lengths below this have a bucket each. */
const EXACT_BUCKETS = 16;
/** Compaction runs once the dead postings are at least this many and half of the live ones. */
const MIN_COMPACTION = 4096;
/** Promise levels for ordering candidates (a counting sort, so ordering is linear). */
const LEVELS = 64;
const NO_SPACE_SCRIPT = /[\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const WORD_SEED = 0x811c9dc5;
/** Slots of the hashed bigram count table (a power of two; a collision only weakens the filter). */
const BIGRAM_SLOTS = 8192;
const GRAM_SEED = 0x2545f491;
const BOUNDARY = 0x0001;

interface Features {
  /** Distinct word tokens' hashes (without bucket) and weights (length + 1). */
  words: number[];
  weights: number[];
  /** Distinct trigrams' hashes, or null when the text is not trigram-indexed. */
  grams: number[] | null;
}

interface PreparedQuery {
  norm: NormalizedText;
  original: string;
  truncated: boolean;
  n: number;
  features: Features;
}

/** The best `limit` results so far, best first, ties by key. */
class TopResults {
  readonly scores: number[] = [];
  readonly keys: string[] = [];
  constructor(
    readonly limit: number,
    readonly minScore: number,
  ) {}
  /** The score a newcomer needs at least (it may still lose a tie on its key). */
  need(): number {
    return this.scores.length < this.limit ? this.minScore : this.scores[this.scores.length - 1]!;
  }
  offer(score: number, key: string): void {
    const size = this.scores.length;
    if (size === this.limit) {
      const worst = this.scores[size - 1]!;
      if (score < worst || (score === worst && key > this.keys[size - 1]!)) return;
    }
    let at = size;
    while (at > 0 && (this.scores[at - 1]! < score || (this.scores[at - 1] === score && this.keys[at - 1]! > key))) at--;
    this.scores.splice(at, 0, score);
    this.keys.splice(at, 0, key);
    if (this.scores.length > this.limit) {
      this.scores.pop();
      this.keys.pop();
    }
  }
  matches(): IndexMatch[] {
    return this.scores.map((score, i) => ({ key: this.keys[i]!, score }));
  }
}

/** What the last `search` did (for benches and tuning). */
export interface SearchStats {
  listsRead: number;
  postingsRead: number;
  listsSkipped: number;
  candidates: number;
  verified: number;
}

export class CandidateIndex {
  /** What the last `search` did. */
  readonly lastSearch: SearchStats = { listsRead: 0, postingsRead: 0, listsSkipped: 0, candidates: 0, verified: 0 };
  private readonly maxTextLength: number;
  private readonly trigramMaxTokens: number;
  private readonly trigramsForAll: boolean;
  private readonly maxPostingsRead: number;
  private readonly maxVerified: number;
  private readonly minShare: number;
  /** Length → bucket, for 0..maxTextLength. */
  private readonly bucketOfLength: Int32Array;
  private readonly bucketCount: number;
  /** Trigram-indexed entries per bucket (a query looks up trigrams only where there are some). */
  private readonly gramEntries: Int32Array;

  // Entries, by id.
  private readonly idOfKey = new Map<string, number>();
  private keys: (string | undefined)[] = [];
  private texts: (string | undefined)[] = [];
  private compareds: (string | undefined)[] = [];
  /** Compared length, or −1 for a free or removed id (so the length filter drops it). */
  private lengths = new Int32Array(0);
  private langSetOf = new Int32Array(0);
  private wordCounts = new Uint16Array(0);
  /** Distinct trigrams, 0 when not trigram-indexed. */
  private gramCounts = new Uint16Array(0);
  private postingCounts = new Uint16Array(0);
  private truncatedFlags = new Uint8Array(0);
  private nextId = 0;
  private freeIds: number[] = [];
  /** Removed ids whose postings are still in the lists: reusable after the next compaction. */
  private pendingIds: number[] = [];
  private liveCount = 0;
  private livePostings = 0;
  private deadPostings = 0;
  private stringBytes = 0;

  // Per-search scratch, by id (reset through `touched`).
  private hitWeights = new Int32Array(0);
  private wordHits = new Uint16Array(0);
  private gramHits = new Uint16Array(0);

  // The query's padded bigrams, counted in a hashed table (the bigram filter before any edit distance).
  private readonly bigramCounts = new Uint16Array(BIGRAM_SLOTS);
  private bigramUndo = new Int32Array(0);

  // Target language sets, interned.
  private readonly langSetIds = new Map<string, number>();
  private readonly langSets: string[][] = [];
  private langStamp = new Int32Array(0);
  private langAllowed = new Uint8Array(0);
  private searchCount = 0;

  // Feature hash → posting list (open addressing, linear probing; slotList holds list id + 1).
  private slotHash = new Int32Array(1024);
  private slotList = new Int32Array(1024);
  private listCount = 0;
  private listStart = new Int32Array(256);
  private listLength = new Int32Array(256);
  private listClass = new Uint8Array(256);

  // The postings pool: blocks of 2^class ids; freeBlocks[class] heads a chain through the blocks' first word.
  private pool = new Int32Array(1 << 16);
  private poolTop = 0;
  private readonly freeBlocks = new Int32Array(32).fill(-1);

  constructor(options: CandidateIndexOptions = {}) {
    const o = { ...CANDIDATE_INDEX_DEFAULTS, ...stripUndefined(options) };
    this.maxTextLength = clampInteger(o.maxTextLength, 16, 65535, 'maxTextLength');
    this.trigramMaxTokens = clampInteger(o.trigramMaxTokens, 0, 65535, 'trigramMaxTokens');
    this.trigramsForAll = Boolean(o.trigramsForAll);
    this.maxPostingsRead = clampInteger(o.maxPostingsRead, 1, 2 ** 30, 'maxPostingsRead');
    this.maxVerified = clampInteger(o.maxVerified, 1, 2 ** 30, 'maxVerified');
    this.minShare = o.minShare;
    if (!(this.minShare >= 0 && this.minShare <= 1)) throw new RangeError(`minShare must be in 0..1, got ${this.minShare}`);
    const ratio = o.lengthBucketRatio;
    if (!(ratio >= 1.05)) throw new RangeError(`lengthBucketRatio must be at least 1.05, got ${ratio}`);
    this.bucketOfLength = new Int32Array(this.maxTextLength + 1);
    for (let m = 0; m <= this.maxTextLength; m++) {
      this.bucketOfLength[m] = m < EXACT_BUCKETS ? m : EXACT_BUCKETS + Math.floor(Math.log(m / EXACT_BUCKETS) / Math.log(ratio) + 1e-9);
    }
    this.bucketCount = this.bucketOfLength[this.maxTextLength]! + 1;
    this.gramEntries = new Int32Array(this.bucketCount);
  }

  get size(): number {
    return this.liveCount;
  }

  has(key: string): boolean {
    return this.idOfKey.has(key);
  }

  put(key: string, text: string, langs: readonly string[]): void {
    const langSet = this.internLangs(langs);
    const existing = this.idOfKey.get(key);
    if (existing !== undefined) {
      if (this.texts[existing] === text) {
        this.langSetOf[existing] = langSet;
        return;
      }
      this.remove(key);
    }
    const truncated = text.length > this.maxTextLength;
    const compared = normalize(truncated ? cut(text, this.maxTextLength) : text).compared;
    const features = this.featuresOf(compared);
    const id = this.allocateId();
    const m = compared.length;
    const bucket = this.bucketOfLength[m]!;
    // Distinct postings: two features with the same bucketed hash post once.
    const posted = new Set<number>();
    for (const word of features.words) posted.add(bucketHash(word, bucket));
    if (features.grams) {
      for (const gram of features.grams) posted.add(bucketHash(gram, bucket));
      this.gramEntries[bucket]!++;
    }
    for (const hash of posted) this.append(this.listOf(hash, true), id);
    this.idOfKey.set(key, id);
    this.keys[id] = key;
    this.texts[id] = text;
    this.compareds[id] = compared;
    this.lengths[id] = m;
    this.langSetOf[id] = langSet;
    this.wordCounts[id] = features.words.length;
    this.gramCounts[id] = features.grams ? features.grams.length : 0;
    this.postingCounts[id] = posted.size;
    this.truncatedFlags[id] = truncated ? 1 : 0;
    this.liveCount++;
    this.livePostings += posted.size;
    this.stringBytes += stringBytes(key) + stringBytes(text) + stringBytes(compared);
  }

  remove(key: string): boolean {
    const id = this.idOfKey.get(key);
    if (id === undefined) return false;
    this.idOfKey.delete(key);
    this.stringBytes -= stringBytes(key) + stringBytes(this.texts[id]!) + stringBytes(this.compareds[id]!);
    if (this.gramCounts[id]! > 0) this.gramEntries[this.bucketOfLength[this.lengths[id]!]!]!--;
    this.keys[id] = undefined;
    this.texts[id] = undefined;
    this.compareds[id] = undefined;
    this.lengths[id] = -1;
    this.langSetOf[id] = -1;
    this.liveCount--;
    this.livePostings -= this.postingCounts[id]!;
    this.deadPostings += this.postingCounts[id]!;
    this.pendingIds.push(id);
    if (this.liveCount === 0 || (this.deadPostings >= MIN_COMPACTION && this.deadPostings * 2 >= this.livePostings)) this.compact();
    return true;
  }

  /** Drops the postings of removed entries and repacks the pool; runs by itself as entries are removed. */
  compact(): void {
    const oldSlotList = this.slotList;
    const oldStart = this.listStart;
    const oldLength = this.listLength;
    const oldPool = this.pool;
    const oldSlotHash = this.slotHash;
    // Count the live lists and postings to size the new arrays.
    let lists = 0;
    let postings = 0;
    const live = new Int32Array(this.listCount);
    for (let l = 0; l < this.listCount; l++) {
      let count = 0;
      const start = oldStart[l]!;
      const end = start + oldLength[l]!;
      for (let p = start; p < end; p++) if (this.lengths[oldPool[p]!]! >= 0) count++;
      live[l] = count;
      if (count > 0) {
        lists++;
        postings += 1 << classOf(count);
      }
    }
    const slots = tableSize(lists);
    this.slotHash = new Int32Array(slots);
    this.slotList = new Int32Array(slots);
    const listCapacity = Math.max(256, lists);
    this.listStart = new Int32Array(listCapacity);
    this.listLength = new Int32Array(listCapacity);
    this.listClass = new Uint8Array(listCapacity);
    this.listCount = 0;
    this.pool = new Int32Array(Math.max(1 << 16, postings + (postings >>> 3)));
    this.poolTop = 0;
    this.freeBlocks.fill(-1);
    for (let s = 0; s < oldSlotList.length; s++) {
      const l = oldSlotList[s]! - 1;
      if (l < 0 || live[l] === 0) continue;
      const list = this.listOf(oldSlotHash[s]!, true, live[l]!);
      const start = oldStart[l]!;
      const end = start + oldLength[l]!;
      let at = this.listStart[list]!;
      for (let p = start; p < end; p++) {
        const id = oldPool[p]!;
        if (this.lengths[id]! >= 0) this.pool[at++] = id;
      }
      this.listLength[list] = live[l]!;
    }
    this.deadPostings = 0;
    // Removed ids may be reused now that no list names them; the lowest first, for determinism.
    for (const id of this.pendingIds) this.freeIds.push(id);
    this.pendingIds = [];
    this.freeIds.sort((a, b) => b - a);
    if (this.liveCount === 0) {
      this.nextId = 0;
      this.freeIds = [];
    }
  }

  search(query: string, options: IndexSearchOptions): IndexMatch[] {
    const { minScore, limit } = checkSearchOptions(options);
    if (limit === 0 || minScore > EXACT || this.liveCount === 0) return [];
    const q = this.prepare(query);
    const top = new TopResults(limit, minScore);
    const [lo, hi] = this.lengthRange(q.n, minScore);
    if (lo > hi) return [];
    const stamp = this.startSearch();
    const langs = options.langs ?? null;

    // 1. The lists to read: every feature in every bucket of the range.
    const bLo = this.bucketOfLength[lo]!;
    const bHi = this.bucketOfLength[hi]!;
    const refList: number[] = [];
    const refWeight: number[] = [];
    const refIsGram: boolean[] = [];
    const refBucket: number[] = [];
    const { words, weights, grams } = q.features;
    const queryGrams = grams ?? this.gramsOf(q.norm.compared);
    for (let b = bLo; b <= bHi; b++) {
      for (let i = 0; i < words.length; i++) {
        const list = this.listOf(bucketHash(words[i]!, b), false);
        if (list >= 0 && this.listLength[list]! > 0) {
          refList.push(list);
          refWeight.push(weights[i]!);
          refIsGram.push(false);
          refBucket.push(b);
        }
      }
      if (this.gramEntries[b]! > 0) {
        for (const gram of queryGrams) {
          const list = this.listOf(bucketHash(gram, b), false);
          if (list >= 0 && this.listLength[list]! > 0) {
            refList.push(list);
            refWeight.push(0);
            refIsGram.push(true);
            refBucket.push(b);
          }
        }
      }
    }
    const order = refList.map((_, i) => i);
    order.sort((a, b) => this.listLength[refList[a]!]! - this.listLength[refList[b]!]! || a - b);
    // What a candidate first met in a list can still gather, per bucket: the weight of the word
    // lists and the number of trigram lists not read yet. Where that cannot reach minShare, a list
    // adds nothing new (prefix filtering), it only counts for the candidates already met.
    const remainingWords = new Float64Array(this.bucketCount);
    const remainingGrams = new Int32Array(this.bucketCount);
    for (let r = 0; r < refList.length; r++) {
      if (refIsGram[r]) remainingGrams[refBucket[r]!]!++;
      else remainingWords[refBucket[r]!]! += refWeight[r]!;
    }
    const wordNeed = this.minShare * (q.n + 1);
    const gramNeed = this.minShare * queryGrams.length;

    // 2. Merge, rarest first, within the budget.
    const skippedWords = new Uint8Array(this.bucketCount);
    const skippedGrams = new Uint8Array(this.bucketCount);
    const touched: number[] = [];
    let budget = this.maxPostingsRead;
    const pool = this.pool;
    const lengths = this.lengths;
    const hitWeights = this.hitWeights;
    const wordHits = this.wordHits;
    const gramHits = this.gramHits;
    const stats = this.lastSearch;
    stats.listsRead = 0;
    stats.listsSkipped = 0;
    for (const r of order) {
      const list = refList[r]!;
      let length = this.listLength[list]!;
      if (length > budget) {
        (refIsGram[r] ? skippedGrams : skippedWords)[refBucket[r]!] = 1;
        stats.listsSkipped++;
        // Read part of the rarest list rather than nothing at all.
        if (touched.length > 0 || budget === 0) continue;
        length = budget;
      }
      budget -= length;
      stats.listsRead++;
      const start = this.listStart[list]!;
      const end = start + length;
      const isGram = refIsGram[r]!;
      const weight = refWeight[r]!;
      const bucket = refBucket[r]!;
      const open = remainingWords[bucket]! >= wordNeed || (remainingGrams[bucket]! > 0 && remainingGrams[bucket]! >= gramNeed);
      if (isGram) remainingGrams[bucket]!--;
      else remainingWords[bucket]! -= weight;
      for (let p = start; p < end; p++) {
        const id = pool[p]!;
        const m = lengths[id]!;
        if (m < lo || m > hi) continue;
        if (wordHits[id] === 0 && gramHits[id] === 0) {
          if (!open) continue;
          touched.push(id);
        }
        if (isGram) gramHits[id]!++;
        else {
          wordHits[id]!++;
          hitWeights[id]! += weight;
        }
      }
    }

    // 3. Bounds, then the candidates by promise (a counting sort on LEVELS levels, best first).
    const n = q.n;
    const dq = words.length;
    const gq = queryGrams.length;
    const candidates: number[] = [];
    const bounds: number[] = [];
    const levels: number[] = [];
    const levelCounts = new Int32Array(LEVELS + 1);
    const need = top.need();
    for (const id of touched) {
      const wordShared = wordHits[id]!;
      const gramShared = gramHits[id]!;
      const weight = hitWeights[id]!;
      wordHits[id] = 0;
      gramHits[id] = 0;
      hitWeights[id] = 0;
      if (langs !== null && !this.langsAllowed(this.langSetOf[id]!, langs, stamp)) continue;
      const m = lengths[id]!;
      const b = this.bucketOfLength[m]!;
      const max = Math.max(n, m);
      let dLow = Math.abs(n - m);
      if (!skippedWords[b]) dLow = Math.max(dLow, Math.ceil((Math.max(dq, this.wordCounts[id]!) - wordShared) / 2));
      const ge = this.gramCounts[id]!;
      if (ge > 0 && !skippedGrams[b]) dLow = Math.max(dLow, Math.ceil((Math.max(gq, ge) - gramShared) / 3));
      const bound = max === 0 ? EXACT : Math.floor((EXACT * (max - Math.min(dLow, max))) / max);
      if (bound < need) continue;
      const wordShare = weight / (max + 1);
      const gramShare = ge > 0 ? gramShared / Math.max(gq, ge, 1) : 0;
      const share = Math.max(wordShare, gramShare);
      if (share < this.minShare) continue;
      const level = Math.min(LEVELS, Math.floor(share * LEVELS));
      candidates.push(id);
      bounds.push(bound);
      levels.push(level);
      levelCounts[level]!++;
    }
    // Best level first: positions by descending level, stable within a level.
    const firstAt = new Int32Array(LEVELS + 1);
    for (let level = LEVELS, at = 0; level >= 0; level--) {
      firstAt[level] = at;
      at += levelCounts[level]!;
    }
    const ordered = new Int32Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) ordered[firstAt[levels[i]!]!++] = i;

    // 4. Verify (the bigram filter first, then at most maxVerified edit distances).
    let verified = 0;
    this.countBigrams(q.norm.compared);
    try {
      for (let k = 0; k < ordered.length && verified < this.maxVerified; k++) {
        const i = ordered[k]!;
        if (bounds[i]! < top.need()) continue;
        if (this.verify(candidates[i]!, q, top)) verified++;
      }
    } finally {
      this.clearBigrams(q.norm.compared);
    }
    stats.postingsRead = this.maxPostingsRead - budget;
    stats.candidates = candidates.length;
    stats.verified = verified;
    return top.matches();
  }

  scan(query: string, options: IndexSearchOptions): IndexMatch[] {
    const { minScore, limit } = checkSearchOptions(options);
    if (limit === 0 || minScore > EXACT || this.liveCount === 0) return [];
    const q = this.prepare(query);
    const top = new TopResults(limit, minScore);
    const [lo, hi] = this.lengthRange(q.n, minScore);
    const stamp = this.startSearch();
    const langs = options.langs ?? null;
    this.countBigrams(q.norm.compared);
    try {
      for (let id = 0; id < this.nextId; id++) {
        const m = this.lengths[id]!;
        if (m < lo || m > hi) continue;
        if (langs !== null && !this.langsAllowed(this.langSetOf[id]!, langs, stamp)) continue;
        this.verify(id, q, top);
      }
    } finally {
      this.clearBigrams(q.norm.compared);
    }
    return top.matches();
  }

  approximateBytes(): number {
    const typed =
      this.lengths.byteLength +
      this.langSetOf.byteLength +
      this.wordCounts.byteLength +
      this.gramCounts.byteLength +
      this.postingCounts.byteLength +
      this.truncatedFlags.byteLength +
      this.hitWeights.byteLength +
      this.wordHits.byteLength +
      this.gramHits.byteLength +
      this.slotHash.byteLength +
      this.slotList.byteLength +
      this.listStart.byteLength +
      this.listLength.byteLength +
      this.listClass.byteLength +
      this.pool.byteLength;
    // Three pointer arrays by id, and the key map (an ordered hash table: about 3 words a key, at load ½).
    const pointers = 3 * 8 * this.keys.length + 48 * this.idOfKey.size;
    return typed + pointers + this.stringBytes;
  }

  // -------------------------------------------------------------------------------------------
  // Entries
  // -------------------------------------------------------------------------------------------

  private allocateId(): number {
    const reused = this.freeIds.pop();
    if (reused !== undefined) return reused;
    const id = this.nextId++;
    if (id >= this.lengths.length) this.growEntries(Math.max(1024, this.lengths.length * 2));
    return id;
  }

  private growEntries(capacity: number): void {
    this.lengths = grow(this.lengths, capacity, -1);
    this.langSetOf = grow(this.langSetOf, capacity, -1);
    this.wordCounts = grow(this.wordCounts, capacity);
    this.gramCounts = grow(this.gramCounts, capacity);
    this.postingCounts = grow(this.postingCounts, capacity);
    this.truncatedFlags = grow(this.truncatedFlags, capacity);
    this.hitWeights = new Int32Array(capacity);
    this.wordHits = new Uint16Array(capacity);
    this.gramHits = new Uint16Array(capacity);
  }

  private internLangs(langs: readonly string[]): number {
    const sorted = [...new Set(langs)].sort();
    const name = sorted.join('\u0000');
    let id = this.langSetIds.get(name);
    if (id === undefined) {
      id = this.langSets.length;
      this.langSets.push(sorted);
      this.langSetIds.set(name, id);
    }
    return id;
  }

  private startSearch(): number {
    this.searchCount = (this.searchCount + 1) | 0 || 1;
    if (this.langStamp.length < this.langSets.length) {
      const capacity = Math.max(16, this.langSets.length * 2);
      this.langStamp = new Int32Array(capacity);
      this.langAllowed = new Uint8Array(capacity);
    }
    return this.searchCount;
  }

  /** Whether a language set meets the query's languages (worked out once per set and search). */
  private langsAllowed(set: number, langs: readonly string[], stamp: number): boolean {
    if (this.langStamp[set] !== stamp) {
      this.langStamp[set] = stamp;
      const have = this.langSets[set]!;
      this.langAllowed[set] = langs.some((lang) => have.includes(lang)) ? 1 : 0;
    }
    return this.langAllowed[set] === 1;
  }

  // -------------------------------------------------------------------------------------------
  // Features and queries
  // -------------------------------------------------------------------------------------------

  private featuresOf(compared: string): Features {
    const words: number[] = [];
    const weights: number[] = [];
    const seen = new Set<string>();
    let tokens = 0;
    for (const token of compared.split(' ')) {
      tokens++;
      if (seen.has(token)) continue;
      seen.add(token);
      words.push(hashString(token, WORD_SEED));
      weights.push(token.length + 1);
    }
    const grams = this.trigramsForAll || tokens <= this.trigramMaxTokens || NO_SPACE_SCRIPT.test(compared) ? this.gramsOf(compared) : null;
    return { words, weights, grams: grams !== null && grams.length > 0 ? grams : null };
  }

  /** Distinct trigrams of the text padded with one boundary character on each side, hashed. */
  private gramsOf(compared: string): number[] {
    const grams: number[] = [];
    const seen = new Set<number>();
    const n = compared.length;
    // Distinct by the three code units themselves (48 bits, exact as a number).
    for (let i = -1; i < n - 1; i++) {
      const a = i < 0 ? BOUNDARY : compared.charCodeAt(i);
      const b = compared.charCodeAt(i + 1);
      const c = i + 2 < n ? compared.charCodeAt(i + 2) : BOUNDARY;
      const exact = (a * 65536 + b) * 65536 + c;
      if (seen.has(exact)) continue;
      seen.add(exact);
      let h = GRAM_SEED;
      h = Math.imul(h ^ a, 0x01000193);
      h = Math.imul(h ^ b, 0x01000193);
      h = Math.imul(h ^ c, 0x01000193);
      grams.push(fmix(h));
    }
    return grams;
  }

  private prepare(query: string): PreparedQuery {
    const truncated = query.length > this.maxTextLength;
    const norm = normalize(truncated ? cut(query, this.maxTextLength) : query);
    return { norm, original: query, truncated, n: norm.compared.length, features: this.featuresOf(norm.compared) };
  }

  /** The compared lengths an entry can have and still reach `minScore` against a query of length n. */
  private lengthRange(n: number, minScore: number): [number, number] {
    if (minScore <= 0) return [0, this.maxTextLength];
    const lo = Math.ceil((minScore * n) / EXACT);
    const hi = Math.min(this.maxTextLength, Math.floor((EXACT * n) / minScore));
    return [lo, hi];
  }

  private readonly probe: NormalizedText = { text: '', compared: '', cased: '', tags: '', numbers: [], punctuation: '', spacing: '' };

  /** Scores entry `id` against the query and offers it to the results. */
  private verify(id: number, q: PreparedQuery, top: TopResults): boolean {
    const need = top.need();
    const compared = this.compareds[id]!;
    const max = Math.max(q.n, compared.length);
    const allowed = Math.floor(((EXACT - need) * max) / EXACT);
    if (!this.bigramsCanMatch(compared, max + 1 - 2 * allowed)) return false;
    this.probe.compared = compared;
    if (baseScore(q.norm, this.probe, need) < need) return true;
    const text = this.texts[id]!;
    const truncated = this.truncatedFlags[id] === 1;
    let score = scoreMatch(q.norm, normalize(truncated ? cut(text, this.maxTextLength) : text), { minScore: need });
    if (score === null) return true;
    if (score === EXACT && (truncated || q.truncated) && text !== q.original) score = EXACT - 1;
    top.offer(score, this.keys[id]!);
    return true;
  }

  /** Counts the query's padded bigrams into the hashed table (undone by `clearBigrams`). */
  private countBigrams(compared: string): void {
    const counts = this.bigramCounts;
    let previous = BOUNDARY;
    for (let i = 0; i <= compared.length; i++) {
      const code = i < compared.length ? compared.charCodeAt(i) : BOUNDARY;
      counts[bigramSlot(previous, code)]!++;
      previous = code;
    }
    if (this.bigramUndo.length < compared.length + 1) this.bigramUndo = new Int32Array(compared.length + 1);
  }

  private clearBigrams(compared: string): void {
    const counts = this.bigramCounts;
    let previous = BOUNDARY;
    for (let i = 0; i <= compared.length; i++) {
      const code = i < compared.length ? compared.charCodeAt(i) : BOUNDARY;
      counts[bigramSlot(previous, code)] = 0;
      previous = code;
    }
  }

  /**
   * Whether the text shares at least `need` padded bigrams (as multisets) with the query. Each
   * edit destroys at most two padded bigrams of a side, so a text within distance d shares at
   * least max(n, m) + 1 − 2d: a sound filter (hash collisions only count more).
   */
  private bigramsCanMatch(compared: string, need: number): boolean {
    if (need <= 0) return true;
    const counts = this.bigramCounts;
    const undo = this.bigramUndo;
    const m = compared.length;
    let shared = 0;
    let used = 0;
    let previous = BOUNDARY;
    for (let i = 0; i <= m; i++) {
      const code = i < m ? compared.charCodeAt(i) : BOUNDARY;
      const slot = bigramSlot(previous, code);
      previous = code;
      if (counts[slot]! > 0) {
        counts[slot]!--;
        undo[used++] = slot;
        if (++shared >= need) break;
      } else if (shared + (m - i) < need) break;
    }
    for (let k = 0; k < used; k++) counts[undo[k]!]!++;
    return shared >= need;
  }

  // -------------------------------------------------------------------------------------------
  // Posting lists
  // -------------------------------------------------------------------------------------------

  /** The list of a feature hash; created (with room for `room` postings) when asked to, else −1 when absent. */
  private listOf(hash: number, create: boolean, room = 1): number {
    const mask = this.slotHash.length - 1;
    let slot = fmix(hash ^ 0x5bd1e995) & mask;
    for (;;) {
      const entry = this.slotList[slot]!;
      if (entry === 0) break;
      if (this.slotHash[slot] === hash) return entry - 1;
      slot = (slot + 1) & mask;
    }
    if (!create) return -1;
    const list = this.listCount++;
    if (list >= this.listStart.length) {
      const capacity = this.listStart.length * 2;
      this.listStart = grow(this.listStart, capacity);
      this.listLength = grow(this.listLength, capacity);
      this.listClass = grow(this.listClass, capacity);
    }
    const cls = classOf(room);
    this.listStart[list] = this.allocateBlock(cls);
    this.listLength[list] = 0;
    this.listClass[list] = cls;
    this.slotHash[slot] = hash;
    this.slotList[slot] = list + 1;
    if (this.listCount * 2 > this.slotHash.length) this.rehash();
    return list;
  }

  private rehash(): void {
    const oldHash = this.slotHash;
    const oldList = this.slotList;
    const size = oldHash.length * 2;
    const mask = size - 1;
    this.slotHash = new Int32Array(size);
    this.slotList = new Int32Array(size);
    for (let s = 0; s < oldHash.length; s++) {
      const entry = oldList[s]!;
      if (entry === 0) continue;
      let slot = fmix(oldHash[s]! ^ 0x5bd1e995) & mask;
      while (this.slotList[slot] !== 0) slot = (slot + 1) & mask;
      this.slotHash[slot] = oldHash[s]!;
      this.slotList[slot] = entry;
    }
  }

  private append(list: number, id: number): void {
    const length = this.listLength[list]!;
    const cls = this.listClass[list]!;
    if (length === 1 << cls) {
      const start = this.listStart[list]!;
      const moved = this.allocateBlock(cls + 1);
      this.pool.copyWithin(moved, start, start + length);
      this.freeBlock(start, cls);
      this.listStart[list] = moved;
      this.listClass[list] = cls + 1;
    }
    this.pool[this.listStart[list]! + length] = id;
    this.listLength[list] = length + 1;
  }

  private allocateBlock(cls: number): number {
    const free = this.freeBlocks[cls]!;
    if (free >= 0) {
      this.freeBlocks[cls] = this.pool[free]!;
      return free;
    }
    const size = 1 << cls;
    if (this.poolTop + size > this.pool.length) {
      const capacity = Math.max(this.poolTop + size, Math.floor(this.pool.length * 1.5));
      const pool = new Int32Array(capacity);
      pool.set(this.pool.subarray(0, this.poolTop));
      this.pool = pool;
    }
    const start = this.poolTop;
    this.poolTop += size;
    return start;
  }

  private freeBlock(start: number, cls: number): void {
    this.pool[start] = this.freeBlocks[cls]!;
    this.freeBlocks[cls] = start;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function checkSearchOptions(options: IndexSearchOptions): { minScore: number; limit: number } {
  const { minScore, limit } = options;
  if (typeof minScore !== 'number' || Number.isNaN(minScore)) throw new RangeError(`minScore must be a number, got ${String(minScore)}`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number ≥ 0, got ${String(limit)}`);
  return { minScore: Math.max(0, Math.ceil(minScore)), limit };
}

function clampInteger(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be a whole number in ${min}..${max}, got ${value}`);
  return value;
}

function stripUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The first `length` code units, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Smallest class (log2 of the block size) holding `count` postings. */
function classOf(count: number): number {
  return count <= 1 ? 0 : 32 - Math.clz32(count - 1);
}

/** Table size for `count` keys at load ≤ ½: a power of two. */
function tableSize(count: number): number {
  return Math.max(1024, 1 << (32 - Math.clz32(Math.max(1, count * 2 + 1) - 1)));
}

function grow<T extends Int32Array | Uint16Array | Uint8Array>(array: T, capacity: number, fill = 0): T {
  const grown = new (array.constructor as new (length: number) => T)(capacity);
  grown.set(array);
  if (fill !== 0) grown.fill(fill, array.length);
  return grown;
}

/** The murmur3 finalizer: spreads the bits of a 32-bit hash. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** FNV-1a over UTF-16 code units, finalized. */
function hashString(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix(h);
}

function bigramSlot(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ b) & (BIGRAM_SLOTS - 1);
}

/** A feature's hash within a length bucket. */
function bucketHash(hash: number, bucket: number): number {
  return fmix(hash ^ Math.imul(bucket + 1, 0x9e3779b1));
}

/** Rough bytes of a string: header plus one or two bytes a code unit. */
function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return 24 + (/^[\u0000-\u00ff]*$/.test(text) ? text.length : 2 * text.length);
}

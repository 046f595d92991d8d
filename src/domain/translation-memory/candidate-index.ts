/**
 * A pure, in-memory fuzzy-search index over the distinct source texts of one translation memory
 * (docs/translation-memory.md, "Search and the index" and "Candidate index: measured"). No I/O.
 *
 * Entries: the caller's key of a distinct source text, the text (inline tags as one placeholder
 * character each, see normalize.ts) and the target languages it has translations in. The score of
 * a match is exactly `scoreMatch(normalize(query), normalize(text), { minScore })` (no context, no
 * per-TM penalty: the caller adds those), over at most `maxTextLength` code units of each side.
 *
 * Search = candidates from an inverted index, then verification:
 *
 * 1. Features of a text, from its compared form: its distinct word tokens (split at spaces) and,
 *    for texts of at most `trigramMaxTokens` tokens or with characters of a script written without
 *    spaces (CJK, Thai, Lao, Khmer, Myanmar, Tibetan), its distinct character trigrams (padded
 *    with one boundary character on each side). Each feature is a 32-bit hash combined with the
 *    entry's LENGTH BUCKET (the compared length; exact below 16, then geometric by
 *    `lengthBucketRatio`), so that a query reads only the postings of entries whose length can
 *    reach the minimum score (base ≥ s needs s·n/100 ≤ m ≤ 100·n/s). A hash collision merges two
 *    lists: more candidates, never fewer.
 * 2. Postings: integer entry ids (reused through a free list) in one pooled `Int32Array`, each list
 *    one block of a size class (1, 2, 3, 4, 6, 8, 12, …), moved up a class when full, freed blocks
 *    reused per class; a feature met once keeps its one posting inline in the hash table (half the
 *    features). The feature table is open addressing over two `Int32Array`s, the key → id table
 *    too; per entry, typed arrays: its shape (length and trigram count in one integer), the bigram
 *    signature, the record handle and the integers of `meta` (language set, counts, record
 *    parts). No object per list, posting or entry.
 * 3. Merge, rarest list first, each posting out of the exact length range dropped: an entry met
 *    accumulates the weight of the words it shares (token length + 1) and the number of trigrams.
 *    Prefix filtering: once the lists not yet read of a bucket cannot bring a new entry to
 *    `minShare` of the query's weight (nor to what the trigram bound needs), they add no new
 *    candidate: they are read only for the entries already met (a lookup in the table below),
 *    while the postings read stay within `maxPostingsRead`; such a list longer than
 *    CLOSED_READ_RATIO × the entries met is not read at all (its postings would mostly be
 *    others'). A list not read is credited to every candidate of its bucket, so the bounds below
 *    stay sound. The entries met and their accumulators are a small hash table of the search's
 *    own (`MetTable`, met-table.ts), which stays in the processor's cache; each entry's shape is
 *    read once, when it is first met. An accumulator array per entry made nearly every posting a
 *    cache miss (docs/translation-memory.md, "Candidate index: measured").
 * 4. Bounds before any edit distance (sound): d ≥ |n − m|, and for trigram-indexed entries
 *    d ≥ ⌈(max(Gq, Ge) − shared) / 3⌉ (an edit destroys at most 3 padded trigrams of either side).
 *    Candidates whose upper bound on the base is below what they need (the minimum score, or the
 *    current last of `limit` results) are dropped; so are those (not trigram-indexed) sharing less
 *    than `minShare` of the longer text's characters in words (the one heuristic cut: recall is
 *    measured against `scan`).
 *    The bounds run when a candidate's turn comes in step 5 (most never get one), together with
 *    the bigram signature's (128 bits an entry: a bit set on one side only stands for a padded
 *    bigram the other lacks, and an edit removes at most two, so d ≥ ⌈one-sided bits / 2⌉; for
 *    searches needing 70 or more), and at most `maxExamined` candidates are examined.
 * 5. Verification, best promise first: the bigram count filter (sound: an edit destroys at most 2
 *    padded bigrams, so a text within distance d shares at least max(n, m) + 1 − 2d of them; one
 *    pass over the candidate's stored compared form), then at most `maxVerified` times the base
 *    score (the bounded bit-parallel Levenshtein against the query prepared once, a
 *    `LevenshteinPattern`, cut off at the distance the needed score allows), and
 *    only for those that reach it the full `normalize` of the text and `scoreMatch`.
 *
 * A search at 100 reads one list: that of the whole compared form, a feature of its own.
 * With `floors` (band floors), a match kept raises what the next candidate needs to the floor of
 * the band above it, so a search at the lowest floor finds the best band in one pass.
 *
 * `scan` answers the same question by verifying EVERY entry of the exact length range (the same
 * bigram filter and verification), for recall measurement and tests.
 *
 * Storage per entry: one record of a `UnitPool` (a byte a code unit when they are all Latin-1):
 * the key, the compared form (with the number and tag characters swapped for control characters,
 * so a Latin-1 text stays one byte a character), then the text as given. No string per entry.
 *
 * Costs: a search is linear in the query's length (at most `maxTextLength` code units are
 * compared) plus the postings read (at most `maxPostingsRead`), plus at most `maxVerified`
 * bounded edit distances of texts of at most `maxTextLength` code units. A 100 over the first
 * `maxTextLength` code units is 99 when the full texts differ.
 *
 * Removal tombstones the entry at once (never returned again, its strings released); its postings
 * are dropped by a compaction that repacks the lists once the dead postings reach half of the live
 * ones (or on `compact()`); removed ids are reused only after that. Deterministic: the same calls
 * in the same order give the same answers; ties are ordered by key (ascending, by code units).
 */
import { normalize, NUMBER_CHARACTER, TAG_CHARACTERS } from './normalize.js';
import type { NormalizedText } from './normalize.js';
import { LevenshteinPattern } from './levenshtein.js';
import { addAll, addToMet, gramsOf, lengthOf, MetTable, REMOVED_SHAPE, shapeOf } from './met-table.js';
import { typedArray, UnitPool } from './unit-pool.js';
import { decodeTextDelta, encodeTextDelta } from './text-delta.js';
import { EXACT, scoreMatch } from './score.js';

export interface CandidateIndexOptions {
  /**
   * Code units of a text (and of a query) compared; the rest is ignored except that a 100 becomes
   * 99 when the full texts differ. Default 2000, at most 4000.
   */
  maxTextLength?: number;
  /** Texts with at most this many word tokens are also indexed by trigrams. Default 3. */
  trigramMaxTokens?: number;
  /**
   * Index every text by trigrams too. On the gettext catalogs (56 k texts): +60 % memory, 3–4× the
   * lookup time, recall 99.4 → 99.9 % on French texts. Default false.
   */
  trigramsForAll?: boolean;
  /** Ratio between successive length buckets above 16 code units. Default 1.25 (at least 1.05). */
  lengthBucketRatio?: number;
  /** Postings read per search, at most: the rarest lists first; a list that does not fit is not read (and credited). Default 60,000. */
  maxPostingsRead?: number;
  /** Candidates verified with an edit distance per search, at most. Default 400. */
  maxVerified?: number;
  /**
   * Keep the index's data in SharedArrayBuffers, so that other threads can search it through
   * `snapshot` and `CandidateIndex.reader` (only while nothing changes it). Default false.
   */
  shared?: boolean;
  /**
   * The least share of the longer text's characters (plus one) that a candidate not indexed by
   * trigrams must have in word tokens it shares with the query to be verified. Default 0.3; 0
   * verifies everything met.
   */
  minShare?: number;
  /**
   * Entries the index is expected to hold (a TM's distinct sources, known before it is loaded):
   * its arrays are sized for that many at once, from typical sizes an entry, instead of growing to
   * it by doubling, which leaves freed copies behind (docs/translation-memory.md, "Candidate
   * index: measured"). Only a hint: past it the arrays grow as usual. Default 0 (start small).
   */
  expectedEntries?: number;
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
  /**
   * Stop at the first match of at least `minScore`, in the order of promise, instead of looking
   * for the best (analyses: once the higher bands found nothing, any match decides the band).
   */
  any?: boolean;
  /**
   * Band floors, descending: only a better band counts. Once `limit` matches are kept, a candidate
   * must reach the floor above the band of the worst of them (a match of 88 with floors 85 and 95
   * makes the search look for 95 or more only), and the search ends when no floor is above.
   */
  floors?: readonly number[] | null;
  /** This search's postings budget and verification cap, instead of the index's (a cheap first try). */
  maxPostingsRead?: number;
  maxVerified?: number;
  /**
   * Candidates examined at most (past the length and trigram bounds: each costs a signature test
   * and maybe the bigram filter and an edit distance), best promise first; default no cap. The
   * band search of analyses caps its wide searches (band-search.ts).
   */
  maxExamined?: number;
  /**
   * Only entries whose length could reach this score (≥ minScore) are read: a narrower length
   * range than minScore's (the band search looks for the higher bands, which only texts of close
   * length can reach, before the wider range of the lowest band).
   */
  lengthsFor?: number;
  /**
   * The length buckets that lie wholly within the range of this score are not read (they were
   * searched already, with `lengthsFor`); a bucket only partly within it is read whole.
   */
  skipLengthsFor?: number;
}

/** A shared index's data for a reader in another thread (`CandidateIndex.snapshot`). */
export interface CandidateIndexSnapshot {
  options: Required<CandidateIndexOptions>;
  nextId: number;
  liveCount: number;
  records: Uint32Array;
  meta: Int32Array;
  shapes: Int32Array;
  signatures: Int32Array;
  keyHashes: Int32Array;
  keySlots: Int32Array;
  slotHash: Int32Array;
  slotEntry: Int32Array;
  listStart: Int32Array;
  listLength: Int32Array;
  pool: Int32Array;
  gramEntries: Int32Array;
  unitBytes: Uint8Array;
  langSets: string[][];
}

/** What the last `search` did (for benches and tuning). */
export interface SearchStats {
  /** Posting lists read (fully or for the entries already met). */
  listsRead: number;
  /** Postings read. */
  postingsRead: number;
  /** Lists left out by the budget. */
  listsSkipped: number;
  /** Entries met in the lists. */
  met: number;
  /** Entries past the bounds and the share, in the order of verification. */
  candidates: number;
  /** Edit distances computed. */
  verified: number;
}

export const CANDIDATE_INDEX_DEFAULTS = {
  maxTextLength: 2000,
  trigramMaxTokens: 3,
  trigramsForAll: false,
  lengthBucketRatio: 1.25,
  maxPostingsRead: 60_000,
  maxVerified: 400,
  minShare: 0.3,
  shared: false,
  expectedEntries: 0,
} as const;

/**
 * What an entry takes, typically, for sizing an index for `expectedEntries` (measured on the
 * analysis bench's 1 M-unit TM of catalog text: 12.5 postings, 70 bytes of record (99 before
 * texts were kept as deltas) and 0.95 features an entry, 0.36 lists). Texts in scripts written
 * without spaces take more (every trigram is a feature); the arrays then grow as usual.
 */
const TYPICAL_ENTRY = { postings: 13, recordBytes: 80, features: 1, lists: 0.4 } as const;

/** Lengths below this have a bucket each. */
const EXACT_BUCKETS = 16;
/** Compaction runs once the dead postings are at least this many and half of the live ones. */
const MIN_COMPACTION = 4096;
/**
 * A list read only for the entries already met (past the prefix filter) is read when it is at
 * most this many times as long as the entries met; a longer one is credited to every candidate of
 * its bucket instead (as a list left out by the budget): its postings would mostly be others'.
 */
const CLOSED_READ_RATIO = 4;
/** Promise levels for ordering candidates (a counting sort, so ordering is linear). */
const LEVELS = 64;
const NO_SPACE_SCRIPT = /[\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const WORD_SEED = 0x811c9dc5;
const GRAM_SEED = 0x2545f491;
const KEY_SEED = 0x6b43a9b5;
/** Seed of the whole compared form's feature (the exact path of a search at 100). */
const EXACT_SEED = 0x1b873593;
const SLOT_SEED = 0x5bd1e995;
/** Pads n-grams at both ends. */
const BOUNDARY = 0x0001;
/** Slots of the hashed bigram count table (a power of two; a collision only weakens the filter). */
const BIGRAM_SLOTS = 8192;

/**
 * Per entry, META_STRIDE integers of what a search reads only for the candidates it verifies. What
 * it reads for every entry met (length, trigram count, accumulator) is in arrays of their own, a
 * few bytes an entry, so that the random accesses of a merge stay in the processor's caches.
 */
const META_STRIDE = 4;
/** The interned set of target languages. */
const META_LANGS = 0;
/** TRUNCATED_BIT | DELTA_BIT | postings << POSTINGS_SHIFT. */
const META_COUNTS = 1;
/** The code units of the key, and of the text as given (or its delta), in the entry's record. */
const META_KEY_UNITS = 2;
const META_TEXT_UNITS = 3;
const TRUNCATED_BIT = 1;
/** The record keeps the text as a delta from the compared form (text-delta.ts), not as it is. */
const DELTA_BIT = 2;
const POSTINGS_SHIFT = 2;
/** A shared trigram in the accumulator (below it, the shared word weight, at most maxTextLength + 1 < 2^13). */
const GRAM_HIT = 1 << 13;

interface Features {
  /** Distinct word tokens' hashes (without bucket) and weights ((length + 1) × occurrences; n + 1 in all). */
  words: number[];
  weights: number[];
  /** Distinct trigrams' hashes, or null when the text is not trigram-indexed. */
  grams: number[] | null;
}

interface PreparedQuery {
  norm: NormalizedText;
  /** `norm` with the stored compared form (see `storedForm`), for the base score. */
  stored: NormalizedText;
  original: string;
  truncated: boolean;
  n: number;
  features: Features;
  /** The compared form's bigram signature (`signatureOf`). */
  signature: Int32Array;
  /** The compared form prepared for edit distances to many entries. */
  pattern: LevenshteinPattern;
}

interface ListRef {
  /** The feature table's entry: list id + 1, or −(entry id + 1) for an inline posting. */
  entry: number;
  length: number;
  weight: number;
  gram: boolean;
  bucket: number;
  /** Whether every length of the bucket is in the query's range (no length check needed). */
  inside: boolean;
}

/** What `rankMet` needs of the query and the merge. */
interface RankInput {
  n: number;
  /** The query's trigram count. */
  gq: number;
  minShare: number;
  bucketOfLength: Int32Array;
  /** Per bucket, the word weight and trigram lists not read (credited to every entry). */
  unreadWeight: Float64Array;
  unreadGrams: Int32Array;
}

/** The candidates and their promise levels, and the count per level. */
interface RankOutput {
  /** Each candidate's position in the entries met (`metIds`, `metLengths`…). */
  picks: Int32Array;
  levels: Uint8Array;
  grams: Int32Array;
  levelCounts: Int32Array;
}

/**
 * The share of each entry met (the larger of its word share and trigram share, with the lists not
 * read credited) and its promise level; entries not trigram-indexed below `minShare` are dropped.
 * Returns the number of candidates.
 */
function rankMet(
  input: RankInput,
  met: number,
  metLengths: Int16Array,
  metPacked: Int32Array,
  metGrams: Uint16Array,
  out: RankOutput,
): number {
  const { n, gq, minShare, bucketOfLength, unreadWeight, unreadGrams } = input;
  const { picks, levels, grams, levelCounts } = out;
  let count = 0;
  for (let t = 0; t < met; t++) {
    const m = metLengths[t]!;
    if (m < 0) continue;
    const packed = metPacked[t]!;
    const b = bucketOfLength[m]!;
    const weight = (packed & (GRAM_HIT - 1)) + unreadWeight[b]!;
    const max = n > m ? n : m;
    const wordShare = weight >= max + 1 ? 1 : weight / (max + 1);
    const ge = metGrams[t]!;
    let share = wordShare;
    let gramShared = 0;
    if (ge > 0) {
      gramShared = ((packed / GRAM_HIT) | 0) + unreadGrams[b]!;
      const most = gq > ge ? gq : ge;
      const gramShare = gramShared >= most ? 1 : gramShared / (most || 1);
      if (gramShare > share) share = gramShare;
    } else if (wordShare < minShare) continue;
    const level = (share * LEVELS) | 0;
    picks[count] = t;
    levels[count] = level;
    grams[count] = gramShared;
    count++;
    levelCounts[level]!++;
  }
  return count;
}

/** The best `limit` results so far, best first, ties by key. */
class TopResults {
  readonly scores: number[] = [];
  readonly keys: string[] = [];
  constructor(
    readonly limit: number,
    readonly minScore: number,
    /** Band floors, descending (`IndexSearchOptions.floors`), or null. */
    readonly floors: readonly number[] | null = null,
  ) {}
  /**
   * The score a newcomer needs at least (it may still lose a tie on its key); with floors, the
   * floor above the band of the worst kept (more than 100 when no band is above).
   */
  need(): number {
    if (this.scores.length < this.limit) return this.minScore;
    const worst = this.scores[this.scores.length - 1]!;
    if (this.floors === null) return worst;
    let above = EXACT + 2;
    for (const floor of this.floors) {
      if (floor <= worst) break;
      above = floor;
    }
    return above;
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

export class CandidateIndex {
  /** What the last `search` did. */
  readonly lastSearch: SearchStats = { listsRead: 0, postingsRead: 0, listsSkipped: 0, met: 0, candidates: 0, verified: 0 };
  private readonly maxTextLength: number;
  private readonly trigramMaxTokens: number;
  private readonly trigramsForAll: boolean;
  private readonly maxPostingsRead: number;
  private readonly maxVerified: number;
  private readonly minShare: number;
  private readonly shared: boolean;
  /** The options as resolved (for snapshots). */
  private readonly options: Required<CandidateIndexOptions>;
  /** A reader of a snapshot (`CandidateIndex.reader`). */
  private readOnly = false;
  /** Length → bucket, for 0..maxTextLength. */
  private readonly bucketOfLength: Int32Array;
  private readonly bucketCount: number;
  /** Least and greatest length of each bucket. */
  private readonly bucketMin: Int32Array;
  private readonly bucketMax: Int32Array;
  /** Trigram-indexed entries per bucket (a query looks up trigrams only where there are some). */
  private gramEntries: Int32Array;

  // Entries, by id.
  /**
   * The entries' records: key, compared form, and the text as given or, when shorter, its delta from
   * the compared form (`DELTA_BIT`, text-delta.ts) (`UnitPool`); per id, its handle.
   */
  private readonly units: UnitPool;
  private records: Uint32Array = new Uint32Array(0);
  private meta: Int32Array = new Int32Array(0);
  /**
   * Per id, its shape (`shapeOf`): the compared length (−1 for a free or removed id, so that the
   * length filter drops it) and the distinct trigrams (0: not trigram-indexed), in one integer so
   * that a merge reads both with one cache miss.
   */
  private shapes: Int32Array = new Int32Array(0);
  /** Per entry, SIGNATURE_WORDS integers: the compared form's bigram signature (`signatureOf`). */
  private signatures: Int32Array = new Int32Array(0);
  private keyHashes: Int32Array = new Int32Array(0);
  private nextId = 0;
  private freeIds: number[] = [];
  /** Removed ids whose postings are still in the lists: reusable after the next compaction. */
  private pendingIds: number[] = [];
  private liveCount = 0;
  private livePostings = 0;
  private deadPostings = 0;

  // Key → id: open addressing, linear probing, id + 1 a slot (0 empty), at load ≤ ½.
  private keySlots: Int32Array = new Int32Array(1024);

  /**
   * The entries a search meets and their accumulators (shared word weight + GRAM_HIT × shared
   * trigrams), this thread's own (met-table.ts).
   */
  private readonly metTable = new MetTable();
  /** The entries met, in the order met, with their lengths, accumulators and trigram counts, gathered (grown as needed). */
  private metIds = new Int32Array(1024);
  private metLengths = new Int16Array(1024);
  private metPacked = new Int32Array(1024);
  private metGrams = new Uint16Array(1024);
  /** Scratch of a search's candidates (ids and promise levels), grown as needed. */
  private candidatePicks = new Int32Array(1024);
  private candidateLevels = new Uint8Array(1024);
  private candidateGrams = new Int32Array(1024);
  /** The last query prepared: the stages of a band search ask the same query in a row. */
  private lastPrepared: PreparedQuery | null = null;
  /** A one-posting "list" for reading an inline posting like a list. */
  private readonly single = new Int32Array(1);

  // The query's padded bigrams, counted in a hashed table (the bigram filter).
  private readonly bigramCounts = new Uint16Array(BIGRAM_SLOTS);
  private bigramUndo = new Int32Array(0);

  // Target language sets, interned.
  private readonly langSetIds = new Map<string, number>();
  private readonly langSets: string[][] = [];
  private langStamp = new Int32Array(0);
  private langAllowed = new Uint8Array(0);
  private searchCount = 0;

  // Feature hash → postings: open addressing, linear probing, at load ≤ ½. slotEntry: 0 empty,
  // > 0 list id + 1, < 0 one posting inline, −(entry id + 1).
  private slotHash: Int32Array = new Int32Array(1024);
  private slotEntry: Int32Array = new Int32Array(1024);
  private slotsUsed = 0;
  private listCount = 0;
  private listStart: Int32Array = new Int32Array(256);
  private listLength: Int32Array = new Int32Array(256);
  private listClass: Uint8Array = new Uint8Array(256);

  // The postings pool: blocks of CLASS_SIZES[class] ids; freeBlocks[class] heads a chain through
  // the free blocks' first word.
  private pool: Int32Array = new Int32Array(1 << 16);
  private poolTop = 0;
  private readonly freeBlocks = new Int32Array(CLASS_SIZES.length).fill(-1);

  constructor(options: CandidateIndexOptions = {}) {
    const o = { ...CANDIDATE_INDEX_DEFAULTS, ...stripUndefined(options) };
    this.maxTextLength = checkInteger(o.maxTextLength, 16, 4000, 'maxTextLength');
    this.trigramMaxTokens = checkInteger(o.trigramMaxTokens, 0, 4000, 'trigramMaxTokens');
    this.trigramsForAll = Boolean(o.trigramsForAll);
    this.maxPostingsRead = checkInteger(o.maxPostingsRead, 1, 2 ** 30, 'maxPostingsRead');
    this.maxVerified = checkInteger(o.maxVerified, 1, 2 ** 30, 'maxVerified');
    this.minShare = o.minShare;
    if (!(this.minShare >= 0 && this.minShare <= 1)) throw new RangeError(`minShare must be in 0..1, got ${this.minShare}`);
    const ratio = o.lengthBucketRatio;
    if (!(ratio >= 1.05)) throw new RangeError(`lengthBucketRatio must be at least 1.05, got ${ratio}`);
    this.bucketOfLength = new Int32Array(this.maxTextLength + 1);
    for (let m = 0; m <= this.maxTextLength; m++) {
      this.bucketOfLength[m] = m < EXACT_BUCKETS ? m : EXACT_BUCKETS + Math.floor(Math.log(m / EXACT_BUCKETS) / Math.log(ratio) + 1e-9);
    }
    this.bucketCount = this.bucketOfLength[this.maxTextLength]! + 1;
    this.bucketMin = new Int32Array(this.bucketCount).fill(-1);
    this.bucketMax = new Int32Array(this.bucketCount);
    for (let m = 0; m <= this.maxTextLength; m++) {
      const b = this.bucketOfLength[m]!;
      if (this.bucketMin[b] === -1) this.bucketMin[b] = m;
      this.bucketMax[b] = m;
    }
    this.shared = Boolean(o.shared);
    this.options = { ...o, shared: this.shared };
    // A hint: beyond 2^25 entries, the arrays grow as usual.
    const expected = Math.min(2 ** 25, checkInteger(o.expectedEntries, 0, Number.MAX_SAFE_INTEGER, 'expectedEntries'));
    this.units = new UnitPool(this.shared, expected * TYPICAL_ENTRY.recordBytes);
    this.gramEntries = typedArray(Int32Array, this.bucketCount, this.shared);
    if (expected > 0) this.growEntries(expected);
    if (expected > 0 || this.shared) {
      // The tables' first sizes: the defaults, or those of `expected` typical entries.
      const keys = expected > 0 ? powerOfTwoAtLeast(2 * expected) : this.keySlots.length;
      const slots = expected > 0 ? powerOfTwoAtLeast(2 * expected * TYPICAL_ENTRY.features) : this.slotHash.length;
      const lists = expected > 0 ? Math.ceil(expected * TYPICAL_ENTRY.lists) : this.listStart.length;
      const postings = expected > 0 ? expected * TYPICAL_ENTRY.postings : this.pool.length;
      this.keySlots = typedArray(Int32Array, keys, this.shared);
      this.slotHash = typedArray(Int32Array, slots, this.shared);
      this.slotEntry = typedArray(Int32Array, slots, this.shared);
      this.listStart = typedArray(Int32Array, lists, this.shared);
      this.listLength = typedArray(Int32Array, lists, this.shared);
      this.listClass = typedArray(Uint8Array, lists, this.shared);
      this.pool = typedArray(Int32Array, postings, this.shared);
    }
  }

  /**
   * What another thread needs to search this index (`CandidateIndex.reader`): its arrays (shared
   * memory, not copied when posted) and counts. Only for a `shared` index. The reader sees the
   * index as it is while nothing changes it: after any change, take a new snapshot.
   */
  snapshot(): CandidateIndexSnapshot {
    if (!this.shared) throw new Error('only a shared index has snapshots');
    return {
      options: this.options,
      nextId: this.nextId,
      liveCount: this.liveCount,
      records: this.records,
      meta: this.meta,
      shapes: this.shapes,
      signatures: this.signatures,
      keyHashes: this.keyHashes,
      keySlots: this.keySlots,
      slotHash: this.slotHash,
      slotEntry: this.slotEntry,
      listStart: this.listStart,
      listLength: this.listLength,
      pool: this.pool,
      gramEntries: this.gramEntries,
      unitBytes: this.units.bytes,
      langSets: this.langSets.map((set) => [...set]),
    };
  }

  /** An index that searches a snapshot of another (in another thread); it cannot be changed. */
  static reader(snapshot: CandidateIndexSnapshot): CandidateIndex {
    const index = new CandidateIndex({ ...snapshot.options, shared: false, expectedEntries: 0 });
    index.readOnly = true;
    index.nextId = snapshot.nextId;
    index.liveCount = snapshot.liveCount;
    index.records = snapshot.records;
    index.meta = snapshot.meta;
    index.shapes = snapshot.shapes;
    index.signatures = snapshot.signatures;
    index.keyHashes = snapshot.keyHashes;
    index.keySlots = snapshot.keySlots;
    index.slotHash = snapshot.slotHash;
    index.slotEntry = snapshot.slotEntry;
    index.listStart = snapshot.listStart;
    index.listLength = snapshot.listLength;
    index.pool = snapshot.pool;
    index.gramEntries = snapshot.gramEntries;
    index.units.adopt(snapshot.unitBytes);
    for (const set of snapshot.langSets) index.langSets.push(set);
    return index;
  }

  private checkWritable(): void {
    if (this.readOnly) throw new Error('a reader of an index snapshot cannot change it');
  }

  get size(): number {
    return this.liveCount;
  }

  has(key: string): boolean {
    return this.findKey(key) >= 0;
  }

  put(key: string, text: string, langs: readonly string[]): void {
    this.checkWritable();
    const langSet = this.internLangs(langs);
    const existing = this.findKey(key);
    if (existing >= 0) {
      if (this.textOf(existing) === text) {
        // The same text: only the languages may have changed.
        this.meta[existing * META_STRIDE + META_LANGS] = langSet;
        return;
      }
      this.remove(key);
    }
    const truncated = text.length > this.maxTextLength;
    const compared = storedForm(normalize(truncated ? cut(text, this.maxTextLength) : text).compared);
    const features = this.featuresOf(compared);
    const id = this.allocateId();
    const m = compared.length;
    const bucket = this.bucketOfLength[m]!;
    // Distinct postings: two features with the same bucketed hash post once.
    const posted = new Set<number>([bucketHash(hashString(compared, EXACT_SEED), bucket)]);
    for (const word of features.words) posted.add(bucketHash(word, bucket));
    if (features.grams) {
      for (const gram of features.grams) posted.add(bucketHash(gram, bucket));
      this.gramEntries[bucket]!++;
    }
    for (const hash of posted) this.addPosting(hash, id);
    // Most texts are their compared form again but for a few capitals and punctuation marks: the
    // record keeps those edits instead of a second copy when that is shorter.
    const delta = encodeTextDelta(text, compared);
    const kept = delta ?? text;
    this.records[id] = this.units.add([key, compared, kept]);
    const at = id * META_STRIDE;
    this.meta[at + META_KEY_UNITS] = key.length;
    this.meta[at + META_TEXT_UNITS] = kept.length;
    this.insertKey(key, id);
    this.shapes[id] = shapeOf(m, features.grams ? features.grams.length : 0);
    this.meta[at + META_LANGS] = langSet;
    this.meta[at + META_COUNTS] = (truncated ? TRUNCATED_BIT : 0) | (delta === null ? 0 : DELTA_BIT) | (posted.size << POSTINGS_SHIFT);
    signatureOf(compared, this.signatures, id * SIGNATURE_WORDS);
    this.liveCount++;
    this.livePostings += posted.size;
  }

  remove(key: string): boolean {
    this.checkWritable();
    const id = this.deleteKey(key);
    if (id < 0) return false;
    const at = id * META_STRIDE;
    const shape = this.shapes[id]!;
    this.units.remove(this.records[id]!, this.meta[at + META_KEY_UNITS]! + lengthOf(shape) + this.meta[at + META_TEXT_UNITS]!);
    const counts = this.meta[at + META_COUNTS]!;
    const postings = counts >>> POSTINGS_SHIFT;
    if (gramsOf(shape) > 0) this.gramEntries[this.bucketOfLength[lengthOf(shape)]!]!--;
    this.shapes[id] = REMOVED_SHAPE;
    this.meta[at + META_LANGS] = -1;
    this.liveCount--;
    this.livePostings -= postings;
    this.deadPostings += postings;
    this.pendingIds.push(id);
    if (this.liveCount === 0 || (this.deadPostings >= MIN_COMPACTION && this.deadPostings * 2 >= this.livePostings)) this.compact();
    return true;
  }

  /** Drops the postings of removed entries and repacks the lists; runs by itself as entries are removed. */
  compact(): void {
    this.checkWritable();
    const oldHash = this.slotHash;
    const oldEntry = this.slotEntry;
    const oldStart = this.listStart;
    const oldLength = this.listLength;
    const oldPool = this.pool;
    const shapes = this.shapes;
    const live = (id: number) => lengthOf(shapes[id]!) >= 0;
    // Live postings per feature, to size the new arrays.
    const counts = new Int32Array(oldEntry.length);
    let features = 0;
    let lists = 0;
    let postings = 0;
    for (let s = 0; s < oldEntry.length; s++) {
      const entry = oldEntry[s]!;
      let count = 0;
      if (entry < 0) count = live(-entry - 1) ? 1 : 0;
      else if (entry > 0) {
        const start = oldStart[entry - 1]!;
        const end = start + oldLength[entry - 1]!;
        for (let p = start; p < end; p++) if (live(oldPool[p]!)) count++;
      }
      counts[s] = count;
      if (count > 0) features++;
      if (count > 1) {
        lists++;
        postings += CLASS_SIZES[classOf(count)]!;
      }
    }
    const slots = tableSize(features);
    this.slotHash = typedArray(Int32Array, slots, this.shared);
    this.slotEntry = typedArray(Int32Array, slots, this.shared);
    this.slotsUsed = 0;
    const listCapacity = Math.max(256, lists);
    this.listStart = typedArray(Int32Array, listCapacity, this.shared);
    this.listLength = typedArray(Int32Array, listCapacity, this.shared);
    this.listClass = typedArray(Uint8Array, listCapacity, this.shared);
    this.listCount = 0;
    this.pool = typedArray(Int32Array, Math.max(1 << 16, postings + (postings >>> 3)), this.shared);
    this.poolTop = 0;
    this.freeBlocks.fill(-1);
    for (let s = 0; s < oldEntry.length; s++) {
      const count = counts[s]!;
      if (count === 0) continue;
      const entry = oldEntry[s]!;
      const slot = this.emptySlot(oldHash[s]!);
      this.slotHash[slot] = oldHash[s]!;
      this.slotsUsed++;
      if (count === 1) {
        let id = -entry - 1;
        if (entry > 0) {
          const start = oldStart[entry - 1]!;
          for (let p = start; ; p++) {
            if (live(oldPool[p]!)) {
              id = oldPool[p]!;
              break;
            }
          }
        }
        this.slotEntry[slot] = -(id + 1);
        continue;
      }
      const list = this.newList(count);
      this.slotEntry[slot] = list + 1;
      const start = oldStart[entry - 1]!;
      const end = start + oldLength[entry - 1]!;
      let at = this.listStart[list]!;
      for (let p = start; p < end; p++) {
        const id = oldPool[p]!;
        if (live(id)) this.pool[at++] = id;
      }
      this.listLength[list] = count;
    }
    this.deadPostings = 0;
    this.compactRecords();
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
    const stats = this.lastSearch;
    stats.listsRead = stats.postingsRead = stats.listsSkipped = stats.met = stats.candidates = stats.verified = 0;
    if (limit === 0 || minScore > EXACT || this.liveCount === 0) return [];
    const q = this.prepare(query);
    const top = new TopResults(limit, minScore, options.floors ?? null);
    const [lo, hi] = this.lengthRange(q.n, Math.max(minScore, options.lengthsFor ?? 0));
    if (lo > hi) return [];
    const stamp = this.startSearch();
    const langs = options.langs ?? null;
    if (minScore === EXACT) return this.exactSearch(q, top, langs, stamp);
    const n = q.n;
    const { words, weights } = q.features;

    // 1. The lists: every feature in every bucket of the length range (trigrams only in buckets
    //    that have trigram-indexed entries), rarest first.
    const bLo = this.bucketOfLength[lo]!;
    const bHi = this.bucketOfLength[hi]!;
    let queryGrams: number[] = [];
    for (let b = bLo; b <= bHi; b++) {
      if (this.gramEntries[b]! > 0) {
        queryGrams = q.features.grams ?? this.gramsOf(q.stored.compared);
        break;
      }
    }
    const refs: ListRef[] = [];
    const [skipLo, skipHi] = options.skipLengthsFor === undefined ? [1, 0] : this.lengthRange(n, options.skipLengthsFor);
    for (let b = bLo; b <= bHi; b++) {
      if (this.bucketMin[b]! >= skipLo && this.bucketMax[b]! <= skipHi) continue;
      const inside = this.bucketMin[b]! >= lo && this.bucketMax[b]! <= hi;
      for (let i = 0; i < words.length; i++) {
        const entry = this.findEntry(bucketHash(words[i]!, b));
        if (entry !== 0) refs.push({ entry, length: this.lengthOf(entry), weight: weights[i]!, gram: false, bucket: b, inside });
      }
      if (this.gramEntries[b]! > 0) {
        for (const gram of queryGrams) {
          const entry = this.findEntry(bucketHash(gram, b));
          if (entry !== 0) refs.push({ entry, length: this.lengthOf(entry), weight: 0, gram: true, bucket: b, inside });
        }
      }
    }
    refs.sort((x, y) => x.length - y.length);

    // What an entry first met in a list can still gather, per bucket: the weight of the word
    // lists and the number of trigram lists not read yet (credited to every candidate at the end).
    const unreadWeight = new Float64Array(this.bucketCount);
    const unreadGrams = new Int32Array(this.bucketCount);
    for (const ref of refs) {
      if (ref.gram) unreadGrams[ref.bucket]!++;
      else unreadWeight[ref.bucket]! += ref.weight;
    }
    // The share is of the longer text: an entry of bucket b needs minShare × (max(n, m) + 1).
    const wordNeed = new Float64Array(this.bucketCount);
    for (let b = bLo; b <= bHi; b++) wordNeed[b] = this.minShare * (Math.max(n, this.bucketMin[b]!, lo) + 1);
    // The trigram bound for an entry no longer than the query: shared ≥ Gq − 3 × allowed distance.
    const gramNeed = Math.max(1, queryGrams.length - 3 * Math.floor(((EXACT - minScore) * n) / EXACT));

    // 2. Merge into the accumulators of the entries met (`metTable`), within the budget.
    const table = this.metTable;
    table.clear();
    const postingsBudget = options.maxPostingsRead ?? this.maxPostingsRead;
    let budget = postingsBudget;
    const meta = this.meta;
    const shapes = this.shapes;
    const inRange = { lo, hi };
    for (const ref of refs) {
      const bucket = ref.bucket;
      const open = unreadWeight[bucket]! >= wordNeed[bucket]! || unreadGrams[bucket]! >= gramNeed;
      let length = ref.length;
      if (!open && length > CLOSED_READ_RATIO * table.met) {
        // Read for the entries met only, it would cost more than it tells: credited instead.
        stats.listsSkipped++;
        continue;
      }
      if (length > budget) {
        stats.listsSkipped++;
        // Read part of the rarest list rather than nothing at all (it still counts as unread).
        if (table.met > 0 || budget === 0) continue;
        length = budget;
      } else if (ref.gram) unreadGrams[bucket]!--;
      else unreadWeight[bucket]! -= ref.weight;
      budget -= length;
      stats.listsRead++;
      const add = ref.gram ? GRAM_HIT : ref.weight | 0;
      let postings = this.pool;
      let start = 0;
      if (ref.entry < 0) {
        postings = this.single;
        postings[0] = -ref.entry - 1;
      } else start = this.listStart[ref.entry - 1]!;
      const end = start + length;
      if (!open) addToMet(table, postings, start, end, add);
      else {
        // A removed entry (length −1) is dropped with the candidates when `inside`.
        for (let from = start; from < end;) {
          if (table.met === table.room) table.grow();
          from = addAll(table, shapes, postings, from, end, ref.inside ? null : inRange, add);
        }
      }
    }
    stats.postingsRead = postingsBudget - budget;
    const met = table.met;
    stats.met = met;

    // 3. The share, then the candidates by promise (a counting sort on LEVELS levels). The bounds
    //    wait for a candidate's turn in step 4: most candidates never get one.
    const gq = queryGrams.length;
    if (this.candidatePicks.length < met) {
      this.candidatePicks = new Int32Array(met * 2);
      this.candidateLevels = new Uint8Array(met * 2);
      this.candidateGrams = new Int32Array(met * 2);
    }
    const candidateGrams = this.candidateGrams;
    const candidatePicks = this.candidatePicks;
    const candidateLevels = this.candidateLevels;
    const levelCounts = new Int32Array(LEVELS + 1);
    const minShare = this.minShare;
    const bucketOfLength = this.bucketOfLength;
    if (this.metIds.length < met) {
      this.metIds = new Int32Array(met * 2);
      this.metLengths = new Int16Array(met * 2);
      this.metPacked = new Int32Array(met * 2);
      this.metGrams = new Uint16Array(met * 2);
    }
    const { metIds, metLengths, metPacked, metGrams } = this;
    table.gather(metIds, metLengths, metPacked, metGrams);
    const count = rankMet({ n, gq, minShare, bucketOfLength, unreadWeight, unreadGrams }, met, metLengths, metPacked, metGrams, {
      picks: candidatePicks,
      levels: candidateLevels,
      grams: candidateGrams,
      levelCounts,
    });
    stats.candidates = count;
    // Best level first; within a level, in the order met.
    const firstAt = new Int32Array(LEVELS + 1);
    for (let level = LEVELS, at = 0; level >= 0; level--) {
      firstAt[level] = at;
      at += levelCounts[level]!;
    }
    const ordered = new Int32Array(count);
    for (let i = 0; i < count; i++) ordered[firstAt[candidateLevels[i]!]!++] = i;

    // 4. Verify, best promise first: the sound bounds (length, trigrams, bigram signature), the
    //    bigram filter, then at most maxVerified edit distances.
    let verified = 0;
    const signatures = this.signatures;
    const qs = q.signature;
    const qs0 = qs[0]!;
    const qs1 = qs[1]!;
    const qs2 = qs[2]!;
    const qs3 = qs[3]!;
    this.countBigrams(q.stored.compared);
    try {
      const any = options.any === true;
      const maxVerified = options.maxVerified ?? this.maxVerified;
      const maxExamined = options.maxExamined ?? Infinity;
      let examined = 0;
      // No entry's language set to read when every set the index has meets the query's languages.
      const checkLangs = langs !== null && !this.langSets.every((_, set) => this.langsAllowed(set, langs, stamp));
      for (let k = 0; k < count && verified < maxVerified; k++) {
        const i = ordered[k]!;
        const t = candidatePicks[i]!;
        const need = top.need();
        if (need > EXACT) break;
        // What the merge gathered first (dense arrays); the entry's own data only past the bounds.
        const m = metLengths[t]!;
        const max = n > m ? n : m;
        // The most edits a match may have: base ≥ need ⇔ d ≤ ⌊(100 − need) × max / 100⌋.
        const allowed = Math.floor(((EXACT - need) * max) / EXACT);
        if ((n > m ? n - m : m - n) > allowed) continue;
        const ge = metGrams[t]!;
        // An edit destroys at most 3 padded trigrams of either side.
        if (ge > 0 && Math.max(gq, ge) - candidateGrams[i]! > 3 * allowed) continue;
        const id = metIds[t]!;
        if (checkLangs && !this.langsAllowed(meta[id * META_STRIDE + META_LANGS]!, langs, stamp)) continue;
        if (++examined > maxExamined) break;
        // Low minimums allow more edits than one-sided bigrams of unrelated texts usually make.
        if (need >= SIGNATURE_MIN_SCORE && signatureDistance(qs0, qs1, qs2, qs3, signatures, id * SIGNATURE_WORDS) > allowed) continue;
        if (this.verify(id, q, top)) verified++;
        if (any && top.scores.length > 0) break;
      }
    } finally {
      this.clearBigrams(q.stored.compared);
    }
    stats.verified = verified;
    return top.matches();
  }

  /**
   * A search at 100: only an entry with the query's compared form can score 100 (base 100 is edit
   * distance 0), and those are the postings of the whole compared form's feature.
   */
  private exactSearch(q: PreparedQuery, top: TopResults, langs: readonly string[] | null, stamp: number): IndexMatch[] {
    const entry = this.findEntry(bucketHash(hashString(q.stored.compared, EXACT_SEED), this.bucketOfLength[q.n]!));
    if (entry === 0) return [];
    let postings = this.pool;
    let start = 0;
    if (entry < 0) {
      postings = this.single;
      postings[0] = -entry - 1;
    } else start = this.listStart[entry - 1]!;
    const end = start + this.lengthOf(entry);
    const stats = this.lastSearch;
    stats.listsRead = 1;
    stats.postingsRead = end - start;
    this.countBigrams(q.stored.compared);
    try {
      for (let p = start; p < end; p++) {
        const id = postings[p]!;
        const at = id * META_STRIDE;
        // Another text of the bucket whose hash collides, or a removed entry: not this form.
        if (lengthOf(this.shapes[id]!) !== q.n || !this.units.equals(this.records[id]!, this.meta[at + META_KEY_UNITS]!, q.stored.compared))
          continue;
        if (langs !== null && !this.langsAllowed(this.meta[at + META_LANGS]!, langs, stamp)) continue;
        stats.met++;
        stats.candidates++;
        if (this.verify(id, q, top)) stats.verified++;
      }
    } finally {
      this.clearBigrams(q.stored.compared);
    }
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
    this.countBigrams(q.stored.compared);
    try {
      for (let id = 0; id < this.nextId; id++) {
        const m = lengthOf(this.shapes[id]!);
        if (m < lo || m > hi) continue;
        if (langs !== null && !this.langsAllowed(this.meta[id * META_STRIDE + META_LANGS]!, langs, stamp)) continue;
        this.verify(id, q, top);
      }
    } finally {
      this.clearBigrams(q.stored.compared);
    }
    return top.matches();
  }

  /** Copies the live entries' records into a pool of their size, once removed ones are a quarter of it. */
  private compactRecords(): void {
    if (this.units.removedBytes * 4 < this.units.usedBytes) return;
    const live: number[] = [];
    for (let id = 0; id < this.nextId; id++) if (lengthOf(this.shapes[id]!) >= 0) live.push(id);
    const meta = this.meta;
    this.units.compact({
      count: live.length,
      handle: (i) => this.records[live[i]!]!,
      units: (i) => {
        const at = live[i]! * META_STRIDE;
        return meta[at + META_KEY_UNITS]! + lengthOf(this.shapes[live[i]!]!) + meta[at + META_TEXT_UNITS]!;
      },
      moved: (i, handle) => {
        this.records[live[i]!] = handle;
      },
    });
  }

  approximateBytes(): number {
    const typed =
      this.meta.byteLength +
      this.shapes.byteLength +
      this.signatures.byteLength +
      this.keyHashes.byteLength +
      this.keySlots.byteLength +
      this.metTable.byteLength +
      this.slotHash.byteLength +
      this.slotEntry.byteLength +
      this.listStart.byteLength +
      this.listLength.byteLength +
      this.listClass.byteLength +
      this.records.byteLength +
      // The pools' tails were never written to: not resident.
      4 * this.poolTop +
      this.units.usedBytes;
    return typed;
  }

  // -------------------------------------------------------------------------------------------
  // Entries
  // -------------------------------------------------------------------------------------------

  private allocateId(): number {
    const reused = this.freeIds.pop();
    if (reused !== undefined) return reused;
    const id = this.nextId++;
    const capacity = this.meta.length / META_STRIDE;
    if (id >= capacity) this.growEntries(Math.max(1024, capacity * 2));
    return id;
  }

  private growEntries(capacity: number): void {
    const meta = typedArray(Int32Array, capacity * META_STRIDE, this.shared).fill(-1);
    meta.set(this.meta);
    this.meta = meta;
    const shapes = typedArray(Int32Array, capacity, this.shared).fill(REMOVED_SHAPE);
    shapes.set(this.shapes);
    this.shapes = shapes;
    const signatures = typedArray(Int32Array, capacity * SIGNATURE_WORDS, this.shared);
    signatures.set(this.signatures);
    this.signatures = signatures;
    const keyHashes = typedArray(Int32Array, capacity, this.shared);
    keyHashes.set(this.keyHashes);
    this.keyHashes = keyHashes;
    const records = typedArray(Uint32Array, capacity, this.shared);
    records.set(this.records);
    this.records = records;
  }

  /** Whether entry `id`'s key is `key`. */
  private keyIs(id: number, key: string): boolean {
    return this.meta[id * META_STRIDE + META_KEY_UNITS] === key.length && this.units.equals(this.records[id]!, 0, key);
  }

  /** The text as given of entry `id`. */
  private textOf(id: number): string {
    const handle = this.records[id]!;
    const at = id * META_STRIDE;
    const keyUnits = this.meta[at + META_KEY_UNITS]!;
    const m = lengthOf(this.shapes[id]!);
    const end = keyUnits + m + this.meta[at + META_TEXT_UNITS]!;
    if ((this.meta[at + META_COUNTS]! & DELTA_BIT) === 0) return this.units.read(handle, keyUnits + m, end);
    const units = this.units.unitsOf(handle);
    const start = UnitPool.startOf(handle);
    return decodeTextDelta(units, start + keyUnits, units, start + keyUnits + m, start + end);
  }

  /** The key of entry `id`. */
  private keyOf(id: number): string {
    return this.units.read(this.records[id]!, 0, this.meta[id * META_STRIDE + META_KEY_UNITS]!);
  }

  /** The id of a key, or −1. */
  private findKey(key: string): number {
    const hash = hashString(key, KEY_SEED);
    const mask = this.keySlots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.keySlots[slot]!;
      if (entry === 0) return -1;
      if (this.keyHashes[entry - 1] === hash && this.keyIs(entry - 1, key)) return entry - 1;
    }
  }

  private insertKey(key: string, id: number): void {
    if ((this.liveCount + 1) * 2 > this.keySlots.length) this.rehashKeys(this.keySlots.length * 2);
    const hash = hashString(key, KEY_SEED);
    this.keyHashes[id] = hash;
    const mask = this.keySlots.length - 1;
    let slot = hash & mask;
    while (this.keySlots[slot] !== 0) slot = (slot + 1) & mask;
    this.keySlots[slot] = id + 1;
  }

  /** Removes a key from the key table (backward-shift deletion, no tombstones); its id, or −1. */
  private deleteKey(key: string): number {
    const hash = hashString(key, KEY_SEED);
    const slots = this.keySlots;
    const mask = slots.length - 1;
    let hole = hash & mask;
    for (; ; hole = (hole + 1) & mask) {
      const entry = slots[hole]!;
      if (entry === 0) return -1;
      if (this.keyHashes[entry - 1] === hash && this.keyIs(entry - 1, key)) break;
    }
    const id = slots[hole]! - 1;
    for (let next = (hole + 1) & mask; slots[next] !== 0; next = (next + 1) & mask) {
      const home = this.keyHashes[slots[next]! - 1]! & mask;
      // The entry at `next` may move into the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!stays) {
        slots[hole] = slots[next]!;
        hole = next;
      }
    }
    slots[hole] = 0;
    return id;
  }

  private rehashKeys(size: number): void {
    const old = this.keySlots;
    this.keySlots = typedArray(Int32Array, size, this.shared);
    const mask = size - 1;
    for (let s = 0; s < old.length; s++) {
      const entry = old[s]!;
      if (entry === 0) continue;
      let slot = this.keyHashes[entry - 1]! & mask;
      while (this.keySlots[slot] !== 0) slot = (slot + 1) & mask;
      this.keySlots[slot] = entry;
    }
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
  // Features, queries, verification
  // -------------------------------------------------------------------------------------------

  private featuresOf(compared: string): Features {
    const words: number[] = [];
    const weights: number[] = [];
    // Distinct tokens; a token's weight is what its occurrences cover (length + 1 each).
    const seen = new Map<string, number>();
    let tokens = 0;
    for (const token of compared.split(' ')) {
      tokens++;
      const at = seen.get(token);
      if (at !== undefined) {
        weights[at]! += token.length + 1;
        continue;
      }
      seen.set(token, words.length);
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
    for (let i = -1; i < n - 1; i++) {
      const a = i < 0 ? BOUNDARY : compared.charCodeAt(i);
      const b = compared.charCodeAt(i + 1);
      const c = i + 2 < n ? compared.charCodeAt(i + 2) : BOUNDARY;
      // Distinct by the three code units themselves (48 bits, exact in a double).
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
    if (this.lastPrepared?.original === query) return this.lastPrepared;
    this.lastPrepared = this.prepareAnew(query);
    return this.lastPrepared;
  }

  private prepareAnew(query: string): PreparedQuery {
    const truncated = query.length > this.maxTextLength;
    const norm = normalize(truncated ? cut(query, this.maxTextLength) : query);
    const compared = storedForm(norm.compared);
    const signature = new Int32Array(SIGNATURE_WORDS);
    signatureOf(compared, signature, 0);
    return {
      norm,
      stored: { ...norm, compared },
      original: query,
      truncated,
      n: compared.length,
      features: this.featuresOf(compared),
      signature,
      pattern: new LevenshteinPattern(compared),
    };
  }

  /** The compared lengths an entry can have and still reach `minScore` against a query of length n. */
  private lengthRange(n: number, minScore: number): [number, number] {
    if (minScore <= 0) return [0, this.maxTextLength];
    const lo = Math.ceil((minScore * n) / EXACT);
    const hi = Math.min(this.maxTextLength, Math.floor((EXACT * n) / minScore));
    return [lo, hi];
  }

  /** Scores entry `id` against the query and offers it to the results; false when the bigram filter alone turned it down. */
  private verify(id: number, q: PreparedQuery, top: TopResults): boolean {
    const need = top.need();
    const handle = this.records[id]!;
    const units = this.units.unitsOf(handle);
    const at = id * META_STRIDE;
    const keyUnits = this.meta[at + META_KEY_UNITS]!;
    const start = UnitPool.startOf(handle) + keyUnits;
    const m = lengthOf(this.shapes[id]!);
    const max = Math.max(q.n, m);
    const allowed = Math.floor(((EXACT - need) * max) / EXACT);
    if (!this.bigramsCanMatch(units, start, m, max + 1 - 2 * allowed)) return false;
    // The base score (score.ts `baseScore`) of the stored compared forms, the query's pattern prepared once.
    if (max > 0) {
      const d = Math.min(q.pattern.distance(units, start, start + m, allowed), max);
      const kept = EXACT * (max - d);
      if ((kept - (kept % max)) / max < need) return true;
    }
    const text = this.textOf(id);
    const truncated = (this.meta[at + META_COUNTS]! & TRUNCATED_BIT) !== 0;
    let score = scoreMatch(q.norm, normalize(truncated ? cut(text, this.maxTextLength) : text), { minScore: need });
    if (score === null) return true;
    if (score === EXACT && (truncated || q.truncated) && text !== q.original) score = EXACT - 1;
    top.offer(score, this.keyOf(id));
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
   * Whether the m code units of `units` from `start` share at least `need` padded bigrams (as
   * multisets) with the query (counted by `countBigrams`). Hash collisions only count more.
   */
  private bigramsCanMatch(units: Uint8Array | Uint16Array, start: number, m: number, need: number): boolean {
    if (need <= 0) return true;
    const counts = this.bigramCounts;
    const undo = this.bigramUndo;
    let shared = 0;
    let used = 0;
    let previous = BOUNDARY;
    for (let i = 0; i <= m; i++) {
      const code = i < m ? units[start + i]! : BOUNDARY;
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

  /** The feature table's entry for a hash (0 when absent). */
  private findEntry(hash: number): number {
    const mask = this.slotHash.length - 1;
    for (let slot = fmix(hash ^ SLOT_SEED) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slotEntry[slot]!;
      if (entry === 0 || this.slotHash[slot] === hash) return entry;
    }
  }

  private lengthOf(entry: number): number {
    return entry < 0 ? 1 : this.listLength[entry - 1]!;
  }

  /** The first free slot on a hash's probe sequence (the hash must be absent). */
  private emptySlot(hash: number): number {
    const mask = this.slotHash.length - 1;
    let slot = fmix(hash ^ SLOT_SEED) & mask;
    while (this.slotEntry[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  private addPosting(hash: number, id: number): void {
    const mask = this.slotHash.length - 1;
    let slot = fmix(hash ^ SLOT_SEED) & mask;
    for (;;) {
      const entry = this.slotEntry[slot]!;
      if (entry === 0) {
        this.slotHash[slot] = hash;
        this.slotEntry[slot] = -(id + 1);
        if (++this.slotsUsed * 2 > this.slotHash.length) this.rehash();
        return;
      }
      if (this.slotHash[slot] === hash) {
        if (entry > 0) this.append(entry - 1, id);
        else {
          // The second posting: the inline one moves into a list.
          const list = this.newList(2);
          this.pool[this.listStart[list]!] = -entry - 1;
          this.listLength[list] = 1;
          this.append(list, id);
          this.slotEntry[slot] = list + 1;
        }
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private newList(room: number): number {
    const list = this.listCount++;
    if (list >= this.listStart.length) {
      const capacity = this.listStart.length * 2;
      this.listStart = grow(this.listStart, typedArray(Int32Array, capacity, this.shared));
      this.listLength = grow(this.listLength, typedArray(Int32Array, capacity, this.shared));
      this.listClass = grow(this.listClass, typedArray(Uint8Array, capacity, this.shared));
    }
    const cls = classOf(room);
    this.listStart[list] = this.allocateBlock(cls);
    this.listLength[list] = 0;
    this.listClass[list] = cls;
    return list;
  }

  private rehash(): void {
    const oldHash = this.slotHash;
    const oldEntry = this.slotEntry;
    this.slotHash = typedArray(Int32Array, oldHash.length * 2, this.shared);
    this.slotEntry = typedArray(Int32Array, oldHash.length * 2, this.shared);
    for (let s = 0; s < oldHash.length; s++) {
      if (oldEntry[s] === 0) continue;
      const slot = this.emptySlot(oldHash[s]!);
      this.slotHash[slot] = oldHash[s]!;
      this.slotEntry[slot] = oldEntry[s]!;
    }
  }

  private append(list: number, id: number): void {
    const length = this.listLength[list]!;
    const cls = this.listClass[list]!;
    if (length === CLASS_SIZES[cls]) {
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
    const size = CLASS_SIZES[cls]!;
    if (this.poolTop + size > this.pool.length) {
      const capacity = Math.max(this.poolTop + size, Math.floor(this.pool.length * 1.5));
      const pool = typedArray(Int32Array, capacity, this.shared);
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
  // Scores are whole numbers: ≥ 74.5 is ≥ 75.
  return { minScore: Math.max(0, Math.ceil(minScore)), limit };
}

function checkInteger(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be a whole number in ${min}..${max}, got ${value}`);
  return value;
}

function stripUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The number and tag characters of the compared form swapped with four control characters, both
 * ways: a bijection on code units applied to both sides, so edit distances, tokens and n-grams are
 * unchanged, and a Latin-1 text's compared form stays one byte a character in V8.
 */
const STORED_SWAP = new Map<string, string>([
  [NUMBER_CHARACTER, '\u0010'],
  ['\u0010', NUMBER_CHARACTER],
  [TAG_CHARACTERS.opening, '\u0011'],
  ['\u0011', TAG_CHARACTERS.opening],
  [TAG_CHARACTERS.closing, '\u0012'],
  ['\u0012', TAG_CHARACTERS.closing],
  [TAG_CHARACTERS.standalone, '\u0013'],
  ['\u0013', TAG_CHARACTERS.standalone],
]);
// eslint-disable-next-line no-control-regex -- the swap targets are control characters on purpose
const STORED_SWAPPED = /[\u0010-\u0013\uFDD0\uE000\uE800\uF000]/gu;

export function storedForm(compared: string): string {
  return compared.replace(STORED_SWAPPED, (c) => STORED_SWAP.get(c)!);
}

/** The first `length` code units, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Block sizes of the posting lists: 1, 2, 3, 4, 6, 8, 12, 16, 24, … (growing by ×1.5 or ×4/3: at most a third is slack). */
const CLASS_SIZES: number[] = [1, 2];
while (CLASS_SIZES[CLASS_SIZES.length - 1]! < 2 ** 30) {
  const last = CLASS_SIZES[CLASS_SIZES.length - 1]!;
  CLASS_SIZES.push((last & (last - 1)) === 0 ? last + last / 2 : (last / 3) * 4);
}

/** Smallest class holding `count` postings. */
function classOf(count: number): number {
  let cls = 0;
  while (CLASS_SIZES[cls]! < count) cls++;
  return cls;
}

/** Table size for `count` keys at load ≤ ½: a power of two. */
function tableSize(count: number): number {
  return Math.max(1024, 2 ** Math.ceil(Math.log2(count * 2 + 1)));
}

/** `grown` (a larger array) with `array`'s values at its start. */
function grow<T extends Int32Array | Uint8Array>(array: T, grown: T): T {
  grown.set(array);
  return grown;
}

/** The least power of two (at least 1024) that is at least `n`. */
function powerOfTwoAtLeast(n: number): number {
  let size = 1024;
  while (size < n) size *= 2;
  return size;
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

/**
 * The signature test runs for searches needing at least this score: below, the edits allowed
 * outnumber the one-sided bigrams of unrelated texts, and the test only costs time.
 */
const SIGNATURE_MIN_SCORE = 70;
/** Integers of a bigram signature. */
const SIGNATURE_WORDS = 4;

/**
 * The bigram signature of a compared form: bit h(a, b) of SIGNATURE_WORDS × 32 set for each padded
 * bigram. An edit destroys at most two bigram occurrences of either side, so a bigram of one side
 * that the other lacks altogether needs an edit for every two, and a bit set on one side only
 * stands for at least one such bigram (collisions only clear differences): the edit distance is at
 * least half the larger count of one-sided bits (`signatureDistance`). No string is read: the test
 * runs on the candidate's four integers before any other filter.
 */
function signatureOf(compared: string, into: Int32Array, at: number): void {
  into.fill(0, at, at + SIGNATURE_WORDS);
  let previous = BOUNDARY;
  for (let i = 0; i <= compared.length; i++) {
    const code = i < compared.length ? compared.charCodeAt(i) : BOUNDARY;
    const bit = (Math.imul(previous, 0x2c1b3c6d) ^ Math.imul(code, 0x297a2d39)) >>> 25;
    into[at + (bit >>> 5)]! |= 1 << (bit & 31);
    previous = code;
  }
}

/** A lower bound of the edit distance from two signatures (see `signatureOf`). */
function signatureDistance(q0: number, q1: number, q2: number, q3: number, signatures: Int32Array, at: number): number {
  const e0 = signatures[at]!;
  const e1 = signatures[at + 1]!;
  const e2 = signatures[at + 2]!;
  const e3 = signatures[at + 3]!;
  const onlyQuery = popcount(q0 & ~e0) + popcount(q1 & ~e1) + popcount(q2 & ~e2) + popcount(q3 & ~e3);
  const onlyEntry = popcount(e0 & ~q0) + popcount(e1 & ~q1) + popcount(e2 & ~q2) + popcount(e3 & ~q3);
  return (Math.max(onlyQuery, onlyEntry) + 1) >>> 1;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

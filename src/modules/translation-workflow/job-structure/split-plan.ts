import { errors } from '../../../errors/index.js';

/**
 * Where a split cuts a job (SplitJobActionDto). Pure, table-tested.
 *
 * A job covers the file's segments `first`..`last` (inclusive). Each way of splitting yields the
 * parts as inclusive index ranges of the file, in order, covering the job's range exactly:
 * - `segmentOrdinals`: after each given segment, numbered 1.. within the job (Phrase's segment
 *   numbers in the editor); the job's last segment or beyond is refused;
 * - `partCount`: N parts of equal segment count, the first parts one segment longer when the
 *   count does not divide evenly;
 * - `partSize`: parts of that many segments, the last one holding the rest;
 * - `wordCount`: a part closes once it holds at least that many words.
 * A split that would leave one part only is a 400: nothing would change.
 */

export interface SplitRequest {
  segmentOrdinals?: readonly number[] | null;
  partCount?: number | null;
  partSize?: number | null;
  wordCount?: number | null;
  byDocumentPart?: boolean | null;
}

export interface IndexRange {
  first: number;
  last: number;
}

export type SplitMethod = 'segmentOrdinals' | 'partCount' | 'partSize' | 'wordCount' | 'byDocumentPart';

const present = (value: unknown) => value !== null && value !== undefined && value !== false;

/** The one method the request names; 400 when it names none or several. */
export function splitMethod(request: SplitRequest): SplitMethod {
  const named = (['segmentOrdinals', 'partCount', 'partSize', 'wordCount', 'byDocumentPart'] as const).filter((key) =>
    present(request[key]),
  );
  if (named.length !== 1) {
    throw errors.InvalidArguments({
      reason: 'Name exactly one way of splitting: segmentOrdinals, partCount, partSize, wordCount or byDocumentPart.',
      details: [{ field: 'body', message: named.length ? `several options: ${named.join(', ')}` : 'no option given' }],
    });
  }
  return named[0]!;
}

/** Part ranges ending at the given last indexes (the final part ends at `range.last`). */
function rangesFromCuts(range: IndexRange, lastIndexes: readonly number[]): IndexRange[] {
  const parts: IndexRange[] = [];
  let first = range.first;
  for (const last of [...lastIndexes, range.last]) {
    parts.push({ first, last });
    first = last + 1;
  }
  return parts;
}

function onePartOnly(field: string, why: string): never {
  throw errors.InvalidArguments({ reason: `This split would leave the job in one part: ${why}.`, details: [{ field, message: why }] });
}

function byOrdinals(range: IndexRange, ordinals: readonly number[]): IndexRange[] {
  const size = range.last - range.first + 1;
  const sorted = [...new Set(ordinals)].sort((a, b) => a - b);
  const bad = sorted.filter((n) => !Number.isInteger(n) || n < 1 || n >= size);
  if (bad.length)
    throw errors.InvalidArguments({
      reason: `Segment ordinals must be between 1 and ${size - 1} (the job has ${size} segments; a split after its last segment changes nothing).`,
      details: [{ field: 'segmentOrdinals', message: `out of range: ${bad.join(', ')}` }],
    });
  return rangesFromCuts(
    range,
    sorted.map((n) => range.first + n - 1),
  );
}

function byCount(range: IndexRange, count: number): IndexRange[] {
  const size = range.last - range.first + 1;
  if (!Number.isInteger(count) || count < 2) onePartOnly('partCount', 'partCount must be at least 2');
  if (count > size)
    throw errors.InvalidArguments({
      reason: `The job has ${size} segments: it cannot be split into ${count} parts.`,
      details: [{ field: 'partCount', message: `at most ${size}` }],
    });
  const base = Math.floor(size / count);
  const longer = size % count;
  const cuts: number[] = [];
  let last = range.first - 1;
  for (let part = 0; part < count - 1; part++) {
    last += base + (part < longer ? 1 : 0);
    cuts.push(last);
  }
  return rangesFromCuts(range, cuts);
}

function bySize(range: IndexRange, partSize: number): IndexRange[] {
  const size = range.last - range.first + 1;
  if (!Number.isInteger(partSize) || partSize < 1)
    throw errors.InvalidArguments({
      reason: 'partSize must be a positive number of segments.',
      details: [{ field: 'partSize', message: 'must be at least 1' }],
    });
  if (partSize >= size) onePartOnly('partSize', `the job has ${size} segments, not more than ${partSize}`);
  const cuts: number[] = [];
  for (let last = range.first + partSize - 1; last < range.last; last += partSize) cuts.push(last);
  return rangesFromCuts(range, cuts);
}

/** `words[i]` is the word count of segment `range.first + i`. */
function byWords(range: IndexRange, wordCount: number, words: readonly number[]): IndexRange[] {
  if (!Number.isInteger(wordCount) || wordCount < 1)
    throw errors.InvalidArguments({
      reason: 'wordCount must be a positive number of words.',
      details: [{ field: 'wordCount', message: 'must be at least 1' }],
    });
  const cuts: number[] = [];
  let inPart = 0;
  for (let i = 0; i < words.length - 1; i++) {
    inPart += words[i]!;
    if (inPart >= wordCount) {
      cuts.push(range.first + i);
      inPart = 0;
    }
  }
  if (cuts.length === 0) onePartOnly('wordCount', `the job has fewer than ${wordCount} words before its last segment`);
  return rangesFromCuts(range, cuts);
}

/**
 * The parts `request` cuts the job's `range` into. `words` (the segments' word counts, in order)
 * is needed for `wordCount` only.
 */
export function splitRanges(range: IndexRange, request: SplitRequest, words: readonly number[] = []): IndexRange[] {
  const method = splitMethod(request);
  if (range.last <= range.first) onePartOnly(method, 'the job has a single segment');
  switch (method) {
    case 'segmentOrdinals':
      return byOrdinals(range, request.segmentOrdinals!);
    case 'partCount':
      return byCount(range, request.partCount!);
    case 'partSize':
      return bySize(range, request.partSize!);
    case 'wordCount':
      return byWords(range, request.wordCount!, words);
    case 'byDocumentPart':
      throw errors.NotSupportedYet({ option: 'byDocumentPart' });
  }
}

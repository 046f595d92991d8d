/**
 * Tag checks (docs/quality-assurance.md) over the display tokens `{1>` (open), `<1}` (close) and
 * `{1}` (standalone):
 * - joinMarksInconsistency -> JoinTags: the target's tokens are not the source's (one missing, extra, or of another kind);
 * - malformed -> Malformed: a close before its open, a close without an open, an open never closed, an
 *   open twice, or a tag the source does not have (a problem the source has too is not reported);
 * - nestedTags -> NestedTags: pairs that cross in the target (`{1>a{2>b<1}c<2}`) and not in the source;
 * - inconsistentFormatting -> Formatting: a tag sits inside another pair in the target than in the source;
 * - emptyPairTags -> EmptyPairTags: `{1><1}` in the target where the source's pair holds something;
 * - emptyTagContent -> EmptyTagContent: the target's pair holds only whitespace or tags where the source's holds text;
 * - inconsistentTagContent -> InconsistentTagContent: a pair whose source content has no letter (a number,
 *   a code, a placeholder: `{1>42<1}`) holds something else in the target, or an empty source pair holds text in the target.
 */
import type { QaText, TagToken } from '../text.js';
import { TAG_CLOSE, TAG_OPEN, TAG_STANDALONE, isWhitespace, tagDisplay, warning } from '../text.js';
import type { QaWarning } from '../types.js';

function tokenKey(token: TagToken): number {
  return token.id * 4 + token.kind;
}

/** joinMarksInconsistency -> JoinTags. */
export function checkJoinTags(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = source.tags;
  const tgt = target.tags;
  if (src.length === 0 && tgt.length === 0) return;
  let differ = src.length !== tgt.length;
  if (!differ) {
    const counts = new Map<number, number>();
    for (const token of src) counts.set(tokenKey(token), (counts.get(tokenKey(token)) ?? 0) + 1);
    for (const token of tgt) {
      const left = counts.get(tokenKey(token)) ?? 0;
      if (left === 0) {
        differ = true;
        break;
      }
      counts.set(tokenKey(token), left - 1);
    }
  }
  if (differ) out.push(warning('JoinTags', 'tags', ignorable, { sourceTagsCount: src.length, translationTagsCount: tgt.length }));
}

/** Structural problems of one side's tags, as key -> message. */
function problems(tags: readonly TagToken[], known: ReadonlyMap<number, number> | null): Map<string, string> {
  const found = new Map<string, string>();
  const open = new Set<number>();
  const closed = new Set<number>();
  const closedEarly = new Set<number>();
  const lastOpen = new Map<number, number>();
  for (let t = 0; t < tags.length; t++) if (tags[t]!.kind === TAG_OPEN) lastOpen.set(tags[t]!.id, t);
  for (let t = 0; t < tags.length; t++) {
    const token = tags[t]!;
    const display = tagDisplay(token);
    if (known) {
      const kinds = known.get(token.id);
      if (kinds === undefined) {
        found.set(`unknown ${display}`, `The tag ${display} is not in the source.`);
        continue;
      }
      const standaloneInSource = (kinds & (1 << TAG_STANDALONE)) !== 0;
      if (standaloneInSource !== (token.kind === TAG_STANDALONE)) {
        found.set(`kind ${display}`, `The tag ${display} is not a tag of that kind in the source.`);
        continue;
      }
    }
    if (token.kind === TAG_OPEN) {
      if (open.has(token.id) || closed.has(token.id)) found.set(`twice ${display}`, `The tag ${display} is opened twice.`);
      // The open of a pair whose close came first is that one problem, not also an unclosed open.
      if (closedEarly.delete(token.id)) closed.add(token.id);
      else open.add(token.id);
    } else if (token.kind === TAG_CLOSE) {
      if (open.has(token.id)) {
        open.delete(token.id);
        closed.add(token.id);
      } else {
        if ((lastOpen.get(token.id) ?? -1) > t) {
          found.set(`before ${display}`, `The tag ${display} closes before it opens.`);
          closedEarly.add(token.id);
        } else found.set(`unopened ${display}`, `The tag ${display} closes a pair that is not open.`);
      }
    }
  }
  for (const id of open) found.set(`unclosed {${id}>`, `The tag {${id}> is never closed.`);
  return found;
}

/** malformed -> Malformed: key = the problem and the token (`before <1}`), message in English. */
export function checkMalformed(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const tgt = target.tags;
  if (tgt.length === 0) return;
  const known = new Map<number, number>();
  for (const token of source.tags) known.set(token.id, (known.get(token.id) ?? 0) | (1 << token.kind));
  const found = problems(tgt, known);
  if (found.size === 0) return;
  const inSource = problems(source.tags, null);
  for (const [key, message] of found) if (!inSource.has(key)) out.push(warning('Malformed', key, ignorable, { message }));
}

/**
 * The pairs open at a point, innermost last, in amortized constant time per token: closing a pair
 * that is not the innermost marks it closed where it is (no search, no splice).
 */
class OpenPairs {
  private readonly ids: number[] = [];
  private readonly live: boolean[] = [];
  private readonly where = new Map<number, number>();

  push(id: number): void {
    this.where.set(id, this.ids.length);
    this.ids.push(id);
    this.live.push(true);
  }

  /** The innermost open pair's id, or -1. */
  top(): number {
    return this.ids.length > 0 ? this.ids[this.ids.length - 1]! : -1;
  }

  /** Closes pair `id`: 0 when it is not open, 1 when it was the innermost, 2 when it crosses others. */
  close(id: number): 0 | 1 | 2 {
    const at = this.where.get(id);
    if (at === undefined) return 0;
    this.where.delete(id);
    const innermost = at === this.ids.length - 1;
    this.live[at] = false;
    while (this.ids.length > 0 && !this.live[this.live.length - 1]) {
      this.ids.pop();
      this.live.pop();
    }
    return innermost ? 1 : 2;
  }
}

/** Close tokens that close a pair other than the innermost open one (crossing pairs). */
function crossings(tags: readonly TagToken[]): string[] {
  const open = new OpenPairs();
  let out: string[] | null = null;
  for (const token of tags) {
    if (token.kind === TAG_OPEN) open.push(token.id);
    else if (token.kind === TAG_CLOSE && open.close(token.id) === 2) (out ??= []).push(tagDisplay(token));
  }
  return out ?? [];
}

/** nestedTags -> NestedTags: misplacedTargetTag is the close token that crosses another pair. */
export function checkNestedTags(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  if (target.tags.length < 4) return;
  const found = crossings(target.tags);
  if (found.length === 0) return;
  const inSource = new Set(crossings(source.tags));
  for (const misplaced of found)
    if (!inSource.has(misplaced)) out.push(warning('NestedTags', misplaced, ignorable, { misplacedTargetTag: misplaced }));
}

/** For each tag token (by key), the id of the innermost pair open around it (-1 at the top). */
function parents(tags: readonly TagToken[]): Map<number, number> {
  const open = new OpenPairs();
  const out = new Map<number, number>();
  for (const token of tags) {
    if (token.kind === TAG_CLOSE) {
      open.close(token.id);
      continue;
    }
    const key = tokenKey(token);
    if (!out.has(key)) out.set(key, open.top());
    if (token.kind === TAG_OPEN) open.push(token.id);
  }
  return out;
}

/** inconsistentFormatting -> Formatting: a tag that the source has inside one pair is inside another one (or none) in the target. */
export function checkFormatting(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = source.tags;
  const tgt = target.tags;
  if (tgt.length < 2 || src.length < 2) return;
  let pairs = false;
  for (const token of src)
    if (token.kind === TAG_OPEN) {
      pairs = true;
      break;
    }
  if (!pairs) return;
  const before = parents(src);
  const after = parents(tgt);
  for (const [key, parent] of after) {
    const expected = before.get(key);
    if (expected !== undefined && expected !== parent) {
      out.push(warning('Formatting', 'formatting', ignorable));
      return;
    }
  }
}

interface Pair {
  id: number;
  /** End of the open token, start of the close token. */
  inner: number;
  innerEnd: number;
  /** Indexes of the two tokens in the text's tag list. */
  openIndex: number;
  closeIndex: number;
}

/** Well-formed pairs (one open, then one close) by id. */
function pairsOf(tags: readonly TagToken[]): Map<number, Pair> {
  const out = new Map<number, Pair>();
  const opens = new Map<number, number>();
  const bad = new Set<number>();
  for (let t = 0; t < tags.length; t++) {
    const token = tags[t]!;
    if (token.kind === TAG_OPEN) {
      if (opens.has(token.id) || out.has(token.id)) bad.add(token.id);
      opens.set(token.id, t);
    } else if (token.kind === TAG_CLOSE) {
      const openIndex = opens.get(token.id);
      if (openIndex === undefined || out.has(token.id)) bad.add(token.id);
      else out.set(token.id, { id: token.id, inner: tags[openIndex]!.end, innerEnd: token.start, openIndex, closeIndex: t });
    }
  }
  for (const id of bad) out.delete(id);
  return out;
}

/** A text without its tag tokens, and for each tag index the length of the tokens before it. */
class Stripped {
  readonly text: string;
  private readonly before: number[];

  constructor(text: QaText) {
    const tags = text.tags;
    let stripped = '';
    let at = 0;
    let removed = 0;
    this.before = new Array<number>(tags.length + 1);
    for (let t = 0; t < tags.length; t++) {
      this.before[t] = removed;
      stripped += text.text.slice(at, tags[t]!.start);
      at = tags[t]!.end;
      removed += tags[t]!.end - tags[t]!.start;
    }
    this.before[tags.length] = removed;
    this.text = stripped + text.text.slice(at);
  }

  /** The text inside a pair, tag tokens removed, whitespace trimmed. */
  content(pair: Pair): string {
    let a = pair.inner - this.before[pair.openIndex + 1]!;
    let b = pair.innerEnd - this.before[pair.closeIndex]!;
    while (a < b && isWhitespace(this.text.charCodeAt(a))) a++;
    while (b > a && isWhitespace(this.text.charCodeAt(b - 1))) b--;
    return this.text.slice(a, b);
  }
}

const LETTER = /\p{L}/u;

/** The three content checks in one pass; an ignorable flag of null = that check is off. */
export function checkTagContent(
  source: QaText,
  target: QaText,
  out: QaWarning[],
  emptyPairIgnorable: boolean | null,
  emptyContentIgnorable: boolean | null,
  inconsistentIgnorable: boolean | null,
): void {
  if (source.tags.length < 2 || target.tags.length < 2) return;
  const src = pairsOf(source.tags);
  if (src.size === 0) return;
  const tgt = pairsOf(target.tags);
  const sourceText = new Stripped(source);
  let targetText: Stripped | null = null;
  for (const [id, pair] of tgt) {
    const before = src.get(id);
    if (!before) continue;
    const sourceContent = sourceText.content(before);
    const sourceAdjacent = before.inner === before.innerEnd;
    if (pair.inner === pair.innerEnd) {
      if (emptyPairIgnorable !== null && !sourceAdjacent) out.push(warning('EmptyPairTags', `{${id}>`, emptyPairIgnorable));
      continue;
    }
    targetText ??= new Stripped(target);
    const targetContent = targetText.content(pair);
    if (targetContent === '' && sourceContent !== '') {
      if (emptyContentIgnorable !== null) out.push(warning('EmptyTagContent', `{${id}>`, emptyContentIgnorable));
      continue;
    }
    if (inconsistentIgnorable === null) continue;
    if (
      (sourceContent === '' && targetContent !== '') ||
      (sourceContent !== '' && !LETTER.test(sourceContent) && targetContent !== sourceContent)
    ) {
      out.push(warning('InconsistentTagContent', `{${id}>`, inconsistentIgnorable));
    }
  }
}

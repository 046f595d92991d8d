/**
 * A text as given, kept as the few edits that turn its compared form back into it (the candidate
 * index stores both for every entry: docs/translation-memory.md, "Candidate index: measured").
 * The compared form is the text case-folded, without punctuation, numbers and tags one character
 * each and whitespace folded, so a text is mostly its compared form again: a capital here, a comma
 * there. Pure; no I/O; linear in the text.
 *
 * A delta is a sequence of operations, each one code unit below 256 (a Latin-1 text's delta stays
 * one byte a code unit in the index's pool) that says what and how many (1..64):
 * - COPY n: the next n code units of the compared form, as they are;
 * - UPPER n: the next n code units of the compared form, each upper-cased (one code unit to one,
 *   by `upperOf`);
 * - LITERAL n: the n code units that follow the operation, as they are;
 * - SKIP n: the next n code units of the compared form are not in the text (a number's or a
 *   tag's character, whose text is a LITERAL).
 *
 * `encodeTextDelta` checks its delta by decoding it, and gives none (null: keep the text itself)
 * when it would not be shorter than the text, so any text and any compared form are safe, however
 * they relate.
 */

const COPY = 0x00;
const UPPER = 0x40;
const LITERAL = 0x80;
const SKIP = 0xc0;
/** Code units one operation covers at most. */
const RUN = 64;
/** Longer texts are kept as they are (a delta is built in one array of code units). */
const MAX_TEXT = 4096;
const SPACE = 0x20;

let upperTable: Uint16Array | null = null;

/** The upper case of one code unit when it is one code unit, else the code unit itself. */
export function upperOf(unit: number): number {
  if (upperTable === null) {
    upperTable = new Uint16Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      const upper = String.fromCharCode(c).toUpperCase();
      upperTable[c] = upper.length === 1 ? upper.charCodeAt(0) : c;
    }
  }
  return upperTable[unit]!;
}

/**
 * The delta that turns `compared` into `text`, or null when keeping `text` itself is as short.
 * A compared character below U+0020 stands for a number or a tag (the index's stored form).
 */
export function encodeTextDelta(text: string, compared: string): string | null {
  if (text.length > MAX_TEXT || text.length < 2) return null;
  const units: number[] = [];
  let kind = -1;
  let count = 0;
  let literalFrom = 0;
  const flush = () => {
    while (count > 0) {
      const n = Math.min(count, RUN);
      units.push(kind + n - 1);
      if (kind === LITERAL) {
        for (let k = 0; k < n; k++) units.push(text.charCodeAt(literalFrom + k));
        literalFrom += n;
      }
      count -= n;
    }
  };
  const emit = (next: number, at: number) => {
    if (kind !== next) {
      flush();
      kind = next;
      literalFrom = at;
    }
    count++;
  };
  let i = 0;
  let j = 0;
  while (i < text.length) {
    if (units.length >= text.length) return null;
    const t = text.charCodeAt(i);
    const c = j < compared.length ? compared.charCodeAt(j) : -1;
    if (t === c) {
      emit(COPY, i);
      i++;
      j++;
    } else if (c >= 0 && upperOf(c) === t) {
      emit(UPPER, i);
      i++;
      j++;
    } else if (c >= 0 && (c < SPACE || (c === SPACE && j + 1 < compared.length && startsAt(t, compared.charCodeAt(j + 1))))) {
      // A number's or a tag's character, or a space the text has as something else (a tab, a
      // line break): not in the text.
      emit(SKIP, i);
      j++;
    } else {
      emit(LITERAL, i);
      i++;
    }
  }
  flush();
  if (units.length >= text.length) return null;
  const delta = String.fromCharCode(...units);
  return decodeTextDelta(compared, 0, delta, 0, delta.length) === text ? delta : null;
}

/** Whether text unit `t` is compared unit `c`, as it is or upper-cased. */
function startsAt(t: number, c: number): boolean {
  return t === c || upperOf(c) === t;
}

/**
 * The text that `delta[from, to)` makes of the compared form that starts at `comparedFrom` in
 * `compared` (strings, or the code units of the index's pool).
 */
export function decodeTextDelta(
  compared: string | ArrayLike<number>,
  comparedFrom: number,
  delta: string | ArrayLike<number>,
  from: number,
  to: number,
): string {
  const unitAt = typeof compared === 'string' ? (k: number) => compared.charCodeAt(k) : (k: number) => compared[k]!;
  const deltaAt = typeof delta === 'string' ? (k: number) => delta.charCodeAt(k) : (k: number) => delta[k]!;
  const out: number[] = [];
  let j = comparedFrom;
  let k = from;
  while (k < to) {
    const op = deltaAt(k++);
    const n = (op & (RUN - 1)) + 1;
    switch (op & 0xc0) {
      case COPY:
        for (let r = 0; r < n; r++) out.push(unitAt(j++));
        break;
      case UPPER:
        for (let r = 0; r < n; r++) out.push(upperOf(unitAt(j++)));
        break;
      case LITERAL:
        for (let r = 0; r < n; r++) out.push(deltaAt(k++));
        break;
      default:
        j += n;
    }
  }
  let text = '';
  for (let at = 0; at < out.length; at += 8192) text += String.fromCharCode(...out.slice(at, at + 8192));
  return text;
}

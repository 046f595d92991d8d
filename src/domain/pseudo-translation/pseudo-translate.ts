/**
 * Pseudo-translation as Phrase offers it (PseudoTranslateActionDto): a target made from the
 * source so that a product can be tested for text expansion, untranslated strings and character
 * handling before real translations exist. Pure; docs/job-content-and-handovers.md.
 *
 * Applied in this order, only to the text between inline tags (tags stay where they are):
 * 1. `substitution`: each listed character becomes its target (`a` → `á`);
 * 2. `replacement`: every other letter or digit becomes the replacement string;
 * 3. `length`: the text is stretched or shortened to `length` times its length in characters
 *    (1.3 = 30 % longer): padding repeats the replacement (or `~`) at the end of the last text
 *    run, shortening drops characters from the end, never a tag;
 * 4. `prefix` and `suffix` around the whole segment, and before them the first
 *    `keyHashPrefixLen` characters of a hash of the segment key (hex), so a string seen in the
 *    product leads back to its key.
 */
export interface PseudoTranslateSettings {
  prefix?: string;
  suffix?: string;
  replacement?: string;
  substitution?: ReadonlyArray<{ source: string; target: string }>;
  length?: number;
  keyHashPrefixLen?: number;
}

export interface PseudoSegment {
  /** Source text with inline tags as display tokens. */
  text: string;
  /** The display tokens of the segment's tags (`{1>`, `<1}`, `{2}`). */
  tagTokens: readonly string[];
  /** The segment's key (or another stable identifier) for the key hash. */
  key: string;
}

export const DEFAULT_PADDING = '~';
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

type Piece = { tag: boolean; chars: string[] };

/** The segment cut into text runs and tag tokens, in order. */
export function splitAtTags(text: string, tagTokens: readonly string[]): Piece[] {
  const tokens = [...new Set(tagTokens.filter((t) => t !== ''))].sort((a, b) => b.length - a.length);
  const pieces: Piece[] = [];
  let run = '';
  let i = 0;
  while (i < text.length) {
    const token = tokens.find((t) => text.startsWith(t, i));
    if (token) {
      if (run) pieces.push({ tag: false, chars: [...run] });
      pieces.push({ tag: true, chars: [token] });
      run = '';
      i += token.length;
    } else {
      run += text[i];
      i++;
    }
  }
  if (run) pieces.push({ tag: false, chars: [...run] });
  return pieces;
}

function transformChar(char: string, substitutions: ReadonlyMap<string, string>, replacement: string | undefined): string {
  const substituted = substitutions.get(char);
  if (substituted !== undefined) return substituted;
  if (replacement && LETTER_OR_DIGIT.test(char)) return replacement;
  return char;
}

/** Stretches or shortens the text runs to `ratio` times their character count. */
function changeLength(pieces: Piece[], originalLength: number, ratio: number, padding: string): void {
  const wanted = Math.max(0, Math.round(originalLength * ratio));
  const textPieces = pieces.filter((p) => !p.tag);
  let current = textPieces.reduce((n, p) => n + p.chars.length, 0);
  if (current < wanted) {
    let last = textPieces.at(-1);
    if (!last) {
      last = { tag: false, chars: [] };
      pieces.push(last);
    }
    const padChars = [...padding];
    for (let k = 0; current < wanted; k++, current++) last.chars.push(padChars[k % padChars.length]!);
    return;
  }
  for (let p = textPieces.length - 1; p >= 0 && current > wanted; p--) {
    const piece = textPieces[p]!;
    const drop = Math.min(piece.chars.length, current - wanted);
    piece.chars.splice(piece.chars.length - drop, drop);
    current -= drop;
  }
}

const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a of the UTF-16 code units of `text`, from `offset`; as 16 hex digits. */
function fnv1a64(text: string, offset: bigint): string {
  let hash = offset;
  for (let i = 0; i < text.length; i++) hash = ((hash ^ BigInt(text.charCodeAt(i))) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}

/**
 * The first `length` hex characters (at most 18, the spec's maximum) of a stable hash of `key`:
 * two 64-bit FNV-1a hashes with different offsets, so the same key always gets the same prefix.
 */
export function keyHash(key: string, length: number): string {
  if (length <= 0) return '';
  return (fnv1a64(key, 0xcbf29ce484222325n) + fnv1a64(key, 0x84222325cbf29ce4n)).slice(0, length);
}

/** The pseudo-translation of one segment. */
export function pseudoTranslate(segment: PseudoSegment, settings: PseudoTranslateSettings): string {
  const substitutions = new Map((settings.substitution ?? []).map((s) => [s.source, s.target]));
  const replacement = settings.replacement === '' ? undefined : settings.replacement;
  const pieces = splitAtTags(segment.text, segment.tagTokens);
  const originalLength = pieces.filter((p) => !p.tag).reduce((n, p) => n + p.chars.length, 0);
  for (const piece of pieces) {
    if (!piece.tag) piece.chars = piece.chars.map((c) => transformChar(c, substitutions, replacement));
  }
  if (settings.length !== undefined && settings.length !== 1)
    changeLength(pieces, originalLength, settings.length, replacement ?? DEFAULT_PADDING);
  const body = pieces.map((p) => p.chars.join('')).join('');
  return `${keyHash(segment.key, settings.keyHashPrefixLen ?? 0)}${settings.prefix ?? ''}${body}${settings.suffix ?? ''}`;
}

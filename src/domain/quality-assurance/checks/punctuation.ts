/**
 * endPunctuation -> TrailingPunctuation (docs/quality-assurance.md): the punctuation a target ends
 * with must be the source's, in the target language's forms (Chinese and Japanese full-width marks,
 * the Arabic question mark and comma, the Greek question mark `;`, the Devanagari danda...).
 */
import type { QaText } from '../text.js';
import { isHorizontalSpace, isWhitespace, position, primaryLanguage, warning } from '../text.js';
import type { QaWarning } from '../types.js';

/** Each end-punctuation character and what it means: . ? ! : ; , and … (the ellipsis). */
const CLASS_OF = new Map<number, string>();
function define(meaning: string, chars: string): void {
  for (const char of chars) CLASS_OF.set(char.charCodeAt(0), meaning);
}
define('.', '.\u3002\uff0e\u0964\u06d4\u1362\u0589\uff61\u104b\u17d4');
define('?', '?\uff1f\u061f\u037e\u1367');
define('!', '!\uff01');
define(':', ':\uff1a\u1365');
define(';', ';\uff1b\u061b\u1364\u0387');
define(',', ',\uff0c\u3001\u060c\u1363');
define('…', '\u2026\u22ef');

/** Closing quotes and brackets, skipped before looking for the end punctuation (`"Hello."` ends with `.`). */
const CLOSERS = new Set<number>(
  [...'"\'\u201d\u2019\u00bb\u00ab\u203a\u2039\u201c\u2018\u201e)]}\uff09\u300d\u300f\u3011\u3015\u300b\u3009\uff02'].map((c) =>
    c.charCodeAt(0),
  ),
);

/** In Greek `;` is the question mark and `·` the semicolon. */
function meaningOf(c: number, greek: boolean): string | undefined {
  if (greek && c === 59) return '?';
  return CLASS_OF.get(c);
}

interface EndPunctuation {
  /** The meanings, in order (`?!`, `.`, `…`), '' when the text ends without punctuation. */
  meaning: string;
  begin: number;
  end: number;
}

/** The end punctuation of a text: after it only whitespace, tags, closing quotes and brackets. */
export function endPunctuationOf(text: QaText): EndPunctuation {
  const value = text.text;
  const tags = text.tags;
  const greek = primaryLanguage(text.lang) === 'el';
  let t = tags.length - 1;
  let i = value.length;
  for (;;) {
    if (i === 0) break;
    const c = value.charCodeAt(i - 1);
    while (t >= 0 && tags[t]!.end > i) t--;
    if (t >= 0 && tags[t]!.end === i) {
      i = tags[t]!.start;
      t--;
    } else if (isWhitespace(c) || CLOSERS.has(c)) i--;
    else break;
  }
  const end = i;
  let meaning = '';
  let begin = i;
  while (i > 0) {
    const c = value.charCodeAt(i - 1);
    const m = meaningOf(c, greek);
    if (m !== undefined) {
      meaning = m + meaning;
      i--;
      begin = i;
      continue;
    }
    // Spaces between marks (French `Quoi ?`) are part of the run when a mark comes before them.
    let j = i;
    while (j > 0 && isHorizontalSpace(value.charCodeAt(j - 1))) j--;
    if (j < i && j > 0 && meaning !== '' && meaningOf(value.charCodeAt(j - 1), greek) !== undefined) {
      i = j;
      continue;
    }
    break;
  }
  // Two or more ASCII full stops in a row are an ellipsis.
  if (meaning.length > 1) meaning = meaning.replace(/\.{2,}/g, '…');
  return { meaning, begin, end };
}

/** How the target language writes each meaning at the end of a sentence. */
function formsOf(lang: string): Record<string, string> | null {
  switch (primaryLanguage(lang)) {
    case 'zh':
      return { '.': '\u3002', '?': '\uff1f', '!': '\uff01', ':': '\uff1a', ';': '\uff1b', ',': '\uff0c' };
    case 'ja':
      return { '.': '\u3002', '?': '\uff1f', '!': '\uff01', ':': '\uff1a', ';': '\uff1b', ',': '\u3001' };
    case 'ar':
    case 'fa':
    case 'ps':
    case 'ckb':
      return { '?': '\u061f', ';': '\u061b', ',': '\u060c' };
    case 'ur':
      return { '.': '\u06d4', '?': '\u061f', ';': '\u061b', ',': '\u060c' };
    case 'el':
      return { '?': ';', ';': '\u0387' };
    case 'hi':
    case 'mr':
    case 'ne':
    case 'bn':
      return { '.': '\u0964' };
    case 'am':
      return { '.': '\u1362', ',': '\u1363', ';': '\u1364', ':': '\u1365', '?': '\u1367' };
    case 'hy':
      return { '.': '\u0589' };
    case 'my':
      return { '.': '\u104b' };
    case 'km':
      return { '.': '\u17d4' };
    case 'th':
    case 'lo':
      return { '.': '' };
    case 'fr':
      return { '?': '\u00a0?', '!': '\u00a0!', ':': '\u00a0:', ';': '\u00a0;' };
    default:
      return null;
  }
}

function suggestion(meaning: string, lang: string): string {
  const forms = formsOf(lang);
  let out = '';
  for (const m of meaning) out += forms?.[m] ?? m;
  return out;
}

/**
 * Fires when the end punctuation's meanings differ (`.` against `?`, `.` against none, `?` against
 * `?!`). Equivalent forms are equal (`.` = `。`, `?` = `？` = `؟` = Greek `;`), spaces before a mark
 * are allowed (French), closing quotes, brackets, tags and whitespace after it are ignored. Thai and
 * Lao targets may drop a final full stop. Not checked when either side has no content.
 */
export function checkEndPunctuation(source: QaText, target: QaText, out: QaWarning[], ignorable: boolean): void {
  const src = endPunctuationOf(source);
  const tgt = endPunctuationOf(target);
  if (src.meaning === tgt.meaning) return;
  if (src.meaning === '.' && tgt.meaning === '') {
    const lang = primaryLanguage(target.lang);
    if (lang === 'th' || lang === 'lo') return;
  }
  out.push(
    warning('TrailingPunctuation', `${src.meaning}|${tgt.meaning}`, ignorable, {
      srcPosition: position(src.begin, src.end),
      srcEndPunctuation: source.text.slice(src.begin, src.end),
      tgtPosition: position(tgt.begin, tgt.end),
      tgtEndPunctuation: target.text.slice(tgt.begin, tgt.end),
      suggestedTgtEndPunctuation: suggestion(src.meaning, target.lang),
    }),
  );
}

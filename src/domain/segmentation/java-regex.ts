/**
 * Translation of the Java regular expressions of published SRX rule sets (Okapi, LanguageTool,
 * OmegaT) into JavaScript sources for our engine, which compiles them with the `u` flag.
 *
 * Handled (the constructs real SRX files use):
 * - `\p{Lu}`, `\p{L}`, `\pL`, `\p{IsLu}`, `\p{IsLatin}`, `\p{IsAlphabetic}`, `\p{javaUpperCase}`...
 *   -> Unicode property escapes; Java's POSIX classes (`\p{Upper}`, `\p{Punct}`, ...) -> their
 *   ASCII ranges, as Java defines them.
 * - `\Q...\E` quoting; `\A`, `\Z`, `\z` -> `^`/`$`; `\h`, `\v`, `\R`, `\e`, `\a`, `\x{...}`.
 * - Atomic groups `(?>...)` -> `(?:...)` and possessive quantifiers `*+ ++ ?+ {n}+` -> greedy ones
 *   (the same matches for the lookaround use SRX makes of them, except in pathological patterns).
 * - A leading `(?i)` -> `ignoreCase`; `(?u)`/`(?U)` are dropped (our flags are Unicode anyway).
 * - Identity escapes JavaScript's `u` mode refuses (`\'`, `\"`, `\-` outside a class, `\@`...)
 *   -> the plain character.
 * - A `]` right after `[` or `[^` (a literal in Java, an empty class in JavaScript) -> `\]`.
 *
 * Refused with UnsupportedJavaRegexError: class unions and intersections (`[a[b]]`, `&&`),
 * Unicode blocks (`\p{InGreek}`), `\G`, `\X`, and inline flags other than a leading `(?i)`.
 * Note that Java's `\s`, `\w`, `\d` and `\b` are ASCII-only by default while JavaScript's `\s` is
 * Unicode; rules written for Java rarely depend on that difference.
 */
export class UnsupportedJavaRegexError extends Error {
  constructor(
    readonly source: string,
    reason: string,
  ) {
    super(`Cannot translate the Java regular expression /${source}/: ${reason}`);
    this.name = 'UnsupportedJavaRegexError';
  }
}

export interface TranslatedRegex {
  source: string;
  ignoreCase: boolean;
}

const GENERAL_CATEGORIES = new Set([
  'L',
  'Lu',
  'Ll',
  'Lt',
  'Lm',
  'Lo',
  'LC',
  'M',
  'Mn',
  'Mc',
  'Me',
  'N',
  'Nd',
  'Nl',
  'No',
  'P',
  'Pc',
  'Pd',
  'Ps',
  'Pe',
  'Pi',
  'Pf',
  'Po',
  'S',
  'Sm',
  'Sc',
  'Sk',
  'So',
  'Z',
  'Zs',
  'Zl',
  'Zp',
  'C',
  'Cc',
  'Cf',
  'Co',
  'Cs',
  'Cn',
]);

/** Java's POSIX classes (US-ASCII only, as in java.util.regex.Pattern), as class contents. */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0B\\f\\r',
};

/** Java properties with a direct JavaScript equivalent. */
const BINARY_PROPERTIES: Readonly<Record<string, string>> = {
  Alphabetic: 'Alphabetic',
  Letter: 'L',
  Ideographic: 'Ideographic',
  Uppercase: 'Uppercase',
  Lowercase: 'Lowercase',
  WhiteSpace: 'White_Space',
  White_Space: 'White_Space',
  Punctuation: 'P',
  Digit: 'Nd',
  Control: 'Cc',
  Hex_Digit: 'Hex_Digit',
  HexDigit: 'Hex_Digit',
  javaLowerCase: 'Lowercase',
  javaUpperCase: 'Uppercase',
  javaWhitespace: 'White_Space',
  javaLetter: 'L',
  javaDigit: 'Nd',
  javaAlphabetic: 'Alphabetic',
  javaIdeographic: 'Ideographic',
  javaTitleCase: 'Lt',
  javaLetterOrDigit: 'L}\\p{Nd', // a class of two properties; see propertyEscape
};

const HORIZONTAL_SPACE = ' \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000';
const VERTICAL_SPACE = '\\n\\x0B\\f\\r\\x85\\u2028\\u2029';
/** Syntax characters that keep their backslash in JavaScript's `u` mode. */
const SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);
/** Escapes with the same meaning in both dialects. */
const SHARED_ESCAPES = new Set([
  'd',
  'D',
  'w',
  'W',
  's',
  'S',
  'b',
  'B',
  't',
  'n',
  'r',
  'f',
  '0',
  'c',
  'u',
  'x',
  'k',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
]);

function escapeLiteral(text: string, inClass: boolean): string {
  return text.replace(inClass ? /[[\\\]^-]/g : /[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `\p{name}` / `\P{name}` -> class contents (`inClass`) or an atom. */
function propertyEscape(java: string, name: string, negated: boolean, inClass: boolean): string {
  const posix = POSIX_CLASSES[name];
  if (posix !== undefined) {
    if (inClass && negated) throw new UnsupportedJavaRegexError(java, `\\P{${name}} inside a character class`);
    return inClass ? posix : `[${negated ? '^' : ''}${posix}]`;
  }
  let property: string | undefined;
  const bare = name.startsWith('Is') ? name.slice(2) : name;
  if (GENERAL_CATEGORIES.has(bare)) property = bare;
  else if (BINARY_PROPERTIES[bare] !== undefined) property = BINARY_PROPERTIES[bare];
  else if (/^(?:script|sc|general_category|gc)=/i.test(name)) {
    const [key, value] = name.split('=') as [string, string];
    property = `${/^(?:script|sc)$/i.test(key) ? 'Script' : 'General_Category'}=${value}`;
  } else if (name.startsWith('In') || /^(?:block|blk)=/i.test(name)) {
    throw new UnsupportedJavaRegexError(java, `Unicode blocks (\\p{${name}}) have no JavaScript equivalent; use a script or a range`);
  } else if (name.startsWith('Is') && /^[A-Z][A-Za-z_]+$/.test(bare)) property = `Script=${bare}`;
  if (property === undefined) throw new UnsupportedJavaRegexError(java, `unknown property \\p{${name}}`);
  if (property.includes('}')) {
    // javaLetterOrDigit: two properties.
    if (inClass && negated) throw new UnsupportedJavaRegexError(java, `\\P{${name}} inside a character class`);
    const contents = `\\p{${property}}`;
    return inClass ? contents : `[${negated ? '^' : ''}${contents}]`;
  }
  return `\\${negated ? 'P' : 'p'}{${property}}`;
}

/** Translates one Java regular expression; throws UnsupportedJavaRegexError for what it cannot. */
export function javaRegexToJs(java: string): TranslatedRegex {
  let ignoreCase = false;
  let at = 0;
  const leadingFlags = /^\(\?([a-zA-Z]+)\)/.exec(java);
  if (leadingFlags) {
    for (const flag of leadingFlags[1]!) {
      if (flag === 'i') ignoreCase = true;
      else if (flag !== 'u' && flag !== 'U') throw new UnsupportedJavaRegexError(java, `inline flag (?${flag})`);
    }
    at = leadingFlags[0].length;
  }
  let out = '';
  let inClass = false;
  let classStart = false; // just after `[` or `[^`
  let afterQuantifier: boolean = false;
  while (at < java.length) {
    const char = java[at]!;
    const wasQuantifier: boolean = afterQuantifier;
    afterQuantifier = false;
    const wasClassStart = classStart;
    classStart = false;
    if (char === '\\') {
      const next = java[at + 1];
      if (next === undefined) throw new UnsupportedJavaRegexError(java, 'a trailing backslash');
      at += 2;
      if (next === 'Q') {
        const end = java.indexOf('\\E', at);
        const literal = end < 0 ? java.slice(at) : java.slice(at, end);
        out += escapeLiteral(literal, inClass);
        at = end < 0 ? java.length : end + 2;
      } else if (next === 'E') {
        // a stray \E ends nothing
      } else if (next === 'p' || next === 'P') {
        let name: string;
        if (java[at] === '{') {
          const close = java.indexOf('}', at);
          if (close < 0) throw new UnsupportedJavaRegexError(java, 'an unclosed \\p{');
          name = java.slice(at + 1, close);
          at = close + 1;
        } else {
          name = java[at] ?? '';
          at += 1;
        }
        out += propertyEscape(java, name, next === 'P', inClass);
      } else if (next === 'A') out += '^';
      else if (next === 'Z' || next === 'z') out += '$';
      else if (next === 'h') out += inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`;
      else if (next === 'H') {
        if (inClass) throw new UnsupportedJavaRegexError(java, '\\H inside a character class');
        out += `[^${HORIZONTAL_SPACE}]`;
      } else if (next === 'v') out += inClass ? VERTICAL_SPACE : `[${VERTICAL_SPACE}]`;
      else if (next === 'V') {
        if (inClass) throw new UnsupportedJavaRegexError(java, '\\V inside a character class');
        out += `[^${VERTICAL_SPACE}]`;
      } else if (next === 'R') {
        if (inClass) throw new UnsupportedJavaRegexError(java, '\\R inside a character class');
        out += `(?:\\r\\n|[${VERTICAL_SPACE}])`;
      } else if (next === 'e') out += '\\x1B';
      else if (next === 'a') out += '\\x07';
      else if (next === 'x' && java[at] === '{') {
        const close = java.indexOf('}', at);
        out += `\\u{${java.slice(at + 1, close)}}`;
        at = close + 1;
      } else if (next === 'G' || next === 'X' || next === 'N') throw new UnsupportedJavaRegexError(java, `\\${next}`);
      else if (SHARED_ESCAPES.has(next)) out += `\\${next}`;
      else if (SYNTAX.has(next) || (next === '-' && inClass)) out += `\\${next}`;
      else if (/[A-Za-z]/.test(next)) throw new UnsupportedJavaRegexError(java, `the escape \\${next}`);
      else out += next; // \' \" \- \@ \: ...: the character itself
      continue;
    }
    if (inClass) {
      if (char === ']' && !wasClassStart) {
        inClass = false;
        out += ']';
      } else if (char === ']') out += '\\]';
      else if (char === '[') throw new UnsupportedJavaRegexError(java, 'a nested character class (class union)');
      else if (char === '&' && java[at + 1] === '&') throw new UnsupportedJavaRegexError(java, 'a class intersection (&&)');
      else if (char === '^' && wasClassStart && out.endsWith('[')) {
        out += '^';
        classStart = true;
      } else out += char;
      at += 1;
      continue;
    }
    if (char === '[') {
      inClass = true;
      classStart = true;
      out += '[';
      at += 1;
      continue;
    }
    if (char === '(' && java.startsWith('(?>', at)) {
      out += '(?:';
      at += 3;
      continue;
    }
    if (char === '(' && /^\(\?[a-zA-Z-]+[:)]/.test(java.slice(at)))
      throw new UnsupportedJavaRegexError(java, 'inline flags inside the expression');
    if (char === '+' && wasQuantifier) {
      at += 1; // possessive -> greedy
      continue;
    }
    if (char === '*' || char === '+' || char === '?' || char === '}') afterQuantifier = char !== '?' || !wasQuantifier;
    out += char;
    at += 1;
  }
  if (inClass) throw new UnsupportedJavaRegexError(java, 'an unclosed character class');
  try {
    new RegExp(out, ignoreCase ? 'iu' : 'u');
  } catch (error) {
    throw new UnsupportedJavaRegexError(java, error instanceof Error ? error.message : String(error));
  }
  return { source: out, ignoreCase };
}

/**
 * One rule of a published (Java) SRX file in our form. A leading `(?i)` on either side makes the
 * whole rule case-insensitive (our rules carry one flag for both sides).
 */
export function javaRuleToJs(rule: { break: boolean; before: string; after: string }): {
  break: boolean;
  before: string;
  after: string;
  ignoreCase: boolean;
} {
  const before = javaRegexToJs(rule.before);
  const after = javaRegexToJs(rule.after);
  return { break: rule.break, before: before.source, after: after.source, ignoreCase: before.ignoreCase || after.ignoreCase };
}

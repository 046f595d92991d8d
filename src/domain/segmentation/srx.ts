/**
 * SRX 2.0 (Segmentation Rules eXchange) files read into a RuleSet and written from one, pure
 * (docs/segmentation-rules.md, "SRX files").
 *
 * Reading (`parseSrx`): `<srx>` with `<header cascade="yes|no">` and a `<body>` of
 * `<languagerules>` (`<languagerule languagerulename>` of `<rule break="yes|no">` with optional
 * `<beforebreak>` and `<afterbreak>`) and `<maprules>` (`<languagemap languagepattern
 * languagerulename>`, also inside SRX 1.0's `<maprule>`: only the first one counts, as SRX 1.0
 * applies one map rule). Namespace prefixes are ignored; elements SRX does not define (tool
 * extensions such as Okapi's `<okpsrx:options>`, `<formathandle>`) are skipped. `break` defaults
 * to yes and `cascade` to no (the SRX 1.0 behaviour), as the standard says. The text of
 * `<beforebreak>`/`<afterbreak>` is kept exactly (whitespace is part of the expression).
 *
 * Each expression is a Java regular expression, translated with javaRuleToJs (java-regex.ts) and
 * then compiled the way the segmenter uses it (compileRules), so that what is accepted here
 * segments later. A language pattern is a Java regular expression too. Problems are thrown as
 * SrxError, whose `problem` names what is wrong: the file (malformed XML, not SRX, a limit), or
 * one rule (language rule name, 1-based rule index, which side, the expression, the reason).
 *
 * Hostile input: at most MAX_SRX_CHARS characters, MAX_SRX_DEPTH levels of elements,
 * MAX_SRX_RULES rules; a DOCTYPE with an internal subset (entity declarations) is refused and
 * saxes expands no external entity. Time is linear in the file's size (each expression is
 * compiled once; the compiled rules are what the segmenter's cost bound is about).
 *
 * Writing (`writeSrx`): SRX 2.0 in the `http://www.lisa.org/srx20` namespace, valid against the
 * SRX 2.0 schema (schemas/srx20.xsd of OmegaT). Expressions are written as they are in the
 * RuleSet: JavaScript sources, which for the constructs our rules use (`\p{..}` categories,
 * lookarounds, classes, `(?:..)`) are the same in Java, and read back unchanged
 * (javaRegexToJs leaves them as they are; tested on DEFAULT_RULE_SET). `ignoreCase` is written as
 * a leading `(?i)` on `<beforebreak>` (on `<afterbreak>` when before is empty).
 */
import { SaxesParser } from 'saxes';
import { javaRegexToJs, javaRuleToJs, UnsupportedJavaRegexError } from './java-regex.js';
import type { LanguageMapEntry, LanguageRule, RuleSet, SegmentationRule } from './rules.js';
import { compileRules, SegmentationRuleError } from './segmenter.js';

/** The SRX 2.0 namespace. */
export const SRX_NAMESPACE = 'http://www.lisa.org/srx20';
/** Characters an SRX file may have (real rule sets are a few hundred KiB at most). */
export const MAX_SRX_CHARS = 4 * 1024 * 1024;
/** SRX nests six levels deep; anything far deeper is not SRX. */
export const MAX_SRX_DEPTH = 32;
/** Rules in one file, all language rules together. */
export const MAX_SRX_RULES = 20_000;

/** What is wrong with an SRX file. */
export type SrxProblem =
  /** The file as a whole: malformed XML, not SRX, over a limit, an inconsistent map. */
  | { kind: 'file'; reason: string; line?: number }
  /** One rule's expression cannot be translated from Java or compiled. */
  | {
      kind: 'rule';
      languageRuleName: string;
      /** 1-based, within its language rule. */
      ruleIndex: number;
      side: 'beforebreak' | 'afterbreak';
      expression: string;
      reason: string;
    }
  /** A `<languagemap>`'s `languagepattern` cannot be translated or compiled. */
  | { kind: 'languagePattern'; languageRuleName: string; pattern: string; reason: string };

export class SrxError extends Error {
  constructor(readonly problem: SrxProblem) {
    super(describeSrxProblem(problem));
    this.name = 'SrxError';
  }
}

/** The problem in words, for people (the error catalogue's message uses it). */
export function describeSrxProblem(problem: SrxProblem): string {
  switch (problem.kind) {
    case 'file':
      return `${problem.reason}${problem.line === undefined ? '' : ` (line ${problem.line})`}`;
    case 'rule':
      return `rule ${problem.ruleIndex} of language rule "${problem.languageRuleName}": <${problem.side}>${problem.expression}</${problem.side}> cannot be used: ${problem.reason}`;
    case 'languagePattern':
      return `the languagemap pattern "${problem.pattern}" (language rule "${problem.languageRuleName}") cannot be used: ${problem.reason}`;
  }
}

const fileProblem = (reason: string, line?: number) => new SrxError({ kind: 'file', reason, ...(line === undefined ? {} : { line }) });

/** `srx:rule` -> `rule`. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

interface RawRule {
  break: boolean;
  before: string;
  after: string;
}

interface RawLanguageRule {
  name: string;
  rules: RawRule[];
}

/** Reads the XML into the raw structure (Java expressions), checking only the XML and the shape. */
function readStructure(text: string): { cascade: boolean; languageRules: RawLanguageRule[]; maps: LanguageMapEntry[] } {
  if (text.length > MAX_SRX_CHARS) throw fileProblem(`the file is larger than ${MAX_SRX_CHARS} characters`);
  const parser = new SaxesParser({ xmlns: false, position: true });
  let failure: SrxError | null = null;
  const fail = (reason: string) => {
    failure ??= fileProblem(reason, parser.line);
  };
  const stack: string[] = [];
  let sawRoot = false;
  let sawBody = false;
  let cascade = false;
  const languageRules: RawLanguageRule[] = [];
  const maps: LanguageMapEntry[] = [];
  let ruleCount = 0;
  let currentLanguageRule: RawLanguageRule | null = null;
  let currentRule: RawRule | null = null;
  /** Which expression the text goes to, while inside <beforebreak>/<afterbreak>. */
  let capturing: 'before' | 'after' | null = null;
  /** Map rules seen (SRX 1.0 `<maprule>`): only the first one's maps count. */
  let mapRules = 0;

  parser.on('error', (error) => {
    fail(`malformed XML: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`);
  });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) fail('a DOCTYPE with an internal subset (entity declarations) is refused');
  });
  const onText = (chunk: string) => {
    if (capturing && currentRule) currentRule[capturing] += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('opentag', (tag) => {
    if (failure) return;
    const name = localName(tag.name);
    const parent = stack[stack.length - 1];
    stack.push(name);
    if (stack.length > MAX_SRX_DEPTH) return fail(`elements are nested deeper than ${MAX_SRX_DEPTH} levels`);
    const attribute = (key: string): string | undefined => tag.attributes[key] ?? undefined;
    if (stack.length === 1) {
      if (name !== 'srx') return fail(`the root element is <${tag.name}>, not <srx>`);
      sawRoot = true;
      const version = attribute('version');
      if (version !== undefined && !/^[12]\.\d+$/.test(version.trim())) fail(`SRX version "${version}" is not supported (2.0 is)`);
      return;
    }
    if (name === 'header' && parent === 'srx') {
      const value = attribute('cascade')?.trim().toLowerCase();
      if (value !== undefined && value !== 'yes' && value !== 'no') return fail(`<header cascade="${value}">: cascade must be yes or no`);
      cascade = value === 'yes';
    } else if (name === 'body' && parent === 'srx') {
      sawBody = true;
    } else if (name === 'languagerule' && parent === 'languagerules') {
      const ruleName = attribute('languagerulename');
      if (ruleName === undefined || ruleName.trim() === '') return fail('a <languagerule> has no languagerulename');
      if (languageRules.some((r) => r.name === ruleName)) return fail(`the language rule "${ruleName}" is defined twice`);
      currentLanguageRule = { name: ruleName, rules: [] };
      languageRules.push(currentLanguageRule);
    } else if (name === 'rule' && parent === 'languagerule' && currentLanguageRule) {
      const value = attribute('break')?.trim().toLowerCase() ?? 'yes';
      if (value !== 'yes' && value !== 'no')
        return fail(`rule ${currentLanguageRule.rules.length + 1} of language rule "${currentLanguageRule.name}": break must be yes or no`);
      ruleCount += 1;
      if (ruleCount > MAX_SRX_RULES) return fail(`the file has more than ${MAX_SRX_RULES} rules`);
      currentRule = { break: value === 'yes', before: '', after: '' };
      currentLanguageRule.rules.push(currentRule);
    } else if ((name === 'beforebreak' || name === 'afterbreak') && parent === 'rule' && currentRule) {
      capturing = name === 'beforebreak' ? 'before' : 'after';
      currentRule[capturing] = '';
    } else if (name === 'maprule' && parent === 'maprules') {
      mapRules += 1;
    } else if (name === 'languagemap' && (parent === 'maprules' || (parent === 'maprule' && mapRules === 1))) {
      const pattern = attribute('languagepattern');
      const ruleName = attribute('languagerulename');
      if (pattern === undefined || ruleName === undefined) return fail('a <languagemap> needs languagepattern and languagerulename');
      maps.push({ languagePattern: pattern, languageRuleName: ruleName });
    } else if (capturing) {
      fail(`<${tag.name}> inside <${capturing === 'before' ? 'beforebreak' : 'afterbreak'}>: an expression is text only`);
    }
  });
  parser.on('closetag', () => {
    const name = stack.pop();
    if (name === 'beforebreak' || name === 'afterbreak') capturing = null;
    else if (name === 'rule') currentRule = null;
    else if (name === 'languagerule') currentLanguageRule = null;
  });

  try {
    parser.write(text).close();
  } catch (error) {
    // saxes throws after calling the error handler when the handler does not throw.
    if (!failure) fail(`malformed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (failure) throw failure;
  if (!sawRoot) throw fileProblem('the file has no <srx> root element');
  if (!sawBody) throw fileProblem('the file has no <body>');
  if (languageRules.length === 0) throw fileProblem('the file has no <languagerule>');
  if (maps.length === 0) throw fileProblem('the file has no <languagemap>: its rules would apply to no language');
  const known = new Set(languageRules.map((r) => r.name));
  const unknown = maps.find((m) => !known.has(m.languageRuleName));
  if (unknown) throw fileProblem(`a <languagemap> names the language rule "${unknown.languageRuleName}", which the file does not define`);
  return { cascade, languageRules, maps };
}

/** One rule translated from Java; an SrxError naming it when it cannot be. */
function translateRule(languageRuleName: string, index: number, raw: RawRule): SegmentationRule {
  try {
    const rule = javaRuleToJs(raw);
    return rule.ignoreCase ? rule : { break: rule.break, before: rule.before, after: rule.after };
  } catch (error) {
    if (!(error instanceof UnsupportedJavaRegexError)) throw error;
    const side = error.source === raw.before ? 'beforebreak' : 'afterbreak';
    return ruleProblem(
      languageRuleName,
      index,
      side,
      raw,
      error.message.replace(/^Cannot translate the Java regular expression \/.*\/: /s, ''),
    );
  }
}

function ruleProblem(name: string, index: number, side: 'beforebreak' | 'afterbreak', raw: RawRule, reason: string): never {
  throw new SrxError({
    kind: 'rule',
    languageRuleName: name,
    ruleIndex: index + 1,
    side,
    expression: side === 'beforebreak' ? raw.before : raw.after,
    reason,
  });
}

/**
 * Reads an SRX file into a RuleSet whose expressions the segmenter compiles; throws SrxError
 * naming the problem (the file, or the rule: language rule, index, expression).
 */
export function parseSrx(text: string): RuleSet {
  const structure = readStructure(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const languageRules: LanguageRule[] = structure.languageRules.map(({ name, rules: raw }) => {
    const rules = raw.map((rule, index) => translateRule(name, index, rule));
    try {
      compileRules(rules);
    } catch (error) {
      if (!(error instanceof SegmentationRuleError)) throw error;
      const index = error.ruleIndex;
      const reason = error.message.replace(/^Segmentation rule .*? cannot be used: /s, '');
      // Which side: the one that does not compile alone (a back-reference is refused in before).
      const side = compilesAlone(rules[index]!.before, rules[index]!.ignoreCase, true) ? 'afterbreak' : 'beforebreak';
      ruleProblem(name, index, side, raw[index]!, reason);
    }
    return { name, rules };
  });
  const maps = structure.maps.map((entry) => {
    let source: string;
    try {
      source = javaRegexToJs(entry.languagePattern).source;
      new RegExp(`^(?:${source})$`, 'iu');
    } catch (error) {
      throw new SrxError({
        kind: 'languagePattern',
        languageRuleName: entry.languageRuleName,
        pattern: entry.languagePattern,
        reason: (error instanceof Error ? error.message : String(error)).replace(
          /^Cannot translate the Java regular expression \/.*\/: /s,
          '',
        ),
      });
    }
    return { languagePattern: source, languageRuleName: entry.languageRuleName };
  });
  return { cascade: structure.cascade, languageRules, maps };
}

/** Whether `source` compiles as the segmenter uses it (a lookbehind for before, a lookahead for after). */
function compilesAlone(source: string, ignoreCase: boolean | undefined, before: boolean): boolean {
  if (source === '') return true;
  if (before && /\\[1-9]|\\k</.test(source)) return false;
  try {
    new RegExp(before ? `(?<=${source})` : `(?=${source})`, ignoreCase ? 'iu' : 'u');
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing.

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
/** `\r` in element text would be read back as `\n` (XML line-end normalization). */
const escapeExpression = (text: string) => escapeText(text).replace(/\r/g, '&#13;');

export interface WriteSrxOptions {
  /** `<header segmentsubflows>`: our filters segment subflows (footnotes, attributes) as units of their own. Default true. */
  segmentSubflows?: boolean;
}

/** The rule set as an SRX 2.0 document (UTF-8, with an XML declaration). */
export function writeSrx(ruleSet: RuleSet, options: WriteSrxOptions = {}): string {
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<srx xmlns="${SRX_NAMESPACE}" version="2.0">`,
    `  <header segmentsubflows="${options.segmentSubflows === false ? 'no' : 'yes'}" cascade="${ruleSet.cascade ? 'yes' : 'no'}"/>`,
    '  <body>',
    '    <languagerules>',
  ];
  for (const languageRule of ruleSet.languageRules) {
    lines.push(`      <languagerule languagerulename="${escapeAttribute(languageRule.name)}">`);
    for (const rule of languageRule.rules) {
      const flagBefore = rule.ignoreCase && rule.before !== '' ? '(?i)' : '';
      const flagAfter = rule.ignoreCase && rule.before === '' ? '(?i)' : '';
      lines.push(
        `        <rule break="${rule.break ? 'yes' : 'no'}">`,
        `          <beforebreak>${flagBefore}${escapeExpression(rule.before)}</beforebreak>`,
        `          <afterbreak>${flagAfter}${escapeExpression(rule.after)}</afterbreak>`,
        '        </rule>',
      );
    }
    lines.push('      </languagerule>');
  }
  lines.push('    </languagerules>', '    <maprules>');
  for (const map of ruleSet.maps) {
    lines.push(
      `      <languagemap languagepattern="${escapeAttribute(map.languagePattern)}" languagerulename="${escapeAttribute(map.languageRuleName)}"/>`,
    );
  }
  lines.push('    </maprules>', '  </body>', '</srx>', '');
  return lines.join('\n');
}

/**
 * The part of `ruleSet` that applies to `language`: the map entries whose pattern matches it, in
 * order (only the first one without cascade), and the language rules they name. Segmenting
 * `language` with the result is the same as with the whole set.
 */
export function ruleSetForLanguage(ruleSet: RuleSet, language: string): RuleSet {
  const code = language.trim().replace(/_/g, '-').toLowerCase();
  const maps: LanguageMapEntry[] = [];
  for (const entry of ruleSet.maps) {
    if (!new RegExp(`^(?:${entry.languagePattern})$`, 'iu').test(code)) continue;
    maps.push(entry);
    if (!ruleSet.cascade) break;
  }
  const names = new Set(maps.map((m) => m.languageRuleName));
  return { cascade: ruleSet.cascade, languageRules: ruleSet.languageRules.filter((r) => names.has(r.name)), maps };
}

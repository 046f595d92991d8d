import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { decodeStream, encodeText } from './encoding.js';
import type { TextEncoding } from './encoding.js';
import { compileTagRegexp, inlineTag, restoreTags } from './inline-tags.js';
import { FormatError, unitsOfBatches } from './types.js';
import type { FilterOptions, FormatFilter, InlineTag, TextUnit, UnitTranslation } from './types.js';
import { chooseXmlEncoding, RawWindow } from './xliff-stream.js';
import { DEFAULT_MAX_XML_DEPTH, MAX_PROLOG_CHARS, hasNonXmlCharacter, shapedSaxesParser } from './xml.js';

/**
 * Generic XML by rules (`.xml`, the fallback after the specific XML formats), settings section
 * `xml` (Phrase's XmlSettingsDto), docs/formats/csv-and-xml.md.
 *
 * Which elements and attributes are translatable, which elements are inline tags, which are
 * locked, and where context notes, keys and length limits come from is said by "plain" rules
 * (lists of names) or by XPath rules. The XPath rules are a documented subset of XPath 1.0 that is
 * evaluated while the file streams by: every element is matched once, when it opens, from what
 * its ancestors matched (a bit set per expression), so the work is linear in the file.
 *
 * A unit is the text of an element, with its inline elements as tags; an element whose content
 * mixes text and block elements gives one unit per stretch of text between them. Attributes are
 * units of their own. Write-back replaces exactly the raw text of the units it translates; the rest
 * of the file is copied as it was (entities, quoting, white space, encoding).
 */

/** A text unit (or a stretch of markup held back while it may still become one) larger than this is refused. */
export const MAX_XML_UNIT_CHARS = 10_000_000;
/** Longest text read for a context note, key or length limit. */
const MAX_CONTEXT_CHARS = 10_000;
/** A run of sibling elements with no text between them is held at most this long before they are taken as blocks. */
const MAX_PENDING_SIBLINGS = 64;
/** Deepest XPath location path (steps) accepted. */
const MAX_XPATH_STEPS = 30;

// ---------------------------------------------------------------------------------------------
// The XPath subset

type NameTest = string; // '*', 'name', 'prefix:name', 'prefix:*'

function nameMatches(test: NameTest, name: string): boolean {
  if (test === '*') return true;
  if (test.endsWith(':*')) return name.startsWith(test.slice(0, -1));
  return test === name;
}

/** A condition on an element (predicate), given its attributes and its ancestors' flags. */
type Predicate = (attributes: Readonly<Record<string, string>>, frame: RuleFrame, parent: RuleFrame) => boolean;

type Axis = 'child' | 'descendant' | 'descendant-or-self';

interface Step {
  axis: Axis;
  /** Element name test, or null for the final attribute step. */
  element: NameTest | null;
  attribute: NameTest | null;
  predicates: Predicate[];
}

interface LocationPath {
  id: number;
  steps: Step[];
  /** The last step selects attributes. */
  selectsAttributes: boolean;
}

/** An `ancestor::` / `ancestor-or-self::` test in a predicate: evaluated once per element, inherited by flag. */
interface AncestorTest {
  id: number;
  element: NameTest;
  predicates: Predicate[];
}

/** What the rule evaluation keeps per element: bit sets per location path, flags per ancestor test. */
export interface RuleFrame {
  /** Per path: steps matched ending at this element (bit k: steps 1..k). */
  self: number[];
  /** Per path: the union of `self` over this element and its ancestors. */
  below: number[];
  /** Per ancestor test: this element or an ancestor passes it. */
  orSelf: number[];
}

class XPathError extends Error {}

interface Token {
  kind: 'op' | 'name' | 'literal' | 'number';
  text: string;
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = expression.length;
  while (i < n) {
    const c = expression[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = expression.slice(i, i + 2);
    if (two === '//' || two === '::' || two === '!=' || two === '<=' || two === '>=' || two === '..') {
      tokens.push({ kind: 'op', text: two });
      i += 2;
      continue;
    }
    if ('/|[]()@=,*.<>+-'.includes(c)) {
      tokens.push({ kind: 'op', text: c });
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = expression.indexOf(c, i + 1);
      if (end < 0) throw new XPathError('a string literal is not closed');
      tokens.push({ kind: 'literal', text: expression.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < n && /[0-9.]/.test(expression[j]!)) j++;
      tokens.push({ kind: 'number', text: expression.slice(i, j) });
      i = j;
      continue;
    }
    if (/[\p{L}_]/u.test(c)) {
      let j = i;
      while (j < n && /[\p{L}\p{N}_.-]/u.test(expression[j]!)) j++;
      // A prefixed name (`p:name`, `p:*`), but not an axis (`ancestor::`).
      if (expression[j] === ':' && expression[j + 1] !== ':') {
        j++;
        if (expression[j] === '*') j++;
        else while (j < n && /[\p{L}\p{N}_.-]/u.test(expression[j]!)) j++;
      }
      tokens.push({ kind: 'name', text: expression.slice(i, j) });
      i = j;
      continue;
    }
    throw new XPathError(`unexpected character "${c}"`);
  }
  return tokens;
}

/** Compiles expressions into location paths sharing one registry (one bit set per path per element). */
export class XPathCompiler {
  readonly paths: LocationPath[] = [];
  readonly ancestorTests: AncestorTest[] = [];
  private tokens: Token[] = [];
  private at = 0;

  /** The location paths of `expression` (a union of paths); throws FormatError naming what is not supported. */
  compile(expression: string, what: string): LocationPath[] {
    try {
      this.tokens = tokenize(expression);
      this.at = 0;
      if (this.tokens.length === 0) throw new XPathError('the expression is empty');
      const paths: LocationPath[] = [this.path()];
      while (this.peek('|')) {
        this.at++;
        paths.push(this.path());
      }
      if (this.at < this.tokens.length) throw new XPathError(`unexpected "${this.tokens[this.at]!.text}"`);
      return paths;
    } catch (error) {
      if (error instanceof XPathError) throw new FormatError(`XPath ${what} "${expression}" is not supported: ${error.message}`);
      throw error;
    }
  }

  private peek(text: string, offset = 0): boolean {
    const token = this.tokens[this.at + offset];
    return token !== undefined && token.kind !== 'literal' && token.text === text;
  }

  private expect(text: string): void {
    if (!this.peek(text))
      throw new XPathError(`expected "${text}"${this.tokens[this.at] ? ` before "${this.tokens[this.at]!.text}"` : ' at the end'}`);
    this.at++;
  }

  private path(): LocationPath {
    const steps: Step[] = [];
    let axis: Axis = 'descendant'; // a relative path matches anywhere
    if (this.peek('/')) {
      this.at++;
      axis = 'child';
    } else if (this.peek('//')) {
      this.at++;
    }
    let selectsAttributes = false;
    for (;;) {
      const step = this.step(axis);
      if (step === 'text') {
        // `x/text()`: the text of x, i.e. x; `x//text()`: the text in x and below.
        if (axis !== 'child') {
          steps.push({ axis: 'descendant-or-self', element: '*', attribute: null, predicates: [] });
        }
        if (this.peek('/') || this.peek('//')) throw new XPathError('text() must be the last step');
        break;
      }
      if (step === 'self') {
        if (steps.length === 0) throw new XPathError('"." is supported only after a step');
      } else steps.push(step);
      if (step !== 'self' && step.attribute !== null) {
        selectsAttributes = true;
        if (this.peek('/') || this.peek('//')) throw new XPathError('an attribute step must be the last step');
        break;
      }
      if (this.peek('/')) axis = 'child';
      else if (this.peek('//')) axis = 'descendant';
      else break;
      this.at++;
    }
    if (steps.length === 0) throw new XPathError('a path needs at least one step');
    if (steps.length > MAX_XPATH_STEPS) throw new XPathError(`more than ${MAX_XPATH_STEPS} steps`);
    const path: LocationPath = { id: this.paths.length, steps, selectsAttributes };
    this.paths.push(path);
    return path;
  }

  private nameTest(): NameTest {
    const token = this.tokens[this.at];
    if (token?.kind === 'op' && token.text === '*') {
      this.at++;
      return '*';
    }
    if (token?.kind === 'name' && !this.peek('(', 1)) {
      this.at++;
      return token.text;
    }
    throw new XPathError(token ? `expected a name, found "${token.text}"` : 'expected a name at the end');
  }

  private step(axis: Axis): Step | 'text' | 'self' {
    if (this.peek('..')) throw new XPathError('the parent step ".." (axis parent) is not supported');
    if (this.peek('.')) {
      this.at++;
      return 'self';
    }
    if (this.peek('@')) {
      this.at++;
      const attribute = this.nameTest();
      if (this.peek('[')) throw new XPathError('predicates on attributes are not supported');
      return { axis, element: null, attribute, predicates: [] };
    }
    const token = this.tokens[this.at];
    if (token?.kind === 'name' && this.peek('::', 1)) {
      const name = token.text;
      this.at += 2;
      if (name === 'attribute') {
        const attribute = this.nameTest();
        if (this.peek('[')) throw new XPathError('predicates on attributes are not supported');
        return { axis, element: null, attribute, predicates: [] };
      }
      if (name === 'child') {
        // as written
      } else if (name === 'descendant') {
        axis = 'descendant';
      } else if (name === 'descendant-or-self') {
        axis = axis === 'child' ? 'descendant-or-self' : 'descendant';
      } else if (name === 'self') {
        if (this.isNodeTest('node')) return 'self';
        throw new XPathError('self:: is supported only as self::node()');
      } else {
        throw new XPathError(`the axis ${name}:: is not supported in a path (child, descendant, descendant-or-self and attribute are)`);
      }
    }
    if (this.isNodeTest('text')) return 'text';
    let element: NameTest;
    if (this.isNodeTest('node')) element = '*';
    else {
      const next = this.tokens[this.at];
      if (next?.kind === 'name' && this.peek('(', 1)) throw new XPathError(`the function ${next.text}() is not supported here`);
      element = this.nameTest();
    }
    const predicates: Predicate[] = [];
    while (this.peek('[')) {
      this.at++;
      predicates.push(this.orExpr(true));
      this.expect(']');
    }
    return { axis, element, attribute: null, predicates };
  }

  private isNodeTest(name: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind === 'name' && token.text === name && this.peek('(', 1) && this.peek(')', 2)) {
      this.at += 3;
      return true;
    }
    return false;
  }

  private orExpr(ancestorsAllowed: boolean): Predicate {
    const parts = [this.andExpr(ancestorsAllowed)];
    while (this.tokens[this.at]?.kind === 'name' && this.tokens[this.at]!.text === 'or') {
      this.at++;
      parts.push(this.andExpr(ancestorsAllowed));
    }
    return parts.length === 1 ? parts[0]! : (a, f, p) => parts.some((part) => part(a, f, p));
  }

  private andExpr(ancestorsAllowed: boolean): Predicate {
    const parts = [this.unary(ancestorsAllowed)];
    while (this.tokens[this.at]?.kind === 'name' && this.tokens[this.at]!.text === 'and') {
      this.at++;
      parts.push(this.unary(ancestorsAllowed));
    }
    return parts.length === 1 ? parts[0]! : (a, f, p) => parts.every((part) => part(a, f, p));
  }

  private literal(): string {
    const token = this.tokens[this.at];
    if (token?.kind === 'literal' || token?.kind === 'number') {
      this.at++;
      return token.text;
    }
    throw new XPathError(token ? `expected a string in quotes, found "${token.text}"` : 'expected a string at the end');
  }

  private unary(ancestorsAllowed: boolean): Predicate {
    const token = this.tokens[this.at];
    if (!token) throw new XPathError('a condition is missing');
    if (token.kind === 'number') throw new XPathError('position predicates ([1], [last()]) are not supported');
    if (this.peek('(')) {
      this.at++;
      const inner = this.orExpr(ancestorsAllowed);
      this.expect(')');
      return inner;
    }
    if (this.peek('@')) {
      this.at++;
      const name = this.nameTest();
      if (name === '*' || name.endsWith(':*')) {
        if (this.peek('=') || this.peek('!=')) throw new XPathError('comparing @* is not supported');
        return (attributes) => Object.keys(attributes).some((key) => nameMatches(name, key));
      }
      if (this.peek('=') || this.peek('!=')) {
        const negate = this.tokens[this.at]!.text === '!=';
        this.at++;
        const value = this.literal();
        return negate ? (a) => a[name] !== undefined && a[name] !== value : (a) => a[name] === value;
      }
      return (a) => a[name] !== undefined;
    }
    if (token.kind === 'name' && this.peek('(', 1)) {
      const fn = token.text;
      this.at += 2;
      if (fn === 'not') {
        const inner = this.orExpr(ancestorsAllowed);
        this.expect(')');
        return (a, f, p) => !inner(a, f, p);
      }
      if (fn === 'contains' || fn === 'starts-with') {
        this.expect('@');
        const name = this.nameTest();
        this.expect(',');
        const value = this.literal();
        this.expect(')');
        return fn === 'contains' ? (a) => a[name]?.includes(value) === true : (a) => a[name]?.startsWith(value) === true;
      }
      throw new XPathError(`the function ${fn}() is not supported in a predicate (not, contains and starts-with with an attribute are)`);
    }
    if (token.kind === 'name' && this.peek('::', 1)) {
      const axis = token.text;
      if (axis !== 'ancestor' && axis !== 'ancestor-or-self') {
        throw new XPathError(`the axis ${axis}:: is not supported in a predicate (ancestor and ancestor-or-self are)`);
      }
      if (!ancestorsAllowed) throw new XPathError('an ancestor test inside an ancestor test is not supported');
      this.at += 2;
      const element = this.isNodeTest('node') ? '*' : this.nameTest();
      const predicates: Predicate[] = [];
      while (this.peek('[')) {
        this.at++;
        predicates.push(this.orExpr(false));
        this.expect(']');
      }
      if (this.peek('/') || this.peek('//')) throw new XPathError('paths inside predicates are not supported');
      const test: AncestorTest = { id: this.ancestorTests.length, element, predicates };
      this.ancestorTests.push(test);
      const id = test.id;
      return axis === 'ancestor' ? (_a, _f, parent) => parent.orSelf[id] === 1 : (_a, frame) => frame.orSelf[id] === 1;
    }
    if (token.kind === 'name')
      throw new XPathError(`child elements in predicates ([${token.text}]) are not supported; only attributes and ancestors`);
    throw new XPathError(`unexpected "${token.text}" in a predicate`);
  }

  /** The evaluation state of the document node (the parent of the root element). */
  documentFrame(): RuleFrame {
    const self = new Array<number>(this.paths.length).fill(1);
    return { self, below: self.slice(), orSelf: new Array<number>(this.ancestorTests.length).fill(0) };
  }

  /** Matches an element (its qualified name and attributes) below `parent`. */
  open(name: string, attributes: Readonly<Record<string, string>>, parent: RuleFrame): RuleFrame {
    // No expressions (plain rules without context XPaths): nothing to match, one shared state.
    if (this.paths.length === 0 && this.ancestorTests.length === 0) return parent;
    const frame: RuleFrame = {
      self: new Array<number>(this.paths.length).fill(0),
      below: new Array<number>(this.paths.length).fill(0),
      orSelf: new Array<number>(this.ancestorTests.length).fill(0),
    };
    for (const test of this.ancestorTests) {
      let passes = parent.orSelf[test.id] === 1;
      if (!passes && nameMatches(test.element, name)) passes = test.predicates.every((p) => p(attributes, frame, parent));
      frame.orSelf[test.id] = passes ? 1 : 0;
    }
    for (const path of this.paths) {
      const p = path.id;
      let self = 0;
      const count = path.selectsAttributes ? path.steps.length - 1 : path.steps.length;
      for (let k = 1; k <= count; k++) {
        const step = path.steps[k - 1]!;
        const bit = 1 << (k - 1);
        let reachable: boolean;
        if (step.axis === 'child') reachable = (parent.self[p]! & bit) !== 0;
        else if (step.axis === 'descendant') reachable = (parent.below[p]! & bit) !== 0;
        else reachable = (parent.below[p]! & bit) !== 0 || (self & bit) !== 0;
        if (!reachable || !nameMatches(step.element!, name)) continue;
        if (step.predicates.every((predicate) => predicate(attributes, frame, parent))) self |= 1 << k;
      }
      frame.self[p] = self;
      frame.below[p] = parent.below[p]! | self;
    }
    return frame;
  }

  /** Whether the element of `frame` is selected by one of `paths` (element paths). */
  selects(paths: readonly LocationPath[], frame: RuleFrame): boolean {
    for (const path of paths) {
      if (!path.selectsAttributes && (frame.self[path.id]! & (1 << path.steps.length)) !== 0) return true;
    }
    return false;
  }

  /** Whether attribute `name` of the element of `frame` is selected by one of `paths`. */
  selectsAttribute(paths: readonly LocationPath[], frame: RuleFrame, name: string): boolean {
    for (const path of paths) {
      if (!path.selectsAttributes) continue;
      const last = path.steps[path.steps.length - 1]!;
      if (!nameMatches(last.attribute!, name)) continue;
      const bit = 1 << (path.steps.length - 1);
      const mask = last.axis === 'child' ? frame.self[path.id]! : frame.below[path.id]!;
      if ((mask & bit) !== 0) return true;
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Settings → rules

/** A plain rule list: comma- (or space-) separated element or attribute names, `*` for all. */
function nameList(value: unknown, what: string): Set<string> | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const names = new Set<string>();
  for (const item of value.split(/[\s,;]+/)) {
    if (item === '') continue;
    if (!/^(?:\*|[\p{L}_][\p{L}\p{N}_.-]*(?::(?:\*|[\p{L}_][\p{L}\p{N}_.-]*))?)$/u.test(item)) {
      throw new FormatError(`XML setting ${what}: "${item}" is not an element or attribute name`);
    }
    names.add(item);
  }
  return names.size ? names : null;
}

function inList(list: Set<string> | null, name: string): boolean {
  if (!list) return false;
  if (list.has(name) || list.has('*')) return true;
  const colon = name.indexOf(':');
  return colon > 0 && list.has(`${name.slice(0, colon)}:*`);
}

type ContextKind = 'note' | 'key' | 'maxLen';
const CONTEXT_KINDS: readonly ContextKind[] = ['note', 'key', 'maxLen'];

/** What the rules say about one element, from its name, attributes and its parent's state. */
export interface ElementState {
  rule: RuleFrame;
  /** Its text is translatable (before the inline and opaque considerations of the scanner). */
  translatable: boolean;
  /** Plain rules: inside an element excluded by name (its attributes are not read either). */
  excluded: boolean;
  locked: boolean;
  /** `inline`: a pair of tags around translatable text; `nt`: one tag, content not translatable; `auto`: decided by the text around it; `block`: never inline. */
  kind: 'inline' | 'nt' | 'auto' | 'block';
  /** Whether its text is a context note, key or length limit for what follows. */
  context: ContextKind[] | null;
}

export interface AttributeState {
  translatable: boolean;
  locked: boolean;
  context: ContextKind[] | null;
}

/** Phrase's XmlSettingsDto turned into per-element and per-attribute decisions. */
export class XmlRules {
  private readonly xpath = new XPathCompiler();
  private readonly mode: 'PLAIN' | 'XPATH';
  private readonly auto: boolean;
  // Plain
  private readonly includeAll: boolean = true;
  private readonly includeElements: Set<string> | null = null;
  private readonly excludeElements: Set<string> | null = null;
  private readonly includeAttributes: Set<string> | null = null;
  private readonly excludeAttributes: Set<string> | null = null;
  private readonly inlineElements: Set<string> | null = null;
  private readonly ntElements: Set<string> | null = null;
  private readonly lockElements: Set<string> | null = null;
  private readonly lockAttributes: Set<string> | null = null;
  // XPath
  private readonly include: LocationPath[] = [];
  private readonly inline: LocationPath[] = [];
  private readonly nt: LocationPath[] = [];
  private readonly lock: LocationPath[] = [];
  private readonly contextPaths: Record<ContextKind, LocationPath[]> = { note: [], key: [], maxLen: [] };

  constructor(settings: Readonly<Record<string, unknown>>) {
    this.mode = typeof settings['rulesFormat'] === 'string' && settings['rulesFormat'].toUpperCase() === 'XPATH' ? 'XPATH' : 'PLAIN';
    const compile = (field: string): LocationPath[] => {
      const value = settings[field];
      return typeof value === 'string' && value.trim() !== '' ? this.xpath.compile(value, field) : [];
    };
    this.contextPaths.note = compile('contextNoteXpath');
    this.contextPaths.key = compile('contextKeyXPath');
    this.contextPaths.maxLen = compile('maxLenXPath');
    if (this.mode === 'XPATH') {
      this.include = compile('includeXPath');
      if (this.include.length === 0) this.include = this.xpath.compile('//*', 'includeXPath');
      this.inline = compile('inlineElementsXpath');
      this.nt = compile('inlineElementsNonTranslatableXPath');
      this.lock = compile('lockXPath');
      this.auto = settings['inlineElementsAutoXPath'] === true || this.inline.length === 0;
      return;
    }
    this.includeElements = nameList(settings['includeElementsPlain'], 'includeElementsPlain');
    this.includeAll = !this.includeElements || this.includeElements.has('*');
    this.excludeElements = nameList(settings['excludeElementsPlain'], 'excludeElementsPlain');
    this.includeAttributes = nameList(settings['includeAttributesPlain'], 'includeAttributesPlain');
    this.excludeAttributes = nameList(settings['excludeAttributesPlain'], 'excludeAttributesPlain');
    this.inlineElements = nameList(settings['inlineElementsPlain'], 'inlineElementsPlain');
    this.ntElements = nameList(settings['inlineElementsNonTranslatablePlain'], 'inlineElementsNonTranslatablePlain');
    this.lockElements = nameList(settings['lockElementsPlain'], 'lockElementsPlain');
    this.lockAttributes = nameList(settings['lockAttributesPlain'], 'lockAttributesPlain');
    this.auto = settings['inlineElementsAutoPlain'] === true || !this.inlineElements;
  }

  documentState(): ElementState {
    return {
      rule: this.xpath.documentFrame(),
      translatable: this.includeAll,
      excluded: false,
      locked: false,
      kind: 'block',
      context: null,
    };
  }

  element(name: string, attributes: Readonly<Record<string, string>>, parent: ElementState): ElementState {
    const rule = this.xpath.open(name, attributes, parent.rule);
    let context: ContextKind[] | null = null;
    for (const kind of CONTEXT_KINDS) {
      if (this.contextPaths[kind].length && this.xpath.selects(this.contextPaths[kind], rule)) (context ??= []).push(kind);
    }
    if (this.mode === 'XPATH') {
      const kind = this.xpath.selects(this.nt, rule)
        ? 'nt'
        : this.xpath.selects(this.inline, rule)
          ? 'inline'
          : this.auto
            ? 'auto'
            : 'block';
      return {
        rule,
        translatable: this.xpath.selects(this.include, rule),
        excluded: false,
        locked: parent.locked || this.xpath.selects(this.lock, rule),
        kind,
        context,
      };
    }
    const excludedHere = inList(this.excludeElements, name);
    // Named (not by `*`): re-includes an element inside an excluded one.
    const colon = name.indexOf(':');
    const namedInclude =
      this.includeElements !== null &&
      (this.includeElements.has(name) || (colon > 0 && this.includeElements.has(`${name.slice(0, colon)}:*`)));
    const translatable = excludedHere ? false : namedInclude ? true : parent.translatable;
    const kind = inList(this.ntElements, name) ? 'nt' : inList(this.inlineElements, name) ? 'inline' : this.auto ? 'auto' : 'block';
    return {
      rule,
      translatable,
      excluded: excludedHere || (parent.excluded && !namedInclude),
      locked: parent.locked || inList(this.lockElements, name),
      kind,
      context,
    };
  }

  attribute(element: ElementState, name: string): AttributeState | null {
    // Namespace declarations and xml:* attributes are never text.
    if (name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xml:')) return null;
    let context: ContextKind[] | null = null;
    for (const kind of CONTEXT_KINDS) {
      if (this.contextPaths[kind].length && this.xpath.selectsAttribute(this.contextPaths[kind], element.rule, name))
        (context ??= []).push(kind);
    }
    if (this.mode === 'XPATH') {
      return {
        translatable: this.xpath.selectsAttribute(this.include, element.rule, name),
        locked: this.xpath.selectsAttribute(this.lock, element.rule, name),
        context,
      };
    }
    return {
      translatable: !element.excluded && inList(this.includeAttributes, name) && !inList(this.excludeAttributes, name),
      locked: inList(this.lockAttributes, name),
      context,
    };
  }
}

/**
 * Checks an `xml` settings section without a file: null when the rules can be used, else the
 * message (naming the field and what is not supported), as the import would report it.
 */
export function validateXmlRules(settings: unknown): string | null {
  if (settings === undefined || settings === null) return null;
  if (typeof settings !== 'object') return 'XML settings must be an object';
  try {
    new XmlRules(settings as Record<string, unknown>);
    preserveCharEntities((settings as Record<string, unknown>)['preserveCharEntities']);
    const tagRegexp = (settings as Record<string, unknown>)['tagRegexp'];
    compileTagRegexp(typeof tagRegexp === 'string' ? tagRegexp : undefined);
    return null;
  } catch (error) {
    if (error instanceof FormatError) return error.message;
    throw error;
  }
}

/** Phrase's preserveCharEntities: characters (or references to them) written as references. */
function preserveCharEntities(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value !== 'string' || value.trim() === '') return out;
  const named: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    let char: string | undefined;
    const ref = /^&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-z]+));?$/.exec(item);
    if (ref) {
      if (ref[3] !== undefined) char = named[ref[3]];
      else {
        const code = ref[1] !== undefined ? parseInt(ref[1], 16) : Number(ref[2]);
        if (code > 0 && code <= 0x10ffff) char = String.fromCodePoint(code);
      }
    } else if ([...item].length === 1) char = item;
    if (char === undefined)
      throw new FormatError(`XML setting preserveCharEntities: "${item}" is not a character or a character reference`);
    const namedRef = Object.entries(named).find(([, c]) => c === char)?.[0];
    out.set(char, namedRef ? `&${namedRef};` : `&#${char.codePointAt(0)!};`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The scanner

interface TextPiece {
  kind: 'text';
  start: number;
  end: number;
  text: string;
  cdata: boolean;
}

/** A comment or processing instruction (`comment`), or a whole element taken as one tag. */
interface CodePiece {
  kind: 'code';
  start: number;
  end: number;
  comment: boolean;
  /** An element's start tag as written back (attributes translated), when it differs from the raw one. */
  startEnd: number;
  startTagOut: string | undefined;
}

interface ElementPiece {
  kind: 'element';
  start: number;
  startEnd: number;
  endStart: number;
  end: number;
  pieces: Piece[];
  /** Not decided yet whether inline (text around it) or a block of its own. */
  pending: boolean;
  /** The element, for its unit when it turns out to be a block; null: its content is not translatable (one tag when inline). */
  frame: Frame | null;
  startTagOut: string | undefined;
  hasText: boolean;
}

type Piece = TextPiece | CodePiece | ElementPiece;

interface Run {
  pieces: Piece[];
  hasText: boolean;
  pending: number;
}

type Context = Partial<Record<ContextKind, string>>;

interface Frame {
  name: string;
  parent: Frame | null;
  start: number;
  startEnd: number;
  state: ElementState;
  /** Its text goes into a run (translatable, not inside a one-tag element). */
  collects: boolean;
  /** Opened inside a collecting element: may end up inline (or one tag) in its parent's run. */
  inRun: boolean;
  isBlock: boolean;
  /** Inside an element that is one tag: nothing inside is looked at. */
  opaque: boolean;
  run: Run | null;
  path: string;
  counts: Map<string, number> | null;
  units: number;
  context: Context;
  /** Context learned from child elements read so far (notes, keys, limits), for what follows. */
  learned: Context | null;
  capture: { kinds: ContextKind[]; parts: string[]; length: number } | null;
  startTagOut: string | undefined;
}

/** A unit and the raw text range its translation replaces. */
export interface ScannedXmlUnit {
  unit: TextUnit;
  start: number;
  end: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const WS = /^[ \t\r\n]*$/;

function isWhitespace(text: string): boolean {
  return WS.test(text);
}

/** White space and comments at the ends of a run stay outside its unit. */
function skippable(piece: Piece): boolean {
  return (piece.kind === 'text' && !piece.cdata && isWhitespace(piece.text)) || (piece.kind === 'code' && piece.comment);
}

/** Count of leading XML white space characters of `text` (raw), and what they decode to. */
function leadingWhitespace(raw: string): { raw: number; decoded: number } {
  let i = 0;
  let crlf = 0;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    if (c === 0x0a && i > 0 && raw.charCodeAt(i - 1) === 0x0d) crlf++;
    i++;
  }
  return { raw: i, decoded: i - crlf };
}

function trailingWhitespace(raw: string): { raw: number; decoded: number } {
  let i = raw.length;
  let crlf = 0;
  while (i > 0) {
    const c = raw.charCodeAt(i - 1);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    if (c === 0x0a && i > 1 && raw.charCodeAt(i - 2) === 0x0d) crlf++;
    i--;
  }
  return { raw: raw.length - i, decoded: raw.length - i - crlf };
}

/** Attribute value ranges in a raw start tag: name → [value start, value end, quote]. */
function attributeRanges(tag: string): Map<string, [number, number, string]> {
  const out = new Map<string, [number, number, string]>();
  let i = 1;
  while (i < tag.length && !/[\s/>]/.test(tag[i]!)) i++;
  for (;;) {
    while (i < tag.length && /\s/.test(tag[i]!)) i++;
    if (i >= tag.length || tag[i] === '>' || tag[i] === '/') break;
    const nameStart = i;
    while (i < tag.length && !/[\s=]/.test(tag[i]!)) i++;
    const name = tag.slice(nameStart, i);
    while (i < tag.length && /\s/.test(tag[i]!)) i++;
    if (tag[i] !== '=') break;
    i++;
    while (i < tag.length && /\s/.test(tag[i]!)) i++;
    const quote = tag[i];
    if (quote !== '"' && quote !== "'") break;
    const end = tag.indexOf(quote, i + 1);
    if (end < 0) break;
    out.set(name, [i + 1, end, quote]);
    i = end + 1;
  }
  return out;
}

export interface XmlScanOptions extends FilterOptions {
  /** Write mode: the translations, so that edits are made as units are found. */
  translations?: ReadonlyMap<string, UnitTranslation>;
  encoding?: TextEncoding;
}

/**
 * Feeds decoded text to saxes and reports units (and, when writing, the edits of their raw text)
 * as soon as they are complete. Callers push every chunk, take `units` (and `edits`), and may
 * drop the raw text before `retainFrom()`.
 */
export class XmlRulesScanner {
  readonly raw = new RawWindow();
  readonly units: ScannedXmlUnit[] = [];
  readonly edits: Edit[] = [];
  private readonly parser = shapedSaxesParser();
  private readonly rules: XmlRules;
  private readonly maxDepth: number;
  private readonly pattern: RegExp | null;
  private readonly preserve: Map<string, string>;
  private readonly translations: ReadonlyMap<string, UnitTranslation> | undefined;
  private readonly maxCodePoint: number;
  private readonly stack: Frame[] = [];
  private readonly documentState: ElementState;
  private sawRoot = false;
  private index = 0;
  private lastMarkupEnd = 0;
  /** Where the markup or text being read now starts. */
  private markupStart = 0;
  private failure: FormatError | null = null;
  /** Open elements whose text is captured as context (only then is the stack walked per text). */
  private captures = 0;

  constructor(options: XmlScanOptions = {}) {
    const settings = options.formatSettings && typeof options.formatSettings === 'object' ? options.formatSettings : {};
    this.rules = new XmlRules(settings);
    this.documentState = this.rules.documentState();
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
    const tagRegexp = typeof settings['tagRegexp'] === 'string' && settings['tagRegexp'] !== '' ? settings['tagRegexp'] : options.tagRegexp;
    this.pattern = compileTagRegexp(tagRegexp);
    this.preserve = preserveCharEntities(settings['preserveCharEntities']);
    this.translations = options.translations;
    this.maxCodePoint = options.encoding?.maxCodePoint ?? 0x10ffff;
    const parser = this.parser;
    parser.on('error', (error) => {
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.failure ??= new FormatError(`malformed XML: ${message}`, { line: parser.line, column: parser.column + 1 });
    });
    const markup = (): void => {
      this.lastMarkupEnd = parser.position;
      this.markupStart = parser.position;
    };
    parser.on('doctype', (doctype) => {
      markup();
      if (doctype.includes('[')) this.fail('a DOCTYPE with an internal subset (entity declarations) is refused');
    });
    parser.on('xmldecl', markup);
    parser.on('comment', () => {
      if (!this.failure) this.onCode(true);
      markup();
    });
    parser.on('processinginstruction', () => {
      if (!this.failure) this.onCode(true);
      markup();
    });
    parser.on('cdata', (text) => {
      if (!this.failure) this.onText(text, this.markupStart, parser.position, true);
      markup();
    });
    parser.on('text', (text) => {
      // saxes reports text when the next markup starts: the text ends just before its '<'.
      const end = parser.position - 1;
      if (!this.failure) this.onText(text, this.lastMarkupEnd, end, false);
      this.markupStart = end;
    });
    parser.on('opentag', (tag) => {
      if (!this.failure) this.onOpen(tag);
      markup();
    });
    parser.on('closetag', () => {
      if (!this.failure) this.onClose();
      markup();
    });
  }

  private fail(message: string): void {
    this.failure ??= new FormatError(message, { line: this.parser.line, column: this.parser.column + 1 });
  }

  push(chunk: string): void {
    this.raw.append(chunk);
    this.parser.write(chunk);
    if (this.failure) throw this.failure;
    if (!this.sawRoot && this.parser.position > MAX_PROLOG_CHARS) {
      throw new FormatError(`no root element in the first ${MAX_PROLOG_CHARS} characters`);
    }
    // Held-back text and markup is bounded: candidates for inline tags become blocks, else a unit is too large.
    while (this.raw.end - this.retainFrom() > MAX_XML_UNIT_CHARS) {
      const candidate = this.stack.find((frame) => !frame.isBlock);
      if (!candidate) {
        throw new FormatError(`a text unit is larger than ${MAX_XML_UNIT_CHARS} characters`, { line: this.parser.line });
      }
      this.markBlock(candidate);
      if (this.failure) throw this.failure;
    }
  }

  end(): void {
    this.parser.close();
    if (this.failure) throw this.failure;
    if (!this.sawRoot) throw new FormatError('the file has no root element');
  }

  /** Everything before this offset is no longer needed. */
  retainFrom(): number {
    let from = Math.min(this.markupStart, this.lastMarkupEnd);
    for (const frame of this.stack) {
      if (frame.run && frame.run.pieces.length > 0) from = Math.min(from, frame.run.pieces[0]!.start);
      if (!frame.isBlock) from = Math.min(from, frame.start);
    }
    return from;
  }

  // --- events

  private onText(text: string, start: number, end: number, cdata: boolean): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return;
    for (let f: Frame | null = this.captures > 0 ? frame : null; f; f = f.parent) {
      if (!f.capture) continue;
      if (f.capture.length < MAX_CONTEXT_CHARS) {
        f.capture.parts.push(text);
        f.capture.length += text.length;
      }
    }
    if (!frame.run) return;
    const blank = !cdata && isWhitespace(text);
    const run = frame.run;
    if (run.pending > 0) {
      if (blank) this.resolvePendingAsBlocks(frame);
      else this.resolvePendingAsInline(run);
    }
    frame.run!.pieces.push({ kind: 'text', start, end, text, cdata });
    if (!isWhitespace(text)) frame.run!.hasText = true;
  }

  private onCode(comment: boolean): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame?.run) return;
    frame.run.pieces.push({
      kind: 'code',
      start: this.markupStart,
      end: this.parser.position,
      comment,
      startEnd: 0,
      startTagOut: undefined,
    });
  }

  private onOpen(tag: SaxesTagPlain): void {
    const end = this.parser.position;
    if (this.stack.length >= this.maxDepth) {
      return this.fail(`elements are nested deeper than ${this.maxDepth} levels (the import's nesting limit)`);
    }
    const start = this.raw.lastIndexOf('<', end);
    const parent = this.stack[this.stack.length - 1] ?? null;
    this.sawRoot = true;
    const attributes = tag.attributes as Record<string, string>;
    const opaque = parent !== null && (parent.opaque || (parent.state.kind === 'nt' && parent.inRun));
    const state = this.rules.element(tag.name, attributes, parent?.state ?? this.documentState);
    const inRun = parent !== null && parent.collects && !opaque;
    const collects = !opaque && (state.translatable || (inRun && state.kind === 'inline')) && !(inRun && state.kind === 'nt');
    let count = 1;
    if (parent) {
      parent.counts ??= new Map();
      count = (parent.counts.get(tag.name) ?? 0) + 1;
      parent.counts.set(tag.name, count);
    }
    const context: Context = { ...parent?.context, ...parent?.learned };
    const frame: Frame = {
      name: tag.name,
      parent,
      start,
      startEnd: end,
      state,
      collects,
      inRun,
      isBlock: !inRun,
      opaque,
      run: collects ? { pieces: [], hasText: false, pending: 0 } : null,
      path: `${parent?.path ?? ''}/${tag.name}[${count}]`,
      counts: null,
      units: 0,
      context,
      learned: null,
      capture: state.context && !opaque ? { kinds: state.context, parts: [], length: 0 } : null,
      startTagOut: undefined,
    };
    this.stack.push(frame);
    if (frame.capture) this.captures += 1;
    if (opaque) return;
    // Where this element stands in its parent's text.
    if (inRun && state.kind === 'block') this.markBlock(frame);
    else if (!inRun && collects && parent) this.blockInside(parent);
    this.readAttributes(frame, attributes);
  }

  private readAttributes(frame: Frame, attributes: Record<string, string>): void {
    let ranges: Map<string, [number, number, string]> | null = null;
    let startTag: string | null = null;
    const edits: [number, number, string][] = [];
    for (const name in attributes) {
      const decision = this.rules.attribute(frame.state, name);
      if (!decision) continue;
      const value = attributes[name]!;
      if (decision.context) for (const kind of decision.context) frame.context[kind] = value;
      if (!decision.translatable || isWhitespace(value) || frame.state.excluded) continue;
      startTag ??= this.raw.slice(frame.start, frame.startEnd);
      ranges ??= attributeRanges(startTag);
      const range = ranges.get(name);
      if (!range) continue;
      const { source, tags } = this.textWithPattern(value);
      const unit: TextUnit = {
        index: this.index++,
        key: frame.context.key ?? null,
        locator: `${frame.path}/@${name}`,
        source,
        tags,
        target: null,
        translatable: true,
        note: frame.context.note ?? null,
      };
      if (decision.locked) unit.locked = true;
      const maxLength = positiveInteger(frame.context.maxLen);
      if (maxLength !== undefined) unit.maxLength = maxLength;
      this.units.push({ unit, start: frame.start + range[0], end: frame.start + range[1] });
      const translation = this.translations?.get(unit.locator);
      if (translation && translation.text !== source) {
        const text = restoreTags(translation.text, tags, (t) => this.escape(t, unit.locator, range[2]));
        edits.push([range[0], range[1], text]);
        this.edits.push({ start: frame.start + range[0], end: frame.start + range[1], text });
      }
    }
    if (edits.length && startTag !== null) {
      let out = '';
      let last = 0;
      for (const [from, to, text] of edits.sort((a, b) => a[0] - b[0])) {
        out += startTag.slice(last, from) + text;
        last = to;
      }
      frame.startTagOut = out + startTag.slice(last);
    }
  }

  private onClose(): void {
    const end = this.parser.position;
    const frame = this.stack.pop();
    if (!frame) return;
    const parent = frame.parent;
    if (frame.capture) this.captures -= 1;
    if (frame.capture && parent) {
      const text = frame.capture.parts.join('').trim();
      parent.learned ??= {};
      for (const kind of frame.capture.kinds) parent.learned[kind] = text;
    }
    if (frame.opaque) return;
    const selfClosing = end === frame.startEnd;
    const endStart = selfClosing ? end : this.raw.lastIndexOf('<', end);
    // Its own text: what is left of its run is a unit, once pending children are settled.
    if (frame.run) {
      if (frame.run.pending > 0 && !frame.run.hasText) this.resolvePendingAsBlocks(frame);
    }
    if (frame.isBlock) {
      if (frame.run) this.emitRun(frame, frame.run.pieces);
      frame.run = null;
      return;
    }
    // A candidate in its parent's run (inRun and not a block).
    const run = parent!.run!;
    if (frame.state.kind === 'nt' || !frame.collects) {
      const piece: ElementPiece = {
        kind: 'element',
        start: frame.start,
        startEnd: frame.startEnd,
        endStart,
        end,
        pieces: [],
        pending: false,
        frame: null,
        startTagOut: frame.startTagOut,
        hasText: false,
      };
      if (frame.state.kind !== 'nt' && !run.hasText) {
        piece.pending = true;
        run.pending += 1;
      }
      run.pieces.push(piece);
    } else {
      const own = frame.run!;
      const piece: ElementPiece = {
        kind: 'element',
        start: frame.start,
        startEnd: frame.startEnd,
        endStart,
        end,
        pieces: own.pieces,
        pending: false,
        frame,
        startTagOut: frame.startTagOut,
        hasText: own.hasText,
      };
      frame.run = null;
      if (frame.state.kind === 'auto' && !run.hasText) {
        piece.pending = true;
        run.pending += 1;
        run.pieces.push(piece);
      } else {
        run.pieces.push(piece);
        // Text inside an inline element is text next to the pending ones.
        if (own.hasText && run.pending > 0) this.resolvePendingAsInline(run);
        if (own.hasText) run.hasText = true;
      }
    }
    if (run.pending > MAX_PENDING_SIBLINGS) this.resolvePendingAsBlocks(parent!);
  }

  // --- blocks and runs

  /** `frame` turns out to contain a block: it is no inline candidate, and its parent's run is cut before it. */
  private markBlock(frame: Frame): void {
    if (frame.isBlock) return;
    frame.isBlock = true;
    if (frame.parent) this.blockInside(frame.parent);
  }

  /** A block starts inside `frame` now: `frame` is a block too, and its run so far is finished. */
  private blockInside(frame: Frame): void {
    this.markBlock(frame);
    if (!frame.run) return;
    if (frame.run.hasText) this.emitRun(frame, frame.run.pieces);
    else this.emitPending(frame.run);
    frame.run = { pieces: [], hasText: false, pending: 0 };
  }

  private resolvePendingAsInline(run: Run): void {
    for (const piece of run.pieces) {
      if (piece.kind === 'element' && piece.pending) {
        piece.pending = false;
        if (piece.hasText) run.hasText = true;
      }
    }
    run.pending = 0;
  }

  /** The pending elements of a run without text are blocks: each is a unit of its own. */
  private resolvePendingAsBlocks(frame: Frame): void {
    this.markBlock(frame);
    const run = frame.run!;
    // Text before the first pending element (explicit inline elements, say) is a unit of its own.
    const firstPending = run.pieces.findIndex((piece) => piece.kind === 'element' && piece.pending);
    if (firstPending > 0) this.emitRun(frame, run.pieces.slice(0, firstPending));
    this.emitPending(run);
    frame.run = { pieces: [], hasText: false, pending: 0 };
  }

  private emitPending(run: Run): void {
    for (const piece of run.pieces) {
      if (piece.kind === 'element' && piece.pending && piece.frame) this.emitRun(piece.frame, piece.pieces);
    }
    run.pending = 0;
  }

  // --- units

  private textWithPattern(text: string, tags: InlineTag[] = [], counter = { n: 0 }): { source: string; tags: InlineTag[] } {
    if (!this.pattern) return { source: text, tags };
    let source = '';
    let last = 0;
    for (const match of text.matchAll(this.pattern)) {
      if (match[0] === '') continue;
      const tag = inlineTag(++counter.n, 'standalone', match[0]);
      tags.push(tag);
      source += text.slice(last, match.index) + tag.display;
      last = match.index + match[0].length;
    }
    return { source: source + text.slice(last), tags };
  }

  /** The unit of a run of `frame` (pieces trimmed of white space and comments at both ends), if it has text. */
  private emitRun(frame: Frame, pieces: Piece[]): void {
    let first = 0;
    let last = pieces.length - 1;
    while (first <= last && skippable(pieces[first]!)) first++;
    while (last >= first && skippable(pieces[last]!)) last--;
    if (first > last) return;
    if (pieces[last]!.end - pieces[first]!.start > MAX_XML_UNIT_CHARS) {
      return this.fail(`a text unit is larger than ${MAX_XML_UNIT_CHARS} characters`);
    }
    const kept = pieces.slice(first, last + 1);
    if (!kept.some((piece) => (piece.kind === 'text' ? !isWhitespace(piece.text) : piece.kind === 'element' && piece.hasText))) return;
    let start = kept[0]!.start;
    let end = kept[kept.length - 1]!.end;
    // White space at the ends stays in the file.
    const head = kept[0]!;
    let headText: string | null = null;
    if (head.kind === 'text' && !head.cdata) {
      const ws = leadingWhitespace(this.raw.slice(head.start, head.end));
      start += ws.raw;
      headText = head.text.slice(ws.decoded);
    }
    const tail = kept[kept.length - 1]!;
    let tailText: string | null = null;
    if (tail.kind === 'text' && !tail.cdata) {
      const ws = trailingWhitespace(this.raw.slice(tail.start, tail.end));
      end -= ws.raw;
      const base = tail === head && headText !== null ? headText : tail.text;
      tailText = base.slice(0, base.length - ws.decoded);
    }
    const tags: InlineTag[] = [];
    const counter = { n: 0 };
    let source = '';
    const walk = (list: Piece[], top: boolean): void => {
      list.forEach((piece, i) => {
        if (piece.kind === 'text') {
          let text = piece.text;
          if (top && i === 0 && headText !== null) text = headText;
          if (top && i === list.length - 1 && tailText !== null) text = tailText;
          source += this.textWithPattern(text, tags, counter).source;
          return;
        }
        const id = ++counter.n;
        const startTag = piece.startTagOut ?? this.raw.slice(piece.start, piece.startEnd || piece.start);
        if (piece.kind === 'code') {
          const original = piece.startEnd ? startTag + this.raw.slice(piece.startEnd, piece.end) : this.raw.slice(piece.start, piece.end);
          const tag = inlineTag(id, 'standalone', original);
          tags.push(tag);
          source += tag.display;
          return;
        }
        if (!piece.frame || piece.pieces.length === 0 || piece.endStart === piece.end) {
          // One tag: an element whose content is not translatable, or an empty one.
          const tag = inlineTag(id, 'standalone', startTag + this.raw.slice(piece.startEnd, piece.end));
          tags.push(tag);
          source += tag.display;
          return;
        }
        const open = inlineTag(id, 'open', startTag);
        tags.push(open);
        source += open.display;
        walk(piece.pieces, false);
        const close = inlineTag(id, 'close', this.raw.slice(piece.endStart, piece.end));
        tags.push(close);
        source += close.display;
      });
    };
    walk(kept, true);
    frame.units += 1;
    const context: Context = { ...frame.context, ...frame.learned };
    const unit: TextUnit = {
      index: this.index++,
      key: context.key ?? null,
      locator: frame.units > 1 ? `${frame.path}#${frame.units}` : frame.path,
      source,
      tags,
      target: null,
      translatable: true,
      note: context.note ?? null,
    };
    if (frame.state.locked) unit.locked = true;
    const maxLength = positiveInteger(context.maxLen);
    if (maxLength !== undefined) unit.maxLength = maxLength;
    this.units.push({ unit, start, end });
    const translation = this.translations?.get(unit.locator);
    if (!translation || translation.text === source) return;
    const cdataOnly = kept.every((piece) => piece.kind === 'text' && piece.cdata);
    const crlf = this.raw.slice(start, end).includes('\r\n');
    let text: string;
    if (cdataOnly && tags.length === 0) {
      if (hasNonXmlCharacter(translation.text))
        throw new FormatError(`the translation of unit ${unit.locator} contains a character XML cannot hold`);
      const body = crlf ? translation.text.replace(/\r?\n/g, '\r\n') : translation.text;
      text = `<![CDATA[${body.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
    } else {
      text = restoreTags(translation.text, tags, (t) => {
        const escaped = this.escape(t, unit.locator, null);
        return crlf ? escaped.replace(/\r?\n/g, '\r\n') : escaped;
      });
      if (tags.some((tag) => tag.kind !== 'standalone')) assertWellFormed(text, unit.locator);
    }
    this.edits.push({ start, end, text });
  }

  /** Text (or an attribute value in `quote`) escaped for the file: markup characters, preserved entities, the encoding's range. */
  private escape(text: string, locator: string, quote: string | null): string {
    if (hasNonXmlCharacter(text)) throw new FormatError(`the translation of unit ${locator} contains a character XML cannot hold`);
    let out = '';
    for (const char of text) {
      const preserved = this.preserve.get(char);
      if (preserved) out += preserved;
      else if (char === '&') out += '&amp;';
      else if (char === '<') out += '&lt;';
      else if (char === '>' && quote === null) out += '&gt;';
      else if (quote !== null && char === quote) out += quote === '"' ? '&quot;' : '&apos;';
      else if (quote !== null && char === '\t') out += '&#9;';
      else if (quote !== null && char === '\n') out += '&#10;';
      else if (quote !== null && char === '\r') out += '&#13;';
      else if (char.codePointAt(0)! > this.maxCodePoint) out += `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};`;
      else out += char;
    }
    return out;
  }
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^[0-9]{1,9}$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return n > 0 ? n : undefined;
}

/** Throws unless `fragment` is well-formed XML content (tags restored in a wrong order are not). */
function assertWellFormed(fragment: string, locator: string): void {
  const parser = new SaxesParser({ fragment: true, xmlns: false });
  let error: Error | null = null;
  parser.on('error', (e) => (error ??= e));
  parser.write(`<t>${fragment}</t>`).close();
  if (error) throw new FormatError(`the translation of unit ${locator} has misplaced or unbalanced tags`);
}

// ---------------------------------------------------------------------------------------------
// The filter

async function* parseBatches(input: Readable, options: FilterOptions = {}): AsyncGenerator<TextUnit[]> {
  const scanner = new XmlRulesScanner(options);
  const { chunks } = await decodeStream(input, chooseXmlEncoding);
  for await (const chunk of chunks) {
    scanner.push(chunk);
    if (scanner.units.length > 0) yield scanner.units.splice(0).map((scanned) => scanned.unit);
    scanner.raw.dropBefore(scanner.retainFrom());
  }
  scanner.end();
  if (scanner.units.length > 0) yield scanner.units.splice(0).map((scanned) => scanned.unit);
}

async function write(
  original: Readable,
  translations: ReadonlyMap<string, UnitTranslation>,
  output: Writable,
  options: FilterOptions = {},
): Promise<void> {
  // Settings are checked before the file is read.
  const probe = new XmlRulesScanner(options);
  void probe;
  const { encoding: enc, chunks } = await decodeStream(original, chooseXmlEncoding);
  const scanner = new XmlRulesScanner({ ...options, translations, encoding: enc });
  let flushed = 0;

  /** The raw text up to `upTo` with the edits before it applied (an edit inside an applied one is part of it). */
  function* flush(upTo: number): Generator<Buffer> {
    const edits = scanner.edits;
    if (edits.length > 1) edits.sort((a, b) => a.start - b.start || b.end - a.end);
    let taken = 0;
    let out = '';
    for (; taken < edits.length && edits[taken]!.start < upTo; taken++) {
      const edit = edits[taken]!;
      if (edit.start < flushed) continue;
      out += scanner.raw.slice(flushed, edit.start) + edit.text;
      flushed = edit.end;
    }
    edits.splice(0, taken);
    if (upTo > flushed) {
      out += scanner.raw.slice(flushed, upTo);
      flushed = upTo;
    }
    if (out) yield encodeText(out, enc);
    scanner.raw.dropBefore(flushed);
  }

  async function* rewritten(): AsyncGenerator<Buffer> {
    if (enc.bom.length) yield enc.bom;
    for await (const chunk of chunks) {
      scanner.push(chunk);
      scanner.units.length = 0;
      yield* flush(scanner.retainFrom());
    }
    scanner.end();
    scanner.units.length = 0;
    yield* flush(scanner.raw.end);
  }
  await pipeline(rewritten(), output);
}

/**
 * Generic XML; options.formatSettings is the `xml` section (XmlSettingsDto). The registry tries
 * the specific XML formats first: this filter is the fallback for `.xml` and, by content, for a
 * file that starts with an XML declaration.
 */
export const xmlRulesFilter: FormatFilter = {
  name: 'xml',
  extensions: ['xml'],
  detect(firstBytes) {
    let head: string;
    try {
      const enc = chooseXmlEncoding(firstBytes);
      const body = firstBytes.subarray(enc.bom.length);
      head = enc.name === 'latin1' ? body.toString('latin1') : new TextDecoder(enc.name).decode(body);
    } catch {
      return false;
    }
    return /^<\?xml[ \t\r\n][^>]*\?>/.test(head);
  },
  parse: (input, options) => unitsOfBatches(parseBatches(input, options)),
  parseBatches,
  write,
};

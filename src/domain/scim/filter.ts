/**
 * SCIM filters (RFC 7644 §3.4.2.2) and PATCH paths (§3.5.2): parsing into a small syntax tree,
 * and evaluating a filter against an in-memory value (used for the `emails[type eq "work"]`
 * selections of PATCH paths; searches translate the tree to SQL instead). Pure.
 *
 * Operators, `and`/`or`/`not` and attribute names are case-insensitive. `and` binds tighter
 * than `or`; `not` needs parentheses, as in the RFC's grammar.
 */
import { scimErrors } from '../../errors/index.js';
import type { ScimError } from '../../errors/index.js';
import { findAttribute } from './schema.js';
import type { AttributeDefinition } from './schema.js';

/** `name.givenName`, `urn:ietf:params:scim:schemas:core:2.0:User:userName`: names as written. */
export interface AttributePath {
  /** The schema URN the attribute was qualified with, or null. */
  readonly schema: string | null;
  readonly attribute: string;
  readonly subAttribute: string | null;
}

export const COMPARISON_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export type ComparisonValue = string | number | boolean | null;

export type Filter =
  | { readonly kind: 'compare'; readonly path: AttributePath; readonly operator: ComparisonOperator; readonly value: ComparisonValue }
  | { readonly kind: 'present'; readonly path: AttributePath }
  | { readonly kind: 'and' | 'or'; readonly left: Filter; readonly right: Filter }
  | { readonly kind: 'not'; readonly filter: Filter }
  /** `emails[type eq "work" and value co "@example.com"]`: some value of `path` matches `filter`. */
  | { readonly kind: 'valuePath'; readonly path: AttributePath; readonly filter: Filter };

/** A PATCH path: an attribute path, optionally narrowed by a value filter (`emails[type eq "work"].value`). */
export interface PatchPath extends AttributePath {
  readonly filter: Filter | null;
}

/** Longer filters are refused; no client needs more, and it bounds the work of parsing. */
export const MAX_FILTER_LENGTH = 4096;
const MAX_DEPTH = 32;

// ---- tokens ----------------------------------------------------------------------------------

type Token =
  | { readonly type: 'word'; readonly text: string; readonly at: number }
  | { readonly type: 'string'; readonly value: string; readonly at: number }
  | { readonly type: 'number'; readonly value: number; readonly at: number }
  | { readonly type: '(' | ')' | '[' | ']' | 'end'; readonly at: number };

const WORD = /[A-Za-z0-9$_.:-]/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;

function tokenize(text: string, fail: (message: string) => ScimError): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ type: c, at: i });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw fail(`the string starting at position ${i + 1} is not closed`);
      let value: string;
      try {
        value = JSON.parse(text.slice(i, j + 1)) as string;
      } catch {
        throw fail(`the string starting at position ${i + 1} has an invalid escape`);
      }
      tokens.push({ type: 'string', value, at: i });
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const match = NUMBER.exec(text.slice(i));
      const end = i + (match?.[0].length ?? 0);
      if (!match || (end < text.length && WORD.test(text[end]!))) throw fail(`"${wordAt(text, i)}" at position ${i + 1} is not a number`);
      tokens.push({ type: 'number', value: Number(match[0]), at: i });
      i = end;
    } else if (WORD.test(c)) {
      const word = wordAt(text, i);
      tokens.push({ type: 'word', text: word, at: i });
      i += word.length;
    } else {
      throw fail(`unexpected "${c}" at position ${i + 1}`);
    }
  }
  tokens.push({ type: 'end', at: text.length });
  return tokens;
}

function wordAt(text: string, start: number): string {
  let end = start;
  while (end < text.length && WORD.test(text[end]!)) end++;
  return text.slice(start, Math.max(end, start + 1));
}

// ---- attribute paths -------------------------------------------------------------------------

const ATTRIBUTE_NAME = /^(\$ref|[A-Za-z][A-Za-z0-9_-]*)$/;

/** `userName`, `name.givenName`, `urn:…:User:name.givenName`; null when `text` is no attribute path. */
export function parseAttributePath(text: string): AttributePath | null {
  let schema: string | null = null;
  let rest = text;
  if (/^urn:/i.test(text)) {
    const colon = text.lastIndexOf(':');
    schema = text.slice(0, colon);
    rest = text.slice(colon + 1);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || !parts.every((part) => ATTRIBUTE_NAME.test(part))) return null;
  return { schema, attribute: parts[0]!, subAttribute: parts[1] ?? null };
}

export function formatAttributePath(path: AttributePath): string {
  const name = path.subAttribute ? `${path.attribute}.${path.subAttribute}` : path.attribute;
  return path.schema ? `${path.schema}:${name}` : name;
}

// ---- parser ----------------------------------------------------------------------------------

class Parser {
  private position = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly fail: (message: string) => ScimError,
  ) {}

  peek(): Token {
    return this.tokens[this.position]!;
  }

  next(): Token {
    const token = this.tokens[this.position]!;
    if (token.type !== 'end') this.position++;
    return token;
  }

  isWord(token: Token, ...words: string[]): boolean {
    return token.type === 'word' && words.includes(token.text.toLowerCase());
  }

  expect(type: Token['type'], what: string): Token {
    const token = this.next();
    if (token.type !== type) throw this.fail(`expected ${what} at position ${token.at + 1}, found ${describe(token)}`);
    return token;
  }

  /** FILTER, with `or` binding loosest. */
  or(inValuePath: boolean): Filter {
    let left = this.and(inValuePath);
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      left = { kind: 'or', left, right: this.and(inValuePath) };
    }
    return left;
  }

  and(inValuePath: boolean): Filter {
    let left = this.unary(inValuePath);
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      left = { kind: 'and', left, right: this.unary(inValuePath) };
    }
    return left;
  }

  unary(inValuePath: boolean): Filter {
    if (++this.depth > MAX_DEPTH) throw this.fail(`the filter is nested more than ${MAX_DEPTH} levels deep`);
    try {
      const token = this.peek();
      if (this.isWord(token, 'not')) {
        this.next();
        this.expect('(', '"(" after "not"');
        const filter = this.or(inValuePath);
        this.expect(')', '")"');
        return { kind: 'not', filter };
      }
      if (token.type === '(') {
        this.next();
        const filter = this.or(inValuePath);
        this.expect(')', '")"');
        return filter;
      }
      return this.attributeExpression(inValuePath);
    } finally {
      this.depth--;
    }
  }

  attributePath(): AttributePath {
    const token = this.next();
    if (token.type !== 'word') throw this.fail(`expected an attribute name at position ${token.at + 1}, found ${describe(token)}`);
    const path = parseAttributePath(token.text);
    if (!path) throw this.fail(`"${token.text}" at position ${token.at + 1} is not an attribute name`);
    return path;
  }

  attributeExpression(inValuePath: boolean): Filter {
    const path = this.attributePath();
    if (this.peek().type === '[') {
      if (inValuePath) throw this.fail(`value filters ("[…]") cannot be nested`);
      if (path.subAttribute) throw this.fail(`a value filter applies to a multi-valued attribute, not to "${formatAttributePath(path)}"`);
      this.next();
      const filter = this.or(true);
      this.expect(']', '"]"');
      return { kind: 'valuePath', path, filter };
    }
    const operatorToken = this.next();
    const operator = operatorToken.type === 'word' ? operatorToken.text.toLowerCase() : '';
    if (operator === 'pr') return { kind: 'present', path };
    if (!(COMPARISON_OPERATORS as readonly string[]).includes(operator)) {
      throw this.fail(
        `expected an operator (${[...COMPARISON_OPERATORS, 'pr'].join(', ')}) after "${formatAttributePath(path)}", found ${describe(operatorToken)}`,
      );
    }
    return { kind: 'compare', path, operator: operator as ComparisonOperator, value: this.value() };
  }

  value(): ComparisonValue {
    const token = this.next();
    if (token.type === 'string' || token.type === 'number') return token.value;
    if (token.type === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    throw this.fail(`expected a value (a "string", a number, true, false or null) at position ${token.at + 1}, found ${describe(token)}`);
  }
}

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end';
    case 'word':
      return `"${token.text}"`;
    case 'string':
      return JSON.stringify(token.value);
    case 'number':
      return String(token.value);
    default:
      return `"${token.type}"`;
  }
}

/** Parses a filter (the `filter` parameter of a search); throws an `invalidFilter` ScimError. */
export function parseFilter(text: string): Filter {
  const fail = (message: string) => scimErrors.invalidFilter(`Invalid filter: ${message}.`);
  if (text.length > MAX_FILTER_LENGTH) throw fail(`it is longer than ${MAX_FILTER_LENGTH} characters`);
  const parser = new Parser(tokenize(text, fail), fail);
  if (parser.peek().type === 'end') throw fail('it is empty');
  const filter = parser.or(false);
  const rest = parser.peek();
  if (rest.type !== 'end') throw fail(`unexpected ${describe(rest)} at position ${rest.at + 1}`);
  return filter;
}

/**
 * Parses a PATCH path: `attrPath`, or `attrPath[valFilter]` optionally followed by
 * `.subAttribute`. A malformed path is an `invalidPath` error, a malformed value filter an
 * `invalidFilter` one (RFC 7644 §3.12).
 */
export function parsePatchPath(text: string): PatchPath {
  const pathError = (message: string) => scimErrors.invalidPath(`Invalid path "${text}": ${message}.`);
  const filterError = (message: string) => scimErrors.invalidFilter(`Invalid filter in path "${text}": ${message}.`);
  const tokens = tokenize(text, pathError);
  const head = tokens[0]!;
  if (head.type !== 'word') throw pathError(head.type === 'end' ? 'it is empty' : `it must start with an attribute name`);
  const path = parseAttributePath(head.text);
  if (!path) throw pathError(`"${head.text}" is not an attribute name`);
  if (tokens[1]!.type === 'end') return { ...path, filter: null };
  if (tokens[1]!.type !== '[' || path.subAttribute)
    throw pathError('only a multi-valued attribute may be followed by a value filter "[…]"');
  // Value filters do not nest, so the first "]" closes it ("]" inside strings was tokenised already).
  const close = tokens.findIndex((t, i) => i > 1 && t.type === ']');
  if (close < 0) throw pathError('the value filter is not closed with "]"');
  const parser = new Parser([...tokens.slice(2, close), { type: 'end', at: tokens[close]!.at }], filterError);
  if (parser.peek().type === 'end') throw filterError('it is empty');
  const filter = parser.or(true);
  const rest = parser.peek();
  if (rest.type !== 'end') throw filterError(`unexpected ${describe(rest)} at position ${rest.at + 1}`);
  const after = tokens.slice(close + 1);
  if (after[0]!.type === 'end') return { ...path, filter };
  const sub = after[0]!;
  if (sub.type !== 'word' || !sub.text.startsWith('.') || after[1]!.type !== 'end' || !ATTRIBUTE_NAME.test(sub.text.slice(1))) {
    throw pathError('after the value filter only ".subAttribute" may follow');
  }
  return { ...path, subAttribute: sub.text.slice(1), filter };
}

// ---- evaluation ------------------------------------------------------------------------------

type Scalar = string | number | boolean;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `object[name]`, matching the key without regard to case. */
export function getAttribute(object: Record<string, unknown>, name: string): unknown {
  if (name in object) return object[name];
  const wanted = name.toLowerCase();
  const key = Object.keys(object).find((k) => k.toLowerCase() === wanted);
  return key === undefined ? undefined : object[key];
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.some(isPresent);
  if (isObject(value)) return Object.values(value).some(isPresent);
  return true;
}

/** The scalar values a path names in `object`, with the definition that types them. */
function valuesAt(
  object: Record<string, unknown>,
  path: AttributePath,
  attributes: readonly AttributeDefinition[],
): { values: unknown[]; definition: AttributeDefinition } | null {
  const definition = findAttribute(attributes, path.attribute);
  if (!definition) return null;
  let values = [getAttribute(object, definition.name)].flat().filter((v) => v !== undefined && v !== null);
  if (definition.type !== 'complex') return path.subAttribute ? null : { values, definition };
  // A complex attribute without a sub-attribute is compared through its `value` (RFC 7644 §3.4.2.2).
  const subName = path.subAttribute ?? 'value';
  const sub = findAttribute(definition.subAttributes, subName);
  if (!sub) return null;
  values = values
    .filter(isObject)
    .map((v) => getAttribute(v, sub.name))
    .filter((v) => v !== undefined && v !== null);
  return { values, definition: sub };
}

/** `"True"` and `"false"` as booleans (Microsoft Entra sends booleans as strings), else null. */
export function booleanFrom(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return null;
}

/**
 * Compares one attribute value with a filter value, by the attribute's type: strings ignore case
 * unless `caseExact`, date-times compare as instants, booleans support only eq and ne.
 */
export function compareValues(
  actual: unknown,
  operator: ComparisonOperator,
  expected: Scalar,
  definition: Pick<AttributeDefinition, 'name' | 'type' | 'caseExact'>,
): boolean {
  switch (definition.type) {
    case 'boolean': {
      if (operator !== 'eq' && operator !== 'ne')
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a boolean; use eq or ne.`);
      const wanted = booleanFrom(expected);
      if (wanted === null)
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a boolean; compare it with true or false.`);
      const equal = booleanFrom(actual) === wanted;
      return operator === 'eq' ? equal : !equal;
    }
    case 'dateTime': {
      if (['co', 'sw', 'ew'].includes(operator))
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a date; use eq, ne, gt, ge, lt or le.`);
      const wanted = typeof expected === 'string' ? Date.parse(expected) : Number.NaN;
      if (Number.isNaN(wanted))
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a date; compare it with a date-time string.`);
      const value = typeof actual === 'string' ? Date.parse(actual) : Number.NaN;
      if (Number.isNaN(value)) return operator === 'ne';
      return ordered(value, operator, wanted);
    }
    case 'integer':
    case 'decimal': {
      if (typeof expected !== 'number' || ['co', 'sw', 'ew'].includes(operator))
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a number.`);
      return typeof actual === 'number' ? ordered(actual, operator, expected) : operator === 'ne';
    }
    default: {
      if (typeof expected !== 'string')
        throw scimErrors.invalidFilter(`Invalid filter: "${definition.name}" is a string; compare it with a "quoted string".`);
      if (typeof actual !== 'string') return operator === 'ne';
      const a = definition.caseExact ? actual : actual.toLowerCase();
      const b = definition.caseExact ? expected : expected.toLowerCase();
      if (operator === 'co') return a.includes(b);
      if (operator === 'sw') return a.startsWith(b);
      if (operator === 'ew') return a.endsWith(b);
      return ordered(a, operator, b);
    }
  }
}

function ordered<T extends string | number>(a: T, operator: ComparisonOperator, b: T): boolean {
  switch (operator) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
    default:
      return false;
  }
}

/**
 * Whether `object` matches `filter`, where `attributes` describes the object's attributes (the
 * sub-attributes of `emails` for the values of a PATCH path's `emails[…]`). An attribute the
 * definitions do not know matches nothing.
 */
export function evaluateFilter(filter: Filter, object: Record<string, unknown>, attributes: readonly AttributeDefinition[]): boolean {
  switch (filter.kind) {
    case 'and':
      return evaluateFilter(filter.left, object, attributes) && evaluateFilter(filter.right, object, attributes);
    case 'or':
      return evaluateFilter(filter.left, object, attributes) || evaluateFilter(filter.right, object, attributes);
    case 'not':
      return !evaluateFilter(filter.filter, object, attributes);
    case 'present': {
      const found = valuesAt(object, filter.path, attributes);
      return found !== null && found.values.some(isPresent);
    }
    case 'valuePath': {
      const definition = findAttribute(attributes, filter.path.attribute);
      if (!definition || definition.type !== 'complex') return false;
      const values = [getAttribute(object, definition.name)].flat().filter(isObject);
      return values.some((value) => evaluateFilter(filter.filter, value, definition.subAttributes ?? []));
    }
    case 'compare': {
      const found = valuesAt(object, filter.path, attributes);
      if (filter.value === null) {
        // `attr eq null` asks for an attribute without a value (RFC 7644 §3.5.2: null is "unassigned").
        const present = found !== null && found.values.some(isPresent);
        if (filter.operator === 'eq') return !present;
        if (filter.operator === 'ne') return present;
        throw scimErrors.invalidFilter(`Invalid filter: null can only be compared with eq or ne.`);
      }
      if (!found) return false;
      const expected = filter.value;
      return found.values.some((value) => compareValues(value, filter.operator, expected, found.definition));
    }
  }
}

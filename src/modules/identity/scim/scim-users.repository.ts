import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { num } from '../../../db/database.js';
import type { DB } from '../../../db/schema.js';
import { scimErrors } from '../../../errors/index.js';
import { booleanFrom, compareValues, formatAttributePath, parseAttributePath } from '../../../domain/scim/filter.js';
import type { AttributePath, ComparisonOperator, ComparisonValue, Filter } from '../../../domain/scim/filter.js';
import { isCoreUserSchema } from '../../../domain/scim/schema.js';
import type { UserRow } from '../users/index.js';

/**
 * SCIM searches over the users table: a parsed filter (src/domain/scim/filter.ts) becomes a SQL
 * condition, so that counting and paging happen in the database. Only human users of the
 * caller's organization that are not deleted are SCIM resources; bots belong to their service
 * accounts.
 */

type StringColumn = 'uid' | 'userName' | 'firstName' | 'lastName' | 'email' | 'role';

/** What a SCIM attribute path stands for in a user row. */
type Target =
  | { readonly kind: 'string'; readonly column: StringColumn; readonly caseExact: boolean }
  | { readonly kind: 'boolean'; readonly column: 'active' }
  | { readonly kind: 'dateTime'; readonly column: 'createdAt' }
  /** Sub-attributes with one value for every user: the kept e-mail is the primary "work" one. */
  | { readonly kind: 'constant'; readonly type: 'string' | 'boolean'; readonly value: string | boolean };

const TARGETS: Record<string, Target> = {
  id: { kind: 'string', column: 'uid', caseExact: true },
  username: { kind: 'string', column: 'userName', caseExact: false },
  'name.givenname': { kind: 'string', column: 'firstName', caseExact: false },
  'name.familyname': { kind: 'string', column: 'lastName', caseExact: false },
  emails: { kind: 'string', column: 'email', caseExact: false },
  'emails.value': { kind: 'string', column: 'email', caseExact: false },
  'emails.type': { kind: 'constant', type: 'string', value: 'work' },
  'emails.primary': { kind: 'constant', type: 'boolean', value: true },
  active: { kind: 'boolean', column: 'active' },
  'meta.created': { kind: 'dateTime', column: 'createdAt' },
  'meta.lastmodified': { kind: 'dateTime', column: 'createdAt' },
  'meta.resourcetype': { kind: 'constant', type: 'string', value: 'User' },
  roles: { kind: 'string', column: 'role', caseExact: false },
  'roles.value': { kind: 'string', column: 'role', caseExact: false },
  'roles.primary': { kind: 'constant', type: 'boolean', value: true },
};

/** For messages and the documentation. */
export const FILTERABLE_ATTRIBUTES = [
  'id',
  'userName',
  'name.givenName',
  'name.familyName',
  'emails (emails.value)',
  'emails.type',
  'emails.primary',
  'active',
  'meta.created',
  'meta.lastModified',
  'roles (roles.value)',
];

const SQL_OPERATORS: Record<'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le', '=' | '<>' | '>' | '>=' | '<' | '<='> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

function targetOf(path: AttributePath, within: string | null, purpose: 'filter' | 'sort'): Target {
  const fail =
    purpose === 'filter'
      ? (message: string) => scimErrors.invalidFilter(`Invalid filter: ${message}.`)
      : (message: string) => scimErrors.invalidValue(`Invalid sortBy: ${message}.`);
  const written = formatAttributePath(path);
  if (path.schema && !isCoreUserSchema(path.schema)) throw fail(`"${written}" belongs to a schema OpenTMS does not support`);
  const name = (
    within
      ? `${within}.${path.attribute}${path.subAttribute ? `.${path.subAttribute}` : ''}`
      : formatAttributePath({ ...path, schema: null })
  ).toLowerCase();
  if (name === 'externalid') throw fail('OpenTMS does not keep externalId; match users by userName');
  const target = TARGETS[name];
  if (!target)
    throw fail(
      `${purpose === 'filter' ? 'filtering' : 'sorting'} by "${within ? `${within}[${written}]` : written}" is not supported; use ${FILTERABLE_ATTRIBUTES.join(', ')}`,
    );
  return target;
}

function likePattern(operator: 'co' | 'sw' | 'ew', value: string): string {
  const escaped = value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  if (operator === 'co') return `%${escaped}%`;
  return operator === 'sw' ? `${escaped}%` : `%${escaped}`;
}

function present(target: Target): Expression<SqlBool> {
  if (target.kind !== 'string') return TRUE; // booleans, dates and constants always have a value
  return sql<SqlBool>`(${sql.ref(target.column)} is not null and ${sql.ref(target.column)} <> '')`;
}

function comparison(
  eb: ExpressionBuilder<DB, 'users'>,
  target: Target,
  operator: ComparisonOperator,
  value: ComparisonValue,
  written: string,
): Expression<SqlBool> {
  const fail = (message: string) => scimErrors.invalidFilter(`Invalid filter: "${written}" ${message}.`);
  if (value === null) {
    if (operator === 'eq') return eb.not(present(target));
    if (operator === 'ne') return present(target);
    throw fail('can be compared with null only by eq or ne');
  }
  switch (target.kind) {
    case 'constant':
      return compareValues(target.value, operator, value, { name: written, type: target.type, caseExact: false }) ? TRUE : FALSE;
    case 'boolean': {
      const wanted = booleanFrom(value);
      if ((operator !== 'eq' && operator !== 'ne') || wanted === null)
        throw fail('is a boolean: compare it with true or false by eq or ne');
      return eb(target.column, operator === 'eq' ? '=' : '<>', wanted);
    }
    case 'dateTime': {
      const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (operator === 'co' || operator === 'sw' || operator === 'ew' || Number.isNaN(at))
        throw fail('is a date-time: compare it with a date-time string by eq, ne, gt, ge, lt or le');
      // Stored times are ISO 8601 UTC strings, which sort as the instants they name.
      return eb(target.column, SQL_OPERATORS[operator], new Date(at).toISOString());
    }
    case 'string': {
      if (typeof value !== 'string') throw fail('is a string: compare it with a "quoted string"');
      if (target.caseExact) {
        if (operator !== 'eq' && operator !== 'ne') throw fail('can be compared only by eq or ne');
        return eb(target.column, SQL_OPERATORS[operator], value);
      }
      const column = sql`lower(${sql.ref(target.column)})`;
      if (operator === 'co' || operator === 'sw' || operator === 'ew')
        return sql<SqlBool>`${column} like ${likePattern(operator, value)} escape '\\'`;
      return sql<SqlBool>`${column} ${sql.raw(SQL_OPERATORS[operator])} ${value.toLowerCase()}`;
    }
  }
}

/** The SQL condition of a SCIM filter; throws `invalidFilter` for what cannot be searched. */
export function filterCondition(eb: ExpressionBuilder<DB, 'users'>, filter: Filter, within: string | null = null): Expression<SqlBool> {
  switch (filter.kind) {
    case 'and':
      return eb.and([filterCondition(eb, filter.left, within), filterCondition(eb, filter.right, within)]);
    case 'or':
      return eb.or([filterCondition(eb, filter.left, within), filterCondition(eb, filter.right, within)]);
    case 'not':
      return eb.not(filterCondition(eb, filter.filter, within));
    case 'present':
      return present(targetOf(filter.path, within, 'filter'));
    case 'compare':
      return comparison(eb, targetOf(filter.path, within, 'filter'), filter.operator, filter.value, formatAttributePath(filter.path));
    case 'valuePath': {
      const name = filter.path.attribute.toLowerCase();
      if ((filter.path.schema && !isCoreUserSchema(filter.path.schema)) || (name !== 'emails' && name !== 'roles')) {
        throw scimErrors.invalidFilter(
          `Invalid filter: "${formatAttributePath(filter.path)}[…]" is not supported; value filters work on emails and roles.`,
        );
      }
      // A user has one e-mail address and one role: "some value matches" is "the value matches".
      return filterCondition(eb, filter.filter, name);
    }
  }
}

export interface ScimSort {
  /** An attribute path such as `userName` or `meta.created`. */
  readonly by: string;
  readonly descending: boolean;
}

export interface ScimSearch {
  readonly filter: Filter | null;
  readonly sort: ScimSort | null;
  /** 0-based. */
  readonly offset: number;
  readonly limit: number;
}

function sortTarget(by: string): Exclude<Target, { kind: 'constant' }> | null {
  const path = parseAttributePath(by.trim());
  if (!path) throw scimErrors.invalidValue(`Invalid sortBy: "${by}" is not an attribute name.`);
  const target = targetOf(path, null, 'sort');
  return target.kind === 'constant' ? null : target;
}

export async function searchScimUsers(
  db: Kysely<DB>,
  organizationId: string,
  search: ScimSearch,
): Promise<{ rows: UserRow[]; total: number }> {
  const sort = search.sort ? { target: sortTarget(search.sort.by), descending: search.sort.descending } : null;
  let query = db.selectFrom('users').where('organizationId', '=', organizationId).where('deletedAt', 'is', null).where('isBot', '=', false);
  const filter = search.filter;
  if (filter) query = query.where((eb) => filterCondition(eb, filter));
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  if (search.limit === 0) return { rows: [], total: num(total as string | number) };
  const direction = sort?.descending ? 'desc' : 'asc';
  let ordered = query.selectAll();
  if (sort?.target) {
    const target = sort.target;
    // Strings sort without regard to case, the same on both databases.
    ordered =
      target.kind === 'string' && !target.caseExact
        ? ordered.orderBy(sql`lower(${sql.ref(target.column)})`, direction)
        : ordered.orderBy(target.column, direction);
  }
  const rows = await ordered.orderBy('id', direction).limit(search.limit).offset(search.offset).execute();
  return { rows, total: num(total as string | number) };
}

/** A SCIM resource by its id: the user uid, or (as the published spec types `userId` as int64) the numeric id. */
export function findScimUser(db: Kysely<DB>, organizationId: string, id: string): Promise<UserRow | undefined> {
  let query = db
    .selectFrom('users')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null)
    .where('isBot', '=', false);
  query = /^[1-9]\d{0,17}$/.test(id) ? query.where((eb) => eb.or([eb('uid', '=', id), eb('id', '=', id)])) : query.where('uid', '=', id);
  return query.executeTakeFirst();
}

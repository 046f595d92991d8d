import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';

/**
 * `column` contains `value`, ignoring case, with `%` and `_` in the value taken literally.
 * Written once here because the two dialects differ: SQLite's LIKE has no default escape
 * character and PostgreSQL's LIKE is case-sensitive.
 */
export function containsText(column: string, value: string): RawBuilder<boolean> {
  const pattern = `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/**
 * `column`, which holds lower-case keys, contains `lowerValue` (literal `%` and `_`), without
 * `lower()` around the column: for columns that are lower case already.
 */
export function keyContains(column: string, lowerValue: string): RawBuilder<boolean> {
  const pattern = `%${lowerValue.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** `column`, which holds lower-case keys, starts with `lowerValue` (literal `%` and `_`). */
export function keyStartsWith(column: string, lowerValue: string): RawBuilder<boolean> {
  const pattern = `${lowerValue.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

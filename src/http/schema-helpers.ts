import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import type { IdRecord } from '../db/record-ids.js';

/** A field that may be null, as most fields of the published DTOs may. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A record's uid (or id) in a path: 1 to 64 characters. */
export const PathUid = Type.String({ minLength: 1, maxLength: 64 });

/** Path parameters that are all record uids: `uidParams('projectUid', 'jobUid')`. */
export function uidParams<const K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((name) => [name, PathUid])) as { [P in K]: typeof PathUid });
}

/** The schema keyword naming the kind of record a path parameter names (src/http/record-ids.ts). */
export const RECORD_KEYWORD = 'x-record';

/**
 * A path parameter naming a record of kind `record` by its uid or by the numeric `id` the record
 * shows, as older clients send it (src/http/record-ids.ts resolves the id to the uid).
 */
export const recordUid = (record: IdRecord) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The uid of the record, or its numeric id.',
    [RECORD_KEYWORD]: record,
  });

import { Type } from 'typebox';
import type { TSchema } from 'typebox';

/** A field that may be null, as most fields of the published DTOs may. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A record's uid (or id) in a path: 1 to 64 characters. */
export const PathUid = Type.String({ minLength: 1, maxLength: 64 });

/** Path parameters that are all record uids: `uidParams('projectUid', 'jobUid')`. */
export function uidParams<const K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((name) => [name, PathUid])) as { [P in K]: typeof PathUid });
}

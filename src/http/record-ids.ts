import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NUMERIC_ID, uidOfNumericId } from '../db/record-ids.js';
import type { IdRecord } from '../db/record-ids.js';
import type { DB } from '../db/schema.js';
import { RECORD_KEYWORD } from './schema-helpers.js';

/**
 * Numeric ids in paths (docs/api-conventions.md, "Records"): a path parameter declared with
 * `recordUid(kind)` (src/http/schema-helpers.ts) takes the record's uid or the numeric `id` the
 * same record shows. One hook, before validation and before the routes' own lookups (the workflow
 * kernel's included), replaces a numeric id of a record of the caller's organization by that
 * record's uid; an id that names nothing there is left as it is, so the route answers 404 as for
 * an unknown uid.
 */
export function installNumericPathIds(app: FastifyInstance, db: Kysely<DB>): void {
  /** The parameters of each route's params schema that name records, found once per schema. */
  const recordParams = new WeakMap<object, ReadonlyArray<readonly [string, IdRecord]>>();

  const paramsOf = (schema: object): ReadonlyArray<readonly [string, IdRecord]> => {
    let found = recordParams.get(schema);
    if (!found) {
      const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
      found = Object.entries(properties)
        .filter(([, property]) => typeof property[RECORD_KEYWORD] === 'string')
        .map(([name, property]) => [name, property[RECORD_KEYWORD] as IdRecord] as const);
      recordParams.set(schema, found);
    }
    return found;
  };

  // Not an async hook: most requests name no record by id, and they pass without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema?.params;
    const caller = request.caller;
    if (!schema || typeof schema !== 'object' || !caller) return done();
    const params = request.params as Record<string, unknown>;
    const numeric = paramsOf(schema).filter(([name]) => {
      const value = params[name];
      return typeof value === 'string' && NUMERIC_ID.test(value);
    });
    if (numeric.length === 0) return done();
    Promise.all(
      numeric.map(async ([name, record]) => {
        const uid = await uidOfNumericId(db, record, params[name] as string, caller.organizationId);
        if (uid !== undefined) params[name] = uid;
      }),
    ).then(() => done(), done);
  });
}

import { Ajv } from 'ajv';
import type { Options, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyError, FastifyInstance } from 'fastify';
import { assertNoNul, booleanNormalizerFor, nullDropperFor } from './json-leniency.js';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const COMMON: Options = {
  useDefaults: true,
  removeAdditional: false,
  // One error is enough to answer, and collecting all of them lets a crafted body cost a lot.
  allErrors: false,
  strict: false,
};

type Validator = ((data: unknown, context?: unknown) => boolean) & Pick<ValidateFunction, 'errors' | 'schemaEnv'>;

/** `validate`, with `prepare` run on the data first; Fastify reads `errors` and `schemaEnv` off the function it is given. */
function preparedFirst(validate: ValidateFunction, prepare: ((data: unknown) => void) | undefined): Validator {
  if (!prepare) return validate as Validator;
  const prepared: Validator = (data, context) => {
    prepare(data);
    const valid = (validate as Validator)(data, context);
    prepared.errors = validate.errors;
    return valid;
  };
  prepared.schemaEnv = validate.schemaEnv;
  return prepared;
}

/**
 * Request validation with two rule sets. Query strings, path parameters and headers arrive as
 * text, so they are coerced (`"5"` -> 5, `role=A` -> `["A"]`, and booleans in any case: `True`,
 * `FALSE`). JSON bodies are not: coercion there would silently turn `0` into `null` for a nullable
 * field or `""` into `false`, changing what the client asked for; a body of the wrong type is a
 * 400. Before a body is validated, a null where its schema does not allow null is dropped, as if
 * the field were absent (generated clients send every unset field as null); where the schema
 * allows null, null keeps its meaning (docs/api-conventions.md, "What clients may send").
 *
 * Every request is also refused (400) when a parsed body, the query string or a path parameter
 * holds a U+0000, which PostgreSQL cannot store: on every route, the public ones included.
 */
export function installValidation(app: FastifyInstance): void {
  const coercing = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body'
      ? preparedFirst(exact.compile(schema), nullDropperFor(schema))
      : preparedFirst(coercing.compile(schema), booleanNormalizerFor(schema)),
  );
  // A callback hook, not an async one: this runs on every request, the fast reads included.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertNoNul(request.params, 'params');
      assertNoNul(request.query, 'querystring');
      assertNoNul(request.body, 'body');
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    done();
  });
}

import { Ajv } from 'ajv';
import type { Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const COMMON: Options = {
  useDefaults: true,
  removeAdditional: false,
  // One error is enough to answer, and collecting all of them lets a crafted body cost a lot.
  allErrors: false,
  strict: false,
};

/**
 * Request validation with two rule sets. Query strings, path parameters and headers arrive as
 * text, so they are coerced (`"5"` -> 5, `role=A` -> `["A"]`). JSON bodies are not: coercion
 * there would silently turn `0` into `null` for a nullable field or `""` into `false`, changing
 * what the client asked for; a body of the wrong type is a 400.
 */
export function installValidation(app: FastifyInstance): void {
  const coercing = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema));
}

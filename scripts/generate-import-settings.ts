/**
 * Writes src/modules/organization-setup/import-settings/file-import-settings.schemas.ts from the published
 * spec: FileImportSettingsCreateDto, FileImportSettingsDto and every definition they reference,
 * transitively, as TypeBox.  `npm run generate:import-settings`
 *
 * The spec is `../shared/spec/phrase-tms-api.yaml` (never copied into the project); in a clone
 * without it the script says so and exits 1. test/import-settings-generator.test.ts regenerates in
 * memory and fails when the committed file differs, so the file is never edited by hand.
 *
 * How a definition translates (anything else stops the generator with the definition's name, so
 * a newer spec cannot be translated silently wrong):
 * - a definition is a `const` named after it, `Type.Object({...}, { title })`, emitted after the
 *   definitions it references (depth first, in the order the properties name them); properties
 *   keep the spec's order and are `Type.Optional` unless `required`;
 * - `$ref` -> that definition's const; `boolean`, `number` -> `Type.Boolean()`, `Type.Number()`;
 *   `integer` -> `Type.Integer()` (the `int32`/`int64` formats are not checked, as elsewhere);
 * - `string` -> `Type.String()` with the spec's `maxLength`, `minLength` (but 0, which says
 *   nothing) and `pattern`; a string with an `enum` -> a union of literals (length limits on a
 *   closed set of values say nothing either);
 * - `object` with `additionalProperties` and no `properties` -> `Type.Record(Type.String(), ...)`;
 * - `array` -> `Type.Array(...)` with the spec's `minItems`, and `maxItems` or, where the spec
 *   leaves it open, 1000: OpenTMS bounds every list a client sends;
 * - descriptions are left out (the spec's "Default:" notes are the services' defaults, applied
 *   where the settings are read).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parse } from 'yaml';
import { projectRoot, sharedSpecDisplayPath, sharedSpecPath } from '../test/contract/shared-dir.js';

export const SPEC_FILE = 'phrase-tms-api.yaml';
export const OUTPUT_FILE = join(
  projectRoot(),
  'src',
  'modules',
  'organization-setup',
  'import-settings',
  'file-import-settings.schemas.ts',
);
const COMMAND = 'npm run generate:import-settings';

/** The definitions the service uses; everything they reference comes along. */
const ROOTS = ['FileImportSettingsCreateDto', 'FileImportSettingsDto'];

/** The bound of an array the spec leaves unbounded. */
const DEFAULT_MAX_ITEMS = 1000;

/** A Swagger 2.0 schema object, as the YAML has it. */
interface SwaggerSchema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  enum?: unknown[];
  properties?: Record<string, SwaggerSchema>;
  required?: string[];
  items?: SwaggerSchema;
  additionalProperties?: SwaggerSchema | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

export interface SwaggerSpec {
  definitions: Record<string, SwaggerSchema>;
}

/** Reads and parses the spec; null when ../shared/spec is absent. */
export function readSpec(): SwaggerSpec | null {
  const path = sharedSpecPath(SPEC_FILE);
  return path === null ? null : (parse(readFileSync(path, 'utf8')) as SwaggerSpec);
}

class Unsupported extends Error {}

/** Throws unless `schema` has only the keywords `allowed` (and a description, which is dropped). */
function only(schema: SwaggerSchema, allowed: string[], where: string): void {
  const extra = Object.keys(schema).filter((key) => key !== 'description' && !allowed.includes(key));
  if (extra.length) throw new Unsupported(`${where}: unsupported ${extra.join(', ')} in ${JSON.stringify(schema)}`);
}

/** `{ a: 1, b: 'x' }` for the options given, or '' when there are none. */
function options(values: Record<string, string | number | undefined>): string {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  return entries.length ? `{ ${entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')} }` : '';
}

function refName(ref: string, where: string): string {
  const match = /^#\/definitions\/([A-Za-z_$][\w$]*)$/.exec(ref);
  if (!match) throw new Unsupported(`${where}: unsupported $ref ${ref}`);
  return match[1]!;
}

/** The TypeBox expression of a property's schema; `visit` is called for every definition it references. */
function expression(schema: SwaggerSchema, where: string, visit: (name: string) => void): string {
  if (schema.$ref !== undefined) {
    only(schema, ['$ref'], where);
    const name = refName(schema.$ref, where);
    visit(name);
    return name;
  }
  switch (schema.type) {
    case 'boolean':
      only(schema, ['type'], where);
      return 'Type.Boolean()';
    case 'number':
    case 'integer':
      only(schema, ['type', 'format', 'minimum', 'maximum'], where);
      return `Type.${schema.type === 'integer' ? 'Integer' : 'Number'}(${options({ minimum: schema.minimum, maximum: schema.maximum })})`;
    case 'string':
      if (schema.enum) {
        only(schema, ['type', 'enum', 'minLength', 'maxLength'], where);
        const literals = schema.enum.map((value) => {
          if (typeof value !== 'string') throw new Unsupported(`${where}: a string enum with ${JSON.stringify(value)}`);
          return `Type.Literal(${JSON.stringify(value)})`;
        });
        return literals.length === 1 ? literals[0]! : `Type.Union([${literals.join(', ')}])`;
      }
      only(schema, ['type', 'minLength', 'maxLength', 'pattern'], where);
      return `Type.String(${options({ minLength: schema.minLength || undefined, maxLength: schema.maxLength, pattern: schema.pattern })})`;
    case 'array': {
      only(schema, ['type', 'items', 'minItems', 'maxItems'], where);
      if (!schema.items) throw new Unsupported(`${where}: an array without items`);
      const items = expression(schema.items, `${where}[]`, visit);
      return `Type.Array(${items}, ${options({ minItems: schema.minItems, maxItems: schema.maxItems ?? DEFAULT_MAX_ITEMS })})`;
    }
    case 'object':
      if (schema.properties === undefined && typeof schema.additionalProperties === 'object') {
        only(schema, ['type', 'additionalProperties'], where);
        return `Type.Record(Type.String(), ${expression(schema.additionalProperties, `${where}{}`, visit)})`;
      }
      throw new Unsupported(`${where}: an inline object ${JSON.stringify(schema)} (only named definitions and maps are supported)`);
    default:
      throw new Unsupported(`${where}: unsupported schema ${JSON.stringify(schema)}`);
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The TypeScript module, before Prettier. */
function emit(spec: SwaggerSpec): string {
  const emitted = new Map<string, string>();
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (emitted.has(name)) return;
    if (visiting.has(name)) throw new Unsupported(`${name} references itself (a cycle cannot be a const)`);
    const definition = spec.definitions[name];
    if (!definition) throw new Unsupported(`no definition ${name} in the spec`);
    visiting.add(name);
    only(definition, ['type', 'properties', 'required'], name);
    if (definition.type !== 'object' || !definition.properties) throw new Unsupported(`${name}: not an object with properties`);
    const required = new Set(definition.required ?? []);
    const properties = Object.entries(definition.properties).map(([property, schema]) => {
      const value = expression(schema, `${name}.${property}`, visit);
      const key = IDENTIFIER.test(property) ? property : JSON.stringify(property);
      return `    ${key}: ${required.has(property) ? value : `Type.Optional(${value})`},`;
    });
    for (const property of required) {
      if (!(property in definition.properties)) throw new Unsupported(`${name}: required ${property} is not a property`);
    }
    visiting.delete(name);
    // Written over several lines, so that Prettier keeps every object expanded.
    emitted.set(name, `const ${name} = Type.Object(\n  {\n${properties.join('\n')}\n  },\n  { title: ${JSON.stringify(name)} },\n);\n`);
  };
  for (const root of ROOTS) visit(root);

  return `// Generated by \`${COMMAND}\` (scripts/generate-import-settings.ts) from
// ../shared/spec/${SPEC_FILE}. Do not edit by hand: change the generator and run it again.
import { Type } from 'typebox';

/**
 * The spec's import settings definitions (FileImportSettingsCreateDto, FileImportSettingsDto and
 * the per-format settings they hold, transitively), as TypeBox. The service stores the document a
 * project is given and returns it; the file filters read the parts they support. Arrays the spec
 * leaves unbounded hold at most ${DEFAULT_MAX_ITEMS} items.
 */

${[...emitted.values()].join('\n')}
export { ${ROOTS.join(', ')} };
`;
}

/** The file's content for `spec`, formatted as the project formats TypeScript. */
export async function generateImportSettings(spec: SwaggerSpec): Promise<string> {
  const config = await prettier.resolveConfig(OUTPUT_FILE);
  return prettier.format(emit(spec), { ...config, filepath: OUTPUT_FILE });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const spec = readSpec();
  if (spec === null) {
    process.stderr.write(`generate:import-settings: ${sharedSpecDisplayPath(SPEC_FILE)} not found; nothing generated\n`);
    process.exit(1);
  }
  try {
    const source = await generateImportSettings(spec);
    const before = existsSync(OUTPUT_FILE) ? readFileSync(OUTPUT_FILE, 'utf8') : null;
    writeFileSync(OUTPUT_FILE, source);
    process.stdout.write(`${before === source ? 'unchanged' : 'written'}: ${OUTPUT_FILE}\n`);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    process.stderr.write(`generate:import-settings: ${error.message}\n`);
    process.exit(1);
  }
}

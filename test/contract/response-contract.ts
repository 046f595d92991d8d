/**
 * The response contract check: does a response of OpenTMS look like what the published Phrase TMS
 * spec (Swagger 2.0, `../shared/spec/phrase-tms-api.yaml`) says that operation returns?
 *
 * The test harness calls `check` after every `app.inject`, so every test doubles as a contract
 * test. What is checked:
 *  - the status: a 2xx the spec does not declare for the operation (201 where it says 200);
 *  - the body: validated with Ajv against the spec's schema for that status, where
 *      - any field may be null (Phrase omits or nulls fields freely; clients cope with both),
 *      - unknown fields are violations on "closed" definitions (see `isClosedDefinition`),
 *        apart from the deliberate extensions in `EXTENSION_FIELDS`;
 *  - errors under /api2: `{errorCode, errorDescription, errorDetails}`, our error convention,
 *    even where the spec declares no body; under /api2/v1/scim/ the SCIM error body instead.
 *
 * The spec is never copied into the project; without `../shared` the check is skipped.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import FindMyWay from 'find-my-way';
import type * as Yaml from 'yaml';
import { projectRoot, sharedSpecDisplayPath, sharedSpecPath } from './shared-dir.js';

// ---------------------------------------------------------------------------------------------
// Public interface
// ---------------------------------------------------------------------------------------------

export interface ObservedResponse {
  method: string;
  url: string;
  statusCode: number;
  contentType: string | undefined;
  body: string;
}

export interface ContractChecker {
  /** Violations of the published contract, as readable one-line messages; [] when the response is fine or its operation is not in the published spec. */
  check(response: ObservedResponse): string[];
}

/**
 * 2xx statuses OpenTMS may answer although the spec does not declare them, by operationId.
 * Every entry needs a comment saying why (e.g. "the live service answers 201, the spec is wrong").
 */
export const STATUS_EXCEPTIONS: Record<string, number[]> = {
  // SCIM delete: RFC 7644 §3.6 says 204, and the spec's own description of its 200 is "No Content".
  deleteUser: [204],
};

/**
 * Operations whose success may have no body at all although the spec declares one, by operationId.
 * Every entry needs a comment saying why.
 */
export const EMPTY_BODY_OPERATIONS: ReadonlySet<string> = new Set([
  // The spec's own description: "If no matching custom file type is found it returns status 200 and empty body."
  'findCustomFileType',
]);

/**
 * Fields OpenTMS adds on purpose to closed definitions, by definition name.
 * Every entry needs a comment saying why.
 */
export const EXTENSION_FIELDS: Record<string, string[]> = {
  // Every record gets both `uid` and `id` (our convention), also where the spec lists only one.
  OrganizationReference: ['id'],
  // Bot users of service accounts are marked as bots (description, "Bot users"; issue 13).
  UserDto: ['bot'],
  // The answer to createJob (JobListDto) shows each job's import status, which clients poll (issue 13).
  JobPartReference: ['importStatus'],
  // The answer to uploadBilingualFileV2 counts the segments the upload changed, left and refused (issue 18).
  ProjectJobPartsDto: ['segments'],
  // SCIM (RFC 7643): every resource names its `schemas` (§3); `roles` is a core User attribute
  // (§4.1.2) that carries the OpenTMS role.
  ScimUserCoreDto: ['schemas', 'roles'],
  // RFC 7643 §3.1: meta.resourceType and meta.lastModified.
  ScimMeta: ['resourceType', 'lastModified'],
  // Every record gets a uid (our convention); async requests are addressed by id as published.
  AsyncRequestDto: ['uid', 'progress'],
  // The key of the X-OpenTMS-Signature HMAC of each delivery (docs/async-and-webhooks.md).
  WebHookDtoV2: ['signingSecret'],
  // RFC 7643 §5: the limits of bulk and filter (the spec's `Supported` has only `supported`).
  Supported: ['maxResults', 'maxOperations', 'maxPayloadSize'],
  // The description's client contacts (deleted with the client), which the spec does not show.
  ClientDto: ['contacts'],
  // The client a business unit belongs to (the description deletes a client's business units with it).
  BusinessUnitDto: ['client'],
  // Whether the option is deprecated (docs/custom-fields.md); Phrase's own option DTO shows it too.
  CustomFieldOptionDto: ['deprecated'],
  // The changelog's newer vendor fields (description, "Versioning" 3), not yet in the yaml (docs/vendors-and-services.md).
  VendorDto: ['active', 'buyerOwner', 'createdBy', 'dateCreated', 'timezone'],
  // A segment's place in its file, the file's key and its inline tags (issue 6: "segments carry their source, inline tags and key"; docs/jobs.md).
  JobSegmentDto: ['index', 'key', 'tags'],
  // A template's cost center and file handover, which its edit sets, shown back by its get (docs/project-templates.md).
  ProjectTemplate: ['costCenter', 'fileHandover'],
  // Which job and segment a compared segment is: a file's segment ids are shared by its target languages (docs/split-compare-and-workflow-changes.md).
  ComparedSegmentDto: ['jobUid', 'index'],
  // The checks a QA run could not do (SpellCheck without a dictionary), so that silence is not read as a pass (issue 19; docs/qa-runs-and-warnings.md).
  QualityAssuranceResponseDto: ['uncheckedChecks'],
  // OpenTMS's own QA checks and where inconsistent translations are looked for, in the QA settings (docs/qa-settings.md).
  QASettingsDtoV2: ['customChecks', 'inconsistencyScope'],
  // Whether a check's warnings may be ignored and run on confirmation: the published example of QualityAssuranceChecksDtoV2 shows both (docs/qa-settings.md).
  EnabledCheckDtoV2: ['ignorable', 'instant'],
};

/**
 * Discriminated definitions whose instances are checked against the subtype they name. Swagger 2.0
 * says the discriminator's value is the subtype's definition name ("Admin, Project Manager");
 * Phrase sends role names instead, and OpenTMS does too (docs/projects.md), so each wire value
 * is mapped to the subtype it stands for. A value outside the map is a violation, and the subtype is
 * closed: base fields plus its own, nothing else.
 */
export const DISCRIMINATOR_VALUES: Record<string, Record<string, string>> = {
  AbstractProjectDto: {
    ADMIN: 'Admin, Project Manager',
    PROJECT_MANAGER: 'Admin, Project Manager',
    GUEST: 'Admin, Project Manager',
    SUBMITTER: 'Admin, Project Manager',
    LINGUIST: 'Linguist',
    VENDOR: 'Vendor',
    BUYER: 'Buyer',
  },
  AbstractProjectDtoV2: {
    ADMIN: 'Admin, Project Manager (v2)',
    PROJECT_MANAGER: 'Admin, Project Manager (v2)',
    GUEST: 'Admin, Project Manager (v2)',
    SUBMITTER: 'Admin, Project Manager (v2)',
    LINGUIST: 'Linguist (v2)',
    // The v2 views have no vendor subtype: a vendor's users get the v1 Vendor view's fields that v2 shares.
    VENDOR: 'Admin, Project Manager (v2)',
  },
};

const SPEC_FILE = 'phrase-tms-api.yaml';

let cachedChecker: ContractChecker | null | undefined;

/** null when ../shared is absent (then prints once, to stderr, "contract checks skipped: ../shared/spec/phrase-tms-api.yaml not found"). Cached per process. */
export function loadContractChecker(): ContractChecker | null {
  if (cachedChecker === undefined) {
    const specPath = sharedSpecPath(SPEC_FILE);
    if (specPath === null) {
      process.stderr.write(`contract checks skipped: ${sharedSpecDisplayPath(SPEC_FILE)} not found\n`);
      cachedChecker = null;
    } else {
      cachedChecker = createContractChecker(readSpec(specPath));
    }
  }
  return cachedChecker;
}

// ---------------------------------------------------------------------------------------------
// The spec, as far as this check needs it
// ---------------------------------------------------------------------------------------------

/** A Swagger 2.0 schema object; loosely typed, it comes from YAML. */
type SwaggerSchema = Record<string, unknown>;

interface SwaggerResponse {
  description?: string;
  schema?: SwaggerSchema;
}

interface SwaggerOperation {
  operationId?: string;
  produces?: string[];
  responses?: Record<string, SwaggerResponse>;
}

interface SwaggerSpec {
  produces?: string[];
  paths: Record<string, Record<string, SwaggerOperation>>;
  definitions: Record<string, SwaggerSchema>;
}

/** One operation of the spec, found by method and path. */
interface SpecOperation {
  method: string;
  /** As the spec writes it: `/api2/v1/users/{userUid}`. */
  path: string;
  operationId: string;
  /** Media types the operation produces; the spec's global list when it names none. */
  produces: string[];
  responses: Record<string, SwaggerResponse>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function specOperations(spec: SwaggerSpec): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      // A path item also holds `parameters` and `x-*` entries besides its operations.
      if (!HTTP_METHODS.has(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId ?? `${method.toUpperCase()} ${path}`,
        produces: operation.produces ?? spec.produces ?? [],
        responses: operation.responses ?? {},
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Reading the spec, with a cache
// ---------------------------------------------------------------------------------------------

/** Bump when what is written to the cache changes shape. */
const CACHE_FORMAT = 1;

/**
 * Parsing the 930 KB YAML takes about a second, and vitest runs every test file in a process of
 * its own. So the parsed spec is kept as JSON in node_modules/.cache, keyed by the YAML's size and
 * modification time: any edit of the YAML makes a new key.
 */
function readSpec(yamlPath: string): SwaggerSpec {
  const { size, mtimeMs } = statSync(yamlPath);
  const cacheFile = join(
    projectRoot(),
    'node_modules',
    '.cache',
    'opentms',
    `phrase-tms-api.${size}-${Math.trunc(mtimeMs)}.v${CACHE_FORMAT}.json`,
  );
  const cached = readJsonFile(cacheFile);
  if (cached !== undefined) return cached as SwaggerSpec;

  // Loaded only here: with a warm cache the YAML parser (50 ms to import) is never needed.
  const yaml = createRequire(import.meta.url)('yaml') as typeof Yaml;
  const spec = yaml.parse(readFileSync(yamlPath, 'utf8')) as SwaggerSpec;
  writeFileAtomically(cacheFile, JSON.stringify(spec));
  return spec;
}

/** The parsed file, or undefined when it is missing or unreadable (then it is simply rebuilt). */
function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Test files run in parallel processes that may all build the cache at once: each writes a temp
 * file of its own and renames it into place, so that no process ever reads a half-written file.
 * A cache that cannot be written (read-only checkout) only costs time.
 */
function writeFileAtomically(file: string, content: string): void {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, content);
    renameSync(temp, file);
  } catch {
    // Not cached this time.
  }
}

// ---------------------------------------------------------------------------------------------
// Finding the operation of a request
// ---------------------------------------------------------------------------------------------

type OperationFinder = (method: string, path: string) => SpecOperation | undefined;

/**
 * A find-my-way router over the spec's paths, so that `/api2/v1/users/search` finds its static
 * path before `/api2/v1/users/{userUid}`, exactly as a router would.
 */
function buildOperationFinder(operations: SpecOperation[]): OperationFinder {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 1000 });
  for (const operation of operations) {
    router.on(operation.method as FindMyWay.HTTPMethod, routerPath(operation.path), () => undefined, operation);
  }
  // Newer operations of the inventory that the spec does not have (source 2025 or seed) find no
  // operation, so that a static one (`GET /api2/v1/priceLists/exportTemplate`) is not taken for
  // the spec's parameter path beside it (`GET /api2/v1/priceLists/{priceListUid}`).
  for (const { method, path } of unpublishedOperations()) {
    try {
      router.on(method as FindMyWay.HTTPMethod, routerPath(path), () => undefined, undefined);
    } catch {
      // The same method and path shape as a spec operation: the spec's stays.
    }
  }
  return (method, path) => {
    const found = router.find(method.toUpperCase() as FindMyWay.HTTPMethod, path);
    return found?.store as SpecOperation | undefined;
  };
}

/** The operations of ../shared/spec/operations.tsv that are not in the published spec (none without the file). */
function unpublishedOperations(): { method: string; path: string }[] {
  const inventory = sharedSpecPath('operations.tsv');
  if (inventory === null) return [];
  return readFileSync(inventory, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter((columns) => columns.length >= 5 && columns[4] !== 'spec-2024')
    .map(([method, path]) => ({ method: method!.trim().toUpperCase(), path: path!.trim() }));
}

/**
 * `/api2/v1/users/{userUid}` -> `/api2/v1/users/:p1`. Parameters are renamed by position because
 * the spec names the same position differently on sibling paths (`/api2/v2/webhooks/{webHookUid}`
 * beside `/api2/v2/webhooks/{webhookUid}/...`), which a router may refuse; the names are not needed here.
 * A literal `:` would start a parameter in find-my-way, so it is doubled to escape it.
 */
function routerPath(specPath: string): string {
  let position = 0;
  return specPath.replace(/:/g, '::').replace(/\{[^}]+\}/g, () => `:p${++position}`);
}

/** `/web/api2/v1/users?pageNumber=1` -> `/api2/v1/users`: the service answers at both prefixes, the spec's basePath is /web. */
function apiPath(url: string): string {
  const path = url.split('?')[0] ?? url;
  return path.startsWith('/web/') ? path.slice('/web'.length) : path;
}

function isUnderApi2(path: string): boolean {
  return path === '/api2' || path.startsWith('/api2/');
}

// ---------------------------------------------------------------------------------------------
// Swagger 2.0 schemas -> JSON Schema draft-07 for Ajv
// ---------------------------------------------------------------------------------------------

/** The id under which all converted definitions are registered with Ajv, once. */
const SPEC_SCHEMA_ID = 'opentms:phrase-tms-api';

/** Swagger-only or purely descriptive keywords, dropped so Ajv sees plain JSON Schema. */
const DROPPED_KEYWORDS = new Set(['discriminator', 'readOnly', 'example', 'xml', 'externalDocs', 'description', 'title']);

/** Marks a converted definition with its name, so that messages can name it (Ajv's verbose errors carry the schema). */
const DEFINITION_NAME = 'x-definition';

/**
 * Where the spec says something OpenTMS cannot mean literally. springfox (which generated the spec)
 * writes java.lang.Number as a bare `{type: object}`; the values are numbers.
 */
const DEFINITION_OVERRIDES: Record<string, SwaggerSchema> = {
  Number: { type: 'number' },
};

/** `#/definitions/Admin, Project Manager` as a $ref into the schema registered under SPEC_SCHEMA_ID. */
function definitionRef(name: string): string {
  const pointerToken = name.replace(/~/g, '~0').replace(/\//g, '~1');
  return `${SPEC_SCHEMA_ID}#/definitions/${encodeURIComponent(pointerToken)}`;
}

/** Definitions that others extend with `allOf: [{$ref: base}, ...]`: their instances carry the subtype's fields too. */
function allOfBases(definitions: Record<string, SwaggerSchema>): Set<string> {
  const bases = new Set<string>();
  for (const definition of Object.values(definitions)) {
    for (const member of asArray(definition.allOf)) {
      const ref = (member as SwaggerSchema).$ref;
      if (typeof ref === 'string') bases.add(ref.replace('#/definitions/', ''));
    }
  }
  return bases;
}

/**
 * A definition is closed (unknown fields are violations) when it lists its fields and nothing
 * suggests more may come: it extends nothing (`allOf`), picks no subtype (`discriminator`), is no
 * other definition's base, and does not declare `additionalProperties` itself.
 */
function isClosedDefinition(name: string, definition: SwaggerSchema, bases: Set<string>): boolean {
  return (
    isObject(definition.properties) &&
    definition.allOf === undefined &&
    definition.discriminator === undefined &&
    definition.additionalProperties === undefined &&
    !bases.has(name)
  );
}

function convertDefinitions(definitions: Record<string, SwaggerSchema>): Record<string, AnySchemaObject> {
  const bases = allOfBases(definitions);
  const converted: Record<string, AnySchemaObject> = {};
  for (const [name, original] of Object.entries(definitions)) {
    const schema = convertSchema(DEFINITION_OVERRIDES[name] ?? original);
    if (isClosedDefinition(name, original, bases)) {
      schema.additionalProperties = false;
      const properties = schema.properties as Record<string, AnySchemaObject>;
      for (const field of EXTENSION_FIELDS[name] ?? []) properties[field] ??= {};
    }
    schema[DEFINITION_NAME] = name;
    converted[name] = schema;
  }
  for (const [base, values] of Object.entries(DISCRIMINATOR_VALUES)) {
    if (definitions[base]) addSubtypeChecks(definitions, converted, base, values);
  }
  return converted;
}

/** The name under which a subtype's closed form (base fields + its own) is registered. */
const resolvedName = (subtype: string) => `${subtype} (resolved)`;

/**
 * Makes `base` check each instance against the subtype its discriminator value names (see
 * DISCRIMINATOR_VALUES): the value must be one of the map's keys, and the body must match the
 * subtype's closed form.
 */
function addSubtypeChecks(
  definitions: Record<string, SwaggerSchema>,
  converted: Record<string, AnySchemaObject>,
  base: string,
  values: Record<string, string>,
): void {
  const field = definitions[base]!.discriminator;
  if (typeof field !== 'string') return;
  for (const subtype of new Set(Object.values(values))) {
    const own = asArray(definitions[subtype]?.allOf)
      .map((member) => (member as SwaggerSchema).properties)
      .filter(isObject);
    const properties = Object.assign({}, definitions[base]!.properties as Record<string, SwaggerSchema>, ...own) as Record<
      string,
      SwaggerSchema
    >;
    const closed = convertSchema({ type: 'object', properties });
    closed.additionalProperties = false;
    for (const extra of EXTENSION_FIELDS[subtype] ?? []) (closed.properties as Record<string, AnySchemaObject>)[extra] ??= {};
    closed[DEFINITION_NAME] = subtype;
    converted[resolvedName(subtype)] = closed;
  }
  const schema = converted[base]!;
  (schema.properties as Record<string, AnySchemaObject>)[field] = { enum: Object.keys(values) };
  schema.required = [...new Set([...(asArray(schema.required) as string[]), field])];
  schema.allOf = Object.entries(values).map(([value, subtype]) => ({
    if: { properties: { [field]: { const: value } }, required: [field] },
    then: { $ref: definitionRef(resolvedName(subtype)) },
  }));
}

/** One Swagger schema node to JSON Schema; recursive. Property values become nullable. */
function convertSchema(node: SwaggerSchema): AnySchemaObject {
  const out: AnySchemaObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (DROPPED_KEYWORDS.has(keyword) || keyword.startsWith('x-')) continue;
    switch (keyword) {
      case '$ref':
        out.$ref = definitionRef(String(value).replace('#/definitions/', ''));
        break;
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, SwaggerSchema>).map(([field, schema]) => [field, orNull(convertNested(schema))]),
        );
        break;
      case 'additionalProperties':
        out.additionalProperties = isObject(value) ? orNull(convertNested(value)) : value;
        break;
      case 'items':
        out.items = Array.isArray(value) ? value.map((item: SwaggerSchema) => convertNested(item)) : convertNested(value as SwaggerSchema);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[keyword] = (value as SwaggerSchema[]).map(convertSchema);
        break;
      case 'not':
        out.not = convertSchema(value as SwaggerSchema);
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        break; // see draft04Bounds below
      default:
        out[keyword] = value;
    }
  }
  return draft04Bounds(node, out);
}

/**
 * Swagger 2.0 (like JSON Schema draft-04) writes an exclusive bound as `minimum: 0,
 * exclusiveMinimum: true`; draft-07 wants `exclusiveMinimum: 0`.
 */
function draft04Bounds(node: SwaggerSchema, out: AnySchemaObject): AnySchemaObject {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (node[exclusive] === true && typeof node[bound] === 'number') {
      out[exclusive] = node[bound];
      delete out[bound];
    }
  }
  return out;
}

/**
 * A schema inside another one. springfox writes java.lang.Object (the values of a
 * `Map<String, Object>`) as a bare `{type: object}`; such values are really any JSON
 * (`ErrorDetailDto.args` holds strings and numbers), so they are not checked.
 */
function convertNested(node: SwaggerSchema): AnySchemaObject {
  const keywords = Object.keys(node).filter((keyword) => !DROPPED_KEYWORDS.has(keyword) && !keyword.startsWith('x-'));
  if (keywords.length === 1 && node.type === 'object') return {};
  return convertSchema(node);
}

/**
 * "Fields may be null": the same schema, also accepting null. For a `$ref` this is an if/else
 * rather than anyOf, so that a wrong value reports the referenced schema's errors, not
 * "must match a schema in anyOf".
 */
function orNull(schema: AnySchemaObject): AnySchemaObject {
  if (schema.$ref !== undefined || schema.allOf !== undefined) return { if: { type: 'null' }, else: schema };
  const nullable: AnySchemaObject = { ...schema };
  if (typeof schema.type === 'string') nullable.type = [schema.type, 'null'];
  if (Array.isArray(schema.type) && !schema.type.includes('null')) nullable.type = [...schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) nullable.enum = [...schema.enum, null];
  return nullable;
}

// ---------------------------------------------------------------------------------------------
// Ajv
// ---------------------------------------------------------------------------------------------

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Swagger's numeric and binary formats carry no checkable meaning for JSON, except int32's range. */
const LENIENT_FORMATS = ['int64', 'float', 'double', 'byte', 'binary', 'password'];

// ajv-formats is CommonJS; under NodeNext its default import is the module object's type, not the plugin's.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

function createAjv(definitions: Record<string, AnySchemaObject>): Ajv {
  // strict: false -> keywords Ajv does not know (and our x-definition marker) are ignored.
  // verbose -> errors carry the failing value and schema, used in the messages.
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv); // date-time, date, email, uri, uuid, ...
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX });
  for (const format of LENIENT_FORMATS) ajv.addFormat(format, true);
  // Whatever else the spec names (a stray `application/json`, say) is accepted rather than rejected as unknown.
  for (const format of formatsIn(definitions)) if (ajv.formats[format] === undefined) ajv.addFormat(format, true);
  // Registered, not compiled: a definition is compiled the first time a response refers to it.
  ajv.addSchema({ $id: SPEC_SCHEMA_ID, definitions });
  return ajv;
}

function formatsIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) formatsIn(item, found);
  } else if (isObject(node)) {
    if (typeof node.format === 'string') found.add(node.format);
    for (const value of Object.values(node)) formatsIn(value, found);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The checker
// ---------------------------------------------------------------------------------------------

/** At most this many body problems are listed per response; a list of 500 wrong users says it 500 times. */
const MAX_BODY_PROBLEMS = 20;

function createContractChecker(spec: SwaggerSpec): ContractChecker {
  const findOperation = buildOperationFinder(specOperations(spec));
  const ajv = createAjv(convertDefinitions(spec.definitions));
  const validators = new Map<string, ValidateFunction>();

  /** Compiled the first time a response needs it: compiling every schema up front costs seconds. */
  function validatorFor(schema: SwaggerSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (!validate) {
      // Compiled on its own, it reaches the registered definitions through absolute $refs (see definitionRef).
      validate = ajv.compile(convertSchema(schema));
      validators.set(key, validate);
    }
    return validate;
  }

  function checkBody(operation: SpecOperation, response: ObservedResponse): string[] {
    const schema = operation.responses[String(response.statusCode)]?.schema;
    // No schema: the spec promises nothing about the body. `type: file`: a download, not JSON.
    if (!schema || schema.type === 'file') return [];
    if (response.body === '' && EMPTY_BODY_OPERATIONS.has(operation.operationId)) return [];
    if (!isJsonContentType(response.contentType)) {
      if (!operation.produces.some(isJsonContentType) && operation.produces.length > 0) return [];
      return [`spec declares a JSON body (${schemaLabel(schema)}), got ${describeContentType(response.contentType)}`];
    }
    const parsed = parseJson(response.body);
    if (!parsed.ok) return [`body is not valid JSON (${parsed.error})`];
    const validate = validatorFor(schema);
    if (validate(parsed.value)) return [];
    return limit(describeAjvErrors(validate.errors ?? []), MAX_BODY_PROBLEMS);
  }

  return {
    check(response) {
      const method = response.method.toUpperCase();
      const path = apiPath(response.url);
      const operation = findOperation(method, path);
      const problems: string[] = [];
      if (operation) {
        problems.push(...checkSuccessStatus(operation, response.statusCode), ...checkBody(operation, response));
      }
      // HEAD answers carry no body to check.
      if (isUnderApi2(path) && response.statusCode >= 400 && method !== 'HEAD') {
        // SCIM answers its own error body (RFC 7644 §3.12), which SCIM clients expect.
        problems.push(...(isScimPath(path) ? checkScimError(response) : checkErrorConvention(response)));
      }
      const where = operation
        ? `${method} ${operation.path} ${response.statusCode} (${operation.operationId})`
        : `${method} ${path} ${response.statusCode} (not in the spec)`;
      return problems.map((problem) => `${where}: ${problem}`);
    },
  };
}

/** A 2xx the operation does not declare: clients that switch on the status code would break. */
function checkSuccessStatus(operation: SpecOperation, status: number): string[] {
  if (status < 200 || status > 299) return [];
  const declared = Object.keys(operation.responses).filter((code) => /^2\d\d$/.test(code));
  if (declared.length === 0 || declared.includes(String(status))) return [];
  if (STATUS_EXCEPTIONS[operation.operationId]?.includes(status)) return [];
  return [`spec declares ${declared.join(' or ')}, got ${status}`];
}

/** The error body as an object, or the violation that it is not one (not JSON, not an object). */
function errorObject(response: ObservedResponse, shape: string): Record<string, unknown> | string {
  if (!isJsonContentType(response.contentType)) return `${shape}, got ${describeContentType(response.contentType)}`;
  const parsed = parseJson(response.body);
  if (!parsed.ok) return `${shape}, got invalid JSON (${parsed.error})`;
  return isObject(parsed.value) ? parsed.value : `${shape}, got ${describeValue(parsed.value)}`;
}

function isScimPath(path: string): boolean {
  return path.startsWith('/api2/v1/scim/');
}

/** SCIM errors: `{schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "404", scimType?, detail?}`. */
function checkScimError(response: ObservedResponse): string[] {
  const shape = 'a SCIM error body must be JSON {schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: string}';
  const body = errorObject(response, shape);
  if (typeof body === 'string') return [body];
  const problems: string[] = [];
  if (!Array.isArray(body.schemas) || !body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error'))
    problems.push(`$.schemas: expected the SCIM Error schema, got ${describeValue(body.schemas)}`);
  if (body.status !== String(response.statusCode))
    problems.push(`$.status: expected string "${response.statusCode}", got ${describeValue(body.status)}`);
  return problems;
}

/** Errors under /api2 follow our convention (the spec declares no error bodies, the live service sends these). */
function checkErrorConvention(response: ObservedResponse): string[] {
  const shape = 'an error body must be JSON {errorCode: string, errorDescription: string, errorDetails: array}';
  const body = errorObject(response, shape);
  if (typeof body === 'string') return [body];
  const problems: string[] = [];
  if (typeof body.errorCode !== 'string') problems.push(`$.errorCode: expected string, got ${describeValue(body.errorCode)}`);
  if (typeof body.errorDescription !== 'string')
    problems.push(`$.errorDescription: expected string, got ${describeValue(body.errorDescription)}`);
  if (!Array.isArray(body.errorDetails)) problems.push(`$.errorDetails: expected array, got ${describeValue(body.errorDetails)}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

function describeAjvErrors(errors: ErrorObject[]): string[] {
  const messages = errors
    // "must match else schema" only repeats the errors of the else branch (see orNull).
    .filter((error) => error.keyword !== 'if')
    .map(describeAjvError);
  return [...new Set(messages)];
}

function describeAjvError(error: ErrorObject): string {
  const path = jsonPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const definition = (error.parentSchema as AnySchemaObject | undefined)?.[DEFINITION_NAME] as string | undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      return `${jsonPath(error.instancePath, field)}: ${definition ?? 'the object'} has no field '${field}'`;
    }
    case 'required': {
      const field = String(params.missingProperty);
      return `${jsonPath(error.instancePath, field)}: required field of ${definition ?? 'the object'} is missing`;
    }
    case 'type': {
      const types = [params.type].flat().map(String);
      const expected = types.filter((type) => type !== 'null').join(' or ') + (types.includes('null') ? ' (or null)' : '');
      return `${path}: expected ${expected}, got ${describeValue(error.data)}`;
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).filter((value) => value !== null).map(String);
      return `${path}: ${describeValue(error.data)} is not one of ${allowed.join(', ')}`;
    }
    case 'format':
      return `${path}: ${describeValue(error.data)} is not a valid ${String(params.format)}`;
    default:
      return `${path}: ${error.message ?? error.keyword}${error.data === undefined ? '' : `, got ${describeValue(error.data)}`}`;
  }
}

/** Ajv's `/content/0/role` as `$.content[0].role`, optionally with one more field. */
function jsonPath(instancePath: string, extraField?: string): string {
  const segments =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extraField !== undefined) segments.push(extraField);
  return (
    '$' +
    segments
      .map((segment) => {
        if (/^\d+$/.test(segment)) return `[${segment}]`;
        if (/^[A-Za-z_$][\w$]*$/.test(segment)) return `.${segment}`;
        return `[${JSON.stringify(segment)}]`;
      })
      .join('')
  );
}

/** `string "yes"`, `number 3`, `object`, ...: short enough for a one-line message. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function describeContentType(contentType: string | undefined): string {
  return contentType ? `content-type ${contentType}` : 'no content-type';
}

/** `UserDto` for `{$ref: '#/definitions/UserDto'}`, `array of UserReference` for an inline array. */
function schemaLabel(schema: SwaggerSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.replace('#/definitions/', '');
  if (schema.type === 'array' && isObject(schema.items)) return `array of ${schemaLabel(schema.items)}`;
  return String(schema.type ?? 'schema');
}

function limit(messages: string[], max: number): string[] {
  return messages.length <= max ? messages : [...messages.slice(0, max), `... and ${messages.length - max} more`];
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/** `application/json`, `application/json; charset=utf-8`, `application/scim+json`. */
function isJsonContentType(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return /^application\/([\w.-]+\+)?json$/.test(mediaType);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: text === '' ? 'empty body' : (error as Error).message };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors/index.js';
import type { ApiError } from '../errors/index.js';

/**
 * The methods each route path answers, for telling "no such path" (404) from "not with this
 * method" (405, with `Allow`). Fastify answers both as "not found", so every route added to `app`
 * (and to the plugins registered on it afterwards) is recorded here.
 */
export interface RouteIndex {
  /** The methods `path` answers, or undefined when no route matches it. */
  methodsOf(path: string): ReadonlySet<string> | undefined;
}

/**
 * A parameter that names a record by uid or id (`projectUid`, `jobUid`, `id`, `userId`, …):
 * unbuilt operations below a record path (`jobs/bilingualFile` beside `jobs/{jobUid}`) put a
 * word where the record's key would be.
 */
const RECORD_KEY_PARAM = /(?:uid|id)$/i;
/** Uids are 22 base62 characters; ids are digits. An operation's path segment is a word in lowerCamelCase. */
const UID_LENGTH = 22;
const OPERATION_WORD = /^[a-z][A-Za-z]*$/;
const readsAsOperationName = (value: string) => value.length !== UID_LENGTH && OPERATION_WORD.test(value);

interface PathEntry {
  methods: Set<string>;
  /** Positions (`p0`, `p1`, …) whose parameter names a record in at least one route of the path. */
  recordKeys: Set<string>;
}

export function createRouteIndex(app: FastifyInstance): RouteIndex {
  // One tree for all paths: parameters are renamed by position (`:p0`, `:p1`) so that
  // `/users/:userUid` (GET) and `/users/:id` (DELETE) land on the same node, as they do in
  // Fastify's per-method trees.
  const paths = FindMyWay({ ignoreTrailingSlash: true });
  const entries = new Map<string, PathEntry>();

  app.addHook('onRoute', (route) => {
    const names: string[] = [];
    const pattern = route.url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_match, name: string) => {
      names.push(name);
      return `:p${names.length - 1}`;
    });
    let entry = entries.get(pattern);
    if (!entry) {
      entry = { methods: new Set(), recordKeys: new Set() };
      entries.set(pattern, entry);
      paths.on('GET', pattern, () => undefined, { pattern });
    }
    names.forEach((name, position) => {
      if (RECORD_KEY_PARAM.test(name)) entry.recordKeys.add(`p${position}`);
    });
    for (const method of [route.method].flat()) entry.methods.add(method.toUpperCase());
  });

  return {
    methodsOf(path) {
      const found = paths.find('GET', path);
      const pattern = (found?.store as { pattern?: string } | undefined)?.pattern;
      const entry = pattern ? entries.get(pattern) : undefined;
      if (!entry || !found) return undefined;
      // A word where a record key belongs is a path this service does not have (404), not a
      // record path called with another method (405).
      for (const position of entry.recordKeys) {
        const value = (found.params as Record<string, string | undefined>)[position];
        if (value !== undefined && readsAsOperationName(value)) return undefined;
      }
      return entry.methods;
    },
  };
}

/** The 405 for a known path called with another method, or null when the path is unknown. */
export function methodNotAllowed(index: RouteIndex, method: string, path: string): ApiError | null {
  const methods = index.methodsOf(path);
  if (!methods || methods.has(method)) return null;
  const allow = [...methods].sort().join(', ');
  return errors.MethodNotAllowed({ method, allow });
}

/** The TMS surface's not-found handler: 405 with `Allow` for a known path, else 404. */
export function installNotFoundHandler(app: FastifyInstance): void {
  const index = createRouteIndex(app);
  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0] ?? '/';
    throw methodNotAllowed(index, request.method, path) ?? errors.ResourceNotFound({ method: request.method, path });
  });
}

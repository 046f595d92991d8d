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

export function createRouteIndex(app: FastifyInstance): RouteIndex {
  // One tree for all paths: parameter names are normalised so that `/users/:userUid` (GET) and
  // `/users/:id` (DELETE) land on the same node, as they do in Fastify's per-method trees.
  const paths = FindMyWay({ ignoreTrailingSlash: true });
  const methodsByPath = new Map<string, Set<string>>();

  app.addHook('onRoute', (route) => {
    const pattern = route.url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, ':p');
    let methods = methodsByPath.get(pattern);
    if (!methods) {
      methods = new Set();
      methodsByPath.set(pattern, methods);
      paths.on('GET', pattern, () => undefined, { pattern });
    }
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
  });

  return {
    methodsOf(path) {
      const pattern = (paths.find('GET', path)?.store as { pattern?: string } | undefined)?.pattern;
      return pattern ? methodsByPath.get(pattern) : undefined;
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

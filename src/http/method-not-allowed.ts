import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

/**
 * Fastify answers a known path called with the wrong method as "not found". The API must say 405
 * with an `Allow` header instead, so every route's path is recorded here and looked up when the
 * not-found handler runs.
 */
export function installNotFoundHandler(app: FastifyInstance): void {
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

  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0] ?? '/';
    const found = paths.find('GET', path);
    const pattern = (found?.store as { pattern?: string } | undefined)?.pattern;
    const methods = pattern ? methodsByPath.get(pattern) : undefined;
    if (methods && !methods.has(request.method)) {
      const allow = [...methods].sort().join(', ');
      throw new ApiError('method_not_allowed', 'MethodNotAllowed', `${request.method} is not supported here; use ${allow}.`, {
        headers: { allow },
      });
    }
    throw new ApiError('not_found', 'ResourceNotFound', `There is no operation at ${request.method} ${path}.`);
  });
}

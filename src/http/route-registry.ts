import type { FastifyInstance } from 'fastify';
import type { Access } from './access.js';

export interface RegisteredRoute {
  readonly method: string;
  /** Fastify syntax: `/api2/v1/users/:userUid`. */
  readonly url: string;
  readonly operationId: string | undefined;
  readonly deprecated: boolean;
  /** Who may call it (`config.access`); undefined for routes outside the API surfaces. */
  readonly access: Access | undefined;
  /** Whether the route validates a request body. */
  readonly hasBody: boolean;
  /** The schema it validates the body with, if any. */
  readonly bodySchema: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order (the HEAD routes Fastify adds are left out). */
    readonly registeredRoutes: RegisteredRoute[];
  }
}

/** Records every route as it is added, for the API coverage report and the access matrix. */
export function installRouteRegistry(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { operationId?: string; deprecated?: boolean; body?: unknown } | undefined;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route beside every GET; the API defines no HEAD operation of its own.
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        operationId: schema?.operationId,
        deprecated: schema?.deprecated === true,
        access: route.config?.access,
        hasBody: schema?.body !== undefined,
        bodySchema: schema?.body,
      });
    }
  });
}

/** `/api2/v1/users/:userUid` -> `/api2/v1/users/{}`: the form both the spec's and Fastify's paths reduce to. */
export function normalizePath(path: string): string {
  return path
    .replace(/\{[^}]+\}/g, '{}')
    .replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, '{}')
    .replace(/\/+$/, '');
}

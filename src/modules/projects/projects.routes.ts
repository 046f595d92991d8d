import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Project operations (issue 6). */
export function projectsRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

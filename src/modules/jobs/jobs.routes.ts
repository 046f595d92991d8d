import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Job operations (issue 6). */
export function jobsRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

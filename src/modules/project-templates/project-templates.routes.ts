import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Project template operations (issue 6). */
export function projectTemplatesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Operations across jobs: clone, bulk edit, provider suggestions (issue 6). */
export function jobOperationsRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

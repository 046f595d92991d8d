import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** The workflow changes report (issue 6). */
export function workflowChangesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Custom field values of projects, templates and jobs (issue 6). */
export function customFieldInstancesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

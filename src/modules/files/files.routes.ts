import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** The Files API (/api2/v1/files) (issue 6). */
export function filesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

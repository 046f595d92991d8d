import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** File handovers of projects (issue 6). */
export function fileHandoversRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

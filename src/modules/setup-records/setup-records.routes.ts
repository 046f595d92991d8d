import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Placeholder: filled in by the module's author (issue 5). */
export function setupRecordsRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

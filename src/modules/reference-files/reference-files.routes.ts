import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Reference files of projects and templates (issue 6). */
export function referenceFilesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

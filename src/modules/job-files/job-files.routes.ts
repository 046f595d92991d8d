import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Job files: original download, target files (issue 6). */
export function jobFilesRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Job structure: split, compare workflow levels, project provider suggestions (issue 6). */
export function jobStructureRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

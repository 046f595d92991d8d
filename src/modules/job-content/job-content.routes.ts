import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';

/** Job content: copy source to target, delete translations, pseudo-translation, notify, import settings (issue 6). */
export function jobContentRoutes(_deps: AppDeps): FastifyPluginAsyncTypebox {
  return async () => {};
}

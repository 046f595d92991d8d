import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { projectReferenceRoutes } from './project-references.routes.js';
import { templateReferenceRoutes } from './template-references.routes.js';

/** Reference files of projects and templates (issue 6; docs/reference-files.md). */
export function referenceFilesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await app.register(projectReferenceRoutes(deps));
    await app.register(templateReferenceRoutes(deps));
  };
}

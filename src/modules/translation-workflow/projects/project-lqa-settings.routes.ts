import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf } from '../../../http/access.js';
import { errors } from '../../../errors/index.js';
import { LqaSettingsSchema, lqaProfileUidOf, lqaSettingsFor } from '../../organization-setup/lqa-profiles/index.js';
import { PROJECT_READERS, onProject, projectAccessOf } from '../kernel/index.js';
import { ProjectUidParams } from './projects.schemas.js';

/** GET /v1/projects/{projectUid}/lqaSettings: the LQA profile a workflow level of the project uses (docs/lqa-profiles.md). */

const LqaSettingsQuery = Type.Object({
  workflowLevel: Type.Integer({ minimum: 1, maximum: 15, default: 1 }),
});

export function projectLqaSettingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.get(
      '/v1/projects/:projectUid/lqaSettings',
      {
        config: { access: onProject(PROJECT_READERS, 'view') },
        schema: {
          tags: ['Project'],
          operationId: 'getProjectSettings',
          summary: 'Get LQA settings',
          description:
            "The LQA profile of the project's workflow step at `workflowLevel` (or, when the step names none, the organization's default profile): " +
            'its severities (`weight`: the penalty points, rounded) and error categories with their subcategories. `enabled: false` and empty lists when there is no profile. ' +
            'A project without workflow steps has the one level 1; a level beyond the project’s workflow is a 400.',
          params: ProjectUidParams,
          querystring: LqaSettingsQuery,
          response: { 200: LqaSettingsSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { project } = projectAccessOf(request);
        const level = request.query.workflowLevel;
        const steps = await db
          .selectFrom('projectWorkflowSteps')
          .select(['workflowLevel', 'settings'])
          .where('projectId', '=', project.id)
          .orderBy('workflowLevel')
          .execute();
        const levels = Math.max(1, steps.length);
        if (level > levels)
          throw errors.InvalidArguments({
            reason: `workflowLevel: the project has ${levels} workflow level${levels === 1 ? '' : 's'}.`,
            details: [{ field: 'workflowLevel', message: `at most ${levels}` }],
          });
        const step = steps.find((s) => Number(s.workflowLevel) === level);
        return lqaSettingsFor(db, caller.organizationId, lqaProfileUidOf(step?.settings));
      },
    );
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { AUTHENTICATED, callerOf } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { workflowChangesHtml } from './workflow-changes-html.js';
import { workflowChangesReport } from './workflow-changes.service.js';

/** Spec `WorkflowChangesDto`: 1 to 100 jobs. */
const WorkflowChangesRequest = Type.Object(
  { jobs: Type.Array(Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64 }) }), { minItems: 1, maxItems: 100 }) },
  { title: 'WorkflowChangesDto' },
);

const HTML_RESPONSE = { 200: { description: 'The report, an HTML page named by Content-Disposition', type: 'string' } } as const;

/** The workflow changes report (docs/split-compare-and-workflow-changes.md). */
export function workflowChangesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const db = deps.database.db;

  return async (app) => {
    app.post(
      '/v2/jobs/workflowChanges',
      {
        // Whoever sees the jobs: each job is checked as a job read (linguists: their own jobs).
        config: { access: AUTHENTICATED, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['Workflow changes'],
          operationId: 'downloadWorkflowChanges',
          summary: 'Download workflow changes report',
          description:
            'An HTML page (text/html, as an attachment) with, for each job, the segments a workflow step changed: the text after each level, what each level removed and added, and how many segments each level changed. A job the caller cannot see is 404.',
          body: WorkflowChangesRequest,
          produces: ['text/html'],
          response: HTML_RESPONSE,
        },
      },
      async (request, reply) => {
        const report = await workflowChangesReport(
          db,
          callerOf(request),
          request.body.jobs.map((j) => j.uid),
        );
        const html = workflowChangesHtml(report, deps.clock().toISOString());
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-disposition', attachmentDisposition('workflow-changes.html'))
          .send(html);
      },
    );
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { AsyncRequestSchema, toAsyncRequestDtos } from '../../integration/async-requests/index.js';
import type { AsyncRequestRow } from '../../integration/async-requests/index.js';
import { ProjectUidParams, onProject, projectAccessOf } from '../kernel/index.js';
import type { QeContentSource } from './content-source.js';
import { qaModuleContent } from './content-source.js';
import {
  EvaluateByProfileBody,
  EvaluateQualityBody,
  QeWarningsBody,
  QeWarningsResponse,
  SegmentWarningsBody,
} from './quality-evaluation.schemas.js';
import { readQeWarnings, requestEvaluation, storeSegmentWarnings } from './quality-evaluation.service.js';

/**
 * Quality evaluation (docs/quality-evaluation.md): a heuristic estimate per segment and per job
 * part, computed by the worker, read with qeWarnings; and warnings computed elsewhere, stored with
 * segmentWarnings. Evaluating and storing are for project managers who may edit the jobs; reading
 * is for whoever sees the jobs (a linguist, the jobs they provide).
 */
const MANAGERS = roles('ADMIN', 'PROJECT_MANAGER');
const READERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST', 'GUEST', 'SUBMITTER');
const EVALUATE_ERRORS = ['JobImportFailed', 'JobImportNotFinished', 'TooManyPendingRequests', 'ResourceNotFound'] as const;

const ESTIMATOR_NOTE =
  'The estimate is OpenTMS’s documented heuristic (TM match, unedited MT, QA warnings of the last run, length ratio, untranslated words, empty target), not a trained model.';

export function qualityEvaluationRoutes(deps: AppDeps, content: QeContentSource = qaModuleContent): FastifyPluginAsyncTypebox {
  const db = deps.database.db;
  const answer = async (organizationId: string, row: AsyncRequestRow) => (await toAsyncRequestDtos(db, organizationId, [row]))[0]!;
  return async (app) => {
    app.post(
      '/v1/projects/:projectUid/jobs/evaluateQuality',
      {
        config: { access: onProject(MANAGERS, 'edit'), errors: [...EVALUATE_ERRORS] },
        schema: {
          tags: ['Quality Assurance'],
          operationId: 'evaluateQuality',
          summary: 'Trigger quality evaluation for selected job parts',
          description: `Evaluates 1 to 50 job parts of the project (of one workflow step, imported, each editable by the caller) in the background and answers the async request at once; once its asyncResponse is set, POST /api2/v1/qualityProfiles/qeWarnings with the same job part uids reads each segment's score and warnings and each job part's word-weighted score and pass/fail against \`threshold\` (OpenTMS extension, default 80). ${ESTIMATOR_NOTE} \`lockSegments\` and \`confirmSegments\` are accepted and stored, but OpenTMS never locks or confirms segments on a heuristic estimate.`,
          params: ProjectUidParams,
          body: EvaluateQualityBody,
          response: { 200: AsyncRequestSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { jobs, ...options } = request.body;
        const row = await requestEvaluation(deps, caller, projectAccessOf(request), { jobUids: jobs.map((job) => job.uid), ...options });
        return answer(caller.organizationId, row);
      },
    );

    app.post(
      '/v1/qualityProfiles/evaluate',
      {
        config: { access: MANAGERS, errors: [...EVALUATE_ERRORS] },
        schema: {
          tags: ['Quality Profile'],
          operationId: 'evaluateQualityProfile',
          deprecated: true,
          summary: 'Trigger quality evaluation based on quality profile (deprecated)',
          description: `Replaced by POST /api2/v1/projects/{projectUid}/jobs/evaluateQuality; does the same work. The job parts (1 to 50) must be of one project and one workflow step; \`qualityProfileUid\` is stored with the results (OpenTMS has no AI quality profiles: the estimator is the same for all). ${ESTIMATOR_NOTE}`,
          body: EvaluateByProfileBody,
          response: { 200: AsyncRequestSchema },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { jobs, ...options } = request.body;
        const row = await requestEvaluation(deps, caller, null, { jobUids: jobs.map((job) => job.uid), ...options });
        return answer(caller.organizationId, row);
      },
    );

    app.post(
      '/v1/qualityProfiles/qeWarnings',
      {
        config: { access: READERS, errors: ['ResourceNotFound'] },
        schema: {
          tags: ['Quality Profile'],
          operationId: 'getQeWarnings',
          summary: 'Get QE warnings for selected job parts',
          description:
            'The last results of 1 to 100 job parts (of one project and workflow step) for up to 100 segment positions a page, in file order and then the order of `jobParts`; pass the last `segmentId` of a page as `initialSegmentId` for the next; `endReached` says there is no further page. A job part whose evaluation has not finished yet answers no segments: empty warnings mean "not evaluated yet", not "clean". Each entry has the segment’s warnings and, as OpenTMS extensions, its `score` and `passed`; `jobParts` gives each job part’s word-weighted score and pass/fail.',
          body: QeWarningsBody,
          response: { 200: QeWarningsResponse },
        },
      },
      async (request) => readQeWarnings(deps, callerOf(request), request.body, content),
    );

    app.post(
      '/v1/qualityProfiles/segmentWarnings',
      {
        config: { access: MANAGERS, errors: ['JobImportFailed', 'JobImportNotFinished', 'ResourceNotFound'] },
        schema: {
          tags: ['Quality Profile'],
          operationId: 'storeSegmentWarnings',
          summary: 'Store evaluation warnings for a job part',
          description:
            'Stores warnings computed elsewhere for segments of one job part (editable by the caller): each segment’s earlier result is overwritten, and an empty `results` array records a passing run. At most 500 segments a request (400 above); a warning’s `type` has at most 255 characters and its `message` at most 1000. Every segment id is checked before anything is stored. Answers 204.',
          body: SegmentWarningsBody,
        },
      },
      async (request, reply) => {
        await storeSegmentWarnings(deps, callerOf(request), request.body, content);
        return reply.code(204).send();
      },
    );
  };
}

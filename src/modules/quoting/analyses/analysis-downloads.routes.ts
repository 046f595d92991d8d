import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { callerOf, roles } from '../../../http/access.js';
import { attachmentDisposition } from '../../../http/downloads.js';
import { AnalyseUidParams } from './analyses.schemas.js';
import { analysisViewContext } from './analyses.views.js';
import { analysisDownload, downloadSource, DOWNLOAD_FORMATS } from './analysis-downloads.js';
import { assertAnalysisFinished, requireDownloadableAnalysis } from './analysis-downloads.service.js';

/** DOWNLOAD analysis right: internal users and linguists (description, "Access rules"); which linguists, the service decides. */
const DOWNLOADERS = roles('ADMIN', 'PROJECT_MANAGER', 'LINGUIST');

const DownloadQuery = Type.Object({
  format: Type.Union(
    DOWNLOAD_FORMATS.map((f) => Type.Literal(f)),
    { description: 'CSV, CSV_EXTENDED, LOG or JSON (docs/analysis.md, "Downloads")' },
  ),
});

/** downloadAnalyse (docs/analysis.md, "Downloads"), relative to `/api2`. */
export function analysisDownloadRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/analyses/:analyseUid/download',
      {
        config: { access: DOWNLOADERS, errors: ['AnalysisNotReady'] },
        schema: {
          tags: ['Analysis'],
          operationId: 'downloadAnalyse',
          summary: 'Download analysis',
          description:
            'The finished analysis as a file (application/octet-stream, named by Content-Disposition): `CSV` (a row per job and a total row per language part; segments, words, characters and percent of each band), ' +
            '`CSV_EXTENDED` (also normalized pages and the weighted figures of the net rate scheme), `LOG` (a plain-text report per language part and job) or `JSON` (the analysis as GET v3 shows it, each job with its figures). ' +
            'CSV files are UTF-8 with a byte order mark, comma-separated, quoted per RFC 4180. 409 while the analysis is being computed. ' +
            'ADMIN and PROJECT_MANAGER who see the project may download; a LINGUIST who is the analysis’s provider or provides one of its jobs too.',
          params: AnalyseUidParams,
          querystring: DownloadQuery,
          produces: ['application/octet-stream'],
          response: { 200: { description: 'The analysis file, named by Content-Disposition', type: 'string', format: 'binary' } },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const analysis = await requireDownloadableAnalysis(deps, caller, request.params.analyseUid);
        await assertAnalysisFinished(deps, analysis);
        const context = await analysisViewContext(deps.database.db, caller.organizationId, [analysis]);
        const file = analysisDownload(downloadSource(analysis, context), request.query.format);
        reply.header('content-disposition', attachmentDisposition(file.filename));
        reply.header('x-content-type-options', 'nosniff');
        reply.type('application/octet-stream');
        return reply.send(file.body as never);
      },
    );
  };
}

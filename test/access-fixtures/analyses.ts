import type { FixtureBuilder } from '../support/access-fixtures.js';
import { makeJobs, makeProject } from '../support/workflow-factories.js';

/**
 * Analyses: a project of organization A with one job, and analyses of it (unfinished: no worker
 * runs in the matrix, so a download answers 409). Deleting routes get analyses of their own, so
 * that they do not take away the one the other routes read; GET v1 shares its path pattern with
 * the delete, so it reads the deleted one (404 for allowed callers).
 */
const build: FixtureBuilder = async ({ t, organization, admin, adminHeaders, client }) => {
  const project = await makeProject(t, organization.id, { createdById: admin.id, clientId: client.id, targetLangs: ['de'] });
  const { jobs } = await makeJobs(t, project, { createdById: admin.id, targetLangs: ['de'] });
  const jobUid = jobs[0]!.uid;
  const create = async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api2/v2/analyses',
      headers: adminHeaders,
      payload: { jobs: [{ uid: jobUid }] },
    });
    if (response.statusCode !== 200) throw new Error(`fixture analysis: ${response.statusCode} ${response.body}`);
    const uid = response.json<{ asyncRequests: { analyse: { uid: string; id: string } }[] }>().asyncRequests[0]!.analyse;
    const part = await t.database.db
      .selectFrom('analysisLanguageParts')
      .select('id')
      .where('analysisId', '=', uid.id)
      .executeTakeFirstOrThrow();
    return { ...uid, partId: part.id };
  };
  const [read, deleted, bulkDeleted] = [await create(), await create(), await create()];
  const jobs_ = { jobs: [{ uid: jobUid }] };
  return {
    values: {
      analyseUid: read.uid,
      analyseLanguagePartId: read.partId,
      '/api2/v1/analyses/:analyseUid/jobs/:jobUid:jobUid': jobUid,
      '/api2/v1/analyses/:analyseUid:analyseUid': deleted.uid,
    },
    bodies: {
      'POST /api2/v2/analyses': jobs_,
      'POST /api2/v1/analyses/byLanguages': jobs_,
      'POST /api2/v1/analyses/byProviders': jobs_,
      'POST /api2/v1/analyses/recalculate': { analyses: [{ id: read.id }] },
      'PUT /api2/v2/analyses/bulk': { analyses: [{ id: read.id }] },
      'PUT /api2/v2/analyses/:analyseUid': {},
      'DELETE /api2/v1/analyses/bulk': { analyses: [{ id: bulkDeleted.id }] },
      // Older versions (analyses-older-versions.routes.ts) and the template's analysis settings.
      'POST /api2/v1/analyses': jobs_,
      'PUT /api2/v1/analyses/bulk': { analyses: [{ id: read.id }] },
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/analyseSettings': { analyzeByLanguage: true },
    },
    queries: {
      'GET /api2/v3/analyses': `projectUid=${project.uid}`,
      // The fixture analyses never finish (no worker): an allowed caller gets 409 AnalysisNotReady.
      'GET /api2/v1/analyses/:analyseUid/download': 'format=CSV',
    },
  };
};
export default build;

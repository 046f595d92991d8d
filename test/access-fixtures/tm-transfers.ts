import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * TM imports and exports: a TM of the matrix's client (so that its guest may export it), named for
 * these routes only (other routes may delete the TM their fixtures name), an export and a cleaned
 * export (unfinished: no worker runs in the matrix).
 */
const build: FixtureBuilder = async ({ t, adminHeaders, client }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/transMemories',
    headers: adminHeaders,
    payload: { name: 'Matrix transfers', sourceLang: 'en', targetLangs: ['de'], client: { id: client.uid } },
  });
  if (created.statusCode !== 201) throw new Error(`fixture TM: ${created.statusCode} ${created.body}`);
  const tmUid = created.json<{ uid: string }>().uid;
  const exported = await t.inject({ method: 'POST', url: `/api2/v2/transMemories/${tmUid}/export`, headers: adminHeaders, payload: {} });
  if (exported.statusCode !== 200) throw new Error(`fixture TM export: ${exported.statusCode} ${exported.body}`);
  const cleaned = await t.inject({
    method: 'POST',
    url: '/api2/v1/transMemories/extractCleaned',
    headers: adminHeaders,
    payload: { uids: [tmUid] },
  });
  if (cleaned.statusCode !== 202) throw new Error(`fixture cleaned export: ${cleaned.statusCode} ${cleaned.body}`);
  const routes = [
    '/api2/v2/transMemories/:transMemoryUid/import',
    '/api2/v2/transMemories/:transMemoryUid/export',
    '/api2/v1/transMemories/:transMemoryUid/exportByQueryAsync',
    '/api2/v2/transMemories/:transMemoryUid/segments',
    '/api2/v1/transMemories/:transMemoryUid/lastBackgroundTask',
  ];
  return {
    values: {
      ...Object.fromEntries(routes.map((route) => [`${route}:transMemoryUid`, tmUid])),
      '/api2/v1/transMemories/downloadExport/:asyncRequestId:asyncRequestId': exported.json<{ asyncRequest: { id: string } }>().asyncRequest
        .id,
      '/api2/v1/transMemories/downloadCleaned/:asyncRequestId:asyncRequestId': cleaned.json<{ asyncRequest: { id: string } }>().asyncRequest
        .id,
    },
    bodies: {
      'POST /api2/v2/transMemories/:transMemoryUid/export': { exportTargetLangs: ['de'] },
      'POST /api2/v1/transMemories/:transMemoryUid/exportByQueryAsync': { exportTargetLangs: ['de'], queries: ['*'], queryLangs: ['en'] },
      'POST /api2/v1/transMemories/extractCleaned': { uids: [tmUid] },
    },
  };
};
export default build;

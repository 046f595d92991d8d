import type { FixtureBuilder } from '../support/access-fixtures.js';

/** Named import settings and a custom file type of organization A (docs/import-settings-and-file-types.md). */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const settings = await t.inject({
    method: 'POST',
    url: '/api2/v1/importSettings',
    headers: adminHeaders,
    payload: { name: 'Matrix import settings', fileImportSettings: { xml: { includeElementsPlain: 'para' } } },
  });
  if (settings.statusCode !== 201) throw new Error(`fixture importSettings: ${settings.statusCode} ${settings.body}`);
  const fileType = await t.inject({
    method: 'POST',
    url: '/api2/v1/customFileTypes',
    headers: adminHeaders,
    payload: { name: 'Matrix file type', filenamePattern: '*.matrix', type: 'json' },
  });
  if (fileType.statusCode !== 201) throw new Error(`fixture customFileTypes: ${fileType.statusCode} ${fileType.body}`);
  const settingsUid = settings.json<{ uid: string }>().uid;
  const fileTypeUid = fileType.json<{ uid: string }>().uid;
  return {
    values: { '/api2/v1/importSettings/:uid:uid': settingsUid, customFileTypeUid: fileTypeUid },
    bodies: {
      'POST /api2/v1/importSettings': { name: 'Matrix import settings', fileImportSettings: {} },
      'PUT /api2/v1/importSettings': { uid: settingsUid, name: 'Matrix import settings', fileImportSettings: {} },
      'PUT /api2/v1/importSettings/default': {},
      'POST /api2/v1/customFileTypes': { name: 'Matrix file type', filenamePattern: '*.matrix', type: 'json' },
      'PUT /api2/v1/customFileTypes/:customFileTypeUid': { name: 'Matrix file type' },
      'DELETE /api2/v1/customFileTypes': { customFileTypes: [{ uid: fileTypeUid }] },
    },
    queries: { 'GET /api2/v1/customFileTypes/find': 'fileName=strings.matrix' },
  };
};
export default build;

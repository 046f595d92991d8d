import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A file of the Files API uploaded by organization A's ADMIN. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/files',
    headers: { ...adminHeaders, 'content-type': 'application/octet-stream', 'content-disposition': "filename*=UTF-8''matrix.txt" },
    payload: 'matrix file',
  });
  if (response.statusCode !== 201) throw new Error(`fixture file: ${response.statusCode} ${response.body}`);
  return { values: { fileUid: response.json().uid as string } };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A glossary of organization A with one entry, and valid bodies for its routes. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/glossaries',
    headers: adminHeaders,
    payload: { name: 'Matrix glossary', langs: ['en', 'de'] },
  });
  if (created.statusCode !== 200) throw new Error(`fixture glossary: ${created.statusCode} ${created.body}`);
  const glossaryUid = created.json<{ uid: string }>().uid;
  const uploaded = await t.inject({
    method: 'POST',
    url: `/api2/v1/glossaries/${glossaryUid}/upload`,
    headers: {
      ...adminHeaders,
      'content-type': 'application/octet-stream',
      'content-disposition': "attachment; filename*=UTF-8''matrix.csv",
    },
    payload: 'en,de\nmatrix file,Matrixdatei\n',
  });
  if (uploaded.statusCode !== 200) throw new Error(`fixture glossary upload: ${uploaded.statusCode} ${uploaded.body}`);
  return {
    values: { glossaryUid },
    bodies: {
      'PUT /api2/v1/glossaries/:glossaryUid': { name: 'Matrix glossary', langs: ['en', 'de', 'fr'] },
      'PUT /api2/v1/glossaries/:glossaryUid/activate': { active: true },
    },
  };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A term base of organization A with one concept of two terms, and valid bodies for its routes. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/termBases',
    headers: adminHeaders,
    payload: { name: 'Matrix term base', langs: ['en', 'de'] },
  });
  if (created.statusCode !== 200) throw new Error(`fixture term base: ${created.statusCode} ${created.body}`);
  const termBaseUid = created.json().uid as string;
  const term = await t.inject({
    method: 'POST',
    url: `/api2/v1/termBases/${termBaseUid}/terms`,
    headers: adminHeaders,
    payload: { lang: 'en', text: 'matrix file' },
  });
  if (term.statusCode !== 201) throw new Error(`fixture term: ${term.statusCode} ${term.body}`);
  const conceptId = term.json().conceptId as string;
  const second = await t.inject({
    method: 'POST',
    url: `/api2/v1/termBases/${termBaseUid}/terms`,
    headers: adminHeaders,
    payload: { lang: 'de', text: 'Matrixdatei', conceptId },
  });
  if (second.statusCode !== 201) throw new Error(`fixture term: ${second.statusCode} ${second.body}`);
  return {
    values: { termBaseUid, conceptUid: conceptId, conceptId, termId: term.json().id as string },
    bodies: {
      'POST /api2/v1/termBases': { name: 'Another term base', langs: ['en', 'fr'] },
      'PUT /api2/v1/termBases/:termBaseUid': { name: 'Matrix term base', langs: ['en', 'de', 'fr'] },
      'POST /api2/v1/termBases/:termBaseUid/concepts': { definition: 'A matrix.' },
      'PUT /api2/v1/termBases/:termBaseUid/concepts/:conceptUid': { definition: 'A matrix.' },
      'DELETE /api2/v1/termBases/:termBaseUid/concepts': { concepts: [{ id: conceptId }] },
      'POST /api2/v1/termBases/:termBaseUid/terms': { lang: 'de', text: 'Matrix', conceptId },
      'PUT /api2/v1/termBases/:termBaseUid/terms/:termId': { text: 'matrix files' },
      'POST /api2/v1/termBases/:termBaseUid/search': { sourceLang: 'en', targetLangs: ['de'], query: 'matrix' },
      'POST /api2/v1/termBases/:termBaseUid/browse': { queryLang: 'en' },
      'PUT /api2/v1/projects/:projectUid/termBases': { readTermBases: [{ id: termBaseUid }] },
      'PUT /api2/v1/projectTemplates/:projectTemplateUid/termBases': { readTermBases: [{ id: termBaseUid }] },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/termBases/searchByJob': { query: 'matrix' },
      'POST /api2/v2/projects/:projectUid/jobs/:jobUid/termBases/searchByJob': { query: 'matrix' },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/termBases/searchInTextByJob': { text: 'the matrix file' },
      'POST /api2/v2/projects/:projectUid/jobs/:jobUid/termBases/searchInTextByJob': { text: 'the matrix file' },
      'POST /api2/v1/projects/:projectUid/jobs/:jobUid/termBases/createByJob': {
        sourceTerm: { text: 'matrix' },
        targetTerm: { text: 'Matrix' },
      },
    },
  };
};
export default build;

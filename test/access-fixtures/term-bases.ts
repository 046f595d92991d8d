import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A term base of organization A, and valid bodies for its routes. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/termBases',
    headers: adminHeaders,
    payload: { name: 'Matrix term base', langs: ['en', 'de'] },
  });
  if (created.statusCode !== 200) throw new Error(`fixture term base: ${created.statusCode} ${created.body}`);
  return {
    values: { termBaseUid: created.json().uid as string },
    bodies: {
      'POST /api2/v1/termBases': { name: 'Another term base', langs: ['en', 'fr'] },
      'PUT /api2/v1/termBases/:termBaseUid': { name: 'Matrix term base', langs: ['en', 'de', 'fr'] },
    },
  };
};
export default build;

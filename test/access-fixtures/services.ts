import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A service of organization A. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const response = await t.inject({ method: 'POST', url: '/api2/v1/services', headers: adminHeaders, payload: { name: 'Matrix service' } });
  if (response.statusCode !== 201) throw new Error(`fixture service: ${response.statusCode} ${response.body}`);
  return {
    values: { serviceUid: response.json().uid as string },
    bodies: { 'PUT /api2/v1/services/:serviceUid': { description: 'Matrix' } },
  };
};
export default build;

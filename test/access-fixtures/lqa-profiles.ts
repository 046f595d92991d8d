import type { FixtureBuilder } from '../support/access-fixtures.js';

/** An LQA profile of organization A (its first, so its default), and a valid body for update. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/lqa/profiles',
    headers: adminHeaders,
    payload: { name: 'Matrix LQA profile', errorCategories: {} },
  });
  if (response.statusCode !== 201) throw new Error(`fixture lqaProfiles: ${response.statusCode} ${response.body}`);
  const profile = response.json<{ uid: string }>();
  return {
    values: { profileUid: profile.uid },
    bodies: { 'PUT /api2/v1/lqa/profiles/:profileUid': { name: 'Matrix LQA profile', errorCategories: {} } },
  };
};
export default build;

import { insertOrganization } from '../../src/modules/identity/organizations/organizations.repository.js';
import { makeUser, loginAs, apiToken } from '../factories.js';
import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Vendors and buyers of organization A: A links a vendor organization (a vendor of A), and a buyer
 * organization links A (a buyer of A).
 */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const db = t.database.db;
  const tokenOf = async (headers: Record<string, string>) => {
    const response = await t.inject({ method: 'GET', url: '/api2/v1/vendorToken', headers });
    if (response.statusCode !== 200) throw new Error(`fixture vendorToken: ${response.statusCode} ${response.body}`);
    return response.json().vendorToken as string;
  };
  const link = async (buyerHeaders: Record<string, string>, vendorToken: string) => {
    const response = await t.inject({ method: 'POST', url: '/api2/v1/vendors', headers: buyerHeaders, payload: { vendorToken } });
    if (response.statusCode !== 201) throw new Error(`fixture vendor: ${response.statusCode} ${response.body}`);
    return response.json().uid as string;
  };
  const adminOf = async (name: string) => {
    const organization = await insertOrganization(db, name);
    return apiToken(await loginAs(t, await makeUser(db, organization, { role: 'ADMIN' })));
  };
  const vendorAdmin = await adminOf('Matrix vendor');
  const buyerAdmin = await adminOf('Matrix buyer');
  return {
    values: {
      vendorUid: await link(adminHeaders, await tokenOf(vendorAdmin)),
      buyerUid: await link(buyerAdmin, await tokenOf(adminHeaders)),
    },
    bodies: { 'PUT /api2/v1/buyers/:buyerUid': { active: true } },
  };
};
export default build;

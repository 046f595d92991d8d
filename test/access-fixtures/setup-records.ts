import type { FixtureBuilder } from '../support/access-fixtures.js';

/** Clients, business units, cost centers, domains and subdomains of organization A. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const create = async (path: string, payload: Record<string, unknown>) => {
    const response = await t.inject({ method: 'POST', url: `/api2/v1/${path}`, headers: adminHeaders, payload });
    if (response.statusCode !== 201) throw new Error(`fixture ${path}: ${response.statusCode} ${response.body}`);
    return response.json().uid as string;
  };
  return {
    values: {
      clientUid: await create('clients', { name: 'Matrix client' }),
      businessUnitUid: await create('businessUnits', { name: 'Matrix unit' }),
      costCenterUid: await create('costCenters', { name: 'Matrix cost center' }),
      domainUid: await create('domains', { name: 'Matrix domain' }),
      subDomainUid: await create('subDomains', { name: 'Matrix subdomain' }),
    },
    bodies: {
      'PUT /api2/v1/clients/:clientUid': { name: 'Matrix client' },
      'PUT /api2/v1/businessUnits/:businessUnitUid': { name: 'Matrix unit' },
      'PUT /api2/v1/costCenters/:costCenterUid': { name: 'Matrix cost center' },
      'PUT /api2/v1/domains/:domainUid': { name: 'Matrix domain' },
      'PUT /api2/v1/subDomains/:subDomainUid': { name: 'Matrix subdomain' },
    },
  };
};
export default build;

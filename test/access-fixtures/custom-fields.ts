import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A select custom field of organization A with one option. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/customFields',
    headers: adminHeaders,
    payload: { name: 'Matrix field', type: 'SINGLE_SELECT', allowedEntities: ['PROJECT'], options: ['Matrix option'] },
  });
  if (response.statusCode !== 201) throw new Error(`fixture customFields: ${response.statusCode} ${response.body}`);
  const field = response.json() as { uid: string; options: { truncatedOptions: { uid: string }[] } };
  const fieldUid = field.uid;
  const optionUid = field.options.truncatedOptions[0]!.uid;
  return {
    values: {
      '/api2/v1/customFields/:fieldUid:fieldUid': fieldUid,
      '/api2/v1/customFields/:fieldUid/options:fieldUid': fieldUid,
      '/api2/v1/customFields/:fieldUid/options/:optionUid/deprecate:fieldUid': fieldUid,
      '/api2/v1/customFields/:fieldUid/options/:optionUid/deprecate:optionUid': optionUid,
    },
    bodies: {
      'PUT /api2/v1/customFields/:fieldUid': { description: 'Matrix' },
      'PUT /api2/v1/customFields/:fieldUid/options/:optionUid/deprecate': { deprecated: true },
    },
  };
};
export default build;

import type { FixtureBuilder } from '../support/access-fixtures.js';

const SRX = `<?xml version="1.0" encoding="UTF-8"?>
<srx xmlns="http://www.lisa.org/srx20" version="2.0">
  <header segmentsubflows="yes" cascade="no"/>
  <body>
    <languagerules><languagerule languagerulename="Any"><rule break="yes"><beforebreak>;</beforebreak><afterbreak>\\s</afterbreak></rule></languagerule></languagerules>
    <maprules><languagemap languagepattern=".*" languagerulename="Any"/></maprules>
  </body>
</srx>
`;

/** A segmentation rule of organization A (uploaded as SRX), and a locale for exportDefault. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const response = await t.inject({
    method: 'POST',
    url: '/api2/v1/segmentationRules',
    headers: {
      ...adminHeaders,
      'content-type': 'application/octet-stream',
      segrule: JSON.stringify({ name: 'Matrix rule', locale: 'en' }),
    },
    payload: Buffer.from(SRX),
  });
  if (response.statusCode !== 201) throw new Error(`fixture segmentationRules: ${response.statusCode} ${response.body}`);
  const rule = response.json<{ id: string; uid: string }>();
  return {
    values: { segRuleId: rule.id, segRuleUid: rule.uid, locale: 'en' },
    bodies: { 'PUT /api2/v1/segmentationRules/:segRuleId': { name: 'Matrix rule' } },
  };
};
export default build;

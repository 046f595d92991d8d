import { createHash } from 'node:crypto';
import type { FixtureBuilder } from '../support/access-fixtures.js';

/** A translation memory of organization A with one unit, and valid bodies for its routes. */
const build: FixtureBuilder = async ({ t, adminHeaders }) => {
  const created = await t.inject({
    method: 'POST',
    url: '/api2/v1/transMemories',
    headers: adminHeaders,
    payload: { name: 'Matrix TM', sourceLang: 'en', targetLangs: ['de'] },
  });
  if (created.statusCode !== 201) throw new Error(`fixture TM: ${created.statusCode} ${created.body}`);
  const uid = created.json().uid as string;
  const source = 'Matrix source sentence.';
  const inserted = await t.inject({
    method: 'POST',
    url: `/api2/v1/transMemories/${uid}/segments`,
    headers: adminHeaders,
    payload: { targetLang: 'de', sourceSegment: source, targetSegment: 'Matrix-Zielsatz.' },
  });
  if (inserted.statusCode !== 204) throw new Error(`fixture TM unit: ${inserted.statusCode} ${inserted.body}`);
  return {
    values: { transMemoryUid: uid, segmentId: `${uid}.${createHash('sha1').update(source).digest('hex')}`, lang: 'de' },
    bodies: {
      'PUT /api2/v1/transMemories/:transMemoryUid': { name: 'Matrix TM', targetLangs: ['de'] },
      'POST /api2/v1/transMemories/:transMemoryUid/targetLanguages': { language: 'fr' },
      'POST /api2/v1/transMemories/:transMemoryUid/search': { query: 'Matrix source', sourceLang: 'en' },
      'POST /api2/v1/transMemories/:transMemoryUid/wildCardSearch': { query: 'Matrix*', sourceLang: 'en' },
      'POST /api2/v1/transMemories/:transMemoryUid/segments': {
        targetLang: 'de',
        sourceSegment: 'Another one.',
        targetSegment: 'Noch einer.',
      },
      'PUT /api2/v1/transMemories/:transMemoryUid/segments/:segmentId': { lang: 'de', text: 'Matrix-Ziel.' },
    },
  };
};
export default build;

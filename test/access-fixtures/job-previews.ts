import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Job previews: the shared `projectUid` / `jobUid` / `jobPartUid` serve the preview, warning and
 * upload routes (the upload takes a multipart file the matrix does not send: allowed roles get
 * 415). getAsset names an asset no package holds: 404 for everyone who passes the role check.
 */
const build: FixtureBuilder = async () => ({ values: { assetFileUid: 'noSuchAsset' } });
export default build;

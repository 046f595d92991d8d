import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Job files: the shared `projectUid` / `jobUid` serve the original and target-file routes; the
 * download route uses the matrix's generic `asyncRequestId` (not a target file of the job: 404
 * for everyone who passes the access declaration). No bodies: these routes take none.
 */
const build: FixtureBuilder = async () => ({});
export default build;

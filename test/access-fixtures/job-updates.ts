import type { FixtureBuilder } from '../support/access-fixtures.js';

/**
 * Job updates: updateSource / updateTarget take an octet-stream body and the `Memsource` header,
 * which the matrix does not send; the shared `projectUid` is enough for it to reach the access
 * checks (another organization: 404 from the project; allowed roles: 400 for the missing header).
 */
const build: FixtureBuilder = async () => ({});
export default build;

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestApp } from '../harness.js';
import type { ClientRow } from '../../src/modules/identity/users/guest-clients.repository.js';
import type { OrganizationRow } from '../../src/modules/identity/organizations/organizations.repository.js';
import type { UserRow } from '../../src/modules/identity/users/users.repository.js';

/** What the access matrix needs to call a route that addresses records or takes a body. */
export interface Fixtures {
  /** `<route pattern>:<param>` or `<param>` -> a value naming a record of organization A. */
  values: Record<string, string>;
  /**
   * `<METHOD> <route pattern>` -> a valid body, for routes that take a body and address a
   * record: validation runs before the lookup, so without a valid body another organization's
   * caller would get 400 and the matrix could not see that the record stays hidden (404).
   */
  bodies: Record<string, unknown>;
  /** `<METHOD> <route pattern>` -> a valid query string, for routes with required query parameters (same reason). */
  queries: Record<string, string>;
  /**
   * `<METHOD> <route pattern>` -> a body for one record-level persona (linguist, vendor, buyer)
   * where the route's body depends on who calls it (a vendor sets the vendor's statuses).
   */
  personaBodies?: Record<string, Record<string, unknown>>;
}

/** Organization A of the matrix, as the fixture builders see it. */
export interface FixtureContext {
  t: TestApp;
  organization: OrganizationRow;
  admin: UserRow;
  adminHeaders: Record<string, string>;
  client: ClientRow;
}

/** A module's fixtures: one file per area under test/access-fixtures/, default-exporting this. */
export type FixtureBuilder = (context: FixtureContext) => Promise<Partial<Fixtures>>;

/**
 * Runs every fixture builder of test/access-fixtures/ and merges what they return into
 * `fixtures`, so that each module adds its routes' fixtures in a file of its own.
 */
export async function loadAreaFixtures(context: FixtureContext, fixtures: Fixtures): Promise<void> {
  const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'access-fixtures');
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const builder = ((await import(pathToFileURL(join(folder, file)).href)) as { default: FixtureBuilder }).default;
    const part = await builder(context);
    Object.assign(fixtures.values, part.values);
    Object.assign(fixtures.bodies, part.bodies);
    Object.assign(fixtures.queries, part.queries);
    if (part.personaBodies) Object.assign((fixtures.personaBodies ??= {}), part.personaBodies);
  }
}

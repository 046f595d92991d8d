import type { Config } from './config.js';
import type { Database } from './db/database.js';

/** What the app is built from; tests build it with their own database and clock. */
export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  /** The current time; injectable so that expiry can be tested without waiting. */
  readonly clock: () => Date;
}

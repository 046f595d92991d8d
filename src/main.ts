import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { buildApp } from './app.js';
import { createTaskWakeup } from './queue/types.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { ensureFirstAdmin, ensureSysAdmin } from './modules/organizations/first-start.js';

/** read config -> open db -> migrate -> first-start seeding -> listen; SIGTERM/SIGINT stop cleanly. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`opentms: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  mkdirSync(join(config.dataDir, 'blobs'), { recursive: true });
  const database = config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : openDatabase({ kind: 'sqlite', path: join(config.dataDir, 'opentms.sqlite') });

  const applied = await migrateToLatest(database);
  const app = await buildApp({ config, database, clock: () => new Date(), taskWakeup: createTaskWakeup() });
  app.log.info({ dialect: database.dialect, applied }, applied.length ? 'database migrated' : 'database schema up to date');
  await ensureFirstAdmin(database.db, config, app.log);
  await ensureSysAdmin(database.db, config, app.log);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    // Stop accepting connections, let in-flight requests finish, then release the database.
    app
      .close()
      .then(() => database.close())
      .then(() => {
        app.log.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`opentms: failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});

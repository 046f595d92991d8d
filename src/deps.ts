import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { TaskHandler, TaskKind, TaskWakeup } from './queue/types.js';
import type { BlobStore } from './storage/blob-store.js';

/** What the app is built from; tests build it with their own database and clock. */
export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  /** The current time; injectable so that expiry can be tested without waiting. */
  readonly clock: () => Date;
  /** Wakes this process's worker after a transaction that enqueued tasks has committed. */
  readonly taskWakeup: TaskWakeup;
  /** Where uploaded and generated files live (`<dataDir>/blobs` by default). */
  readonly blobs: BlobStore;
}

/** A task handler of the app: its context carries the app's dependencies. */
export type AppTaskHandler<K extends TaskKind> = TaskHandler<K, AppDeps>;

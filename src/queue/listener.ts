import { startNotificationListener } from '../db/notification-listener.js';
import { TASK_CHANNEL } from './queue.js';
import type { TaskLogger } from './types.js';

export interface TaskListenerOptions {
  readonly connectionString: string;
  /** The schema the tables live in when the connection string does not set it (tests). */
  readonly schema: string | null;
  /** Shown in pg_stat_activity. */
  readonly applicationName: string;
  readonly onNotify: () => void;
  readonly log: TaskLogger;
}

export interface TaskListener {
  close(): Promise<void>;
}

/**
 * `LISTEN opentms_tasks`: calls `onNotify` for every task committed by this installation, and
 * once after each (re)connection, since notifications sent while it was down are lost. While the
 * connection is down the worker's polling still finds the work.
 */
export function startTaskListener(options: TaskListenerOptions): TaskListener {
  return startNotificationListener({ ...options, channel: TASK_CHANNEL });
}

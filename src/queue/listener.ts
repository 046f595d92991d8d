import pg from 'pg';
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

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * `LISTEN opentms_tasks` on a dedicated connection (a pooled one would be handed to queries).
 * Calls `onNotify` for every notification from this installation's schema, and once after each
 * (re)connection, since notifications sent while it was down are lost. When the connection
 * drops it reconnects with backoff; meanwhile the worker's polling still finds the work.
 */
export function startTaskListener(options: TaskListenerOptions): TaskListener {
  const { log } = options;
  let closed = false;
  let client: pg.Client | null = null;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let connecting: Promise<void> | null = null;

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delay = retryMs;
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connecting = connect();
    }, delay);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const candidate = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName.slice(0, 63),
      keepAlive: true,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (client === candidate) client = null;
      candidate.removeAllListeners('notification');
      candidate.end().catch(() => undefined);
      if (closed) return;
      log.warn({ err: error, retryInMs: retryMs }, 'task notifications: connection lost; polling until it is back');
      scheduleReconnect();
    };
    // Without an 'error' listener a dropped connection would crash the process.
    candidate.on('error', drop);
    candidate.on('end', () => drop(new Error('connection ended')));
    try {
      await candidate.connect();
      const { rows } = await candidate.query<{ schema: string | null }>('select current_schema() as schema');
      const schema = rows[0]?.schema ?? null;
      candidate.on('notification', (message) => {
        // enqueue sends its schema: installations (or test files) sharing a database ignore each other.
        if (message.channel === TASK_CHANNEL && (!message.payload || schema === null || message.payload === schema)) options.onNotify();
      });
      await candidate.query(`listen ${TASK_CHANNEL}`);
      if (closed) {
        dropped = true;
        await candidate.end().catch(() => undefined);
        return;
      }
      client = candidate;
      retryMs = FIRST_RETRY_MS;
      log.debug({ channel: TASK_CHANNEL, schema }, 'task notifications: listening');
      options.onNotify();
    } catch (error) {
      drop(error);
    }
  }

  connecting = connect();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      await connecting?.catch(() => undefined);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}

import pg from 'pg';

/** What a listener logs through (a subset of pino's logger). */
export interface ListenerLogger {
  debug(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface NotificationListenerOptions {
  readonly connectionString: string;
  /** The schema the tables live in when the connection string does not set it (tests). */
  readonly schema: string | null;
  /** Shown in pg_stat_activity. */
  readonly applicationName: string;
  /** The channel to LISTEN on; notifications carry the sender's schema as their payload. */
  readonly channel: string;
  /**
   * Called for every notification from this installation's schema, and once after each
   * (re)connection, since notifications sent while the connection was down are lost.
   */
  readonly onNotify: () => void;
  /** Called when the connection drops (before reconnecting with backoff). */
  readonly onDisconnect?: () => void;
  readonly log: ListenerLogger;
}

export interface NotificationListener {
  /** Whether the LISTEN connection is up: notifications are being received. */
  readonly connected: boolean;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * `LISTEN <channel>` on a dedicated PostgreSQL connection (a pooled one would be handed to
 * queries). When the connection drops it reconnects with backoff; `connected` says whether
 * notifications are arriving, so a user of it can fall back (poll, or not trust a cache) meanwhile.
 */
export function startNotificationListener(options: NotificationListenerOptions): NotificationListener {
  const { log, channel } = options;
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
      const wasListening = client === candidate;
      if (wasListening) client = null;
      candidate.removeAllListeners('notification');
      candidate.end().catch(() => undefined);
      if (closed) return;
      if (wasListening) options.onDisconnect?.();
      log.warn({ err: error, channel, retryInMs: retryMs }, 'notifications: connection lost; reconnecting');
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
        // Senders put their schema in the payload: installations (or test files) sharing a database ignore each other.
        if (message.channel === channel && (!message.payload || schema === null || message.payload === schema)) options.onNotify();
      });
      await candidate.query(`listen ${channel}`);
      if (closed) {
        dropped = true;
        await candidate.end().catch(() => undefined);
        return;
      }
      client = candidate;
      retryMs = FIRST_RETRY_MS;
      log.debug({ channel, schema }, 'notifications: listening');
      options.onNotify();
    } catch (error) {
      drop(error);
    }
  }

  connecting = connect();
  return {
    get connected() {
      return client !== null;
    },
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

import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Database } from '../db/database.js';

/**
 * The durable task queue's contract (docs/async-and-webhooks.md). Work that can outlast a request
 * is written as a task in the same transaction as the change that needs it; a worker claims it
 * with a lease, runs its handler, and retries it with backoff when the handler throws.
 *
 * Every handler must be safe to run twice: a worker that dies after the work but before marking
 * the task done leaves it to be run again when the lease expires.
 */

/**
 * The payload type of each task kind: the one list of every task the app runs. The queue knows no
 * module; each module adds its own kinds where it declares their handlers, by declaration merging:
 *
 * ```ts
 * declare module '../../../queue/index.js' {
 *   interface TaskPayloads { 'job.import': ImportJobPayload }
 * }
 * ```
 *
 * Kinds starting with `test.` are free for the queue's own tests and their handlers.
 */
export interface TaskPayloads {
  [testKind: `test.${string}`]: unknown;
}

export type TaskKind = keyof TaskPayloads & string;

/** Every task, as one discriminated union on `kind`. */
export type Task = { [K in TaskKind]: { readonly kind: K; readonly payload: TaskPayloads[K] } }[TaskKind];

/** What `enqueue` writes: a task of one kind, its payload typed by the kind. */
export type TaskSpec<K extends TaskKind = TaskKind> = {
  [Kind in K]: {
    /** Names the handler, e.g. `webhook.deliver`. */
    readonly kind: Kind;
    /** JSON-serialisable input of the handler. */
    readonly payload: TaskPayloads[Kind];
    /** The organization the work is for: tasks are shared fairly between organizations. Null = the installation's own work. */
    readonly organizationId: string | null;
    /** Not before this time (default: now). */
    readonly runAt?: Date;
    /** Overrides the handler's maxAttempts for this task. */
    readonly maxAttempts?: number;
    /** The async request this task completes, if any: a final failure is recorded on it. */
    readonly asyncRequestId?: string | null;
  };
}[K];

/** What the worker itself needs: the database, the clock, the wake-up and its settings. */
export interface WorkerDeps {
  readonly database: Database;
  readonly clock: () => Date;
  readonly taskWakeup: TaskWakeup;
  readonly config: {
    readonly databaseUrl: string | null;
    readonly tasks: { readonly concurrency: number; readonly leaseSeconds: number; readonly pollMilliseconds: number };
  };
}

/** `D`: what handlers are given (the app's dependencies); the queue itself never looks inside. */
export interface TaskContext<D = unknown> {
  readonly deps: D;
  readonly taskId: string;
  /** 1 on the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly organizationId: string | null;
  readonly asyncRequestId: string | null;
  /** Aborted when the worker stops or loses the task's lease: stop early, the task will run again. */
  readonly signal: AbortSignal;
}

export interface TaskHandler<K extends TaskKind = TaskKind, D = unknown> {
  readonly kind: K;
  run(context: TaskContext<D>, payload: TaskPayloads[K]): Promise<void>;
  /** Attempts before the task fails for good (default 5). */
  readonly maxAttempts?: number;
  /** Milliseconds to wait before attempt `attempt + 1`, after `attempt` failed (default: exponential from 1 s, capped at 5 min, with jitter). */
  backoffMs?(attempt: number): number;
  /** Called once when the last attempt failed (after the task is marked failed). */
  onFinalFailure?(context: TaskContext<D>, payload: TaskPayloads[K], error: unknown): Promise<void>;
}

/** A handler of any one kind. */
export type AnyTaskHandler<D = unknown> = { [K in TaskKind]: TaskHandler<K, D> }[TaskKind];

/** A database handle or an open transaction: enqueue inside the caller's transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

/**
 * Wakes this process's worker at once when a task was committed (SQLite has no LISTEN/NOTIFY;
 * on PostgreSQL, enqueue also issues NOTIFY, which reaches workers in every process).
 */
export interface TaskWakeup {
  notify(): void;
  /** Returns the unsubscribe function. */
  onNotify(listener: () => void): () => void;
}

export function createTaskWakeup(): TaskWakeup {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    onNotify(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A task as the worker's failure hook sees it. */
export interface TaskRecord {
  readonly id: string;
  /** As stored: a kind no handler knows stays a plain string. */
  readonly kind: string;
  /** The parsed payload (the stored text when it is not valid JSON). */
  readonly payload: unknown;
  readonly organizationId: string | null;
  readonly asyncRequestId: string | null;
  /** Attempts made, including the last one. */
  readonly attempts: number;
  readonly maxAttempts: number;
}

/** The handlers a worker runs, by kind. */
export interface TaskRegistry<D = unknown> {
  get(kind: string): AnyTaskHandler<D> | undefined;
  readonly handlers: readonly AnyTaskHandler<D>[];
}

/**
 * What the worker logs through: a subset of pino's logger, so that Fastify's `app.log` (or a
 * child of it) can be passed as is.
 */
export interface TaskLogger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

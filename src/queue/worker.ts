import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { startTaskListener } from './listener.js';
import type { TaskListener } from './listener.js';
import { silentLogger } from './log.js';
import { DEFAULT_MAX_ATTEMPTS, defaultBackoffMs, MAX_INTERRUPTIONS } from './queue.js';
import { claimNext, deleteDoneTasks, finishTask, renewLease } from './store.js';
import type { ClaimedTask, Claim } from './store.js';
import { ThreadCrashedError } from './thread-pool.js';
import type { AnyTaskHandler, TaskContext, TaskLogger, TaskRecord, TaskRegistry, WorkerDeps } from './types.js';

export interface WorkerOptions {
  /** Names this worker in `tasks.locked_by` and pg_stat_activity (default: host, pid and a random part). */
  readonly workerId?: string;
  /** Default: `config.tasks.concurrency`. */
  readonly concurrency?: number;
  /** Default: `config.tasks.leaseSeconds`. */
  readonly leaseSeconds?: number;
  /** Default: `config.tasks.pollMilliseconds`. */
  readonly pollMilliseconds?: number;
  /** How often a running task's lease is renewed (default: a third of the lease). */
  readonly renewEveryMilliseconds?: number;
  /**
   * On stop, how long running tasks have in all (default 10 s): handlers may finish during the
   * first 70%, then their signal is aborted; a task still running at the end is queued again
   * (without using up an attempt) and `stop()` resolves.
   */
  readonly shutdownGraceMilliseconds?: number;
  /** Interrupted runs after which a task fails for good (default MAX_INTERRUPTIONS, 3). */
  readonly maxInterruptions?: number;
  /** How long done tasks are kept (default 7 days); failed tasks are kept. */
  readonly doneRetentionMilliseconds?: number;
  /** PostgreSQL to LISTEN on (default: `config.databaseUrl`); null = no LISTEN, polling only. */
  readonly listenConnectionString?: string | null;
  readonly log?: TaskLogger;
  /**
   * Called once when a task failed for good (after the handler's `onFinalFailure`), e.g. to record
   * the error on the task's async request. Errors it throws are logged.
   */
  readonly onTaskFailed?: (task: TaskRecord, error: unknown) => Promise<void> | void;
}

export interface Worker {
  readonly id: string;
  /** Stops claiming, lets running handlers finish (aborting them after the grace period), closes LISTEN. */
  stop(): Promise<void>;
}

/** The handler's signal is aborted with this reason when the worker stops. */
export class WorkerStoppingError extends Error {
  constructor() {
    super('the worker is stopping; the task will run again');
    this.name = 'WorkerStoppingError';
  }
}

/** The handler's signal is aborted with this reason when its task was taken over. */
export class LeaseLostError extends Error {
  constructor() {
    super('the task lease was lost (another worker took the task over)');
    this.name = 'LeaseLostError';
  }
}

/** Why a task failed after MAX_INTERRUPTIONS runs cut short. */
export class TaskInterruptedError extends Error {
  constructor(interruptions: number) {
    super(
      `the task was interrupted ${interruptions} times without finishing (its worker stopped or lost the lease, or its thread crashed); it is not run again`,
    );
    this.name = 'TaskInterruptedError';
  }
}

export class UnknownTaskKindError extends Error {
  constructor(kind: string) {
    super(`no handler is registered for task kind "${kind}" (src/task-handlers.ts)`);
    this.name = 'UnknownTaskKindError';
  }
}

const DONE_RETENTION_MS = 7 * 24 * 3600_000;
const CLEANUP_EVERY_MS = 60_000;
const CLEANUP_BATCH = 500;
const MAX_ERROR_LENGTH = 4_000;

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

interface Running {
  readonly task: ClaimedTask;
  readonly controller: AbortController;
  /**
   * Why the signal was aborted, if it was; `released`: the stop's deadline passed and the task was
   * queued again while its handler still ran (its outcome is no longer this worker's to record).
   */
  reason: 'stopping' | 'lease-lost' | 'released' | null;
  promise: Promise<void>;
}

/**
 * Runs tasks until stopped: claims due tasks (fairly between organizations), up to
 * `concurrency` at once, renews their leases while they run, and retries or fails them when
 * their handler throws. Wakes at once on `deps.taskWakeup` and, on PostgreSQL, on NOTIFY;
 * otherwise polls every `pollMilliseconds`.
 */
export function startWorker<D extends WorkerDeps>(deps: D, registry: TaskRegistry<D>, options: WorkerOptions = {}): Worker {
  const { database, clock } = deps;
  const log = options.log ?? silentLogger;
  const workerId = (options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(0, 128);
  const concurrency = Math.max(1, options.concurrency ?? deps.config.tasks.concurrency);
  const leaseMs = (options.leaseSeconds ?? deps.config.tasks.leaseSeconds) * 1000;
  const pollMs = options.pollMilliseconds ?? deps.config.tasks.pollMilliseconds;
  const renewMs = options.renewEveryMilliseconds ?? Math.max(50, Math.floor(leaseMs / 3));
  const graceMs = options.shutdownGraceMilliseconds ?? 10_000;
  const maxInterruptions = Math.max(1, options.maxInterruptions ?? MAX_INTERRUPTIONS);
  const retentionMs = options.doneRetentionMilliseconds ?? DONE_RETENTION_MS;

  const running = new Map<string, Running>();
  let stopping = false;
  let wakePending = false;
  let wakeSleeper: (() => void) | null = null;

  const wake = () => {
    wakePending = true;
    wakeSleeper?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakeSleeper = done;
    });

  const unsubscribe = deps.taskWakeup.onNotify(wake);
  const listenUrl = options.listenConnectionString === undefined ? deps.config.databaseUrl : options.listenConnectionString;
  let listener: TaskListener | null = null;
  if (database.dialect === 'postgres' && listenUrl) {
    listener = startTaskListener({
      connectionString: listenUrl,
      schema: database.schema,
      applicationName: `opentms-worker ${workerId}`,
      onNotify: wake,
      log,
    });
  }

  // --- one task -------------------------------------------------------------------------------

  async function fail(
    task: ClaimedTask,
    claim: Claim,
    record: TaskRecord,
    error: unknown,
    handler: AnyTaskHandler<D> | undefined,
    context: TaskContext<D> | null,
    interrupted = false,
  ) {
    const marked = await finishTask(database.db, claim, { status: 'failed', now: clock(), error: describe(error), interrupted });
    if (!marked) return;
    log.warn({ taskId: task.id, kind: task.kind, attempt: task.attempts, err: error }, 'task failed for good');
    if (handler?.onFinalFailure && context) {
      try {
        await handler.onFinalFailure(context, record.payload as never, error);
      } catch (hookError) {
        log.error({ taskId: task.id, kind: task.kind, err: hookError }, 'onFinalFailure threw');
      }
    }
    if (options.onTaskFailed) {
      try {
        await options.onTaskFailed(record, error);
      } catch (hookError) {
        log.error({ taskId: task.id, kind: task.kind, err: hookError }, 'onTaskFailed threw');
      }
    }
  }

  async function runTask(task: ClaimedTask, entry: Running): Promise<void> {
    const claim: Claim = { id: task.id, lockedBy: task.lockedBy, attempts: task.attempts };
    const handler = registry.get(task.kind);
    const maxAttempts = task.maxAttempts ?? handler?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    let payload: unknown = task.payload;
    let payloadError: unknown = null;
    try {
      payload = JSON.parse(task.payload);
    } catch (error) {
      payloadError = new Error(`the task's payload is not valid JSON: ${describe(error)}`);
    }
    const record: TaskRecord = {
      id: task.id,
      kind: task.kind,
      payload,
      organizationId: task.organizationId,
      asyncRequestId: task.asyncRequestId,
      attempts: task.attempts,
      maxAttempts,
    };
    const context: TaskContext<D> = {
      deps,
      taskId: task.id,
      attempt: task.attempts,
      maxAttempts,
      organizationId: task.organizationId,
      asyncRequestId: task.asyncRequestId,
      signal: entry.controller.signal,
    };
    if (!handler) return fail(task, claim, record, new UnknownTaskKindError(task.kind), undefined, null);
    if (payloadError) return fail(task, claim, record, payloadError, handler, context);
    if (task.interruptions >= maxInterruptions) {
      // Taken over after its last allowed interruption: whatever cuts its runs short (it crashes
      // the process, blocks it past the lease) would do so again, so the task is not run once more.
      const error = new TaskInterruptedError(task.interruptions);
      return fail(task, claim, { ...record, attempts: task.attempts - 1 }, error, handler, context);
    }
    if (task.attempts > maxAttempts) {
      // Only a takeover gets here: the worker of the last attempt stopped without finishing it
      // (killed, or the task crashes its process), so the task is not run once more.
      const error = new Error(`the worker running attempt ${maxAttempts} of ${maxAttempts} stopped before it finished (lease expired)`);
      return fail(task, claim, { ...record, attempts: maxAttempts }, error, handler, context);
    }

    // Keep the lease while the handler runs; losing it (the task was taken over) aborts the handler.
    let leaseUntil = new Date(task.leaseUntil).getTime();
    let renewing = false;
    let returned = false;
    const renewTimer = setInterval(() => {
      if (renewing || entry.reason) return;
      renewing = true;
      const next = new Date(clock().getTime() + leaseMs);
      renewLease(database.db, claim, next)
        .then((held) => {
          if (held) leaseUntil = next.getTime();
          else loseLease();
        })
        .catch((error: unknown) => {
          log.warn({ taskId: task.id, err: error }, 'could not renew a task lease');
          if (clock().getTime() >= leaseUntil) loseLease();
        })
        .finally(() => {
          renewing = false;
        });
    }, renewMs);
    const loseLease = () => {
      // A renewal that raced with the handler's end (the task is being marked) proves nothing.
      if (entry.reason || returned) return;
      entry.reason = 'lease-lost';
      log.warn({ taskId: task.id, kind: task.kind }, 'lost the lease of a running task; aborting its handler');
      entry.controller.abort(new LeaseLostError());
    };

    let outcome: { ok: true } | { ok: false; error: unknown };
    try {
      await handler.run(context, payload as never);
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      returned = true;
      clearInterval(renewTimer);
    }

    // Another worker owns the task now, or the stop queued it again: it is not ours to mark.
    if (entry.reason === 'lease-lost' || entry.reason === 'released') return;
    if (outcome.ok) {
      if (!(await finishTask(database.db, claim, { status: 'done', now: clock() }))) {
        log.warn({ taskId: task.id, kind: task.kind }, 'task finished after it was taken over; not marked');
      }
      return;
    }
    if (entry.reason === 'stopping') {
      await finishTask(database.db, claim, { status: 'release', now: clock() });
      log.info({ taskId: task.id, kind: task.kind }, 'task interrupted by the stop; queued again');
      return;
    }
    // A crashed thread is an interruption, as a crashed process is; too many fail the task.
    const interrupted = outcome.error instanceof ThreadCrashedError;
    if (interrupted && task.interruptions + 1 >= maxInterruptions) {
      return fail(task, claim, record, new TaskInterruptedError(task.interruptions + 1), handler, context, true);
    }
    if (task.attempts < maxAttempts) {
      let delay = defaultBackoffMs(task.attempts);
      if (handler.backoffMs) {
        try {
          const chosen = handler.backoffMs(task.attempts);
          if (Number.isFinite(chosen) && chosen >= 0) delay = chosen;
        } catch (error) {
          log.error({ taskId: task.id, kind: task.kind, err: error }, 'backoffMs threw; using the default backoff');
        }
      }
      const runAt = new Date(clock().getTime() + delay);
      if (await finishTask(database.db, claim, { status: 'retry', runAt, error: describe(outcome.error), interrupted })) {
        log.info(
          { taskId: task.id, kind: task.kind, attempt: task.attempts, retryInMs: delay, err: outcome.error },
          'task failed; will retry',
        );
      }
      return;
    }
    return fail(task, claim, record, outcome.error, handler, context, interrupted);
  }

  function launch(task: ClaimedTask): void {
    const entry: Running = { task, controller: new AbortController(), reason: null, promise: Promise.resolve() };
    running.set(task.id, entry);
    entry.promise = runTask(task, entry)
      .catch((error: unknown) => {
        // Marking failed (the database is unreachable): the lease expires and the task runs again.
        log.error({ taskId: task.id, kind: task.kind, err: error }, 'could not record the outcome of a task');
      })
      .finally(() => {
        running.delete(task.id);
        wake(); // a slot is free
      });
  }

  // --- the loop -------------------------------------------------------------------------------

  let nextCleanupAt = 0;
  async function cleanup(): Promise<void> {
    if (performance.now() < nextCleanupAt) return;
    try {
      const deleted = await deleteDoneTasks(database, new Date(clock().getTime() - retentionMs), CLEANUP_BATCH);
      if (deleted > 0) log.debug({ deleted }, 'deleted old done tasks');
      // A full batch: there may be more; delete the next batch on the next turn of the loop.
      nextCleanupAt = deleted >= CLEANUP_BATCH ? 0 : performance.now() + CLEANUP_EVERY_MS;
    } catch (error) {
      log.warn({ err: error }, 'could not delete old done tasks');
      nextCleanupAt = performance.now() + CLEANUP_EVERY_MS;
    }
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopping) {
      wakePending = false;
      await cleanup();
      let failed = false;
      while (!stopping && running.size < concurrency) {
        let task: ClaimedTask | null;
        try {
          task = await claimNext(database, workerId, clock(), leaseMs);
          failures = 0;
        } catch (error) {
          failures++;
          failed = true;
          log.error({ err: error }, 'could not claim a task');
          break;
        }
        if (!task) break;
        launch(task);
      }
      if (stopping) break;
      if (failed) await sleep(Math.min(5_000, pollMs * 2 ** Math.min(failures, 6)));
      else if (!wakePending) await sleep(pollMs);
    }
  }

  log.info(
    { workerId, concurrency, leaseSeconds: leaseMs / 1000, kinds: registry.handlers.map((h) => h.kind), listen: listener !== null },
    'worker started',
  );
  const looping = loop();

  let stopped: Promise<void> | null = null;
  return {
    id: workerId,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake();
        unsubscribe();
        await Promise.all([looping, listener?.close()]);
        if (running.size > 0) log.info({ running: running.size }, 'worker stopping: waiting for running tasks');
        // The whole stop takes graceMs at most: handlers may finish during the first 70%, then
        // their signal is aborted (a handler that throws then queues its task again); at the end
        // a task still running is queued again by force, so that a restarted worker takes it at
        // once instead of waiting out its lease.
        const all = Promise.all([...running.values()].map((entry) => entry.promise));
        let abortTimer: ReturnType<typeof setTimeout> | undefined;
        let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
        const finished = await Promise.race([
          all.then(() => true),
          new Promise<false>((resolve) => {
            abortTimer = setTimeout(
              () => {
                for (const entry of running.values()) {
                  if (entry.reason) continue;
                  entry.reason = 'stopping';
                  entry.controller.abort(new WorkerStoppingError());
                }
              },
              Math.floor(graceMs * 0.7),
            );
            deadlineTimer = setTimeout(() => resolve(false), graceMs);
          }),
        ]);
        clearTimeout(abortTimer);
        clearTimeout(deadlineTimer);
        if (!finished) {
          const left = [...running.values()].filter((entry) => entry.reason !== 'lease-lost');
          log.warn(
            { taskIds: left.map((entry) => entry.task.id) },
            'worker stopping: handlers ignored the abort; queuing their tasks again',
          );
          await Promise.all(
            left.map(async (entry) => {
              entry.reason = 'released';
              const { id, lockedBy, attempts } = entry.task;
              try {
                await finishTask(database.db, { id, lockedBy, attempts }, { status: 'release', now: clock() });
              } catch (error) {
                // Left to its lease: another worker (or this one restarted) takes it over then.
                log.error({ taskId: id, err: error }, 'could not queue an interrupted task again');
              }
            }),
          );
        }
        log.info({ workerId }, 'worker stopped');
      })();
      return stopped;
    },
  };
}

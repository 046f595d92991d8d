/**
 * How long `npm start` takes to listen (docs/performance.md, "Start time"). Prints, asserts nothing.
 * Run: `npx tsx bench/start.bench.ts [--runs N] [--cwd <project folder>] [-- <arguments for npm start>]`.
 *
 * Each run spawns `npm start` in the project folder (default: this one) on SQLite, with a data
 * folder of its own made for this benchmark, on a free loopback port, and reports the time from
 * the spawn to the log line "Server listening at …" and to the first /health answer, and (Linux) the
 * CPU time its processes had used by then (npm, the shell, tsc when it builds, the server), which
 * other work on the machine changes less than the wall time. Then it sends SIGTERM to npm, as a
 * process manager would, and reports how npm ended and whether the server was left running. The first run starts on an empty data folder
 * (migrations, first admin); the others reuse it, as a restart does. What `npm start` builds
 * depends on the state of dist/ in that folder: the caller prepares it (a fresh clone, an edit).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const passThrough = args.includes('--') ? args.slice(args.indexOf('--') + 1) : [];
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 && (passThrough.length === 0 || at < args.indexOf('--')) ? args[at + 1] : undefined;
};
const runs = Number(option('--runs') ?? 5);
const cwd = resolve(option('--cwd') ?? '.');
const dataDir = mkdtempSync(join(tmpdir(), 'opentms-start-bench-'));

interface Run {
  listeningMs: number;
  healthMs: number;
  /** CPU seconds (user + system) of the process group when it listened, children it waited for included; null off Linux. */
  cpuSeconds: number | null;
  /** How `npm start` ended after SIGTERM: its exit code, or the signal that killed it. */
  ended: string;
  /** Whether a process of its group (the server) was still running 10 s after SIGTERM. */
  leftRunning: boolean;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Whether any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Linux: CPU seconds used so far by the processes of group `pgid` and the children they reaped. */
function groupCpuSeconds(pgid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after "(comm) ": state ppid pgrp … utime(14) stime cutime cstime(17), counted from 1.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    ticks += [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  }
  return ticks / 100; // USER_HZ, 100 on Linux
}

function startOnce(): Promise<Run> {
  const began = performance.now();
  // A process group of its own, so that whatever npm leaves behind can be found and killed.
  const child = spawn('npm', ['start', ...(passThrough.length ? ['--', ...passThrough] : [])], {
    cwd,
    detached: true,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      OPENTMS_DATA_DIR: dataDir,
      OPENTMS_ADMIN_PASSWORD: 'bench-admin-password',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pgid = child.pid!;
  const exited = new Promise<string>((done) => child.on('exit', (code, signal) => done(code === null ? String(signal) : String(code))));
  let listening = false;
  const stop = async (): Promise<Pick<Run, 'ended' | 'leftRunning'>> => {
    child.kill('SIGTERM'); // to npm only, as a process manager does
    const ended = await Promise.race([exited, sleep(10_000).then(() => 'still running after 10 s')]);
    for (let waited = 0; waited < 10_000 && groupAlive(pgid); waited += 100) await sleep(100);
    const leftRunning = groupAlive(pgid);
    if (leftRunning) process.kill(-pgid, 'SIGKILL');
    while (groupAlive(pgid)) await sleep(50);
    return { ended, leftRunning };
  };
  return new Promise<Run>((done, fail) => {
    const deadline = setTimeout(() => {
      process.kill(-pgid, 'SIGKILL');
      fail(new Error('not listening within 180 s'));
    }, 180_000);
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
        if (!port || listening) continue;
        listening = true;
        const listeningMs = performance.now() - began;
        const cpuSeconds = groupCpuSeconds(pgid);
        clearTimeout(deadline);
        void fetch(`http://127.0.0.1:${port}/health`)
          .then(async (response) => {
            const healthMs = performance.now() - began;
            if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
            done({ listeningMs, healthMs, cpuSeconds, ...(await stop()) });
          })
          .catch(fail);
      }
    });
    void exited.then((how) => {
      if (!listening) fail(new Error(`npm start ended (${how}) before it listened`));
    });
  });
}

const results: Run[] = [];
try {
  console.log(`npm start${passThrough.length ? ` -- ${passThrough.join(' ')}` : ''} in ${cwd}, ${runs} runs, SQLite in ${dataDir}`);
  for (let i = 0; i < runs; i++) {
    const run = await startOnce();
    results.push(run);
    const what = i === 0 ? 'empty data folder' : 'restart';
    console.log(
      `run ${i + 1} (${what.padEnd(17)}) listening after ${(run.listeningMs / 1000).toFixed(2).padStart(6)} s, ` +
        `/health after ${(run.healthMs / 1000).toFixed(2).padStart(6)} s, ` +
        `CPU ${run.cpuSeconds === null ? 'n/a' : `${run.cpuSeconds.toFixed(2).padStart(5)} s`}; after SIGTERM npm ended: ${run.ended}` +
        (run.leftRunning ? ', the server was LEFT RUNNING (killed)' : ''),
    );
  }
  const restarts = results.slice(1);
  if (restarts.length) {
    const summary = (values: number[]) => {
      values.sort((a, b) => a - b);
      const median = values[Math.floor(values.length / 2)]!;
      return `median ${median.toFixed(2)} s, min ${values[0]!.toFixed(2)} s, max ${values[values.length - 1]!.toFixed(2)} s`;
    };
    console.log(`restarts: listening ${summary(restarts.map((r) => r.listeningMs / 1000))}`);
    if (restarts.every((r) => r.cpuSeconds !== null)) console.log(`restarts: CPU ${summary(restarts.map((r) => r.cpuSeconds!))}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

// @ts-check
/**
 * The production build: `tsc -p tsconfig.build.json` (incremental, its state in
 * dist/.tsbuildinfo) to dist/, then a stamp (dist/.build-stamp) holding a hash of what the build
 * was made from: every file under src/ but the tests, package.json and both tsconfigs. `npm start`
 * (scripts/start.mjs) compares that hash with the sources' and builds only when they differ, so an
 * edited file or a pull is always built and an unchanged tree starts without tsc.
 *
 *   node scripts/build.mjs                 build (npm run build); exits with tsc's code on an error
 *   node scripts/build.mjs --if-possible   the install-time build (npm's `prepare`): a missing
 *                                          TypeScript or a failed build is a warning, not a failed
 *                                          install; `npm start` tries again and shows the errors
 *
 * Plain JavaScript on purpose: it runs before anything is compiled, and without tsx.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the stamp's meaning changes, so that every existing dist/ is rebuilt once. */
const STAMP_VERSION = 1;

/** The build's folders and files for the project in `root` (a parameter so that tests can use a scratch project). */
export function buildPaths(root = resolve(dirname(fileURLToPath(import.meta.url)), '..')) {
  const dist = join(root, 'dist');
  return {
    root,
    src: join(root, 'src'),
    dist,
    main: join(dist, 'main.js'),
    stamp: join(dist, '.build-stamp'),
    lock: join(dist, '.build-lock'),
    /** Besides src/: what changes the emitted JavaScript (compiler options; "type" decides ESM). */
    inputs: ['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((name) => join(root, name)),
  };
}

/** @typedef {ReturnType<typeof buildPaths>} BuildPaths */

/**
 * Files under `folder` (recursively, sorted, as paths relative to `root`), tests left out.
 *
 * @param {string} root
 * @param {string} folder
 */
function sourceFiles(root, folder) {
  /** @type {string[]} */
  const files = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(root, path));
    else if (entry.isFile() && !entry.name.endsWith('.test.ts')) files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

/**
 * The sources' fingerprint: the sha-256 of every input's path and content. Content, not
 * modification times: a checkout, a copy that keeps old times, or an edit undone all count right.
 * About 10 ms for this project's 1.6 MB of sources.
 *
 * @param {BuildPaths} paths
 * @returns {{ hash: string, sources: string[] }}
 */
export function fingerprint(paths) {
  const sources = existsSync(paths.src) ? sourceFiles(paths.root, paths.src) : [];
  const all = [...sources, ...paths.inputs.filter((file) => existsSync(file)).map((file) => relative(paths.root, file))];
  const sha256 = (/** @type {string | Buffer} */ data) => createHash('sha256').update(data).digest('hex');
  const lines = all.map((file) => `${file}\0${sha256(readFileSync(join(paths.root, file)))}\n`);
  return { hash: sha256(`opentms build stamp ${STAMP_VERSION}\n${lines.join('')}`), sources };
}

/**
 * @param {BuildPaths} paths
 * @returns {{ hash: string, sources: string[] } | null}
 */
function readStamp(paths) {
  try {
    const stamp = JSON.parse(readFileSync(paths.stamp, 'utf8'));
    return typeof stamp.hash === 'string' && Array.isArray(stamp.sources) ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Whether dist/ was built from the sources as they are now. A tree without src/ (dist/ shipped
 * alone) counts as current.
 *
 * @param {BuildPaths} paths
 */
export function isCurrent(paths) {
  if (!existsSync(paths.main)) return false;
  if (!existsSync(paths.src)) return true;
  return readStamp(paths)?.hash === fingerprint(paths).hash;
}

const sleep = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/** Whether process `pid` still runs. @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/** A build takes well under a minute; a lock this old is left over (its pid perhaps reused). */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * Runs `work` holding dist/.build-lock, so that two starts at once (`--role=api` and
 * `--role=worker` after a pull) never run tsc over each other nor load a half-written dist/. A
 * lock whose process is gone, or older than ten minutes, is taken over.
 *
 * @template T
 * @param {BuildPaths} paths
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withBuildLock(paths, work) {
  mkdirSync(paths.dist, { recursive: true });
  let said = false;
  for (;;) {
    let fd;
    try {
      fd = openSync(paths.lock, 'wx');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      let holder = NaN;
      let since = Date.now();
      try {
        holder = Number(readFileSync(paths.lock, 'utf8').trim() || NaN); // empty for a moment after it is made
        since = statSync(paths.lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if ((Number.isInteger(holder) && !alive(holder)) || Date.now() - since > STALE_LOCK_MS) {
        rmSync(paths.lock, { force: true });
        continue;
      }
      if (!said) process.stderr.write(`opentms: waiting for the build that process ${holder} runs\n`);
      said = true;
      await sleep(200);
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    try {
      return await work();
    } finally {
      rmSync(paths.lock, { force: true });
    }
  }
}

/**
 * Runs tsc, its messages on stderr (stdout carries the server's JSON log lines). SIGINT and
 * SIGTERM during the build stop tsc, and then this process by the same signal.
 *
 * @param {BuildPaths} paths
 * @returns {Promise<number>} tsc's exit code; -1 when TypeScript is not installed
 */
function runTsc(paths) {
  let tsc;
  try {
    tsc = createRequire(join(paths.root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return Promise.resolve(-1);
  }
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: paths.root, stdio: ['ignore', 2, 2] });
  /** @type {NodeJS.Signals | null} */
  let stoppedBy = null;
  const forward = (/** @type {NodeJS.Signals} */ signal) => {
    stoppedBy = signal;
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((done) => {
    child.on('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (stoppedBy) process.kill(process.pid, stoppedBy);
      else done(code ?? 1);
    });
  });
}

/**
 * Builds dist/ and stamps it. Unless `force`, does nothing when dist/ is current (checked again
 * under the lock: another process may have just built it). The outputs of deleted sources are
 * removed, so dist/ holds only what src/ has.
 *
 * @param {BuildPaths} paths
 * @param {{ force?: boolean, reason?: string }} [options]
 * @returns {Promise<number>} 0, tsc's exit code, or -1 when TypeScript is not installed
 */
export function build(paths, { force = false, reason } = {}) {
  return withBuildLock(paths, async () => {
    if (!force && isCurrent(paths)) return 0;
    // Fingerprinted before tsc reads the files: an edit during the build leaves a stale stamp
    // (and another build next time), never a current stamp over old output.
    const now = fingerprint(paths);
    const before = readStamp(paths);
    rmSync(paths.stamp, { force: true });
    if (reason) process.stderr.write(`opentms: ${reason}; building dist/ (tsc -p tsconfig.build.json)\n`);
    const began = performance.now();
    const code = await runTsc(paths);
    if (code !== 0) return code;
    for (const gone of (before?.sources ?? []).filter((file) => !now.sources.includes(file))) {
      const output = join(paths.dist, relative(paths.src, join(paths.root, gone)));
      const outputs = output.endsWith('.ts') ? [output.replace(/\.ts$/, '.js'), output.replace(/\.ts$/, '.js.map')] : [output];
      for (const file of outputs) rmSync(file, { force: true });
    }
    writeFileSync(paths.stamp, `${JSON.stringify({ hash: now.hash, sources: now.sources })}\n`);
    if (reason) process.stderr.write(`opentms: built in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
    return 0;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const ifPossible = process.argv.includes('--if-possible');
  const code = await build(buildPaths(), { force: true });
  if (code === -1) {
    process.stderr.write(
      ifPossible
        ? 'opentms: TypeScript is not installed, dist/ not built (npm start builds it once TypeScript is installed)\n'
        : 'opentms: TypeScript is not installed: run npm install (without --omit=dev)\n',
    );
    process.exitCode = ifPossible ? 0 : 1;
  } else if (code !== 0) {
    if (ifPossible) process.stderr.write('opentms: the build failed (messages above); npm start will build again\n');
    process.exitCode = ifPossible ? 0 : code;
  }
}

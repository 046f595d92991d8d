// @ts-check
/**
 * `npm start`: runs dist/main.js in this process, after building dist/ if it was not built from
 * the sources as they are now (scripts/build.mjs: a hash of src/, package.json and the tsconfigs
 * against the stamp the last build wrote). An unchanged tree starts without tsc; an edit or a
 * pull is built (incrementally) before it runs, so a start never runs stale code.
 *
 * main.js is imported, not spawned: its arguments (`npm start -- --role=api`) are this process's,
 * SIGTERM and SIGINT reach its handlers directly, and its exit code is this process's.
 */
import { build, buildPaths, isCurrent } from './build.mjs';

const paths = buildPaths();
if (!isCurrent(paths)) {
  const code = await build(paths, { reason: 'dist/ is missing or older than the sources' });
  if (code !== 0) {
    process.stderr.write(
      code === -1
        ? 'opentms: cannot build dist/: TypeScript is not installed (run npm install, without --omit=dev)\n'
        : 'opentms: the build failed (messages above); not starting\n',
    );
    process.exit(code === -1 ? 1 : code);
  }
}
await import(new URL('../dist/main.js', import.meta.url).href);

/**
 * Where a server's time goes, from a V8 CPU profile (`node --cpu-prof`, e.g. written by
 * `BENCH_CPU_PROF=<dir> npx tsx bench/api.bench.ts`; docs/performance.md). Prints self and
 * inclusive time grouped by package and area (kysely's query building, compilation, plugins and
 * execution; better-sqlite3's prepare and statement runs; pg; fastify's routing, validation,
 * serialization and hooks; our own code by folder; node internals; GC and idle), then the top
 * functions by self time and our own functions by inclusive time. Percentages are of non-idle time.
 *
 * Run: `npx tsx bench/profile-summary.ts <file.cpuprofile> [--top N] [--all]`. When
 * `<file>.window.json` (written by the API bench) is beside the profile, only the samples of the
 * measured runs count (start-up, seeding and warm-up left out); `--all` counts every sample.
 *
 * How to read it:
 * - V8 samples the main thread about once a millisecond of wall time while it is not idle, so
 *   time the thread spends inside a system call (a socket write) or waiting to be scheduled again
 *   counts where it happened. On a busy 2-core machine that is not pure CPU time.
 * - Native (C++) functions called from JavaScript show up as frames of their own only sometimes;
 *   otherwise their time is the self time of the JavaScript function that called them. That is
 *   why better-sqlite3's `prepare` wrapper and our `all`/`run`/`iterate` wrappers in
 *   src/db/database.ts and src/db/sqlite-statements.ts carry the native prepare and statement-run time.
 * - Inclusive time follows synchronous stacks: code after an `await` runs from the microtask
 *   queue, so an async function's callers do not include what their callee did after its first
 *   await. Self time has no such caveat.
 */
import { existsSync, readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface MeasuredWindow {
  target: string;
  connections: number;
  fromMicros: number;
  toMicros: number;
}

// ---------------------------------------------------------------------------------------------
// Areas: which part of the stack a frame belongs to
// ---------------------------------------------------------------------------------------------

const IDLE = 'idle';
const NATIVE = 'V8 and native code outside JavaScript';
/** A frame whose area is that of its caller (helpers, native functions, generated code). */
const INHERIT = null;

/** The package a node_modules URL belongs to (`@scope/name` or `name`), and the path inside it. */
function packageOf(url: string): { name: string; path: string } | null {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  return match ? { name: match[1]!, path: match[2]! } : null;
}

function kyselyArea(path: string): string | typeof INHERIT {
  const inside = path.replace(/^dist\/(esm|cjs)\//, '');
  if (inside.startsWith('plugin/') || inside === 'operation-node/operation-node-transformer.js')
    return 'kysely: CamelCase plugin (query nodes and rows)';
  if (inside.startsWith('query-compiler/') || /-query-compiler\.js$/.test(inside) || inside === 'operation-node/operation-node-visitor.js')
    return 'kysely: compiling SQL text';
  // Node factories (`freeze`, `QueryNode.cloneWithWhere`, …) serve the builders and the plugin's
  // transformer alike: their time belongs to whoever calls them.
  if (inside.startsWith('util/') || inside.startsWith('operation-node/')) return INHERIT;
  if (inside.startsWith('driver/') || inside.startsWith('query-executor/') || /-(driver|adapter)\.js$/.test(inside))
    return 'kysely: execution (executor, driver, connection)';
  if (inside.startsWith('migration/')) return 'kysely: other';
  return 'kysely: query building (builders, parsers, nodes)';
}

function fastifyArea(name: string, path: string, functionName: string): string | typeof INHERIT {
  if (name === 'find-my-way') return 'fastify: routing (find-my-way)';
  if (name === 'ajv' || name === 'ajv-formats' || path === 'lib/validation.js') return 'fastify: validation (ajv)';
  if (name === 'fast-json-stringify' || path === 'lib/schemas.js' || (path === 'lib/reply.js' && /serializ/i.test(functionName)))
    return 'fastify: serialization';
  if (path === 'lib/hooks.js' || path === 'lib/wrap-thenable.js') return 'fastify: hooks';
  if (path === 'lib/logger-factory.js') return 'logging (pino)';
  return 'fastify: request and reply lifecycle';
}

const FASTIFY_PACKAGES = new Set([
  'fastify',
  'find-my-way',
  'ajv',
  'ajv-formats',
  'fast-json-stringify',
  'fast-uri',
  'avvio',
  'toad-cache',
  'fast-querystring',
  'secure-json-parse',
  'light-my-request',
  'json-schema-ref-resolver',
]);
const PG_PACKAGES: Record<string, string> = {
  pg: 'pg: client (queries, rows to objects)',
  'pg-pool': 'pg: pool',
  'pg-protocol': 'pg: protocol (parsing and writing messages)',
  'pg-types': 'pg: type parsing',
  'postgres-date': 'pg: type parsing',
  'postgres-array': 'pg: type parsing',
  'postgres-bytea': 'pg: type parsing',
  'postgres-interval': 'pg: type parsing',
};

function nodeArea(url: string): string {
  const module = url.slice('node:'.length);
  if (/^(_http_|http$|internal\/http)/.test(module)) return 'node: http';
  if (/^(net$|stream$|internal\/stream_base_commons|internal\/streams\/)/.test(module)) return 'node: net and streams';
  if (/^(crypto$|internal\/crypto\/)/.test(module)) return 'node: crypto';
  if (/^(events$|timers$|internal\/timers|internal\/process\/task_queues|internal\/process\/promises|internal\/async_hooks)/.test(module))
    return 'node: event loop, timers, events';
  if (module === 'buffer' || module === 'internal/buffer') return 'node: buffer';
  return 'node: other';
}

/** Our own code (dist/… of this or any checkout): the source folder it comes from. */
function ownArea(url: string): string | null {
  if (url.includes('/node_modules/')) return null;
  const match = /\/dist\/(.+)\.js$/.exec(url);
  if (!match) return null;
  const parts = match[1]!.split('/');
  if (parts.length === 1) return 'src: main, app, config';
  if (parts[0] === 'modules') return `src/modules/${parts[1]}`;
  return `src/${parts[0]}`;
}

/** Native functions (no script) that are worth a line of their own rather than their caller's. */
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

function areaOf(frame: CallFrame): string | typeof INHERIT {
  const { functionName, url, scriptId } = frame;
  if (functionName === '(idle)') return IDLE;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(root)') return NATIVE;
  if (url === '') {
    if (scriptId === '0' && SOCKET_WRITES.has(functionName)) return 'node: socket writes (system call)';
    // Generated code: ajv's validators are named validateN; serializers inherit from fastify's serialize.
    if (scriptId !== '0' && /^validate\d*$/.test(functionName)) return 'fastify: validation (ajv)';
    return INHERIT;
  }
  if (url.startsWith('node:')) return nodeArea(url);
  const own = ownArea(url);
  if (own) {
    // The SQLite statement wrappers (src/db/database.ts, src/db/sqlite-statements.ts) call better-sqlite3's native all/run/iterate.
    if (own === 'src/db' && /\/(database|sqlite-statements)\.js$/.test(url) && ['all', 'run', 'iterate'].includes(functionName))
      return 'better-sqlite3: running statements (native step, rows)';
    return own;
  }
  const pkg = packageOf(url);
  if (!pkg) return 'other';
  if (pkg.name === 'kysely') return kyselyArea(pkg.path);
  if (pkg.name === 'better-sqlite3')
    return functionName === 'prepare' ? 'better-sqlite3: prepare (native SQL compilation)' : 'better-sqlite3: other';
  if (PG_PACKAGES[pkg.name]) return PG_PACKAGES[pkg.name]!;
  if (FASTIFY_PACKAGES.has(pkg.name)) return fastifyArea(pkg.name, pkg.path, functionName);
  if (pkg.name.startsWith('@fastify/')) return `fastify plugin: ${pkg.name}`;
  if (pkg.name === 'pino' || pkg.name.startsWith('pino-') || pkg.name === 'sonic-boom') return 'logging (pino)';
  return `package: ${pkg.name}`;
}

/** The group of an area, for the short table: the text before the first colon. */
const groupOf = (area: string) => area.split(':')[0]!;

// ---------------------------------------------------------------------------------------------
// Weighing the samples
// ---------------------------------------------------------------------------------------------

interface Weighed {
  /** microseconds per profile node, from the samples that landed on it */
  selfByNode: Map<number, number>;
  total: number;
  window: string;
}

/**
 * Each sample stands for the time until the next one (the interval V8 measured), and counts only
 * when it lies inside one of `windows` (all samples when there are none).
 */
function weighSamples(profile: CpuProfile, windows: MeasuredWindow[] | null): Weighed {
  const selfByNode = new Map<number, number>();
  let total = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (windows && !windows.some((w) => at >= w.fromMicros && at <= w.toMicros)) continue;
    const weight = profile.timeDeltas[i + 1] ?? 0;
    const node = profile.samples[i]!;
    selfByNode.set(node, (selfByNode.get(node) ?? 0) + weight);
    total += weight;
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const window = windows
    ? `${windows.map((w) => `${w.target} at ${w.connections} connections, ${((w.toMicros - w.fromMicros) / 1e6).toFixed(1)} s`).join('; ')} (of ${seconds.toFixed(1)} s profiled)`
    : `the whole profile, ${seconds.toFixed(1)} s`;
  return { selfByNode, total, window };
}

// ---------------------------------------------------------------------------------------------
// Summing up
// ---------------------------------------------------------------------------------------------

interface Summary {
  nonIdle: number;
  idle: number;
  selfByArea: Map<string, number>;
  inclusiveByArea: Map<string, number>;
  /** per function: its self time in each area (a helper serves several) */
  selfByFunction: Map<string, Map<string, number>>;
  ownInclusiveByFunction: Map<string, number>;
}

const add = <K>(map: Map<K, number>, key: K, value: number) => map.set(key, (map.get(key) ?? 0) + value);

function functionKey(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${file || '(native)'}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
}

function summarise(profile: CpuProfile, weighed: Weighed): Summary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  // A node's area, inheriting its caller's where it has none of its own (parents come first: V8
  // lists nodes depth-first, but resolve recursively rather than rely on that).
  const resolved = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = resolved.get(id);
    if (known) return known;
    const own = areaOf(byId.get(id)!.callFrame);
    const parent = parentOf.get(id);
    const area = own ?? (parent === undefined ? NATIVE : resolve(parent));
    resolved.set(id, area);
    return area;
  };

  const summary: Summary = {
    nonIdle: 0,
    idle: 0,
    selfByArea: new Map(),
    inclusiveByArea: new Map(),
    selfByFunction: new Map(),
    ownInclusiveByFunction: new Map(),
  };
  for (const [id, time] of weighed.selfByNode) {
    const area = resolve(id);
    if (area === IDLE) {
      summary.idle += time;
      continue;
    }
    summary.nonIdle += time;
    add(summary.selfByArea, area, time);
    const key = functionKey(byId.get(id)!.callFrame);
    const areas = summary.selfByFunction.get(key) ?? new Map<string, number>();
    add(areas, area, time);
    summary.selfByFunction.set(key, areas);

    // Inclusive: every area and every own function on the stack counts once per sample.
    // The root frame is on every stack and says nothing.
    const onStack = new Set<string>();
    const ownFunctions = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.functionName === '(root)') continue;
      const frameArea = resolve(at);
      onStack.add(frameArea);
      onStack.add(`${groupOf(frameArea)} (all)`);
      if (ownArea(frame.url)) ownFunctions.add(functionKey(frame));
    }
    for (const area of onStack) add(summary.inclusiveByArea, area, time);
    for (const key of ownFunctions) add(summary.ownInclusiveByFunction, key, time);
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

const ms = (micros: number) => (micros / 1000).toFixed(0);
const pct = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '—');

/** A text table: the first column (and `textColumns`) left-aligned, figures right-aligned. */
function printRows(header: string[], rows: string[][], textColumns: number[] = []): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const left = (i: number) => i === 0 || textColumns.includes(i);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function printSummary(summary: Summary, top: number): void {
  const { nonIdle } = summary;
  const groups = new Map<string, number>();
  for (const [area, time] of summary.selfByArea) add(groups, groupOf(area), time);

  console.log('\nBy group (self time; inclusive = the group anywhere on the synchronous stack)');
  printRows(
    ['group', 'self ms', 'self', 'inclusive'],
    [...groups]
      .sort((a, b) => b[1] - a[1])
      .map(([group, time]) => [group, ms(time), pct(time, nonIdle), pct(summary.inclusiveByArea.get(`${group} (all)`) ?? 0, nonIdle)]),
  );

  console.log('\nBy area');
  printRows(
    ['area', 'self ms', 'self', 'inclusive'],
    [...summary.selfByArea]
      .sort((a, b) => b[1] - a[1])
      .map(([area, time]) => [area, ms(time), pct(time, nonIdle), pct(summary.inclusiveByArea.get(area) ?? 0, nonIdle)]),
  );

  console.log(`\nTop ${top} functions by self time`);
  const functions = [...summary.selfByFunction].map(([key, areas]) => {
    const [area] = [...areas].sort((a, b) => b[1] - a[1])[0]!;
    const time = [...areas.values()].reduce((a, b) => a + b, 0);
    return { key, time, area: areas.size > 1 ? `${area} (mostly)` : area };
  });
  printRows(
    ['function', 'self ms', 'self', 'area'],
    functions
      .sort((a, b) => b.time - a.time)
      .slice(0, top)
      .map(({ key, time, area }) => [key, ms(time), pct(time, nonIdle), area]),
    [3],
  );

  console.log(`\nOur own functions, top ${top} by inclusive time (synchronous stacks only)`);
  printRows(
    ['function', 'inclusive ms', 'inclusive'],
    [...summary.ownInclusiveByFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, time]) => [key, ms(time), pct(time, nonIdle)]),
  );
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function parseArguments(args: string[]): { file: string; top: number; all: boolean } {
  let file: string | undefined;
  let top = 15;
  let all = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--all') all = true;
    else if (arg === '--top') top = Number(args[++i]);
    else if (!file) file = arg;
    else throw new Error(`unexpected argument "${arg}"`);
  }
  if (!file || !Number.isInteger(top) || top < 1)
    throw new Error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top N] [--all]');
  return { file, top, all };
}

function main(): void {
  const { file, top, all } = parseArguments(process.argv.slice(2));
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const windowFile = file.replace(/\.cpuprofile$/, '.window.json');
  const windows =
    !all && windowFile !== file && existsSync(windowFile)
      ? (JSON.parse(readFileSync(windowFile, 'utf8')) as { measured: MeasuredWindow[] }).measured
      : null;

  const weighed = weighSamples(profile, windows);
  const summary = summarise(profile, weighed);
  console.log(`profile: ${file}`);
  console.log(`counted: ${weighed.window}`);
  console.log(
    `wall time ${ms(weighed.total)} ms: idle ${ms(summary.idle)} ms (${pct(summary.idle, weighed.total)}), ` +
      `non-idle ${ms(summary.nonIdle)} ms (${pct(summary.nonIdle, weighed.total)}); the percentages below are of non-idle time`,
  );
  printSummary(summary, top);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}

/**
 * How much of the published Phrase TMS API does OpenTMS route?  `npm run api:coverage`
 *
 *   npm run api:coverage                 table per tag and per source
 *   npm run api:coverage -- --missing    also list the operations not routed yet
 *   npm run api:coverage -- --json       the same as JSON, for tools
 *
 * The list of operations is `../shared/spec/operations.tsv` (never copied into the project); in a
 * clone without it the script says so and exits 0. The service's routes come from the real app,
 * built on an in-memory database, so the report cannot drift from what the service answers.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localBlobStore } from '../src/storage/blob-store.js';
import { readFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTaskWakeup } from '../src/queue/types.js';
import { normalizePath } from '../src/http/route-registry.js';
import { sharedSpecDisplayPath, sharedSpecPath } from '../test/contract/shared-dir.js';

const OPERATIONS_FILE = 'operations.tsv';

/** One row of operations.tsv. */
interface PublishedOperation {
  method: string;
  path: string;
  tag: string;
  operationId: string;
  /** Where the operation was published: `spec-2024` (the YAML), `2025` (newer docs), `seed`. */
  source: string;
  summary: string;
}

interface ServiceRoute {
  method: string;
  url: string;
  operationId: string | undefined;
}

interface Tally {
  name: string;
  routed: number;
  total: number;
}

interface Report {
  routed: number;
  total: number;
  byTag: Tally[];
  bySource: Tally[];
  /** Published operations the service does not route. */
  missing: PublishedOperation[];
  /** Routes under /api2 or /idm that operations.tsv does not list. */
  extensions: ServiceRoute[];
}

// --- Inputs ---------------------------------------------------------------------------------

/** operations.tsv: a header line naming the columns, then one operation per line. */
function readOperations(file: string): PublishedOperation[] {
  const [header, ...lines] = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const columns = (header ?? '').split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    const cell = (name: string) => cells[columns.indexOf(name)]?.trim() ?? '';
    return {
      method: cell('method').toUpperCase(),
      path: cell('path'),
      tag: cell('tag'),
      operationId: cell('operationId'),
      source: cell('source'),
      summary: cell('summary'),
    };
  });
}

/** Every route of the real app, built as main.ts would but on a throwaway in-memory database. */
async function readServiceRoutes(): Promise<ServiceRoute[]> {
  const database = openDatabase({ kind: 'sqlite', path: ':memory:' });
  try {
    await migrateToLatest(database);
    const app = await buildApp(
      {
        config: loadConfig({}),
        database,
        clock: () => new Date(),
        taskWakeup: createTaskWakeup(),
        blobs: localBlobStore(join(tmpdir(), 'opentms-coverage-blobs')),
      },
      { logger: false },
    );
    const routes = app.registeredRoutes.map(({ method, url, operationId }) => ({ method, url, operationId }));
    await app.close();
    return routes;
  } finally {
    await database.close();
  }
}

// --- Matching -------------------------------------------------------------------------------

/**
 * `GET /api2/v1/users/{}`: the same key for the spec's `{userUid}` and Fastify's `:userUid`.
 * The service answers every operation at `/api2` and again at `/web/api2`; both count as one.
 */
function operationKey(method: string, path: string): string {
  const withoutWeb = path.startsWith('/web/') ? path.slice('/web'.length) : path;
  return `${method.toUpperCase()} ${normalizePath(withoutWeb)}`;
}

/** Paths where Phrase TMS operations live; other routes (health, docs) are not extensions of it. */
function isApiPath(url: string): boolean {
  const path = url.startsWith('/web/') ? url.slice('/web'.length) : url;
  return path.startsWith('/api2/') || path.startsWith('/idm/');
}

function buildReport(operations: PublishedOperation[], routes: ServiceRoute[]): Report {
  const routedKeys = new Set(routes.map((route) => operationKey(route.method, route.url)));
  const publishedKeys = new Set(operations.map((operation) => operationKey(operation.method, operation.path)));
  const isRouted = (operation: PublishedOperation) => routedKeys.has(operationKey(operation.method, operation.path));

  const extensions = new Map<string, ServiceRoute>();
  for (const route of routes) {
    const key = operationKey(route.method, route.url);
    if (isApiPath(route.url) && !publishedKeys.has(key) && !extensions.has(key)) {
      extensions.set(key, { ...route, url: route.url.replace(/^\/web\//, '/') });
    }
  }

  return {
    routed: operations.filter(isRouted).length,
    total: operations.length,
    byTag: tally(operations, (operation) => operation.tag, isRouted),
    bySource: tally(operations, (operation) => operation.source, isRouted),
    missing: operations.filter((operation) => !isRouted(operation)).sort(byTagThenPath),
    extensions: [...extensions.values()].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method)),
  };
}

function tally(
  operations: PublishedOperation[],
  groupOf: (operation: PublishedOperation) => string,
  isRouted: (operation: PublishedOperation) => boolean,
): Tally[] {
  const groups = new Map<string, Tally>();
  for (const operation of operations) {
    const name = groupOf(operation) || '(none)';
    const group = groups.get(name) ?? { name, routed: 0, total: 0 };
    group.total += 1;
    if (isRouted(operation)) group.routed += 1;
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function byTagThenPath(a: PublishedOperation, b: PublishedOperation): number {
  return a.tag.localeCompare(b.tag) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method);
}

// --- Output ---------------------------------------------------------------------------------

function percent(routed: number, total: number): string {
  return total === 0 ? '-' : ((100 * routed) / total).toFixed(1);
}

/** A table of tallies with a total line; `label` heads the first column. */
function tallyTable(label: string, tallies: Tally[], routed: number, total: number): string[] {
  const rows = [...tallies, { name: 'Total', routed, total }].map((t) => [t.name, `${t.routed}/${t.total}`, percent(t.routed, t.total)]);
  const nameWidth = Math.max(label.length, ...rows.map((row) => row[0]!.length));
  const countWidth = Math.max('Routed/Total'.length, ...rows.map((row) => row[1]!.length));
  const line = (cells: string[]) => `${cells[0]!.padEnd(nameWidth)}  ${cells[1]!.padStart(countWidth)}  ${cells[2]!.padStart(6)}`;
  const rule = '-'.repeat(nameWidth + countWidth + 10);
  const body = rows.slice(0, -1).map(line);
  return [line([label, 'Routed/Total', '%']), rule, ...body, rule, line(rows.at(-1)!)];
}

function printText(report: Report, showMissing: boolean): void {
  const lines = [
    `Phrase TMS API coverage: ${report.routed} of ${report.total} operations routed (${percent(report.routed, report.total)}%)`,
    '',
    ...tallyTable('Tag', report.byTag, report.routed, report.total),
    '',
    ...tallyTable('Source', report.bySource, report.routed, report.total),
  ];
  if (showMissing) {
    lines.push('', `Not routed (${report.missing.length}):`);
    for (const operation of report.missing) {
      lines.push(`  ${operation.method.padEnd(6)} ${operation.path}  ${operation.operationId || '-'}  [${operation.tag}]`);
    }
  }
  lines.push('', `Routes not in ${OPERATIONS_FILE} (extensions, for information): ${report.extensions.length}`);
  for (const route of report.extensions) lines.push(`  ${route.method.padEnd(6)} ${route.url}  ${route.operationId ?? '-'}`);
  console.log(lines.join('\n'));
}

// --- Main -----------------------------------------------------------------------------------

async function main(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const file = sharedSpecPath(OPERATIONS_FILE);
  if (file === null) {
    const reason = `api coverage skipped: ${sharedSpecDisplayPath(OPERATIONS_FILE)} not found`;
    console.log(json ? JSON.stringify({ skipped: reason }) : reason);
    return;
  }
  const report = buildReport(readOperations(file), await readServiceRoutes());
  if (json) console.log(JSON.stringify(report, null, 2));
  else printText(report, args.includes('--missing'));
}

await main(process.argv.slice(2));

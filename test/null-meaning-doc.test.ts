import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullableFieldsOf } from '../src/http/json-leniency.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';

/**
 * docs/api-conventions.md, "Fields where null keeps a meaning", lists every body field whose
 * schema takes null (everywhere else a null is dropped as absent, src/http/json-leniency.ts): the
 * table must name exactly the fields the routes' body schemas let through as null.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** `METHOD /vN/path` → its fields, from the table's rows (`| operationId | METHOD path | `a`, `b` |`). */
function documentedFields(): Map<string, string[]> {
  const text = readFileSync(new URL('../docs/api-conventions.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('### Fields where null keeps a meaning'));
  const table = section.slice(0, section.indexOf('\n## '));
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || !/^(GET|POST|PUT|PATCH|DELETE) \//.test(cells[2]!)) continue;
    rows.set(
      cells[2]!,
      [...cells[3]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    );
  }
  return rows;
}

describe('the fields where null keeps a meaning', () => {
  it('are documented exactly as the body schemas declare them', () => {
    const fromSchemas = new Map<string, string[]>();
    for (const route of t.app.registeredRoutes) {
      if (!route.url.startsWith('/api2/') || route.bodySchema === undefined) continue;
      const fields = nullableFieldsOf(route.bodySchema);
      if (fields.length === 0) continue;
      const path = route.url.replace(/^\/api2/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      fromSchemas.set(`${route.method} ${path}`, fields);
    }
    const documented = documentedFields();
    expect(documented.size).toBeGreaterThan(10);
    const sorted = (map: Map<string, string[]>) => Object.fromEntries([...map].sort().map(([key, fields]) => [key, [...fields].sort()]));
    expect(sorted(documented)).toEqual(sorted(fromSchemas));
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildModuleGraph, findCycles, toMermaid } from '../scripts/module-graph.js';

/** The module graph (docs/architecture.md, "Modules and their front doors"): acyclic, and the picture in the docs is current. */
describe('module graph', () => {
  const graph = buildModuleGraph();

  it('has no cycle between modules or layers', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const edges = new Map([
      ['a/x', new Set(['a/y'])],
      ['a/y', new Set(['b/z'])],
      ['b/z', new Set(['a/x', 'db'])],
      ['db', new Set<string>()],
    ]);
    expect(findCycles({ edges, nodes: [...edges.keys()].sort() })).toEqual([['a/x', 'a/y', 'b/z']]);
  });

  it('sees every module and the imports between them', () => {
    expect(graph.nodes).toContain('translation-workflow/kernel');
    expect(graph.edges.get('translation-workflow/jobs')).toContain('translation-workflow/kernel');
    expect(graph.edges.get('main')).toContain('app');
  });

  it('is drawn as it is in docs/architecture.md (npm run graph -- --mermaid)', () => {
    const doc = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`mermaid\n${toMermaid(graph)}\n\`\`\``);
  });
});

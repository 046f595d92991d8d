/**
 * The module graph of src/: which module or layer imports which (docs/architecture.md).
 *
 *   npm run graph              the graph as text, then its cycles (none, or the script exits 1)
 *   npm run graph -- --mermaid the Mermaid diagram docs/architecture.md shows
 *
 * Nodes: each module (`src/modules/<capability>/<module>/`, named `<capability>/<module>`), each
 * layer (`src/<layer>/`, named after its folder) and each file directly in src/ (named after the
 * file). Type-only imports count: a cycle of types is a cycle of knowledge all the same. Tests
 * (`*.test.ts`) are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface ModuleGraph {
  /** Node -> the nodes it imports (never itself). */
  readonly edges: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every node, sorted. */
  readonly nodes: readonly string[];
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** The node a file of src/ belongs to. */
export function nodeOf(srcDir: string, file: string): string {
  const parts = relative(srcDir, file).split(sep);
  if (parts[0] === 'modules' && parts.length >= 4) return `${parts[1]}/${parts[2]}`;
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  return parts[0]!;
}

/** Reads every import and re-export of src/ (static and dynamic) into the graph of its nodes. */
export function buildModuleGraph(srcDir = join(REPO, 'src')): ModuleGraph {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(srcDir)) {
    const from = nodeOf(srcDir, file);
    const targets = edges.get(from) ?? new Set<string>();
    edges.set(from, targets);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = nodeOf(srcDir, resolve(dirname(file), fileName.replace(/\.js$/, '.ts')));
      if (to !== from) targets.add(to);
    }
  }
  const nodes = new Set<string>(edges.keys());
  for (const targets of edges.values()) for (const node of targets) nodes.add(node);
  return { edges, nodes: [...nodes].sort() };
}

/** The cycles of the graph: its strongly connected components of more than one node (Tarjan). */
export function findCycles(graph: ModuleGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.nodes) if (!index.has(node)) visit(node);
  return cycles;
}

const mermaidId = (node: string) => node.replace(/[^A-Za-z0-9]/g, '_');

/**
 * The graph as a Mermaid flowchart: modules grouped by capability. Edges to the layers every
 * module uses (db, errors, http, deps…) are left out, or the picture would be nothing but them.
 */
export function toMermaid(graph: ModuleGraph): string {
  const modules = graph.nodes.filter((n) => n.includes('/'));
  const capabilities = [...new Set(modules.map((m) => m.split('/')[0]!))];
  const lines = ['flowchart LR'];
  for (const capability of capabilities) {
    lines.push(`  subgraph ${mermaidId(capability)}[${capability}]`);
    for (const module of modules.filter((m) => m.startsWith(`${capability}/`))) {
      lines.push(`    ${mermaidId(module)}[${module.split('/')[1]}]`);
    }
    lines.push('  end');
  }
  for (const from of modules) {
    for (const to of [...(graph.edges.get(from) ?? [])].sort()) {
      if (to.includes('/')) lines.push(`  ${mermaidId(from)} --> ${mermaidId(to)}`);
    }
  }
  return lines.join('\n');
}

export function toText(graph: ModuleGraph): string {
  return graph.nodes.map((node) => `${node} -> ${[...(graph.edges.get(node) ?? [])].sort().join(', ') || '(nothing)'}`).join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = buildModuleGraph();
  if (process.argv.includes('--mermaid')) {
    process.stdout.write(`${toMermaid(graph)}\n`);
  } else {
    process.stdout.write(`${toText(graph)}\n\n`);
    const cycles = findCycles(graph);
    process.stdout.write(cycles.length ? cycles.map((c) => `cycle: ${c.join(' <-> ')}`).join('\n') + '\n' : 'no cycles\n');
    process.exitCode = cycles.length ? 1 : 0;
  }
}

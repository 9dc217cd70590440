import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Feature folders depend on each other in one direction only (Biome's noImportCycles checks files; this checks
 * folders): a loop such as licenses → payments → licenses means neither can be read or changed alone. Tests are
 * left out: a test may reach into any feature it exercises.
 */
const serverDir = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

const folderOf = (file: string) => path.relative(serverDir, file).split(path.sep)[0] ?? '';

/** Folder → the folders its files import (files at the top of src/server, like context.ts, compose and are skipped). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(serverDir)) {
    const from = folderOf(file);
    if (!path.relative(serverDir, file).includes(path.sep)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), specifier as string);
      if (!target.startsWith(serverDir + path.sep)) continue;
      const to = folderOf(target);
      if (to === from || !path.relative(serverDir, target).includes(path.sep)) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Groups of folders that reach each other (Tarjan's strongly connected components), larger than one folder. */
function loops(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to))
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        group.push(member);
        if (member === node) break;
      }
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('src/server folders', () => {
  it('import each other in one direction only', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(loops(graph)).toEqual([]);
  });
});

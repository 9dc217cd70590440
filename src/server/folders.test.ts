import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../../scripts/support/server-build';

/**
 * Feature folders depend on each other in one direction only (Biome's noImportCycles checks files; this checks
 * folders): a loop such as licenses → payments → licenses means neither can be read or changed alone. Type imports
 * count like any other: a loop made of types still means neither folder can be read alone. The files at the top
 * of src/server compose the app (main.ts, app.ts, compose.ts, startup.ts, jobs.ts) and are one node, `(root)`,
 * together with the command line's entry point (cli/cli.ts, the other process that composes): a feature that
 * imports the composition root closes a loop through it. kernel/ is the foundation: it imports no other folder.
 * Tests are left out: a test may reach into any feature it exercises.
 */
const serverDir = import.meta.dirname;
const ROOT = '(root)';
const entryPoints = new Set([path.resolve(serverDir, '../..', CLI_ENTRY)]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

const isDirectory = (target: string) => {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
};

/** The folder a file or an imported path belongs to; a folder's own index (`'../db'`) belongs to that folder. */
function folderOf(target: string): string {
  if (entryPoints.has(target)) return ROOT;
  const relative = path.relative(serverDir, target);
  if (relative.includes(path.sep) || isDirectory(target)) return relative.split(path.sep)[0] ?? '';
  return ROOT;
}

/** Every relative specifier a module names: value and type imports, re-exports, `import('…')` in types or code. */
function importedSpecifiers(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.[^']+)'/g)].map((match) => match[1] as string);
}

/** Folder → the folders its files import, `(root)` included. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(serverDir)) {
    const from = folderOf(file);
    for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(serverDir + path.sep)) continue;
      const to = folderOf(target.replace(/\.(ts|tsx|js)$/, ''));
      if (to === from) continue;
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
  it('import each other in one direction only, type imports and the composition root counted', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(graph.get(ROOT)?.has('kernel')).toBe(true);
    expect(loops(graph)).toEqual([]);
  });

  it('keep the foundation (kernel/) free of any feature', () => {
    expect([...(folderGraph().get('kernel') ?? [])]).toEqual([]);
  });

  it('see a loop that only type imports close', () => {
    const source = [
      "import type { AppContext } from '../kernel/context';",
      "import { type Config, loadConfig } from '../kernel/config';",
      "export type { Tool } from './shop';",
      "type Db = import('../db').Database;",
      "const lazy = () => import('./s3');",
    ].join('\n');
    expect(importedSpecifiers(source)).toEqual([
      '../kernel/context',
      '../kernel/config',
      './shop',
      '../db',
      './s3',
    ]);
    const graph = new Map([
      ['licenses', new Set(['payments'])],
      ['payments', new Set(['licenses'])],
    ]);
    expect(loops(graph)).toEqual([['licenses', 'payments']]);
  });
});

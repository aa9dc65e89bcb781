// The folder tree tells the pipeline's story (api → extract → load → checks → report → ops, composed by
// pipelines/, driven by src/cli). These tests read every import of the production code and keep the
// arrows pointing one way: nothing imports the CLI but the CLI, src/ never reaches up into pipelines/
// (except the CLI, which drives them), and there is no import circle.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/child.js';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** file → the production files it imports (relative specifiers only; `.js` written for `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sources('src'), ...sources('pipelines')]) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      targets.push(path.normalize(path.join(path.dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
    }
    for (const m of text.matchAll(/await import\('(\.[^']+)'\)/g)) targets.push(path.normalize(path.join(path.dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
    graph.set(file, targets);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 'open') found.push(stack.slice(stack.indexOf(t)).concat(t));
      else if (!state.has(t) && graph.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

describe('the import graph of src/ and pipelines/', () => {
  const graph = importGraph();

  it('reads a graph of the whole production code', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(path.normalize('src/cli/dispatch.ts'))).toContain(path.normalize('src/errors.ts'));
  });

  it('has no file outside src/cli importing src/cli', () => {
    const up = [...graph].flatMap(([f, ts]) => (f.startsWith(`src${path.sep}cli`) ? [] : ts.filter((t) => t.startsWith(`src${path.sep}cli`)).map((t) => `${f} → ${t}`)));
    expect(up).toEqual([]);
  });

  it('has no file of src/ (but the CLI) importing pipelines/', () => {
    const up = [...graph].flatMap(([f, ts]) =>
      f.startsWith('src') && !f.startsWith(`src${path.sep}cli`) ? ts.filter((t) => t.startsWith('pipelines')).map((t) => `${f} → ${t}`) : []);
    expect(up).toEqual([]);
  });

  it('has no import circle', () => {
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one (the detector itself)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cycles(g)).toEqual([['a', 'b', 'c', 'a']]);
  });
});

// The folder tree tells the pipeline's story (docs/architecture.md): stages in one order, composed by
// pipelines/, driven by src/cli. These tests read every import of the production code and keep the arrows
// pointing one way: a stage imports only stages below it, nothing imports the CLI but the CLI, src/ never
// reaches up into pipelines/ (except the CLI, which drives them), the configuration stops at pipelines/,
// the sandbox stands alone, every query against the store lives in sql/ or src/store, and there is no
// import circle.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { ROOT } from '../helpers/child.js';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** file → the production files it imports (relative specifiers only; `.js` written for `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sources('src'), ...sources('pipelines'), ...sources('sandbox')]) {
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

/** The stages of src/, lowest first: a stage may import the base files (src/*.ts) and the stages below it. */
const STAGES = ['api', 'ops', 'store', 'sync', 'bank', 'checks', 'report', 'access', 'outlets', 'warehouse'] as const;

const stageOf = (file: string): string => {
  const parts = file.split(path.sep);
  if (parts[0] !== 'src') return parts[0]!; // pipelines, sandbox
  return parts.length === 2 ? `base:${parts[1]}` : parts[1]!;
};

describe('the layers', () => {
  const graph = importGraph();
  const edges = [...graph].flatMap(([f, ts]) => ts.map((t) => ({ from: f, to: t, a: stageOf(f), b: stageOf(t) })));

  it('has stages import only the base files and the stages below them, in the order api, ops, store, sync, bank, checks, report, access, outlets, warehouse', () => {
    const rank = (s: string) => (STAGES as readonly string[]).indexOf(s);
    const up = edges.filter((e) => rank(e.a) >= 0 && e.a !== e.b && !e.b.startsWith('base:') && !(rank(e.b) >= 0 && rank(e.b) < rank(e.a)));
    expect(up.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('keeps the base files at the bottom (only the configuration reads the stages, for its validations)', () => {
    const up = edges.filter((e) => e.a.startsWith('base:') && e.a !== 'base:config.ts' && !e.b.startsWith('base:'));
    expect(up.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('stops the configuration at pipelines/: no stage sees the whole Config', () => {
    const config = path.normalize('src/config.ts');
    const readers = edges.filter((e) => e.to === config && !e.from.startsWith('pipelines') && !e.from.startsWith(`src${path.sep}cli`));
    expect(readers.map((e) => e.from)).toEqual([]);
  });

  it('keeps the sandbox apart: it imports nothing of recon, and only the demo and sandbox commands load it', () => {
    const out = edges.filter((e) => e.a === 'sandbox' && e.b !== 'sandbox');
    expect(out.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    const users = [...new Set(edges.filter((e) => e.b === 'sandbox' && e.a !== 'sandbox').map((e) => e.from))].sort();
    expect(users).toEqual([path.normalize('pipelines/demo.ts'), path.normalize('src/cli/commands/sandbox.ts')]);
  });

  it('keeps every query against the store in sql/ or src/store (no SQL text in other TypeScript)', () => {
    const offenders = [...sources('src'), ...sources('pipelines')]
      .filter((f) => !f.startsWith(path.join('src', 'store')))
      .flatMap((f) => sqlLiterals(f).map((text) => `${f}: ${text.slice(0, 60)}`));
    expect(offenders).toEqual([]);
  });

  it('finds SQL text when there is some (the detector itself)', () => {
    const probe = path.join(ROOT, 'test', 'architecture', 'sql-probe.fixture.ts');
    expect(sqlLiterals(path.relative(ROOT, probe)).length).toBe(3);
  });
});

/** String and template literals of a file whose text starts as a statement against the store does. */
function sqlLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let text: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = node.head.text;
    if (text !== null && SQL_START.test(text)) found.push(text.replace(/\s+/g, ' ').trim());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SQL_START = new RegExp('^\\s*(SELECT\\s|INSERT INTO|UPDATE \\w+ (AS \\w+ )?SET|DELETE FROM|WITH \\w+ AS|CREATE (OR REPLACE )?(TEMP |TEMPORARY )?'
  + '(TABLE|VIEW|MACRO|INDEX|SCHEMA|SEQUENCE)|DROP (TABLE|VIEW|MACRO)|ALTER TABLE|SET \\w+ ?=|COPY ?\\(|COPY \\w+ (TO|FROM)|ATTACH \'|DETACH |CHECKPOINT|'
  + 'BEGIN|COMMIT|ROLLBACK|EXPORT DATABASE|PRAGMA \\w)');

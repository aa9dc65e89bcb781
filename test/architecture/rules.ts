// The rules the production code keeps (docs/architecture.md), as functions of a tree, so the same checks run
// on the real checkout and on a planted tree that breaks each of them (the detectors themselves are tested).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The stages of src/, lowest first: a stage imports only the base files (src/*.ts) and the stages below it. */
export const STAGES = [
  'api', 'ops', 'store', 'sync', 'bank', 'checks', 'report', 'close', 'access', 'outlets', 'warehouse', 'retention', 'doctor',
] as const;

export interface Violation {
  rule: string;
  where: string;
}

export function sources(root: string, dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

const production = (root: string) => [...sources(root, 'src'), ...sources(root, 'pipelines'), ...sources(root, 'sandbox')];

/** file → the production files it imports (relative specifiers only; `.js` written for `.ts`). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of production(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const targets: string[] = [];
    const add = (spec: string) => targets.push(path.normalize(path.join(path.dirname(file), spec.replace(/\.js$/, '.ts'))));
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) add(m[1]!);
    for (const m of text.matchAll(/import\('(\.[^']+)'\)/g)) add(m[1]!);
    graph.set(file, targets);
  }
  return graph;
}

export function cycles(graph: Map<string, string[]>): string[][] {
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

/** A file's place: `base:<file>` for src/*.ts, the stage folder of src/, or the top folder (pipelines, sandbox). */
export function placeOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length === 2 ? `base:${parts[1]}` : parts[1]!;
}

/** Every import that breaks the layers: src/ reaching pipelines/, a stage reaching up, an unknown stage, the base reaching a stage. */
export function layerViolations(root: string): Violation[] {
  const rank = (s: string) => (STAGES as readonly string[]).indexOf(s);
  const out: Violation[] = [];
  for (const [from, targets] of importGraph(root)) {
    const a = placeOf(from);
    for (const to of targets) {
      const b = placeOf(to);
      const edge = `${from} → ${to}`;
      if (from.startsWith('src') && to.startsWith('pipelines')) out.push({ rule: 'src never imports pipelines/', where: edge });
      else if (a === 'sandbox' && b !== 'sandbox') out.push({ rule: 'the sandbox imports nothing of recon', where: edge });
      else if (a.startsWith('base:') && !b.startsWith('base:')) out.push({ rule: 'the base files import only base files', where: edge });
      else if (from.startsWith('src') && !a.startsWith('base:') && rank(a) < 0) out.push({ rule: 'every folder of src/ is a stage in the order', where: from });
      else if (rank(a) >= 0 && a !== b && !b.startsWith('base:') && !(rank(b) >= 0 && rank(b) < rank(a))) {
        out.push({ rule: 'a stage imports only the base files and the stages below it', where: edge });
      }
    }
  }
  return out;
}

/** Only the demo and the sandbox command load the sandbox. */
export function sandboxUsers(root: string): string[] {
  const users = new Set<string>();
  for (const [from, targets] of importGraph(root)) {
    if (placeOf(from) !== 'sandbox' && targets.some((t) => placeOf(t) === 'sandbox')) users.add(from);
  }
  return [...users].sort();
}

/**
 * A stage that reads the options itself: the process's environment or arguments, or the terminal. Stages
 * are handed their settings and report through callbacks; only pipelines/ reads and writes the process's.
 */
export function processReaders(root: string): Violation[] {
  return sources(root, 'src').flatMap((file) => {
    const text = stripComments(readFileSync(path.join(root, file), 'utf8'));
    const m = /\bprocess\.(env|argv|stdout|stderr|stdin|exit)\b/.exec(text);
    return m ? [{ rule: 'a stage never reads the options or the terminal', where: `${file}: process.${m[1]}` }] : [];
  });
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** SQL text in TypeScript outside src/store: every query against the store lives in sql/ or src/store. */
export function sqlOutsideStore(root: string): Violation[] {
  return [...sources(root, 'src'), ...sources(root, 'pipelines')]
    .filter((f) => !f.startsWith(path.join('src', 'store')))
    .flatMap((f) => sqlLiterals(root, f).map((text) => ({ rule: 'SQL lives in sql/ or src/store', where: `${f}: ${text.slice(0, 60)}` })));
}

/** String and template literals of a file whose text starts as a statement against the store does. */
export function sqlLiterals(root: string, file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
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

/** Every rule at once: what `imports.test.ts` holds at zero on the checkout, and above zero on a planted tree. */
export function allViolations(root: string): Violation[] {
  const circles = cycles(importGraph(root)).map((c) => ({ rule: 'no import circle', where: c.join(' → ') }));
  return [...layerViolations(root), ...processReaders(root), ...sqlOutsideStore(root), ...circles];
}

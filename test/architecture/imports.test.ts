// The folder tree tells the pipeline's story (docs/architecture.md): pipelines/ is the application (the CLI,
// the options, the settings each stage gets, the composition of stages per command); src/ holds the stages,
// in one order, and never reaches up into pipelines/; the sandbox stands alone; every query against the store
// lives in sql/ or src/store. No exception is allowed; a planted tree that breaks each rule shows that the
// detectors see it.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/child.js';
import { tempDir } from '../helpers/recon.js';
import {
  allViolations, cycles, importGraph, layerViolations, processReaders, sandboxUsers, sqlLiterals, sqlOutsideStore, STAGES,
} from './rules.js';

describe('the production code', () => {
  it('reads a graph of the whole production code', () => {
    const graph = importGraph(ROOT);
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(path.normalize('pipelines/cli/dispatch.ts'))).toContain(path.normalize('src/errors.ts'));
  });

  it('keeps every rule, with no exception', () => {
    expect(allViolations(ROOT)).toEqual([]);
  });

  it('has every folder of src/ in the stage order', () => {
    const folders = new Set(importGraph(ROOT).keys());
    const stages = [...folders].filter((f) => f.startsWith('src') && f.split(path.sep).length > 2).map((f) => f.split(path.sep)[1]!);
    expect([...new Set(stages)].sort()).toEqual([...STAGES].sort());
  });

  it('names every SQL file uniquely: a query is found by its name', () => {
    const names = readdirSync(path.join(ROOT, 'sql'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.sql')).map((e) => e.name);
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('lets only the demo and the sandbox command load the sandbox', () => {
    expect(sandboxUsers(ROOT)).toEqual([path.normalize('pipelines/cli/commands/sandbox.ts'), path.normalize('pipelines/demo.ts')]);
  });
});

/** A small tree that breaks each rule once. */
function plantedTree(): { root: string; cleanup: () => void } {
  const t = tempDir('recon-architecture-');
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(t.dir, file)), { recursive: true });
    writeFileSync(path.join(t.dir, file), text);
  };
  put('pipelines/config.ts', 'export interface Config { db: string }\n');
  put('src/errors.ts', 'export const EXIT = 2;\n');
  // src importing pipelines: a stage reading the options
  put('src/report/reads-config.ts', "import type { Config } from '../../pipelines/config.js';\nexport const x = (c: Config) => c.db;\n");
  // a stage reading the environment itself
  put('src/sync/reads-env.ts', "export const db = process.env.RECON_DB ?? 'x';\n");
  // SQL text outside sql/ and src/store
  put('src/checks/inline-sql.ts', "export const q = 'SELECT * FROM findings';\n");
  // a stage reaching up
  put('src/api/up.ts', "import { q } from '../checks/inline-sql.js';\nexport const y = q;\n");
  // a circle
  put('src/outlets/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
  put('src/outlets/b.ts', "import { a } from './a.js';\nexport const b = a;\n");
  // a folder that is no stage
  put('src/helpers/misc.ts', "import { EXIT } from '../errors.js';\nexport const z = EXIT;\n");
  // a base file reaching a stage, and the sandbox reaching recon
  put('src/month.ts', "import { x } from './report/reads-config.js';\nexport const m = x;\n");
  put('sandbox/server.ts', "import { EXIT } from '../src/errors.js';\nexport const s = EXIT;\n");
  return { root: t.dir, cleanup: t.cleanup };
}

describe('the detectors, on a planted tree', () => {
  it('finds each kind of violation', () => {
    const t = plantedTree();
    try {
      const rules = (v: Array<{ rule: string; where: string }>) => v.map((x) => `${x.rule}: ${x.where}`);
      expect(rules(layerViolations(t.root))).toEqual(expect.arrayContaining([
        expect.stringMatching(/^src never imports pipelines\/: src.report.reads-config\.ts → pipelines.config\.ts$/),
        expect.stringMatching(/^a stage imports only the base files and the stages below it: src.api.up\.ts → src.checks.inline-sql\.ts$/),
        expect.stringMatching(/^every folder of src\/ is a stage in the order: src.helpers.misc\.ts$/),
      ]));
      expect(rules(processReaders(t.root))).toEqual([expect.stringMatching(/src.sync.reads-env\.ts: process\.env$/)]);
      expect(rules(sqlOutsideStore(t.root))).toEqual([expect.stringMatching(/src.checks.inline-sql\.ts: SELECT \* FROM findings$/)]);
      expect(cycles(importGraph(t.root)).map((c) => c.map((f) => path.basename(f)))).toEqual([['a.ts', 'b.ts', 'a.ts']]);
      expect(rules(layerViolations(t.root))).toEqual(expect.arrayContaining([
        expect.stringMatching(/^the base files import only base files: src.month\.ts → src.report.reads-config\.ts$/),
        expect.stringMatching(/^the sandbox imports nothing of recon: sandbox.server\.ts → src.errors\.ts$/),
      ]));
      expect(new Set(allViolations(t.root).map((v) => v.rule)).size).toBe(8);
    } finally {
      t.cleanup();
    }
  });

  it('tells SQL text from words that merely mention it', () => {
    const probe = path.relative(ROOT, path.join(ROOT, 'test', 'architecture', 'sql-probe.fixture.ts'));
    expect(sqlLiterals(ROOT, probe).length).toBe(3);
  });

  it('skips a comment that mentions the environment', () => {
    const t = tempDir('recon-architecture-');
    try {
      mkdirSync(path.join(t.dir, 'src', 'api'), { recursive: true });
      writeFileSync(path.join(t.dir, 'src', 'api', 'ok.ts'), '// process.env is read by pipelines/, never here\nexport const ok = 1;\n');
      expect(processReaders(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});

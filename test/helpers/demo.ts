// One `recon demo` per test run (a sandbox, two nights, statements, a close: seconds of CPU), shared by the
// test files that read what it wrote. The first worker that asks builds it in the run's folder
// (test/helpers/run-folder.ts); a worker that asks meanwhile waits for it. A file that writes (a report, a
// close) works on a copy of its own (copyDemo); the demo's folder itself stays as the demo left it.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliHere } from './in-process.js';
import { runFolder } from './run-folder.js';

/** The demo every reader shares: `make run`'s dataset (its seed, its 180 disbursements), its window 60× faster. */
export const DEMO_ARGS = ['--time-compression', '60'] as const;

export interface DemoRun {
  /** The folder the demo wrote (store, published snapshot, reports, statements, files, outbox). */
  dir: string;
  db: string;
  reports: string;
  code: number;
  stdout: string;
  stderr: string;
}

const WAIT_MS = 280_000;

async function build(root: string): Promise<DemoRun> {
  const dir = path.join(root, 'store');
  const db = path.join(dir, 'recon.duckdb');
  const reports = path.join(dir, 'reports');
  const r = await runCliHere(['demo', '--db', db, '--reports', reports, ...DEMO_ARGS]);
  return { dir, db, reports, ...r };
}

let mine: Promise<DemoRun> | undefined;

/** The run's demo, built by the first caller of any worker (others wait for its result file). */
export function sharedDemo(): Promise<DemoRun> {
  mine ??= claimOrWait(path.join(runFolder(), 'demo'));
  return mine;
}

async function claimOrWait(root: string): Promise<DemoRun> {
  const result = path.join(root, 'result.json');
  try {
    mkdirSync(root, { recursive: true });
    mkdirSync(path.join(root, 'building')); // the claim: only one worker creates it
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return waitFor(result);
  }
  let outcome: DemoRun | { error: string };
  try {
    outcome = await build(root);
  } catch (err) {
    outcome = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  writeFileSync(`${result}.tmp`, JSON.stringify(outcome));
  renameSync(`${result}.tmp`, result);
  return read(result);
}

function read(result: string): DemoRun {
  const outcome = JSON.parse(readFileSync(result, 'utf8')) as DemoRun | { error: string };
  if ('error' in outcome) throw new Error(`the shared demo failed to run: ${outcome.error}`);
  return outcome;
}

async function waitFor(result: string): Promise<DemoRun> {
  const end = Date.now() + WAIT_MS;
  while (!existsSync(result)) {
    if (Date.now() > end) throw new Error(`the shared demo was not ready within ${WAIT_MS / 1000} s (${result})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return read(result);
}

/**
 * The demo's folder copied whole into `into` (store with its .wal, snapshot, reports, statements, files,
 * outbox, the demo's marker): a store this file may write to. Returns the copy's paths.
 */
export function copyDemo(demo: DemoRun, into: string): { dir: string; db: string; reports: string } {
  cpSync(demo.dir, into, { recursive: true, verbatimSymlinks: true });
  const within = (file: string) => path.join(into, path.relative(demo.dir, file));
  return { dir: into, db: within(demo.db), reports: within(demo.reports) };
}

// year_checks_ratio: a night's incremental check (runChecks, mode incremental: src/checks/scope.ts) on a store
// holding twelve months of history against the same night's check on a store holding one month, at 1M payouts
// a month (10 000 disbursements × 100 payouts with refunds, adjustments and a settlement file each:
// bench/year.ts). Both stores are built by child processes (year-store.ts), checked once in full (the
// night before), then get the same nights through recon's own StoreWriter: a thirtieth of a month delivered,
// three disbursements restated, 100 payouts sampled, two payments settled twice. Each night is checked on
// both stores, the year first on one night and the month first on the next; the figure is the median of the
// nights' ratios of CPU time (user + system, every thread of this process: the machine is shared, wall time
// is printed beside it). A last night is checked incrementally on each store and in full on a copy of it
// made before: the rows of the run and the findings must be identical, and the full check's time is printed.
// Args: perMonth months nights
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runChecks, type CheckRunResult } from '../../src/checks/runner.js';
import { openStore, setMemoryLimit, type Store } from '../../src/store/db.js';
import { runStage } from '../child.js';
import { findingsHash, peakRssMb, stage, tempDir } from '../lib.js';
import { writeNight } from '../year.js';

const MEMORY_MB = 192;
const NOW = Date.parse('2026-12-01T03:00:00Z');

const cpuS = (): number => {
  const u = process.resourceUsage();
  return (u.userCPUTime + u.systemCPUTime) / 1e6;
};

interface Side {
  label: string;
  db: string;
  store: Store;
  from: number;
}

/** One timed check run: CPU and wall seconds, and what it found and carried. */
async function timedCheck(c: DuckDBConnection, runId: string, mode: 'full' | 'incremental', at: number): Promise<Record<string, unknown>> {
  const cpu = cpuS();
  const wall = performance.now();
  const r: CheckRunResult = await runChecks(c, { runId, mode, now: new Date(at) });
  return { cpuS: cpuS() - cpu, wallS: (performance.now() - wall) / 1000, mode: r.mode, findings: r.findings, byStatus: r.byStatus,
    scope: r.scope, phases: r.phases, slowest: [...r.checks].sort((a, b) => b.ms - a.ms).slice(0, 5).map((x) => `${x.checkId} ${x.ms}`) };
}

async function open(db: string): Promise<Store> {
  const store = await openStore(db);
  await setMemoryLimit(store.connection, MEMORY_MB);
  return store;
}

/** The rows of check run `runId` and every finding, as text, for comparing two stores. */
async function outcome(c: DuckDBConnection, runId: string): Promise<string> {
  const rows = await c.runAndReadAll(`SELECT * EXCLUDE (run_id) FROM exceptions WHERE run_id = $1 ORDER BY finding_key`, [runId]);
  const findings = await c.runAndReadAll('SELECT * FROM findings ORDER BY finding_key');
  return JSON.stringify([rows.getRows(), findings.getRows()], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

stage(async ([perMonthArg = '10000', monthsArg = '12', nightsArg = '3']) => {
  const perMonth = Number(perMonthArg);
  const months = Number(monthsArg);
  const nights = Number(nightsArg);
  const end = perMonth * months;
  const tmp = tempDir();
  const sides: Side[] = [];
  try {
    const built: Record<string, unknown> = {};
    for (const [label, from] of [['year', 0], ['month', end - perMonth]] as const) {
      const db = path.join(tmp.dir, `${label}.duckdb`);
      built[label] = await runStage('year-store', [db, from, end, perMonth], 1_800_000);
      sides.push({ label, db, store: await open(db), from });
    }
    const counts: Record<string, unknown> = {};
    const before: Record<string, unknown> = {};
    for (const s of sides) {
      const [row] = (await s.store.connection.runAndReadAll('SELECT (SELECT count(*) FROM payouts), (SELECT count(*) FROM disbursements), (SELECT count(*) FROM file_lines)')).getRows();
      counts[s.label] = { payouts: Number(row![0]), disbursements: Number(row![1]), fileLines: Number(row![2]) };
      before[s.label] = await timedCheck(s.store.connection, 'night-0', 'full', NOW);
    }
    const measured: Array<Record<string, unknown>> = [];
    for (let k = 1; k <= nights; k += 1) {
      const order = k % 2 === 1 ? sides : [...sides].reverse();
      const night: Record<string, unknown> = { night: k };
      for (const s of sides) night[`${s.label}Written`] = await writeNight(s.store.connection, { k, runId: `night-${k}`, perMonth, end });
      for (const s of order) night[s.label] = await timedCheck(s.store.connection, `night-${k}`, 'incremental', NOW + k * 86_400_000);
      measured.push(night);
    }
    // the last night: incremental on each store, in full on a copy of it taken before the check
    const k = nights + 1;
    const same: Record<string, unknown> = {};
    for (const s of sides) {
      await writeNight(s.store.connection, { k, runId: `night-${k}`, perMonth, end });
      s.store.close();
      const copy = path.join(tmp.dir, `${s.label}-full.duckdb`);
      copyFileSync(s.db, copy);
      s.store = await open(s.db);
      const at = NOW + k * 86_400_000;
      const incremental = await timedCheck(s.store.connection, `night-${k}`, 'incremental', at);
      const full = await open(copy);
      try {
        const everything = await timedCheck(full.connection, `night-${k}`, 'full', at);
        const identical = (await outcome(s.store.connection, `night-${k}`)) === (await outcome(full.connection, `night-${k}`));
        same[s.label] = { identical, incremental, full: everything, findingsHash: await findingsHash(s.store.connection, `night-${k}`) };
      } finally {
        full.close();
      }
    }
    return { perMonth, months, counts, built, before, measured, same, peakRssMb: peakRssMb(), memoryMb: MEMORY_MB };
  } finally {
    for (const s of sides) s.store.close();
    tmp.cleanup();
  }
});

// Test helpers: a temp folder per test (or per file), a sync run in-process against a sandbox with compressed time,
// and table fingerprints (row count, amount sum, hash of sorted keys) that ignore run ids.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import type { SyncTuning } from '../../src/sync/stage.js';
import { runSync } from '../../pipelines/sync.js';
import type { SyncResult } from '../../src/sync/run.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { ExitCode } from '../../src/errors.js';

export { tempDir, tempDirForFile } from './temp-dir.js';

export interface SyncRun {
  code: ExitCode;
  runId: string | null;
  result: SyncResult | null;
}

/** `recon sync` in-process against a sandbox: high budget, fast retries, unless args/tuning say otherwise. */
export async function syncOnce(sb: Sandbox, dbPath: string, args: string[] = [], tuning: SyncTuning = {}): Promise<SyncRun> {
  const { config } = parseCommandArgs(
    ['--api-url', sb.url, '--api-key', sb.apiKey, '--db', dbPath, '--rate-per-minute', '60000', '--sample-budget', '0', ...args],
    COMMAND_OPTIONS.sync,
    {},
    {},
  );
  const out = await runSync(config, silentLogger, { tuning: { retryBaseMs: 5, ...tuning }, handleSignals: false });
  return { code: out.code, runId: out.runId, result: out.result };
}

/** Run a query on a DuckDB file (opened and closed around it). */
export async function query(dbPath: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(dbPath);
  const c = await instance.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

const KEYS: Record<string, string> = {
  disbursements: "disbursement_id || '|' || coalesce(CAST(amount AS VARCHAR), '') || '|' || content_hash || '|' || sync_status",
  payouts: "disbursement_id || '|' || line_no || '|' || coalesce(reference, '') || '|' || coalesce(payment_id, '')",
  refunds: "disbursement_id || '|' || line_no || '|' || coalesce(refund_id, '')",
  adjustments: "disbursement_id || '|' || line_no || '|' || coalesce(reference, '') || '|' || coalesce(entry_type, '')",
  disbursement_files: "disbursement_id || '|' || file_no || '|' || coalesce(sha256, '') || '|' || parse_status",
  file_lines: "disbursement_id || '|' || file_no || '|' || line_no || '|' || coalesce(reference, '')",
  quarantine: "coalesce(disbursement_id, '') || '|' || resource || '|' || coalesce(CAST(line_no AS VARCHAR), '') || '|' || reason",
  disbursement_history: "disbursement_id || '|' || version || '|' || content_hash",
};
const AMOUNT: Record<string, string> = {
  disbursements: 'amount', payouts: 'amount', refunds: 'amount', adjustments: 'amount', file_lines: 'amount',
  disbursement_files: 'size_bytes', quarantine: '0', disbursement_history: 'amount',
};

export type Fingerprints = Record<string, { rows: number; amount: string; keys: string }>;

export async function fingerprints(dbPath: string): Promise<Fingerprints> {
  const parts = Object.keys(KEYS).map((t) =>
    `SELECT '${t}' AS t, count(*) AS n, CAST(coalesce(sum(${AMOUNT[t]}), 0) AS VARCHAR) AS s,
            coalesce(md5(string_agg(${KEYS[t]}, ',' ORDER BY ${KEYS[t]})), '') AS k FROM ${t}`);
  const rows = await query(dbPath, parts.join(' UNION ALL '));
  const out: Fingerprints = {};
  for (const r of rows) out[String(r.t)] = { rows: Number(r.n), amount: String(r.s), keys: String(r.k) };
  return out;
}

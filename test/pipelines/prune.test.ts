// Issue 26: `recon prune` on a store a real night made. What an unresolved finding, a month not closed or the
// newest run needs survives; old run workbooks, old downloaded files of closed months and old log lines go;
// --dry-run removes nothing; a pruned file does not make the next sync read its disbursement again.
import { copyFileSync, existsSync, mkdirSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantEveryKind, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { COMMAND_OPTIONS, parseCommandArgs } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { openStore } from '../../src/store/db.js';
import { disbursementsMissingBlobs } from '../../src/store/blobs.js';
import { runPrune } from '../../pipelines/prune.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { query, tempDir } from '../helpers/recon.js';
import { runCli } from '../helpers/child.js';

let sb: Sandbox;
let dir = '';
let cleanup = () => {};
const db = () => path.join(dir, 'recon.duckdb');
const reports = () => path.join(dir, 'reports');
const blobPath = (sha: string) => path.join(dir, 'files', sha.slice(0, 2), sha);
// the night's data is of 2026; in 2030 all of it is older than the 90 days kept
const LATER = () => new Date('2030-01-01T00:00:00Z');

beforeAll(async () => {
  sb = await startSandbox({ seed: 21, disbursements: 120, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(24) } });
  const t = tempDir('recon-prune-');
  dir = t.dir;
  cleanup = t.cleanup;
  expect((await nightlyOnce(sb, dir)).outcome.code).toBe(1);
}, 120_000);
afterAll(async () => {
  await sb?.close();
  cleanup();
});

const prune = (args: string[] = [], dryRun = false) => runPrune(parseCommandArgs(['--db', db(), '--reports', reports(), ...args], COMMAND_OPTIONS.prune, {}, {}).config,
  silentLogger, { dryRun, now: LATER });

async function blobsBy(where: string): Promise<string[]> {
  return (await query(db(), `SELECT DISTINCT df.sha256 FROM disbursement_files df JOIN disbursements d USING (disbursement_id) WHERE df.sha256 IS NOT NULL AND ${where}`))
    .map((r) => String(r.sha256));
}
const UNRESOLVED = `d.disbursement_id IN (SELECT disbursement_id FROM findings WHERE state <> 'resolved' AND disbursement_id IS NOT NULL)`;

describe('recon prune', () => {
  it('keeps what is needed, removes what is old, says so, and --dry-run removes nothing', async () => {
    const night = (await query(db(), `SELECT run_id FROM runs WHERE command = 'run'`))[0]!.run_id as string;
    const workbook = path.join(reports(), `recon-${night.slice(0, 4)}-${night.slice(4, 6)}-${night.slice(6, 8)}-${night.slice(9)}.xlsx`);
    expect(existsSync(workbook)).toBe(true);
    // an old run nobody needs, and an old run whose workbook first showed a finding still open
    const old = path.join(reports(), 'recon-2025-01-01-000000Z-aaaa');
    const needed = path.join(reports(), 'recon-2025-01-02-000000Z-bbbb');
    for (const base of [old, needed]) {
      copyFileSync(workbook, `${base}.xlsx`);
      writeFileSync(`${base}.json`, '{}');
    }
    await query(db(), `UPDATE findings SET first_run_id = '20250102T000000Z-bbbb' WHERE finding_key = (SELECT min(finding_key) FROM findings WHERE state = 'open')`);
    // a stray file under files/ that no disbursement names: an old one goes, a new one stays
    mkdirSync(path.join(dir, 'files', 'zz'), { recursive: true });
    const strayOld = path.join(dir, 'files', 'zz', 'stray-old');
    const strayNew = path.join(dir, 'files', 'zz', 'stray-new');
    writeFileSync(strayOld, 'x');
    writeFileSync(strayNew, 'y');
    utimesSync(strayOld, new Date('2029-01-01'), new Date('2029-01-01'));
    utimesSync(strayNew, new Date('2029-12-31'), new Date('2029-12-31'));
    // the log beside the store: a line of 2029-01 (old in 2030) and one of 2029-12
    mkdirSync(path.join(dir, 'logs'), { recursive: true });
    const log = path.join(dir, 'logs', 'recon.log');
    writeFileSync(log, `{"level":30,"time":${Date.UTC(2029, 0, 1)},"msg":"old"}\n{"level":30,"time":${Date.UTC(2029, 11, 20)},"msg":"recent"}\nnot json\n`);

    const withFiles = await blobsBy('TRUE');
    expect(withFiles.length).toBeGreaterThan(10);
    expect(withFiles.every((s) => existsSync(blobPath(s)))).toBe(true);

    // no month closed yet: every downloaded file of the night is needed
    const first = await prune();
    expect(first.code).toBe(0);
    expect(first.blobs.keptNeeded).toBe(withFiles.length);
    expect(first.blobs.removedPaths).toEqual([strayOld]);
    expect(first.reports.removedPaths.sort()).toEqual([`${old}.json`, `${old}.xlsx`]);
    expect([existsSync(`${old}.xlsx`), existsSync(`${needed}.xlsx`), existsSync(`${needed}.json`), existsSync(workbook), existsSync(strayNew)]).toEqual([false, true, true, true, true]);
    expect(existsSync(path.join(reports(), 'recon-latest.xlsx'))).toBe(true);
    expect(readFileSync(log, 'utf8')).toBe(`{"level":30,"time":${Date.UTC(2029, 11, 20)},"msg":"recent"}\nnot json\n`);
    expect(first.logs).toMatchObject({ removed: 1, kept: 2 });

    // every month closed: the files of disbursements without an unresolved finding may go
    await query(db(), `INSERT INTO closes (month, version, closed_at, run_id, workbook, disbursements, disbursed_total) SELECT DISTINCT month_of(delivered_at), 1, now(), 'test-close', NULL, 0, 0 FROM disbursements`);
    const keep = await blobsBy(UNRESOLVED);
    const go = (await blobsBy(`NOT ${UNRESOLVED}`)).filter((s) => !keep.includes(s));
    expect(keep.length).toBeGreaterThan(0);
    expect(go.length).toBeGreaterThan(0);

    const dry = await prune([], true);
    expect(dry.code).toBe(0);
    expect(dry.blobs.removedPaths.sort()).toEqual(go.map(blobPath).sort());
    expect(withFiles.every((s) => existsSync(blobPath(s)))).toBe(true); // nothing removed
    expect(await query(db(), 'SELECT count(*)::INTEGER AS n FROM pruned_blobs')).toEqual([{ n: 0 }]);

    const real = await prune();
    expect(real.code).toBe(0);
    expect(real.blobs.removedPaths.sort()).toEqual(dry.blobs.removedPaths.sort());
    expect(go.every((s) => !existsSync(blobPath(s)))).toBe(true);
    expect(keep.every((s) => existsSync(blobPath(s)))).toBe(true);
    expect(real.blobs.removedBytes).toBeGreaterThan(0);

    // what was pruned on purpose is not "missing": the next sync does not read those disbursements again
    const store = await openStore(db());
    try {
      expect((await disbursementsMissingBlobs(store.connection, path.join(dir, 'files'))).size).toBe(0);
    } finally {
      store.close();
    }
  }, 120_000);

  it('the command says what it would remove, exits 0, and refuses a store that does not exist (exit 2)', async () => {
    const out = await runCli(['prune', '--db', db(), '--reports', reports(), '--dry-run', '--keep-days', '1']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^dry run: nothing removed; keeping 1 days/);
    expect(out.stdout).toMatch(/^workbooks and results: \d+ would be removed.*, \d+ kept$/m);
    expect(out.stdout).toMatch(/^downloaded files: \d+ would be removed/m);
    const missing = await runCli(['prune', '--db', path.join(dir, 'nope.duckdb')]);
    expect(missing.code).toBe(2);
  }, 60_000);
});

// `recon prune` on a store a real night made. What an unresolved finding, a month not closed or the newest run
// needs survives; old run workbooks, old downloaded files of closed months and old log lines go; --dry-run
// removes nothing; a pruned file does not make the next sync read its disbursement again; a file recon did not
// write, or one behind a symbolic link, is never touched.
import { copyFileSync, existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantEveryKind, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { COMMAND_OPTIONS, parseCommandArgs } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import { openStore } from '../../src/store/db.js';
import { disbursementsMissingBlobs } from '../../src/store/blobs.js';
import { runPrune } from '../../pipelines/prune.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { query, tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';

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

const prune = async (args: string[] = [], dryRun = false, dbPath = db()) => {
  const out = await runPrune(parseCommandArgs(['--db', dbPath, '--reports', reports(), ...args], COMMAND_OPTIONS.prune, {}, {}).config,
    silentLogger, { dryRun, now: LATER });
  return { code: out.code, ...out.result! };
};

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
      // a list too long for its sheet went whole to a CSV beside the workbook: it goes and stays with it
      writeFileSync(`${base}-disbursements.csv`, 'Disbursement\r\n');
    }
    // the runs the store records (a workbook named like a run the store never had is not recon's)
    await query(db(), `INSERT INTO runs (run_id, command, started_at, status) VALUES
      ('20250101T000000Z-aaaa', 'run', TIMESTAMPTZ '2025-01-01 00:00:00Z', 'succeeded'),
      ('20250102T000000Z-bbbb', 'run', TIMESTAMPTZ '2025-01-02 00:00:00Z', 'succeeded')`);
    const foreign = path.join(reports(), 'recon-2025-01-03-000000Z-cccc.xlsx');
    copyFileSync(workbook, foreign);
    await query(db(), `UPDATE findings SET first_run_id = '20250102T000000Z-bbbb' WHERE finding_key = (SELECT min(finding_key) FROM findings WHERE state = 'open')`);
    // files under files/ that no disbursement names are not recon's: old or new, named like a blob or not, they stay
    mkdirSync(path.join(dir, 'files', '2025'), { recursive: true });
    mkdirSync(path.join(dir, 'files', 'ab'), { recursive: true });
    const strayOld = path.join(dir, 'files', '2025', 'minutes.pdf');
    const strayBlob = path.join(dir, 'files', 'ab', `ab${'0'.repeat(62)}`);
    writeFileSync(strayOld, 'x');
    writeFileSync(strayBlob, 'y');
    utimesSync(strayOld, new Date('2029-01-01'), new Date('2029-01-01'));
    utimesSync(strayBlob, new Date('2029-01-01'), new Date('2029-01-01'));
    // a folder linked into files/ from elsewhere: never followed
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const outside = path.join(elsewhere, `cd${'1'.repeat(62)}`);
    writeFileSync(outside, 'z');
    utimesSync(outside, new Date('2029-01-01'), new Date('2029-01-01'));
    symlinkSync(elsewhere, path.join(dir, 'files', 'cd'));
    // the log beside the store: lines of 2029-01 (old in 2030) and of 2029-12, with ISO times as recon writes
    // them and with epoch milliseconds as older logs have them
    mkdirSync(path.join(dir, 'logs'), { recursive: true });
    const log = path.join(dir, 'logs', 'recon.log');
    writeFileSync(log, `{"level":30,"time":"2029-01-01T00:00:00.000Z","msg":"old"}\n{"level":30,"time":${Date.UTC(2029, 0, 2)},"msg":"old too"}\n`
      + `{"level":30,"time":"2029-12-20T10:00:00.000Z","msg":"recent"}\nnot json\n`);

    const withFiles = await blobsBy('TRUE');
    expect(withFiles.length).toBeGreaterThan(10);
    expect(withFiles.every((s) => existsSync(blobPath(s)))).toBe(true);

    // no month closed yet: every downloaded file of the night is needed
    const first = await prune();
    expect(first.code).toBe(0);
    expect(first.blobs.keptNeeded).toBe(withFiles.length);
    expect(first.blobs.removedPaths).toEqual([]);
    expect(first.reports.removedPaths.sort()).toEqual([`${old}-disbursements.csv`, `${old}.json`, `${old}.xlsx`]);
    expect([existsSync(`${old}.xlsx`), existsSync(`${needed}.xlsx`), existsSync(`${needed}.json`), existsSync(`${needed}-disbursements.csv`),
      existsSync(workbook), existsSync(foreign)]).toEqual([false, true, true, true, true, true]);
    expect([existsSync(strayOld), existsSync(strayBlob), existsSync(outside)]).toEqual([true, true, true]);
    expect(existsSync(path.join(reports(), 'recon-latest.xlsx'))).toBe(true);
    expect(readFileSync(log, 'utf8')).toBe(`{"level":30,"time":"2029-12-20T10:00:00.000Z","msg":"recent"}\nnot json\n`);
    expect(first.logs).toMatchObject({ removed: 2, kept: 2 });

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
    expect([existsSync(strayOld), existsSync(strayBlob), existsSync(outside)]).toEqual([true, true, true]);

    // what was pruned on purpose is not "missing": the next sync does not read those disbursements again
    const store = await openStore(db());
    try {
      expect((await disbursementsMissingBlobs(store.connection, path.join(dir, 'files'))).size).toBe(0);
    } finally {
      store.close();
    }
  }, 120_000);

  it('finds the store\'s own files when --db is a symbolic link to it', async () => {
    const link = path.join(dir, 'linked', 'recon.duckdb');
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(db(), link);
    const viaLink = await prune([], true, link);
    const direct = await prune([], true);
    expect(viaLink.code).toBe(0);
    expect(viaLink.blobs.kept + viaLink.blobs.removed).toBeGreaterThan(0);
    expect(viaLink.blobs).toEqual(direct.blobs);
  }, 60_000);

  it('keeps everything when asked for the most days, and refuses more than a century by name (exit 2)', async () => {
    const all = await prune(['--keep-days', '36500'], true);
    expect(all.code).toBe(0);
    expect(all.cutoff.toISOString()).toBe('1970-01-01T00:00:00.000Z'); // before the epoch: nothing recon wrote is older
    expect(all.reports.removed + all.blobs.removed + all.logs.removed).toBe(0);
    const tooMany = await runCliHere(['prune', '--db', db(), '--reports', reports(), '--keep-days', '999999999']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/--keep-days must be ≤ 36500 \(a century keeps everything\), got 999999999/);
  }, 60_000);

  it('the command says what it would remove, exits 0, and refuses a store that does not exist (exit 2)', async () => {
    const out = await runCliHere(['prune', '--db', db(), '--reports', reports(), '--dry-run', '--keep-days', '1']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^dry run: nothing removed; keeping 1 days/);
    expect(out.stdout).toMatch(/^workbooks and results: \d+ would be removed.*, \d+ kept$/m);
    expect(out.stdout).toMatch(/^downloaded files: \d+ would be removed/m);
    const missing = await runCliHere(['prune', '--db', path.join(dir, 'nope.duckdb')]);
    expect(missing.code).toBe(2);
  }, 60_000);
});

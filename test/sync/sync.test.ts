import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.js';
import { fingerprints, query, syncOnce, tempDir } from '../helpers/recon.js';
import { ROTATION_NIGHTS, slotDue } from '../../src/sync/rotation.js';

const BASE: SandboxOptions = { seed: 11, disbursements: 40, payoutsPerDisbursement: 12, rateLimit: { limit: 1_000_000 } };
const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function sandbox(extra: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ ...BASE, ...extra });
  open.push(sb);
  return sb;
}
function db(): string {
  const t = tempDir();
  open.push({ close: t.cleanup });
  return path.join(t.dir, 'recon.duckdb');
}

let cleanPrints: Awaited<ReturnType<typeof fingerprints>> | null = null;
async function cleanFingerprints() {
  if (!cleanPrints) {
    const sb = await sandbox();
    const file = db();
    expect((await syncOnce(sb, file)).code).toBe(0);
    cleanPrints = await fingerprints(file);
  }
  return cleanPrints;
}

describe('sync', () => {
  it('backfills the sandbox so every disbursement matches the ground truth, table by table', async () => {
    const sb = await sandbox();
    const file = db();
    const run = await syncOnce(sb, file);
    expect(run.code).toBe(0);
    const rows = await query(file, `
      SELECT d.disbursement_id, d.sync_status,
        (SELECT count(*) FROM payouts p WHERE p.disbursement_id = d.disbursement_id) AS pc,
        (SELECT coalesce(sum(amount), 0) FROM payouts p WHERE p.disbursement_id = d.disbursement_id) AS ps,
        (SELECT count(*) FROM refunds r WHERE r.disbursement_id = d.disbursement_id) AS rc,
        (SELECT coalesce(sum(amount), 0) FROM refunds r WHERE r.disbursement_id = d.disbursement_id) AS rs,
        (SELECT count(*) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id) AS ac,
        (SELECT coalesce(sum(amount), 0) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id AND entry_type = 'credit') AS acs,
        (SELECT coalesce(sum(amount), 0) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id AND entry_type = 'debit') AS ads,
        (SELECT count(*) FROM disbursement_files f WHERE f.disbursement_id = d.disbursement_id AND parse_status = 'parsed') AS fc,
        (SELECT count(*) FROM file_lines l WHERE l.disbursement_id = d.disbursement_id) AS lc
      FROM disbursements d`);
    const stored = new Map(rows.map((r) => [String(r.disbursement_id), r]));
    const truth = [...sb.truth.disbursements()];
    expect(stored.size).toBe(truth.length);
    for (const t of truth) {
      const r = stored.get(t.disbursement_id)!;
      expect(r, t.disbursement_id).toBeDefined();
      expect(r.sync_status).toBe('complete');
      expect([Number(r.pc), BigInt(String(r.ps))]).toEqual([t.expected.payouts.count, t.expected.payouts.sum]);
      expect([Number(r.rc), BigInt(String(r.rs))]).toEqual([t.expected.refunds.count, t.expected.refunds.sum]);
      expect([Number(r.ac), BigInt(String(r.acs)), BigInt(String(r.ads))]).toEqual([
        t.expected.adjustments.count, t.expected.adjustments.credit_sum, t.expected.adjustments.debit_sum]);
      expect(Number(r.fc)).toBe(t.expected.files);
      expect(Number(r.lc)).toBe(t.expected.file_lines);
    }
  });

  it('records in runs exactly the number of requests the sandbox counted', async () => {
    const sb = await sandbox();
    const file = db();
    sb.resetStats();
    const run = await syncOnce(sb, file, ['--sample-budget', '5']);
    const [r] = await query(file, `SELECT requests, retries, rate_limited, status FROM runs WHERE run_id = '${run.runId}'`);
    expect(r!.status).toBe('succeeded');
    expect(Number(r!.requests)).toBe(sb.stats().requests.total);
    expect(sb.stats().requests.byEndpoint.payment).toBe(5);
  });

  it('adds nothing when re-run and spends only the list pages on unchanged disbursements', async () => {
    const sb = await sandbox();
    const file = db();
    // the clock is a month after the dataset's last delivery, so no disbursement is inside the 7-day lookback
    const now = () => Date.parse('2026-11-30T22:00:00Z');
    await syncOnce(sb, file, [], { now });
    const before = await fingerprints(file);
    sb.resetStats();
    const again = await syncOnce(sb, file, [], { now });
    expect(again.code).toBe(0);
    expect(await fingerprints(file)).toEqual(before);
    expect(sb.stats().requests.total).toBe(1); // 40 disbursements fit one page of 100
    expect(again.result!.skipped).toBe(40);
  });

  it('re-reads of the lookback window only the disbursements whose rotation slot is tonight, by the injected clock', async () => {
    const sb = await sandbox();
    const file = db();
    const now = () => Date.parse('2026-11-02T22:00:00Z'); // two days after the last delivery
    await syncOnce(sb, file, [], { now });
    const recent = [...sb.truth.disbursements()].filter((t) => Date.parse(t.delivered_at) >= now() - 7 * 86_400_000);
    const due = recent.filter((t) => slotDue(t.disbursement_id, now())).length;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(40);
    const again = await syncOnce(sb, file, [], { now });
    expect(again.result!.fetched).toBe(due);
    expect(again.result!.reasons).toEqual({ new: 0, changed: 0, rotation: due, again: 0 });
    expect(again.result!.skipped).toBe(40 - due);
  });

  it('on the realistic profile with a tenth of the disbursements restated, night 2 re-reads those and the rotation, nothing else', async () => {
    // 4 of 40 restated (generation 1 changes a payout, and with it the list record's amount)
    const restated = [3, 14, 22, 37];
    const sb = await sandbox({ profile: 'realistic', anomalies: { rate: 0, plant: restated.map((index) => ({ index, kind: 'restated' as const })) } });
    const file = db();
    const now = () => Date.parse('2026-11-02T22:00:00Z');
    const first = await syncOnce(sb, file, [], { now });
    expect([0, 1]).toContain(first.code);
    const ids = new Set([...sb.truth.disbursements()].map((t) => t.disbursement_id));
    const changed = [...sb.truth.anomalies()].filter((a) => a.kind === 'restated').map((a) => a.disbursement_id);
    expect(changed).toHaveLength(4);
    sb.setGeneration(1);
    const recent = [...sb.truth.disbursements()].filter((t) => Date.parse(t.delivered_at) >= now() - 7 * 86_400_000 && !changed.includes(t.disbursement_id));
    const due = recent.filter((t) => slotDue(t.disbursement_id, now())).length;
    const second = await syncOnce(sb, file, [], { now });
    expect(second.result!.reasons).toEqual({ new: 0, changed: 4, rotation: due, again: 0 });
    expect(second.result!.fetched).toBe(4 + due);
    expect(second.result!.skipped).toBe(ids.size - 4 - due);
    // and the restated amounts are what the store now holds
    const rows = await query(file, `SELECT disbursement_id, amount FROM disbursements WHERE disbursement_id IN (${changed.map((c) => `'${c}'`).join(', ')})`);
    const truth = new Map([...sb.truth.disbursements()].map((t) => [t.disbursement_id, t]));
    for (const r of rows) expect(BigInt(String(r.amount))).toBe(BigInt(truth.get(String(r.disbursement_id))!.amount));
  });

  it('over seven consecutive nights the rotation reads every disbursement of the lookback window again', async () => {
    const sb = await sandbox();
    const file = db();
    const first = Date.parse('2026-10-31T23:00:00Z');
    await syncOnce(sb, file, ['--lookback-days', '100000'], { now: () => first });
    let rotated = 0;
    for (let night = 1; night <= ROTATION_NIGHTS; night += 1) {
      const run = await syncOnce(sb, file, ['--lookback-days', '100000'], { now: () => first + night * 86_400_000 });
      expect(run.result!.reasons.changed + run.result!.reasons.new).toBe(0);
      rotated += run.result!.reasons.rotation;
    }
    // each read exactly once: its slot comes round once in seven nights, and the age bound coincides with it
    expect(rotated).toBe(40);
    const [r] = await query(file, `SELECT count(*) AS n, min(read_at) AS oldest FROM deep_reads`);
    expect(Number(r!.n)).toBe(40);
    expect(Date.parse(String(r!.oldest))).toBeGreaterThan(first);
  });

  it('reads every disbursement and line of lists whose totals lag behind them (sandbox lagTotals), and warns on the run', async () => {
    const sb = await sandbox({ faults: { lagTotals: 6 } });
    const file = db();
    const run = await syncOnce(sb, file, ['--per-page', '3']);
    expect(run.code).toBe(0);
    expect([run.result!.listed, run.result!.listComplete]).toEqual([40, true]);
    expect(run.result!.warnings).toEqual([
      "the disbursement list's totals lagged behind it (/disbursements: the service counted 34 entries in 12 pages, 40 entries were read in 14 pages)",
      expect.stringMatching(/^\d+ line list\(s\) counted fewer lines than they served \(\/disbursements\/.*; all read$/),
    ]);
    const clean = await cleanFingerprints();
    const prints = await fingerprints(file);
    for (const t of ['disbursements', 'payouts', 'refunds', 'adjustments', 'quarantine'] as const) expect(prints[t], t).toEqual(clean[t]);
  });

  it('asks /files again for fresh links when a pre-signed link has expired', async () => {
    const sb = await sandbox({ faults: { expiredLinkRate: 0.25 } });
    const file = db();
    const run = await syncOnce(sb, file);
    expect(run.code).toBe(0);
    const withFiles = [...sb.truth.disbursements()].filter((t) => t.expected.files > 0).length;
    expect(sb.stats().requests.byEndpoint.files).toBeGreaterThan(withFiles);
    expect(await fingerprints(file)).toEqual(await cleanFingerprints());
  });

  it('pauses every request for the block after a 429, then completes the run', async () => {
    const sb = await sandbox({ rateLimit: { limit: 40, windowMs: 1000, blockMs: 400 } });
    const file = db();
    const run = await syncOnce(sb, file, [], { blockMs: 450 });
    expect(run.code).toBe(0);
    const [r] = await query(file, `SELECT rate_limited FROM runs WHERE run_id = '${run.runId}'`);
    expect(Number(r!.rate_limited)).toBeGreaterThan(0);
    expect(sb.stats().rateLimited).toBeGreaterThan(0);
    expect(await fingerprints(file)).toEqual(await cleanFingerprints());
  });

  it('retries 500, 502, 503, HTML pages, resets and time-outs and ends with the same content', async () => {
    const sb = await sandbox({ serverTimeoutMs: 100, faults: { rate: 0.2, kinds: ['500', '502', '503', 'html', 'slow', 'reset'] } });
    const file = db();
    const run = await syncOnce(sb, file);
    expect(run.code).toBe(0);
    const [r] = await query(file, `SELECT retries FROM runs WHERE run_id = '${run.runId}'`);
    expect(Number(r!.retries)).toBeGreaterThan(0);
    expect(await fingerprints(file)).toEqual(await cleanFingerprints());
  });

  it('retries truncated JSON bodies', async () => {
    const sb = await sandbox({ faults: { rate: 0.25, kinds: ['truncated'] } });
    const file = db();
    const run = await syncOnce(sb, file);
    expect(run.code).toBe(0);
    expect(sb.stats().faults.truncated).toBeGreaterThan(0);
    expect(await fingerprints(file)).toEqual(await cleanFingerprints());
  });

  it('quarantines an invalid record with its reason and goes on', async () => {
    const sb = await sandbox({ anomalies: { plant: [{ index: 12, kind: 'invalid_record' }] } });
    const file = db();
    const run = await syncOnce(sb, file);
    expect(run.code).toBe(0);
    const id = [...sb.truth.disbursements()].find((t) => t.index === 12)!.disbursement_id;
    const q = await query(file, `SELECT disbursement_id, resource, reason, raw FROM quarantine`);
    expect(q).toHaveLength(1);
    expect(q[0]!.disbursement_id).toBe(id);
    expect(q[0]!.resource).toBe('payout');
    expect(String(q[0]!.reason)).toMatch(/amount|reference/);
    const [d] = await query(file, `SELECT sync_status FROM disbursements WHERE disbursement_id = '${id}'`);
    expect(d!.sync_status).toBe('invalid');
    expect(Number((await query(file, 'SELECT count(*) AS n FROM disbursements'))[0]!.n)).toBe(40);
  });

  it('keeps the earlier version in history when a re-read finds a restatement', async () => {
    const sb = await sandbox({ anomalies: { plant: [{ index: 39, kind: 'restated' }] } });
    const file = db();
    await syncOnce(sb, file);
    sb.setGeneration(1);
    const again = await syncOnce(sb, file);
    expect(again.result!.restated).toBe(1);
    const id = [...sb.truth.disbursements()].find((t) => t.index === 39)!.disbursement_id;
    const h = await query(file, `SELECT version, amount FROM disbursement_history WHERE disbursement_id = '${id}'`);
    const [d] = await query(file, `SELECT version, amount FROM disbursements WHERE disbursement_id = '${id}'`);
    expect(h).toHaveLength(1);
    expect(Number(h[0]!.version)).toBe(1);
    expect(Number(d!.version)).toBe(2);
    expect(d!.amount).not.toEqual(h[0]!.amount);
  });
});

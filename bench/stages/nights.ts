// night_requests_ratio / night_minutes_10M / sync_cpu_s_per_1M: ten nights in a row against
// the sandbox (its own process, a maximum page size it does not disclose), each on the injected clock one
// day after the other, the service delivering what its dataset delivered by then. Night 1 is the backfill;
// nights 2 and 10 are measured against what they truly need: every list page at the largest page size the
// service accepts, the children of the new (and changed) disbursements, and the stated rotation
// (src/sync/rotation.ts: of the lookback window, those whose slot is that night, and once just after the
// window those no slot night re-read after their first read).
// Args: disbursements payoutsPer [rotationNights]
import path from 'node:path';
import { runSync, stage, tempDir } from '../lib.js';
import { startSandboxProcess, type SandboxProcess } from '../sandbox-process.js';
import { ROTATION_NIGHTS } from '../../src/sync/rotation.js';

const DAY = 86_400_000;
const READS = ['list', 'files', 'payouts', 'refunds', 'adjustments', 'disbursement'] as const;
/** The page size the sandbox serves at most here: recon is not told, it finds it (1000 asked, accepted). */
const SERVICE_MAX_PER_PAGE = 1000;
const LOOKBACK_DAYS = 7;
const NIGHTS = 10;

async function readRequests(sb: SandboxProcess): Promise<Record<string, number>> {
  const by: Record<string, number> = {};
  for (const [, endpoint] of await sb.log()) if ((READS as readonly string[]).includes(endpoint)) by[endpoint] = (by[endpoint] ?? 0) + 1;
  return by;
}

stage(async ([disbursementsArg = '600', payoutsArg = '100', rotationArg]) => {
  const n = Number(disbursementsArg);
  const nights = rotationArg ? Number(rotationArg) : ROTATION_NIGHTS;
  // the last night runs at 02:30 UTC on the dataset's end date; the dataset spans one month before it
  const lastNight = Date.parse('2026-10-31T02:30:00Z');
  const nightAt = (k: number) => lastNight - (NIGHTS - k) * DAY;
  const sb = await startSandboxProcess({
    seed: 'bench-nights', disbursements: n, payoutsPerDisbursement: Number(payoutsArg), months: 1, endDate: new Date(lastNight).toISOString(),
    maxPerPage: SERVICE_MAX_PER_PAGE, requestLogSize: 1_000_000, rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const tmp = tempDir();
  const db = path.join(tmp.dir, 'recon.duckdb');
  const args = ['--rate-per-minute', '10000000', '--sample-budget', '0', '--lookback-days', String(LOOKBACK_DAYS)];
  try {
    const measured: Array<Record<string, unknown>> = [];
    let backfill: Record<string, unknown> = {};
    let deliveredBefore = 0;
    for (let k = 1; k <= NIGHTS; k += 1) {
      const now = nightAt(k);
      const delivered = await sb.deliverUntil(now);
      await sb.resetStats();
      const cpu = process.cpuUsage();
      const { result, counters } = await runSync(sb, db, args, { retryBaseMs: 5, now: () => now, rotationNights: nights });
      const cpuS = (() => {
        const u = process.cpuUsage(cpu);
        return (u.user + u.system) / 1e6;
      })();
      if (k === 1) {
        const m = await sb.minimum(SERVICE_MAX_PER_PAGE);
        backfill = { delivered, payouts: m.payoutLines, cpuS, requests: counters.requests };
      }
      if (k === 2 || k === NIGHTS) {
        const by = await readRequests(sb);
        const issued = Object.values(by).reduce((a, b) => a + b, 0);
        const minimum = await sb.minimum(SERVICE_MAX_PER_PAGE, { fromIndex: deliveredBefore, deliveredSinceMs: now - LOOKBACK_DAYS * DAY, rotation: { nowMs: now, nights, firstNightMs: nightAt(1) } });
        const needed = minimum.list + minimum.files + minimum.payouts + minimum.refunds + minimum.adjustments;
        measured.push({ night: k, delivered, newDisbursements: delivered - deliveredBefore, issued, needed, ratio: issued / needed, by, minimum,
          reasons: result.reasons, fetched: result.fetched, listed: result.listed });
      }
      deliveredBefore = delivered;
    }
    return { disbursements: n, payoutsPer: Number(payoutsArg), rotationNights: nights, lookbackDays: LOOKBACK_DAYS, backfill, nights: measured };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

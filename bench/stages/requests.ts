// request_efficiency on three nights a real service gives: the sandbox counts every request by
// endpoint and answer, its ground truth says what the night needs (sandbox-child.ts, minimum).
//   backfill    first night over an empty store: 100–300 ms latency, 5 % transient 5xx faults (their
//               retries counted apart), payment sampling on (look-ups apart)
//   night2      a second night after 1 % new deliveries, default lookback (its rotation's re-reads)
//   realistic   the realistic profile's first night: per_page above 50 refused, so recon negotiates the
//               page size (the refusals counted apart), redirects and expiring links on downloads
// Args: mode disbursements payoutsPerDisbursement
import path from 'node:path';
import { runSync, seconds, stage, tempDir } from '../lib.js';
import { startSandboxProcess, type SandboxProcess } from '../sandbox-process.js';
import type { ChildSelection } from '../sandbox-child.js';
import { ROTATION_NIGHTS } from '../../src/sync/rotation.js';

/** The endpoints a night's reading is made of (downloads and payment look-ups are counted apart). */
const READS = ['list', 'files', 'payouts', 'refunds', 'adjustments', 'disbursement'] as const;
const DAY = 86_400_000;

/** Requests per endpoint split by answer: served (2xx, 404 past a list's end), refused (4xx), failed (5xx), redirected (3xx). */
async function answers(sb: SandboxProcess) {
  const by: Record<string, { served: number; redirected: number; refused: number; failed: number }> = {};
  for (const [, endpoint, status] of await sb.log()) {
    const e = (by[endpoint] ??= { served: 0, redirected: 0, refused: 0, failed: 0 });
    if (status >= 500) e.failed += 1;
    else if (status >= 400 && status !== 404) e.refused += 1;
    else if (status >= 300 && status < 400) e.redirected += 1;
    else e.served += 1;
  }
  return by;
}

stage(async ([mode = 'backfill', disbursementsArg = '2000', payoutsArg = '60']) => {
  const n = Number(disbursementsArg);
  const now = Date.now();
  const common = { seed: `bench-requests-${mode}`, disbursements: n, payoutsPerDisbursement: Number(payoutsArg), requestLogSize: 1_000_000 };
  const sb = await startSandboxProcess(
    mode === 'backfill' ? { ...common, latencyMs: [100, 300], faults: { rate: 0.05, kinds: ['500', '502', '503'] }, rateLimit: { limit: 1_000_000, windowMs: 60_000 } }
      : mode === 'night2' ? { ...common, endDate: new Date(now).toISOString(), rateLimit: { limit: 1_000_000, windowMs: 60_000 } }
        : { ...common, profile: 'realistic', rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
  );
  const tmp = tempDir();
  const db = path.join(tmp.dir, 'recon.duckdb');
  // as a user runs it: no --per-page (recon's default, negotiated down when refused); sampling at its default
  const args = ['--rate-per-minute', '10000000', ...(mode === 'backfill' ? [] : ['--sample-budget', '0'])];
  try {
    let perPage = 100; // the sandbox's maxPerPage: the largest page size it honours
    let select: ChildSelection | undefined;
    if (mode === 'realistic') perPage = 50;
    if (mode === 'night2') {
      const first = Math.floor(n * 0.99);
      await sb.setDelivered(first);
      await runSync(sb, db, args, { retryBaseMs: 5 });
      await sb.setDelivered(n);
      await sb.resetStats(); // the log and counts start again: night 2 alone
      // the re-reads the night needs: of the 7-day window, those whose rotation slot is tonight
      select = { fromIndex: first, deliveredSinceMs: Date.now() - 7 * DAY, rotation: { nowMs: Date.now(), nights: ROTATION_NIGHTS } };
    }
    const started = performance.now();
    const { result, counters } = await runSync(sb, db, args, { retryBaseMs: 5 });
    const elapsed = seconds(started);
    const by = await answers(sb);
    const minimum = await sb.minimum(perPage, select);
    const served = Object.fromEntries(READS.map((e) => [e, by[e]?.served ?? 0]));
    const sum = (pick: (e: { served: number; redirected: number; refused: number; failed: number }) => number, names: readonly string[]) =>
      names.reduce((a, e) => a + (by[e] ? pick(by[e]!) : 0), 0);
    return {
      mode, elapsed, perPage, result: { listed: result.listed, written: result.written }, counters, minimum, served, answers: by,
      issued: sum((e) => e.served, READS),
      needed: minimum.list + minimum.files + minimum.payouts + minimum.refunds + minimum.adjustments,
      retries: sum((e) => e.failed, READS),
      refusals: sum((e) => e.refused, READS),
      downloads: by.download?.served ?? 0,
      redirects: sum((e) => e.redirected, Object.keys(by)),
      lookups: (by.payment?.served ?? 0) + (by.payment?.refused ?? 0) + (by.payment?.failed ?? 0),
    };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

// request_efficiency: a full backfill against a sandbox with no latency and a limit it cannot reach;
// the sandbox counts what recon asked for, its ground truth says what the dataset needs.
// Args: disbursements payoutsPerDisbursement
import path from 'node:path';
import { runSyncJob, seconds, stage, tempDir } from '../lib.js';
import { startSandboxProcess } from '../sandbox-process.js';

const PER_PAGE = 100; // the sandbox's maxPerPage: the largest page size it honours

stage(async ([disbursements = '2000', payoutsPer = '60']) => {
  const sb = await startSandboxProcess({
    seed: 'bench-requests',
    disbursements: Number(disbursements),
    payoutsPerDisbursement: Number(payoutsPer),
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const tmp = tempDir();
  try {
    const started = performance.now();
    const { result, counters } = await runSyncJob(sb, path.join(tmp.dir, 'recon.duckdb'),
      ['--rate-per-minute', '10000000', '--sample-budget', '0', '--per-page', String(PER_PAGE)], { retryBaseMs: 5 });
    const elapsed = seconds(started);
    const stats = await sb.stats();
    const minimum = await sb.minimum(PER_PAGE);
    return { elapsed, result, counters, byEndpoint: stats.requests.byEndpoint, total: stats.requests.total, rateLimited: stats.rateLimited, minimum };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

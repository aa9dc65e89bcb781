// scaling / sync_peak_rss_mb: a full sync of disbursements × payoutsPer payouts against the sandbox (its
// own process, no latency, a limit it cannot reach), then every check over the result. Peak RSS is read
// after the sync (the sync's figure) and after the checks.
// Args: disbursements payoutsPer
import path from 'node:path';
import { runChecks } from '../../../src/checks/runner.js';
import { openStore } from '../../../src/load/db.js';
import { peakRssMb, runSyncJob, seconds, stage, tempDir } from '../lib.js';
import { startSandboxProcess } from '../sandbox-process.js';

stage(async ([disbursementsArg = '1000', payoutsArg = '100']) => {
  const sb = await startSandboxProcess({
    seed: 'bench-scale',
    disbursements: Number(disbursementsArg),
    payoutsPerDisbursement: Number(payoutsArg),
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const tmp = tempDir();
  const db = path.join(tmp.dir, 'recon.duckdb');
  try {
    // JS heap + buffers vs the whole process: what is left of RSS is mostly DuckDB's buffer pool
    let jsPeakMb = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      jsPeakMb = Math.max(jsPeakMb, (m.heapTotal + m.external + m.arrayBuffers) / 1024 / 1024);
    }, 200);
    let started = performance.now();
    const { result, counters } = await runSyncJob(sb, db, ['--rate-per-minute', '10000000', '--sample-budget', '0'], { retryBaseMs: 5 });
    const syncS = seconds(started);
    const syncRssMb = peakRssMb();
    clearInterval(sampler);
    const store = await openStore(db);
    started = performance.now();
    let findings = 0;
    try {
      findings = (await runChecks(store.connection, { runId: 'bench-scale-checks' })).findings;
    } finally {
      store.close();
    }
    const checksS = seconds(started);
    const [stats, sandboxRss, minimum] = [await sb.stats(), await sb.rss(), await sb.minimum(100)];
    return { disbursements: result.written, lines: result.lines, payouts: minimum.payoutLines, files: result.files, requests: counters.requests,
      sandboxRequests: stats.requests.total, syncS, checksS, findings, syncRssMb, jsPeakMb, peakRssMb: peakRssMb(), sandboxRssMb: sandboxRss.vmHwmMb };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

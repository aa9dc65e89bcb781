// scaling / sync_peak_rss_mb: a full sync of disbursements × payoutsPer payouts against the sandbox (its
// own process, no latency, a limit it cannot reach), then every check over the result in the same job and
// process, as `recon run` does. Peak RSS is read after the sync (the sync's figure) and after the checks.
// The process starts with the bin's memory settings (child.ts).
// Args: disbursements payoutsPer
import path from 'node:path';
import { runChecks } from '../../src/checks/runner.js';
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
    // JS heap + buffers vs the whole process: what is left of RSS is DuckDB and the process itself
    let jsPeakMb = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      jsPeakMb = Math.max(jsPeakMb, (m.heapTotal + m.external) / 1024 / 1024);
    }, 200);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const cpuS = (since: NodeJS.CpuUsage) => {
      const u = process.cpuUsage(since);
      return (u.user + u.system) / 1e6;
    };
    let syncCpuS = 0;
    let checksCpuS = 0;
    let syncS = 0;
    let syncRssMb = 0;
    let checksS = 0;
    let findings = 0;
    const { result, counters } = await runSyncJob(sb, db, ['--rate-per-minute', '10000000', '--sample-budget', '0'], { retryBaseMs: 5 },
      async (ctx) => {
        syncS = seconds(started);
        syncCpuS = cpuS(cpu);
        syncRssMb = peakRssMb();
        clearInterval(sampler);
        const checksStarted = performance.now();
        const checksCpu = process.cpuUsage();
        findings = (await runChecks(ctx.store.connection, { runId: ctx.runId })).findings;
        checksS = seconds(checksStarted);
        checksCpuS = cpuS(checksCpu);
      });
    const [stats, sandboxRss, minimum] = [await sb.stats(), await sb.rss(), await sb.minimum(100)];
    return { disbursements: result.written, lines: result.lines, payouts: minimum.payoutLines, files: result.files, requests: counters.requests,
      sandboxRequests: stats.requests.total, syncS, checksS, syncCpuS, checksCpuS, findings, syncRssMb, jsPeakMb, peakRssMb: peakRssMb(), sandboxRssMb: sandboxRss.vmHwmMb };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

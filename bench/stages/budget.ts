// budget_use: how much of its own budget (450 per window) recon uses with its default configuration, and
// the busiest sliding window against the service's limit (500 per window), against a sandbox that enforces
// that limit with the window compressed to W ms, 100–300 ms of latency per request and 5 % transient 5xx
// faults (each a request the service counts too). The client's budget is its default (450/min) scaled to W.
// Args: windowMs disbursements [concurrency] (recon's default when left out)
import path from 'node:path';
import { runSyncJob, seconds, stage, tempDir } from '../lib.js';
import { startSandboxProcess } from '../sandbox-process.js';

const SERVICE_LIMIT = 500;
/** recon's default --rate-per-minute (pipelines/config.ts), per compressed window. */
const DEFAULT_BUDGET = 450;

stage(async ([windowArg = '6000', disbursementsArg = '560', concurrencyArg]) => {
  const W = Number(windowArg);
  const sb = await startSandboxProcess({
    seed: 'bench-budget',
    disbursements: Number(disbursementsArg),
    latencyMs: [100, 300],
    faults: { rate: 0.05, kinds: ['500', '502', '503'] },
    requestLogSize: 1_000_000,
    rateLimit: { limit: SERVICE_LIMIT, windowMs: W, blockMs: 10 * W },
  });
  const tmp = tempDir();
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { counters, concurrency } = await runSyncJob(sb, path.join(tmp.dir, 'recon.duckdb'),
      [...(concurrencyArg ? ['--concurrency', concurrencyArg] : [])],
      { intervalMs: W, blockMs: 10 * W, retryBaseMs: 50 });
    const elapsed = seconds(started);
    const used = process.cpuUsage(cpu);
    const cpuS = (used.user + used.system) / 1e6;
    const stats = await sb.stats();
    const times = (await sb.log()).map(([t]) => t).sort((a, b) => a - b);
    return { windowMs: W, budgetPerWindow: DEFAULT_BUDGET, serviceLimit: SERVICE_LIMIT, concurrency, elapsed, cpuS, faults: stats.faults,
      clientRateLimited: counters.rate_limited, sandboxRateLimited: stats.rateLimited, requests: stats.requests.total,
      ...rates(times, W) };
  } finally {
    await sb.close();
    tmp.cleanup();
  }
});

/**
 * Achieved rate over the whole windows from the first request (the tail — the last disbursements
 * finishing with fewer requests in flight — falls in the incomplete last window and is left out), the
 * overall rate, and the most requests seen in any sliding window (what the service would count).
 */
function rates(times: number[], W: number) {
  const first = times[0] ?? 0;
  const last = times[times.length - 1] ?? 0;
  const windows = Math.floor((last - first) / W);
  const steadyEnd = first + windows * W;
  const steadyCount = times.filter((t) => t < steadyEnd).length;
  let peakInWindow = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (times[i]! - times[j]! >= W) j += 1;
    peakInWindow = Math.max(peakInWindow, i - j + 1);
  }
  const perWindow = (count: number, ms: number) => (ms > 0 ? (count / ms) * W : 0);
  const perWindowCounts: number[] = [];
  for (let w = 0; w < windows; w += 1) {
    perWindowCounts.push(times.filter((t) => t >= first + w * W && t < first + (w + 1) * W).length);
  }
  return {
    windows,
    perWindowCounts,
    steadyPerWindow: perWindow(steadyCount, windows * W),
    overallPerWindow: perWindow(times.length, last - first),
    peakInWindow,
    spanS: (last - first) / 1000,
  };
}

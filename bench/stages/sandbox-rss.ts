// sandbox_peak_rss_mb: the sandbox (its own process) serving disbursements × payoutsPer payouts while a
// client walks every list page and, for every `stride`-th disbursement, its payouts pages, files and
// downloads. The sandbox's VmHWM is sampled every 100 ms from /proc.
// Args: disbursements payoutsPer stride maxSeconds
import { seconds, stage } from '../lib.js';
import { startSandboxProcess } from '../sandbox-process.js';
import { vmHwmMb } from '../proc.js';

const PARALLEL = 8;

stage(async ([disbursementsArg = '100000', payoutsArg = '100', strideArg = '25', maxSecondsArg = '45']) => {
  const started = performance.now();
  const sb = await startSandboxProcess({
    seed: 'bench-sandbox',
    disbursements: Number(disbursementsArg),
    payoutsPerDisbursement: Number(payoutsArg),
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const startupS = seconds(started);
  const afterStartMb = vmHwmMb(sb.pid);
  let peak = afterStartMb;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, vmHwmMb(sb.pid));
    } catch {
      // the process has gone; the last sample stands
    }
  }, 100);
  const deadline = performance.now() + Number(maxSecondsArg) * 1000;
  const headers = { 'x-authentication-key': sb.apiKey };
  const api = `${sb.url}/payments/v1`;
  const get = async (url: string, auth = true): Promise<unknown> => {
    const res = await fetch(url, { headers: auth ? headers : {} });
    if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
    return auth ? res.json() : res.arrayBuffer();
  };
  let requests = 0;
  let walked = 0;
  let listPages = 0;
  try {
    const ids: string[] = [];
    const first = (await get(`${api}/disbursements?page=1&per_page=100`)) as { total_pages: number; disbursements: Array<{ disbursement_id: string }> };
    const pages = first.total_pages;
    const listPage = async (p: number) => {
      const body = p === 1 ? first : ((await get(`${api}/disbursements?page=${p}&per_page=100`)) as typeof first);
      requests += 1;
      listPages += 1;
      body.disbursements.forEach((d, i) => { if (((p - 1) * 100 + i) % Number(strideArg) === 0) ids.push(d.disbursement_id); });
    };
    // half the time on list pages (the sandbox serves them slowly at this size), half on children
    const listDeadline = performance.now() + (Number(maxSecondsArg) * 1000) / 2;
    await pool(Array.from({ length: pages }, (_, i) => i + 1), listPage, () => performance.now() < listDeadline);
    await pool(ids, async (id) => {
      const base = `${api}/disbursements/${encodeURIComponent(id)}`;
      for (let p = 1; ; p += 1) {
        const body = (await get(`${base}/payouts?page=${p}&per_page=100`)) as { total_pages: number };
        requests += 1;
        if (p >= body.total_pages) break;
      }
      const files = (await get(`${base}/files`)) as Array<{ url: string }>;
      requests += 1;
      for (const f of files) {
        await get(f.url, false);
        requests += 1;
      }
      walked += 1;
    }, () => performance.now() < deadline);
  } finally {
    clearInterval(sampler);
    try {
      peak = Math.max(peak, vmHwmMb(sb.pid));
    } catch {
      // gone already
    }
    await sb.close();
  }
  return { disbursements: Number(disbursementsArg), payoutsPer: Number(payoutsArg), startupS, afterStartMb, peakMb: peak, requests, listPages,
    walkedDisbursements: walked, seconds: seconds(started) };
});

async function pool<T>(items: T[], fn: (item: T) => Promise<void>, go: () => boolean): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < items.length && go()) await fn(items[next++]!);
  }));
}

// The sandbox in a process of its own (forked with an IPC channel), as the real service would be: the
// client's CPU and memory stay apart from the server's, and the runner can sample the server's RSS.
// Options arrive as JSON in argv[2]; the parent asks over IPC for stats, the request log, the minimum
// number of requests the dataset needs, and the peak RSS.
import { startSandbox, type SandboxOptions } from '../sandbox/index.js';
import { vmHwmMb } from './proc.js';
import { slotDue } from '../src/sync/rotation.js';

export type SandboxRequest =
  | { id: number; type: 'stats' }
  | { id: number; type: 'reset-stats' }
  | { id: number; type: 'log' }
  | { id: number; type: 'minimum'; perPage: number; select?: ChildSelection }
  | { id: number; type: 'set-delivered'; count: number }
  | { id: number; type: 'deliver-until'; ms: number }
  | { id: number; type: 'rss' };

/**
 * Whose children a night must read: every disbursement (a backfill), or those from index `fromIndex` on
 * (delivered since the last night) and those delivered at or after `deliveredSinceMs` (the re-read window).
 */
export interface ChildSelection {
  fromIndex: number;
  deliveredSinceMs: number;
  /**
   * With a rotation, of those delivered since `deliveredSinceMs` only the ones whose rotation
   * slot is the night at `nowMs` (src/sync/rotation.ts, the stated rule) are re-read; new ones always.
   * With `firstNightMs` (runs every night since that backfill, at its time of day), one that has left the
   * window is re-read too on the night `nights` days after its first read when no slot night in the window
   * came between (owedAfterWindow there).
   */
  rotation?: { nowMs: number; nights: number; firstNightMs?: number };
}

/**
 * Requests the dataset needs at `perPage`, from the interface alone (docs/performance.md, "The minimum"):
 * the list has no filter and no promised order, so a night reads every list page; a disbursement read
 * needs its /files answer and every page of its payouts, refunds and adjustments, an empty list proven by
 * one page; the files offered are downloads (counted apart).
 */
export interface Minimum {
  disbursements: number;
  list: number;
  files: number;
  payouts: number;
  refunds: number;
  adjustments: number;
  downloads: number;
  payoutLines: number;
  /** Disbursements in the list (all visible ones); `disbursements` are those whose children are read. */
  listed: number;
}

const DAY_MS = 86_400_000;

/** Out of the window, owed its one read after it tonight (ChildSelection.rotation's `firstNightMs`). */
function owedTonight(
  id: string,
  deliveredMs: number,
  windowStartMs: number,
  r: { nowMs: number; nights: number; firstNightMs?: number },
): boolean {
  if (r.firstNightMs === undefined || deliveredMs >= windowStartMs) return false;
  const lookbackMs = r.nowMs - windowStartMs;
  // nightly runs: the first read is the first night at or after the delivery, the backfill at the earliest
  const firstRead = r.firstNightMs + Math.max(0, Math.ceil((deliveredMs - r.firstNightMs) / DAY_MS)) * DAY_MS;
  if (firstRead > deliveredMs + lookbackMs || r.nowMs !== firstRead + r.nights * DAY_MS) return false;
  for (let n = firstRead + DAY_MS; n < r.nowMs; n += DAY_MS) {
    if (deliveredMs >= n - lookbackMs && slotDue(id, n, r.nights)) return false;
  }
  return true;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions;
  const sb = await startSandbox(options);
  const pages = (n: number, perPage: number) => Math.max(1, Math.ceil(n / perPage));
  const answer = (req: SandboxRequest): unknown => {
    switch (req.type) {
      case 'stats':
        return sb.stats();
      case 'reset-stats':
        sb.resetStats();
        return null;
      case 'log':
        return sb.requestLog().map((e) => [e.t, e.endpoint, e.status]);
      case 'rss':
        return { vmHwmMb: vmHwmMb(), maxRssMb: process.resourceUsage().maxRSS / 1024 };
      case 'set-delivered':
        sb.setDelivered(req.count);
        return null;
      case 'deliver-until': {
        // index order is delivered_at order: the disbursements delivered by then are a prefix (binary search)
        let lo = 0;
        let hi = sb.truth.disbursementCount;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (Date.parse(sb.truth.disbursement(mid).delivered_at) <= req.ms) lo = mid + 1;
          else hi = mid;
        }
        sb.setDelivered(lo);
        return lo;
      }
      case 'minimum': {
        const m: Minimum = { disbursements: 0, list: 0, files: 0, payouts: 0, refunds: 0, adjustments: 0, downloads: 0, payoutLines: 0, listed: 0 };
        for (const d of sb.truth.disbursements()) {
          if (!d.visible) continue;
          m.listed += 1;
          const sel = req.select;
          const inWindow = sel !== undefined && Date.parse(d.delivered_at) >= sel.deliveredSinceMs
            && (sel.rotation === undefined || slotDue(d.disbursement_id, sel.rotation.nowMs, sel.rotation.nights));
          const chosen = !sel || d.index >= sel.fromIndex || inWindow || (sel.rotation !== undefined
            && owedTonight(d.disbursement_id, Date.parse(d.delivered_at), sel.deliveredSinceMs, sel.rotation));
          if (!chosen) continue;
          const e = d.expected;
          m.disbursements += 1;
          m.files += 1;
          // a list is proven empty by one page; invalid records are served (and must be read) too
          m.payouts += pages(e.payouts.count + e.invalid, req.perPage);
          m.refunds += pages(e.refunds.count, req.perPage);
          m.adjustments += pages(e.adjustments.count, req.perPage);
          m.downloads += e.files;
          m.payoutLines += e.payouts.count + e.invalid;
        }
        m.list = Math.max(1, Math.ceil(m.listed / req.perPage));
        return m;
      }
    }
  };
  process.on('message', (req: SandboxRequest) => {
    process.send!({ id: req.id, value: answer(req) });
  });
  process.on('disconnect', () => {
    void sb.close().finally(() => process.exit(0));
  });
  process.send!({ id: 0, value: { url: sb.url, apiKey: sb.apiKey, pid: process.pid } });
}

void main();

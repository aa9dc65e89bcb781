// The sync stage as a run uses it: the client built from the stage's own settings, the sync itself
// (run.ts), and what the run records of it. Nothing here knows the CLI's configuration: the pipeline
// hands over a SyncSettings built once (pipelines/settings.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { PaymentsClient } from '../api/client.js';
import { RequestBudget, realClock, type Clock } from '../api/budget.js';
import { AdaptiveConcurrency } from '../api/concurrency.js';
import { SharedBudget } from '../api/shared-budget.js';
import { assertReachable } from '../api/reach.js';
import { PROBE_PER_PAGE } from '../api/paginate.js';
import { redactor, type Secrets } from '../api/redact.js';
import { preferCompactHeap } from '../ops/memory.js';
import { checkpoint, setMemoryLimit, type Store } from '../store/db.js';
import { PAGE_SIZE_FLOOR, rememberPageSize, rememberedPageSize } from '../store/service-settings.js';
import type { RunCounters } from '../store/runs.js';
import { loadLayouts } from './layouts.js';
import { syncDisbursements, type ListProgress, type SyncResult } from './run.js';
import { PauseWatch } from './pauses.js';

/** What the sync stage needs to know, and nothing else. */
export interface SyncSettings {
  apiUrl: string;
  apiKey: string;
  /** Never written anywhere: the API key and every other secret of the command. */
  secrets: Secrets;
  insecureHttp: boolean;
  ratePerMinute: number;
  /** The host-wide budget file every recon process on the host shares (--budget-file), or null. */
  budgetFile: string | null;
  concurrency: number;
  /** Page size asked for; null: the largest the service accepts (PROBE_PER_PAGE down, found once, remembered). */
  perPage: number | null;
  lookbackDays: number;
  since: Date | null;
  full: boolean;
  timeoutMs: number;
  maxFileBytes: number;
  maxLines: number;
  sampleBudget: number;
  /** Settlement-file layouts (JSON); recon's own when unset. */
  layoutsFile: string | undefined;
  /** Where downloaded files are kept, by content (files/ beside the store). */
  filesDir: string;
  /** Archived months (archive/ beside the store): one comes back when the service changes one of its disbursements. */
  archiveDir: string;
  /** DuckDB's memory limit while syncing, and the one the run gets back afterwards. */
  syncMemoryMb: number;
  memoryMb: number;
}

export interface SyncTuning {
  /** Budget window for tests and benchmarks that compress time (default 60 000 ms). */
  intervalMs?: number;
  blockMs?: number;
  retryBaseMs?: number;
  now?: () => number;
  /** The client's and the budget's clock (its sleeps too): tests run a night on virtual time with it. */
  clock?: Clock;
  /** Orders the payment sample instead of the run id, so a demo samples the same payments every time. */
  sampleSeed?: string;
  /** Another rotation period than ROTATION_NIGHTS: the bench measures what each would cost. */
  rotationNights?: number;
}

/** What the command shows of a sync in progress (a progress bar on a terminal). */
export type SyncProgressListener = (p: ListProgress & {
  requests: number;
  /** While a 429 block holds every request: when it ends (ms since the epoch). */
  pausedUntil: number | null;
  /** While no request can leave for another reason (the shared budget file's lock is held): what for. */
  waitingFor: string | null;
}) => void;

/** Disbursements read at once when a sync starts (--concurrency caps it); the budget's use moves it from there. */
const INITIAL_CONCURRENCY = 8;

/** How often a sync in progress is reported even when nothing moves (a 429 block): the bar keeps time. */
const PROGRESS_TICK_MS = 1000;

/** The run the sync writes into; `counters` gets the client's requests, retries and 429s, also on failure. */
interface SyncTarget {
  /** The store: the sync writes on its connection and on a second one of its own (StoreWriter's `second`). */
  store: Pick<Store, 'instance' | 'connection'>;
  runId: string;
  signal: AbortSignal;
  counters: RunCounters;
}

export async function syncStage(
  target: SyncTarget,
  settings: SyncSettings,
  logger: Logger,
  tuning: SyncTuning = {},
  onProgress?: SyncProgressListener,
): Promise<SyncResult> {
  await assertReachable(settings.apiUrl); // a mistyped --api-url fails in seconds, not after minutes of retries
  preferCompactHeap();
  // a wait for the budget file's lock is said in the log and to the listener, never silent
  let waitingFor: string | null = null;
  const onWait = (what: string | null) => {
    waitingFor = what;
    if (what) logger.warn(what);
    else logger.info("the request budget's lock was released; requests go on");
    report();
  };
  const budget = new RequestBudget({
    limit: settings.ratePerMinute,
    intervalMs: tuning.intervalMs ?? 60_000,
    shared: settings.budgetFile === null ? undefined : new SharedBudget(settings.budgetFile, { onWait }),
  }, tuning.clock);
  const pace = new AdaptiveConcurrency(budget, {
    initial: Math.min(INITIAL_CONCURRENCY, settings.concurrency),
    max: settings.concurrency,
    clock: tuning.clock ?? realClock,
  });
  pace.onChange(() => logger.debug({ concurrency: pace.limit }, 'disbursements read at once'));
  const client = new PaymentsClient({
    baseUrl: settings.apiUrl,
    apiKey: settings.apiKey,
    budget,
    logger,
    timeoutMs: settings.timeoutMs,
    blockMs: tuning.blockMs,
    retry:
      tuning.retryBaseMs === undefined
        ? undefined
        : { maxAttempts: 10, baseMs: tuning.retryBaseMs, capMs: tuning.retryBaseMs * 20 },
    connections: settings.concurrency * 2,
    insecureHttp: settings.insecureHttp,
    signal: target.signal,
    clock: tuning.clock,
    onAttempt: (outcome, ms) => pace.settled(outcome, ms),
  });
  const c = target.store.connection;
  const now = tuning.now ?? tuning.clock?.now ?? Date.now;
  // a size remembered a week ago or more is asked again larger (PROBE_PER_PAGE down), on this night
  const remembered = await rememberedPageSize(c, now());
  client.acceptedPageSize = remembered;
  client.learnPageSize = settings.perPage === null;
  const perPage = settings.perPage ?? client.acceptedPageSize ?? PROBE_PER_PAGE;
  // The sync only appends: DuckDB needs little memory for it, and without a lower limit its buffer pool
  // keeps the pages it wrote. The rest of the run gets its own limit back.
  await setMemoryLimit(c, settings.syncMemoryMb);
  // the budget's own clock (its gate is on it), which a test's fixed `now` for the data is not
  const gateNow = () => (tuning.clock ? tuning.clock.now() : Date.now());
  const pauses = new PauseWatch();
  let lastProgress: ListProgress = { announced: 0, listed: 0, skipped: 0, done: 0 };
  const report = (p: ListProgress = lastProgress) => {
    lastProgress = p;
    const at = gateNow();
    pauses.see(at, budget.blockedUntil);
    onProgress?.({ ...p, requests: client.stats.requests, pausedUntil: pauses.pausedUntil(at), waitingFor });
  };
  // a 429 closes the budget's gate (src/api/client.ts): the watch and the bar hear of it at once
  const closeGate = budget.block.bind(budget);
  budget.block = (until: number) => {
    closeGate(until);
    report();
  };
  const ticker = setInterval(() => report(), PROGRESS_TICK_MS);
  ticker.unref();
  let second: DuckDBConnection | null = null;
  try {
    second = await target.store.instance.connect();
    const result = await syncDisbursements(
      {
        connection: c,
        second,
        client,
        pace,
        runId: target.runId,
        archiveDir: settings.archiveDir,
        logger,
        signal: target.signal,
        redact: redactor(settings.secrets),
        extract: {
          layouts: await loadLayouts(settings.layoutsFile),
          filesDir: settings.filesDir,
          maxFileBytes: settings.maxFileBytes,
          maxLines: settings.maxLines,
          now,
          perPage,
        },
        onProgress: (p) => report(p),
      },
      {
        perPage,
        concurrency: settings.concurrency,
        lookbackDays: settings.lookbackDays,
        since: settings.since,
        full: settings.full,
        sampleBudget: settings.sampleBudget,
        sampleSeed: tuning.sampleSeed,
        rotationNights: tuning.rotationNights,
        now,
      },
    );
    Object.assign(target.counters, syncCounters(result));
    const size = client.acceptedPageSize;
    if (size !== null && size < PAGE_SIZE_FLOOR) {
      const warning = `the service accepted no more than ${size} per page, below the interface's default of `
        + `${PAGE_SIZE_FLOOR}: believed for this run only, asked again larger next run`;
      logger.warn(warning);
      result.warnings.push(warning);
    }
    pauses.see(gateNow(), budget.blockedUntil);
    result.pauses = pauses.pauses(gateNow());
    return result;
  } finally {
    clearInterval(ticker);
    second?.closeSync();
    // remembered when learned tonight (a size already remembered keeps the day it was learned, so it is
    // asked again after PAGE_SIZE_REPROBE_DAYS), and never below the floor
    const learned = client.acceptedPageSize;
    if (learned !== null && learned !== remembered && learned >= PAGE_SIZE_FLOOR) {
      await rememberPageSize(c, learned, target.runId, now()).catch(() => undefined);
    }
    // What the sync wrote goes into the store file under the sync's own limit, not at the next checkpoint
    // (the publish's, or the close's) under the run's larger one: a 1M-payout run's peak RSS was that
    // checkpoint's, 434–442 MB against the sync's 384. A failure here leaves it to that checkpoint.
    await checkpoint(c).catch((err: unknown) =>
      logger.warn({ err: (err as Error).message }, 'checkpoint after the sync failed; the next one writes it'),
    );
    await setMemoryLimit(c, settings.memoryMb);
    // what the client did is recorded on the run, a failed one too
    Object.assign(target.counters, {
      requests: client.stats.requests,
      retries: client.stats.retries,
      rate_limited: client.stats.rateLimited,
    });
    target.counters.paused_ms = pauses.pausedMs(gateNow());
    await client.close();
  }
}

/** The run's counters of a sync. */
function syncCounters(r: SyncResult): Record<string, number> {
  return {
    disbursements_listed: r.listed,
    disbursements_loaded: r.written,
    disbursements_skipped: r.skipped,
    lines_loaded: r.lines,
    files_downloaded: r.files,
    quarantined: r.quarantined,
    restated: r.restated,
  };
}

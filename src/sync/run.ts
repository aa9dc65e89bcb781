// sync = list delivered disbursements → decide which to (re)read → extract each with bounded
// concurrency → write in grouped transactions → sample payments for the cross-check.
import type { Pause } from './pauses.js';
import type { Logger } from 'pino';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PaymentsClient } from '../api/client.js';
import { paginate } from '../api/paginate.js';
import { DisbursementSchema, describeIssues, type Disbursement } from '../api/schemas.js';
import { recordHash } from '../store/bundle.js';
import { extractDisbursement, unreadBundle, type ExtractDeps } from './disbursement.js';
import { redactBundle, type DisbursementBundle } from '../store/bundle.js';
import { AuthError, RateLimitedError } from '../api/errors.js';
import { ReconError } from '../errors.js';
import { samplePayment } from './payments.js';
import { StoreWriter, loadStoredState, type StoredState } from '../store/writer.js';
import { restoreMonth } from '../store/archive.js';
import { pickSampleTargets, saveSamples } from '../store/samples.js';
import { quarantinePage, quarantineRecord } from '../store/quarantine.js';
import { disbursementsMissingBlobs } from '../store/blobs.js';
import { WorkPool } from '../ops/pool.js';
import type { AdaptiveConcurrency } from '../api/concurrency.js';
import { MAX_JSON_DEPTH, canonicalJson, tooDeepStandIn } from './canonical.js';
import { outsideWindow, parseServiceTimestamp, serviceTimestampMs } from '../timestamp.js';
import { type DeepRead, loadDeepReads, saveDeepReads } from '../store/deep-reads.js';
import { owedAfterWindow, ROTATION_NIGHTS, rotationDue } from './rotation.js';

interface SyncOptions {
  perPage: number;
  /** The most disbursements read at once (the adaptive limit, when given, moves below it). */
  concurrency: number;
  lookbackDays: number;
  since: Date | null;
  full: boolean;
  sampleBudget: number;
  /** Orders the sample (default: the run id, so successive nights sample differently). */
  sampleSeed?: string;
  now: () => number;
  /** The rotation period in nights (src/sync/rotation.ts); ROTATION_NIGHTS unless a bench measures another. */
  rotationNights?: number;
}

/** Why a listed disbursement was read tonight (what a night's requests went to). */
interface ReadReasons {
  new: number;
  changed: number;
  rotation: number;
  /** Incomplete before, files missing from files/, or --full. */
  again: number;
}

export interface SyncResult {
  listed: number;
  fetched: number;
  skipped: number;
  written: number;
  restated: number;
  quarantined: number;
  lines: number;
  files: number;
  sampled: number;
  interrupted: boolean;
  listComplete: boolean;
  reasons: ReadReasons;
  /** The 429 blocks the sync sat through (set by the sync step). */
  pauses?: Pause[];
  /** What the run should say though nothing failed (totals that lagged behind their list, a small page size …). */
  warnings: string[];
}

interface SyncDeps {
  connection: DuckDBConnection;
  /** A second connection to the store, for the writer (a batch appended while the one before commits). */
  second?: DuckDBConnection;
  client: PaymentsClient;
  /** How many to read at once, moved by what the client's budget and answers show; `concurrency` fixed without it. */
  pace?: AdaptiveConcurrency;
  extract: Omit<ExtractDeps, 'client'>;
  runId: string;
  /** Archived months (src/store/archive.ts): a changed disbursement of one brings its month back first. */
  archiveDir?: string;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (p: ListProgress) => void;
  /** The redaction boundary (src/api/redact.ts) every service text passes before the store. */
  redact: <T extends string | null | undefined>(text: T) => T;
}

/** Where the sync stands: the list's announced size is known from its first page, before any read. */
export interface ListProgress {
  announced: number;
  listed: number;
  /** Listed but not to be read this run (unchanged since the last one). */
  skipped: number;
  done: number;
}

/** Refused payment look-ups (at least this many, and at least 80 % of those made) that stop the sample. */
const REFUSED_LOOKUPS = 5;

/** Deep reads recorded together (deep_reads), at the latest at the end of the run. */
const DEEP_READS_SLICE = 5_000;

/** Disbursements failing one after another before the run gives up on the service. */
const FAILURES_IN_A_ROW = 10;

/** Errors no other disbursement can escape: the key refused, the store's disk, a stop. */
function stopsTheRun(err: unknown): boolean {
  if (err instanceof AuthError || err instanceof RateLimitedError) return true;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return (
    code === 'ENOSPC' ||
    code === 'EROFS' ||
    code === 'EDQUOT' ||
    code === 'EACCES' ||
    (err as Error | null)?.name === 'AbortError'
  );
}

/**
 * Whether to read a listed disbursement tonight, and why: new (since --since), not complete before, its
 * files missing, --full, its list record changed, or — inside the lookback window, or once just after it —
 * its rotation (src/sync/rotation.ts). Null: unchanged and not due, skipped.
 */
function readReason(
  record: Disbursement,
  prior: StoredState | undefined,
  o: SyncOptions,
  blobsMissing: boolean,
  lastDeepRead: DeepRead | undefined,
): keyof ReadReasons | null {
  const deliveredAt = serviceTimestampMs(record.delivered_at);
  if (!prior) return o.since === null || deliveredAt >= o.since.getTime() ? 'new' : null;
  if (o.full || prior.syncStatus === 'incomplete' || blobsMissing) return 'again';
  if (prior.recordHash !== recordHash(record)) return 'changed';
  const now = o.now();
  const nights = o.rotationNights ?? ROTATION_NIGHTS;
  if (deliveredAt < now - o.lookbackDays * 86_400_000) {
    // out of the window, read once more only if never read since the run that first wrote it
    const onlyFirstRead = lastDeepRead !== undefined && lastDeepRead.runId === prior.firstRunId;
    return onlyFirstRead && owedAfterWindow(now, deliveredAt, o.lookbackDays, lastDeepRead.atMs, nights)
      ? 'rotation'
      : null;
  }
  return rotationDue(record.disbursement_id, now, lastDeepRead?.atMs, nights) ? 'rotation' : null;
}

/**
 * Why a valid record's delivered_at is outside the dates recon holds (src/timestamp.ts, outsideWindow), or
 * null. Such a record is quarantined, never stored: a "9999-12-31" sentinel stored once carried every later
 * night's month windows past the year 9999.
 */
function deliveredOutside(record: Disbursement, nowMs: number): string | null {
  const at = parseServiceTimestamp(record.delivered_at);
  const why = typeof at === 'string' ? at : outsideWindow(at, nowMs);
  return why === null ? null : `delivered_at: ${why} (got ${JSON.stringify(record.delivered_at)})`;
}

export async function syncDisbursements(deps: SyncDeps, o: SyncOptions): Promise<SyncResult> {
  const { connection, client, logger } = deps;
  const stored = await loadStoredState(connection);
  const deepReads = await loadDeepReads(connection);
  const readInDepth: string[] = [];
  // files deleted from files/ (a cleaned disk, a restored backup) are downloaded again
  const blobsMissing = await disbursementsMissingBlobs(connection, deps.extract.filesDir);
  if (blobsMissing.size > 0)
    logger.warn(
      { disbursements: blobsMissing.size },
      'downloaded files are missing from the files folder; their disbursements are read again',
    );
  const archiveDir = deps.archiveDir;
  const writer = new StoreWriter(connection, deps.runId, stored, {
    second: deps.second,
    restoreArchived: archiveDir ? async (c, month) => {
      if (await restoreMonth(c, archiveDir, month)) {
        logger.info({ month }, 'archived month brought back: the service changed one of its disbursements');
      }
    } : undefined,
    onCommit: (ids) => logger.info({ disbursements: ids.length }, 'batch committed'),
  });
  const seen = new Set<string>();
  const result: SyncResult = {
    listed: 0,
    fetched: 0,
    skipped: 0,
    written: 0,
    restated: 0,
    quarantined: 0,
    lines: 0,
    files: 0,
    sampled: 0,
    interrupted: false,
    listComplete: true,
    reasons: { new: 0, changed: 0, rotation: 0, again: 0 },
    warnings: [],
  };
  // lists whose totals lagged: counted, and the first few kept as examples (bounded however many lag)
  const lagging = { count: 0, examples: [] as string[] };
  const onLaggedList = (note: string) => (lagging.count += 1) <= 3 && lagging.examples.push(note);
  const extractDeps: ExtractDeps = { ...deps.extract, client, onLaggedList };

  // One disbursement that cannot be read is stored incomplete with the reason and the night goes on;
  // what stops every disbursement (the key refused, the disk, a stop signal) fails the run, and so does a
  // service that fails every disbursement in a row (it is down, not one record bad).
  let failedInARow = 0;
  const readOne = async (record: Disbursement, raw: string): Promise<DisbursementBundle> => {
    try {
      const bundle = await extractDisbursement(extractDeps, record, raw);
      failedInARow = 0;
      return bundle;
    } catch (err) {
      if (stopsTheRun(err) || ++failedInARow >= FAILURES_IN_A_ROW) throw err;
      const reason = err instanceof ReconError ? err.message : `could not be read: ${(err as Error).message}`;
      logger.error(
        { disbursement_id: record.disbursement_id, err: reason },
        'disbursement could not be read; stored as incomplete, the run goes on',
      );
      return unreadBundle(record, raw, reason);
    }
  };

  let announced = 0;
  const progress = () =>
    deps.onProgress?.({ announced, listed: result.listed, skipped: result.skipped, done: result.fetched });
  // the list is read by this function, the disbursements by the pool's workers; a few pages at most wait
  const pool = new WorkPool<{ record: Disbursement; raw: string }>(async (next) => {
    const bundle = redactBundle(await readOne(next.record, next.raw), deps.redact);
    await writer.add(bundle);
    if (bundle.syncStatus !== 'incomplete') readInDepth.push(bundle.record.disbursement_id);
    // recorded in slices, so a backfill's ids are not all held at once; after what they read is committed
    if (readInDepth.length >= DEEP_READS_SLICE) {
      const slice = readInDepth.splice(0);
      await writer.flush();
      await writer.exclusive((c) => saveDeepReads(c, slice, o.now(), deps.runId));
    }
    result.fetched += 1;
    logger.info(
      {
        disbursement_id: bundle.record.disbursement_id,
        status: bundle.syncStatus,
        payouts: bundle.payouts.length,
        refunds: bundle.refunds.length,
        adjustments: bundle.adjustments.length,
        files: bundle.files.length,
        quarantined: bundle.quarantine.length,
      },
      'disbursement read',
    );
    progress();
  }, { concurrency: deps.pace ?? o.concurrency, maxQueued: o.concurrency * 4, signal: deps.signal });
  deps.pace?.boundBy(() => pool.saturated);
  try {
    const pages = paginate(client, '/disbursements', 'disbursements', { perPage: o.perPage });
    for (;;) {
      if (pool.stopping) break;
      const next = await pages.next();
      if (next.done) {
        const out = next.value;
        result.listComplete = out.ended !== 'page_cap' && out.collected >= out.totalEntries;
        if (out.lagged) warn(deps.logger, result, `the disbursement list's totals lagged behind it (${out.lagged})`);
        if (!result.listComplete) {
          const reason =
            out.ended === 'page_cap'
              ? `the disbursement list did not end after ${out.pages} pages (it announced ${out.totalEntries} ` +
                  `entries); disbursements beyond were not read`
              : `the disbursement list ended after ${out.collected} of ${out.totalEntries} announced entries ` +
                  `(${out.ended.replace('_', ' ')}); the next run picks up the rest`;
          logger.warn(
            { ...out },
            'the disbursement list ended before its announced size; the next run picks up the rest',
          );
          // kept as a quarantined page so invalid_record puts it in front of an accountant, not only in a log
          await writer.exclusive((c) => quarantinePage(c, deps.runId, deps.redact(reason)));
          result.quarantined += 1;
        }
        break;
      }
      announced = Math.max(announced, next.value.totalEntries);
      for (const item of next.value.items) {
        const raw = canonicalJson(item);
        if (raw === null) {
          const reason = `nests deeper than ${MAX_JSON_DEPTH} levels; not kept`;
          await writer.exclusive((c) => quarantineRecord(c, deps.runId, item, reason, tooDeepStandIn(), deps.redact));
          result.quarantined += 1;
          continue;
        }
        const parsed = DisbursementSchema.safeParse(item);
        if (!parsed.success) {
          await writer.exclusive((c) =>
            quarantineRecord(c, deps.runId, item, describeIssues(parsed.error, item), raw, deps.redact),
          );
          result.quarantined += 1;
          continue;
        }
        const outside = deliveredOutside(parsed.data, o.now());
        if (outside) {
          await writer.exclusive((c) => quarantineRecord(c, deps.runId, item, outside, raw, deps.redact));
          result.quarantined += 1;
          continue;
        }
        const id = parsed.data.disbursement_id;
        if (seen.has(id)) continue; // shifted onto the next page while the list changed
        seen.add(id);
        result.listed += 1;
        const reason = readReason(parsed.data, stored.get(id), o, blobsMissing.has(id), deepReads.get(id));
        if (reason === null) {
          result.skipped += 1;
          continue;
        }
        result.reasons[reason] += 1;
        await pool.push({ record: parsed.data, raw });
      }
      progress();
    }
  } catch (err) {
    pool.fail(err);
  }
  let failure: unknown = null;
  await pool.close().catch((err: unknown) => (failure = err));
  await writer.flush();
  // what was read tonight counts for the rotation even if the run fails after it
  await writer
    .exclusive((c) => saveDeepReads(c, readInDepth, o.now(), deps.runId))
    .catch((err: unknown) => (failure ??= err));
  if (failure) throw failure;
  if (lagging.count > 0) {
    const examples = `${lagging.examples.join('; ')}${lagging.count > 3 ? '; …' : ''}`;
    warn(deps.logger, result,
      `${lagging.count} line list(s) counted fewer lines than they served (${examples}); all read`);
  }
  result.interrupted = deps.signal?.aborted === true;
  if (!result.interrupted && o.sampleBudget > 0)
    result.sampled = await samplePayments(deps, o.sampleBudget, o.sampleSeed ?? deps.runId, o.concurrency);
  Object.assign(result, {
    written: writer.counts.disbursements,
    restated: writer.counts.restated,
    lines: writer.counts.lines,
    files: writer.counts.files,
  });
  result.quarantined += writer.counts.quarantined;
  return result;
}

/** A warning on the run: logged (shown above the progress bar on a terminal) and kept on its result. */
function warn(logger: Logger, result: SyncResult, message: string): void {
  logger.warn(message);
  result.warnings.push(message);
}

async function samplePayments(deps: SyncDeps, budget: number, seed: string, concurrency: number): Promise<number> {
  const targets = await pickSampleTargets(deps.connection, budget, seed);
  const read: Array<Awaited<ReturnType<typeof samplePayment>> | undefined> = new Array(targets.length);
  let refused = 0;
  let done = 0;
  // a key without this permission is refused nearly every time; a few refusals among many answers are
  // just those payments (unverified), and the sample goes on
  const refusedMostly = () => refused >= REFUSED_LOOKUPS && refused >= done * 0.8;
  const lookUp = async (i: number) => {
    const sample = await samplePayment(deps.client, targets[i]!);
    read[i] = { ...sample, raw: deps.redact(sample.raw) };
    done += 1;
    if (sample.httpStatus === 401 || sample.httpStatus === 403) refused += 1;
  };
  // the first few alone, as many as the refusal test needs: a key without the permission costs 5 look-ups
  const first = Math.min(REFUSED_LOOKUPS, targets.length);
  await Promise.all(targets.slice(0, first).map((_, i) => lookUp(i)));
  if (!refusedMostly() && !deps.signal?.aborted) {
    // then as many at once as disbursements are read (the budget paces them), the test after each answer
    const stop = new AbortController();
    const pool = new WorkPool<number>(async (i) => {
      await lookUp(i);
      if (refusedMostly()) stop.abort();
    }, { concurrency: deps.pace ?? Math.max(1, concurrency), maxQueued: targets.length,
      signal: deps.signal ? AbortSignal.any([deps.signal, stop.signal]) : stop.signal });
    deps.pace?.boundBy(() => pool.saturated);
    for (let i = first; i < targets.length && !pool.stopping; i += 1) await pool.push(i);
    await pool.close();
  }
  if (refusedMostly()) {
    deps.logger.warn(
      { refused, sampled: done },
      'payment details refused (401/403): the API key may lack that permission; no more look-ups this run, those ' +
        'sampled are unverified',
    );
  }
  // samples stay in target order
  const samples = read.filter((s): s is NonNullable<typeof s> => s !== undefined);
  await saveSamples(deps.connection, deps.runId, samples);
  return samples.length;
}

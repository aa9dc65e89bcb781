// sync = list delivered disbursements → decide which to (re)read → extract each with bounded
// concurrency → write in grouped transactions → sample payments for the cross-check.
import type { Logger } from 'pino';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PaymentsClient } from '../src/api/client.js';
import { paginate } from '../src/api/paginate.js';
import { DisbursementSchema, describeIssues, type Disbursement } from '../src/api/schemas.js';
import { recordHash } from '../src/extract/bundle.js';
import { extractDisbursement, type ExtractDeps } from '../src/extract/disbursement.js';
import { samplePayment } from '../src/extract/payments.js';
import { StoreWriter, loadStoredState, type StoredState } from '../src/load/writer.js';
import { pickSampleTargets, saveSamples } from '../src/load/samples.js';

export interface SyncOptions {
  perPage: number;
  concurrency: number;
  lookbackDays: number;
  since: Date | null;
  full: boolean;
  sampleBudget: number;
  /** Orders the sample (default: the run id, so successive nights sample differently). */
  sampleSeed?: string;
  now: () => number;
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
}

export interface SyncDeps {
  connection: DuckDBConnection;
  client: PaymentsClient;
  extract: Omit<ExtractDeps, 'client'>;
  runId: string;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (p: ListProgress) => void;
}

/** Where the sync stands: the list's announced size is known from its first page, before any read. */
export interface ListProgress {
  announced: number;
  listed: number;
  /** Listed but not to be read this run (unchanged since the last one). */
  skipped: number;
  done: number;
}

/** Which listed disbursements to read now: new, not complete, changed in the list, in the lookback, or all with --full. */
export function shouldRead(record: Disbursement, prior: StoredState | undefined, o: SyncOptions): boolean {
  const deliveredAt = Date.parse(record.delivered_at);
  if (!prior) return o.since === null || deliveredAt >= o.since.getTime();
  if (o.full || prior.syncStatus === 'incomplete') return true;
  if (prior.recordHash !== recordHash(record)) return true;
  return deliveredAt >= o.now() - o.lookbackDays * 86_400_000;
}

export async function runSync(deps: SyncDeps, o: SyncOptions): Promise<SyncResult> {
  const { connection, client, logger } = deps;
  const stored = await loadStoredState(connection);
  const writer = new StoreWriter(connection, deps.runId, stored, {
    onCommit: (ids) => logger.info({ disbursements: ids.length }, 'batch committed'),
  });
  const seen = new Set<string>();
  const queue: Array<{ record: Disbursement; raw: string }> = [];
  const result: SyncResult = { listed: 0, fetched: 0, skipped: 0, written: 0, restated: 0, quarantined: 0, lines: 0, files: 0, sampled: 0, interrupted: false, listComplete: true };
  const extractDeps: ExtractDeps = { ...deps.extract, client };
  let listing = true;
  let failure: unknown = null;
  const wakeups: Array<() => void> = [];
  const wake = () => wakeups.splice(0).forEach((f) => f());
  const stopping = () => deps.signal?.aborted === true || failure !== null;
  deps.signal?.addEventListener('abort', wake, { once: true }); // idle workers and the lister must notice

  const worker = async () => {
    for (;;) {
      const next = queue.shift();
      if (!next) {
        if (!listing || stopping()) return;
        await new Promise<void>((r) => wakeups.push(r));
        continue;
      }
      if (stopping()) return;
      wake(); // room in the queue for the lister
      try {
        const bundle = await extractDisbursement(extractDeps, next.record, next.raw);
        await writer.add(bundle);
        result.fetched += 1;
        logger.info({ disbursement_id: bundle.record.disbursement_id, status: bundle.syncStatus, payouts: bundle.payouts.length,
          refunds: bundle.refunds.length, adjustments: bundle.adjustments.length, files: bundle.files.length, quarantined: bundle.quarantine.length }, 'disbursement read');
        progress();
      } catch (err) {
        failure ??= err;
        wake();
        return;
      }
    }
  };

  let announced = 0;
  const progress = () => deps.onProgress?.({ announced, listed: result.listed, skipped: result.skipped, done: result.fetched });
  const workers = Array.from({ length: Math.max(1, o.concurrency) }, () => worker());
  try {
    const pages = paginate(client, '/disbursements', 'disbursements', { perPage: o.perPage });
    for (;;) {
      if (stopping()) break;
      const next = await pages.next();
      if (next.done) {
        const out = next.value;
        result.listComplete = out.ended !== 'page_cap' && out.collected >= out.totalEntries;
        if (!result.listComplete) {
          const reason = out.ended === 'page_cap'
            ? `the disbursement list did not end after ${out.pages} pages (it announced ${out.totalEntries} entries); disbursements beyond were not read`
            : `the disbursement list ended after ${out.collected} of ${out.totalEntries} announced entries (${out.ended.replace('_', ' ')}); the next run picks up the rest`;
          logger.warn({ ...out }, 'the disbursement list ended before its announced size; the next run picks up the rest');
          // kept as a quarantined page so invalid_record puts it in front of an accountant, not only in a log
          await writer.exclusive((c) => quarantinePage(c, deps.runId, reason));
          result.quarantined += 1;
        }
        break;
      }
      announced = Math.max(announced, next.value.totalEntries);
      for (const item of next.value.items) {
        const parsed = DisbursementSchema.safeParse(item);
        const raw = JSON.stringify(item);
        if (!parsed.success) {
          await writer.exclusive((c) => quarantineRecord(c, deps.runId, item, describeIssues(parsed.error), raw));
          result.quarantined += 1;
          continue;
        }
        const id = parsed.data.disbursement_id;
        if (seen.has(id)) continue; // shifted onto the next page while the list changed
        seen.add(id);
        result.listed += 1;
        if (!shouldRead(parsed.data, stored.get(id), o)) {
          result.skipped += 1;
          continue;
        }
        queue.push({ record: parsed.data, raw });
      }
      progress();
      wake();
      // back-pressure: keep at most a few pages of work queued
      while (queue.length > o.concurrency * 4 && !stopping()) await new Promise<void>((r) => wakeups.push(r));
    }
  } catch (err) {
    failure ??= err;
  } finally {
    listing = false;
    wake();
    await Promise.all(workers);
  }
  await writer.flush();
  if (failure) throw failure;
  result.interrupted = deps.signal?.aborted === true;
  if (!result.interrupted && o.sampleBudget > 0) result.sampled = await samplePayments(deps, o.sampleBudget, o.sampleSeed ?? deps.runId);
  Object.assign(result, { written: writer.counts.disbursements, restated: writer.counts.restated, lines: writer.counts.lines, files: writer.counts.files });
  result.quarantined += writer.counts.quarantined;
  return result;
}

async function samplePayments(deps: SyncDeps, budget: number, seed: string): Promise<number> {
  const targets = await pickSampleTargets(deps.connection, budget, seed);
  const samples = [];
  for (const t of targets) {
    if (deps.signal?.aborted) break;
    samples.push(await samplePayment(deps.client, t));
  }
  await saveSamples(deps.connection, deps.runId, samples);
  return samples.length;
}

/** A list record that failed validation: kept raw with its reason; its id (if any) reported as invalid. */
async function quarantineRecord(c: DuckDBConnection, runId: string, item: unknown, reason: string, raw: string): Promise<void> {
  const id = typeof (item as Record<string, unknown> | null)?.disbursement_id === 'string' ? String((item as Record<string, unknown>).disbursement_id) : null;
  await c.run('BEGIN TRANSACTION');
  try {
    if (id) await c.run(`DELETE FROM quarantine WHERE disbursement_id = $1 AND resource = 'disbursement'`, [id]);
    await c.run(`INSERT INTO quarantine VALUES ($1, $2, 'disbursement', NULL, $3, $4, now())`, [runId, id, reason, raw]);
    await c.run('COMMIT');
  } catch (err) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function quarantinePage(c: DuckDBConnection, runId: string, reason: string): Promise<void> {
  await c.run(`INSERT INTO quarantine VALUES ($1, NULL, 'page', NULL, $2, NULL, now())`, [runId, reason]);
}

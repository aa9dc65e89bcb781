// Writes disbursement bundles. Several complete disbursements share one transaction (commits are the
// expensive part), but a disbursement is always written whole: record, lines, files, file lines and
// quarantine rows commit together or not at all, so a crash never shows a disbursement without its lines.
// A re-read whose content changed keeps the earlier version in disbursement_history (never overwritten).
// Given a second connection, the writer appends a batch on one while the batch before commits on the
// other (commits in order; test/unit/store/writer.test.ts).
import { inTransaction } from './transaction.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DisbursementBundle } from './bundle.js';
import { recordHash } from './bundle.js';
import type { DuckDBValue } from '@duckdb/node-api';
import type { Line } from './bundle.js';
import { CHUNK, appendRows, appendSlices, type ColumnSlice } from './append.js';
import { storable } from './storable.js';
import { quarantineRecord } from './quarantine.js';
import { parseServiceTimestamp, serviceTimestampMs, utcText, type Instant } from '../timestamp.js';

export interface StoredState {
  contentHash: string;
  recordHash: string;
  version: number;
  firstRunId: string;
  syncStatus: string;
  deliveredAt: number;
  /** The month whose archive holds its lines (src/store/archive.ts), when archived. */
  archivedMonth?: string | null;
}

interface WriteCounts {
  disbursements: number;
  unchanged: number;
  restated: number;
  lines: number;
  quarantined: number;
  files: number;
}

interface WriterOptions {
  /**
   * Flush when one line table has this many lines buffered (default 122 880, one DuckDB row group: a
   * transaction that appends a whole row group to a table has it written straight to the file, while
   * smaller appends go through the WAL and every automatic checkpoint rewrites the unfinished row group —
   * 2–3× the time for a backfill). Counted per table (payouts, refunds, adjustments, file lines): counted
   * together, a batch of payouts and their file lines gave each table half a row group (load: 7.2 s → 4.5 s).
   */
  flushLines?: number;
  /** …or this many disbursements (default 2 000). */
  flushDisbursements?: number;
  /** …or when the oldest buffered disbursement waited this long (default 1000 ms): a crash loses little work. */
  flushIntervalMs?: number;
  /** Called after each commit with the disbursements it made visible. */
  onCommit?: (ids: string[]) => void;
  /**
   * A second connection to the same store (the caller closes it): a batch is then written on it while
   * the one before commits on the other, DuckDB's COMMIT running off the main thread while JavaScript
   * appends the next batch (a third of a backfill's write time was COMMITs awaited with nothing
   * else to do). Commits stay in order, each batch is still one transaction, and a batch fails when an
   * earlier one failed. Without it, a batch begins after the one before committed.
   */
  second?: DuckDBConnection;
  /**
   * Brings an archived month back into the store (src/store/archive.ts restoreMonth): a disbursement whose
   * lines are archived is written only once they are back, so its earlier version is kept whole in
   * disbursement_history and its month is never half in the archive.
   */
  restoreArchived?: (c: DuckDBConnection, month: string) => Promise<void>;
  now?: () => number;
}

export class StoreWriter {
  readonly counts: WriteCounts = { disbursements: 0, unchanged: 0, restated: 0, lines: 0, quarantined: 0, files: 0 };
  private buffer: DisbursementBundle[] = [];
  /** Lines buffered per line table: payouts, refunds, adjustments, file lines. */
  private bufferedLines: [number, number, number, number] = [0, 0, 0, 0];
  /** The last batch committed (so every batch before it: commits are in order), or the last exclusive done. */
  private flushing: Promise<void> = Promise.resolve();
  /** The last batch's statements done (the next may begin on the other connection). */
  private appended: Promise<void> = Promise.resolve();
  /** Per connection, its last transaction over (committed or rolled back); never rejects. */
  private free: Array<Promise<void>>;
  private readonly connections: DuckDBConnection[];
  private batches = 0;
  /** The disbursements of the batches not yet committed. */
  private readonly pending = new Set<string>();
  /** The first batch that failed: the next add() throws it (a sync stops at once, not after reading everything). */
  private failure: unknown = null;
  private readonly flushLines: number;
  private readonly flushDisbursements: number;
  private readonly flushIntervalMs: number;
  private readonly now: () => number;
  private bufferedSince = 0;
  private readonly restoring = new Map<string, Promise<void>>();

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly runId: string,
    private readonly stored: Map<string, StoredState>,
    private readonly options: WriterOptions = {},
  ) {
    this.flushLines = options.flushLines ?? 122_880;
    this.flushDisbursements = options.flushDisbursements ?? 2_000;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.now = options.now ?? Date.now;
    this.connections = options.second ? [connection, options.second] : [connection];
    this.free = this.connections.map(() => Promise.resolve());
  }

  /** Buffer a bundle; flushes (awaited) when thresholds are reached, so memory stays bounded. */
  async add(read: DisbursementBundle): Promise<void> {
    const prior = this.stored.get(read.record.disbursement_id);
    if (prior && prior.contentHash === read.contentHash) {
      this.counts.unchanged += 1;
      return;
    }
    if (prior?.archivedMonth) await this.bringBack(prior.archivedMonth);
    // a value the store cannot hold costs its own record, never the batch it would have been written in
    const ready = storable(read);
    if (!ready.ok) {
      await this.exclusive((c) => quarantineRecord(c, this.runId, read.record, ready.reason, read.raw, (text) => text));
      this.counts.quarantined += 1;
      return;
    }
    const bundle = ready.bundle;
    if (this.buffer.length === 0) this.bufferedSince = this.now();
    this.buffer.push(bundle);
    const lines = this.bufferedLines;
    lines[0] += bundle.payouts.length;
    lines[1] += bundle.refunds.length;
    lines[2] += bundle.adjustments.length;
    for (const f of bundle.files) lines[3] += f.lines.length;
    if (
      this.buffer.length >= this.flushDisbursements ||
      Math.max(...lines) >= this.flushLines ||
      this.now() - this.bufferedSince >= this.flushIntervalMs
    ) {
      // waits for the batch's statements, not its commit: the next batch is read meanwhile
      await this.startBatch()?.appended;
    }
    if (this.failure !== null) throw this.failure;
  }

  /** Commit everything buffered; resolves when it is committed (and every batch before it). */
  flush(): Promise<void> {
    return this.startBatch()?.committed ?? this.flushing;
  }

  /**
   * Hand what is buffered to a transaction of its own. It begins when the batch before has written its
   * statements and its connection's last transaction is over — after the batch before committed if they
   * share a disbursement (the stored state it reads). Null when nothing is buffered.
   */
  private startBatch(): { appended: Promise<void>; committed: Promise<void> } | null {
    const batch = this.buffer;
    this.buffer = [];
    this.bufferedLines = [0, 0, 0, 0];
    if (batch.length === 0) return null;
    const slot = this.batches++ % this.connections.length;
    const previous = this.flushing;
    const ids = batch.map((b) => b.record.disbursement_id);
    const ready = Promise.all([
      this.appended,
      this.free[slot],
      ids.some((id) => this.pending.has(id)) ? previous : undefined,
    ]);
    for (const id of ids) this.pending.add(id);
    let done!: (err?: unknown) => void;
    const appended = new Promise<void>(
      (resolve, reject) => (done = (err) => (err === undefined ? resolve() : reject(err))),
    );
    appended.catch(() => undefined); // the next batch sees it; never an unhandled rejection
    const committed = this.writeBatch(this.connections[slot]!, batch, ready, previous, done).finally(() => {
      for (const id of ids) this.pending.delete(id);
    });
    this.appended = appended;
    // over when this batch is and the connection's transaction before it is (a batch that fails before
    // it begins must not free a connection still committing)
    this.free[slot] = Promise.all([this.free[slot], committed.catch(() => undefined)]).then(() => undefined);
    this.flushing = committed;
    return { appended, committed };
  }

  /** An archived month back in the store, once however many of its disbursements arrive at the same time. */
  private bringBack(month: string): Promise<void> {
    let back = this.restoring.get(month);
    if (!back) {
      const restore = this.options.restoreArchived;
      if (!restore) throw new Error(`the lines of month ${month} are archived; the writer cannot bring them back`);
      back = this.exclusive((c) => restore(c, month)).then(() => {
        for (const s of this.stored.values()) if (s.archivedMonth === month) s.archivedMonth = null;
      });
      this.restoring.set(month, back);
    }
    return back;
  }

  /** Run other writes on the first connection in turn with the batches (one transaction at a time). */
  exclusive(fn: (c: DuckDBConnection) => Promise<void>): Promise<void> {
    // every connection's transaction over first (free never rejects), then the batches' outcome
    const last = this.flushing;
    const turn = Promise.all(this.free)
      .then(() => last)
      .then(() => fn(this.connection));
    const over = turn.catch(() => undefined);
    this.flushing = over;
    this.appended = over;
    this.free = this.free.map(() => over);
    return turn;
  }

  private async writeBatch(
    c: DuckDBConnection,
    batch: DisbursementBundle[],
    ready: Promise<unknown>,
    previous: Promise<void>,
    appended: (err?: unknown) => void,
  ): Promise<void> {
    // what the stored state and the counts need of the batch once committed: its lines are let go as
    // soon as they are appended (the next batch is built meanwhile; two would be held otherwise)
    let written: Array<{
      id: string;
      contentHash: string;
      recordHash: string;
      syncStatus: string;
      deliveredAt: number;
      quarantined: number;
      files: number;
      lines: number;
    }> = [];
    try {
      await ready;
      const now = new Date().toISOString();
      await inTransaction(c, async () => {
        const replaced = batch.filter((b) => this.stored.has(b.record.disbursement_id));
        if (replaced.length)
          await this.archiveAndClear(
            c,
            replaced.map((b) => b.record.disbursement_id),
            now,
          );
        await this.insertRecords(c, batch, now);
        await this.insertLines(c, batch);
        written = batch.map((b) => ({
          id: b.record.disbursement_id,
          contentHash: b.contentHash,
          recordHash: recordHash(b.record),
          syncStatus: b.syncStatus,
          deliveredAt: serviceTimestampMs(b.record.delivered_at),
          quarantined: b.quarantine.length,
          files: b.files.length,
          lines: b.payouts.length + b.refunds.length + b.adjustments.length,
        }));
        batch.length = 0;
        appended();
        await previous; // commits in order: an earlier batch that failed fails this one
      });
    } catch (err) {
      this.failure ??= err;
      appended(err); // (no effect once appended)
      throw err;
    }
    for (const w of written) {
      const prior = this.stored.get(w.id);
      if (prior)
        this.counts.restated += prior.contentHash !== w.contentHash && prior.syncStatus !== 'incomplete' ? 1 : 0;
      this.stored.set(w.id, {
        contentHash: w.contentHash,
        recordHash: w.recordHash,
        version: (prior?.version ?? 0) + 1,
        firstRunId: prior?.firstRunId ?? this.runId,
        syncStatus: w.syncStatus,
        deliveredAt: w.deliveredAt,
      });
      this.counts.disbursements += 1;
      this.counts.quarantined += w.quarantined;
      this.counts.files += w.files;
      this.counts.lines += w.lines;
    }
    this.options.onCommit?.(written.map((w) => w.id));
  }

  /** Keep the version being replaced (with its lines) in disbursement_history, then remove its rows. */
  private async archiveAndClear(c: DuckDBConnection, ids: string[], now: string): Promise<void> {
    await c.run('CREATE OR REPLACE TEMP TABLE _replaced (disbursement_id VARCHAR)');
    await appendRows(
      c,
      '_replaced',
      ['varchar'],
      ids.map((id) => [id]),
    );
    await c.run(
      `INSERT INTO disbursement_history
       SELECT d.disbursement_id, d.version, d.recipient_id, d.delivered_at, d.number_of_payments, d.number_of_refunds,
              d.number_of_adjustments, d.amount, d.currency, d.bank_account_number, d.sync_status, d.content_hash,
              (SELECT count(*) FROM payouts p WHERE p.disbursement_id = d.disbursement_id),
              (SELECT CAST(COALESCE(sum(p.amount), 0) AS HUGEINT) FROM payouts p WHERE p.disbursement_id = d.disbursement_id),
              (SELECT count(*) FROM refunds r WHERE r.disbursement_id = d.disbursement_id),
              (SELECT CAST(COALESCE(sum(r.amount), 0) AS HUGEINT) FROM refunds r WHERE r.disbursement_id = d.disbursement_id),
              (SELECT count(*) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id),
              (SELECT CAST(COALESCE(sum(CASE a.entry_type WHEN 'credit' THEN a.amount WHEN 'debit' THEN -a.amount ELSE 0 END), 0) AS HUGEINT)
                 FROM adjustments a WHERE a.disbursement_id = d.disbursement_id),
              to_json({
                payouts: (SELECT list(p.raw ORDER BY p.line_no) FROM payouts p WHERE p.disbursement_id = d.disbursement_id),
                refunds: (SELECT list(r.raw ORDER BY r.line_no) FROM refunds r WHERE r.disbursement_id = d.disbursement_id),
                adjustments: (SELECT list(a.raw ORDER BY a.line_no) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id)
              }),
              d.run_id, $1::TIMESTAMPTZ, $2, d.raw
       FROM disbursements d JOIN _replaced USING (disbursement_id)
       WHERE d.sync_status <> 'incomplete'`,
      [now, this.runId],
    );
    for (const table of [
      'payouts', 'refunds', 'adjustments', 'disbursement_files', 'file_lines', 'quarantine', 'disbursements',
    ]) {
      await c.run(`DELETE FROM ${table} WHERE disbursement_id IN (SELECT disbursement_id FROM _replaced)`);
    }
  }

  private async insertRecords(c: DuckDBConnection, batch: DisbursementBundle[], now: string): Promise<void> {
    const rows = batch.map((b) => {
      const r = b.record;
      const prior = this.stored.get(r.disbursement_id);
      return [
        r.disbursement_id,
        r.recipient_id,
        r.status,
        utcText(parseServiceTimestamp(r.delivered_at) as Instant),
        BigInt(r.number_of_payments),
        BigInt(r.number_of_refunds),
        BigInt(r.number_of_adjustments),
        BigInt(r.amount),
        r.currency,
        r.bank_account_number ?? null,
        b.syncStatus,
        b.syncNote,
        (prior?.version ?? 0) + 1,
        b.contentHash,
        prior?.firstRunId ?? this.runId,
        this.runId,
        now,
        b.raw,
      ];
    });
    // Staged through a VARCHAR temp table; delivered_at is the UTC text of src/timestamp.ts (checked by
    // storable() when the bundle was added), which DuckDB casts the same under any session time zone.
    await c.run(
      `CREATE OR REPLACE TEMP TABLE _disb (disbursement_id VARCHAR, recipient_id VARCHAR, status VARCHAR, delivered_at VARCHAR,
        number_of_payments BIGINT, number_of_refunds BIGINT, number_of_adjustments BIGINT, amount BIGINT, currency VARCHAR,
        bank_account_number VARCHAR, sync_status VARCHAR, sync_note VARCHAR, version INTEGER, content_hash VARCHAR,
        first_run_id VARCHAR, run_id VARCHAR, synced_at VARCHAR, raw VARCHAR)`,
    );
    await appendRows(
      c,
      '_disb',
      [
        'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'bigint', 'bigint', 'bigint', 'varchar', 'varchar',
        'varchar', 'varchar', 'integer', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar',
      ],
      rows,
    );
    await c.run(
      `INSERT INTO disbursements SELECT disbursement_id, recipient_id, status, CAST(delivered_at AS TIMESTAMPTZ), number_of_payments,
        number_of_refunds, number_of_adjustments, amount, currency, bank_account_number, sync_status, sync_note, version,
        content_hash, first_run_id, run_id, CAST(synced_at AS TIMESTAMPTZ), CAST(raw AS JSON) FROM _disb`,
    );
  }

  private async insertLines(c: DuckDBConnection, batch: DisbursementBundle[]): Promise<void> {
    const run = this.runId;
    await appendSlices(
      c,
      'payouts',
      [
        'varchar', 'integer', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar',
        'integer',
      ],
      lineSlices(
        batch,
        (b) => b.payouts,
        (l) => l.value.reference,
        [
          (l) => l.value.recipient_id,
          (l) => l.value.reference,
          (l) => l.value.status ?? null,
          (l) => l.value.payment_id,
          (l) => l.value.currency,
          (l) => l.value.amount,
        ],
        run,
      ),
    );
    await appendSlices(
      c,
      'refunds',
      ['varchar', 'integer', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar', 'integer'],
      lineSlices(
        batch,
        (b) => b.refunds,
        (l) => l.value.refund_id,
        [
          (l) => l.value.refund_id,
          (l) => l.value.payment.id,
          (l) => l.value.payment.external_reference ?? null,
          (l) => l.value.currency,
          (l) => l.value.amount,
        ],
        run,
      ),
    );
    await appendSlices(
      c,
      'adjustments',
      [
        'varchar', 'integer', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar',
        'varchar', 'integer',
      ],
      lineSlices(
        batch,
        (b) => b.adjustments,
        (l) => l.value.reference,
        [
          (l) => l.value.reference,
          (l) => l.value.category ?? null,
          (l) => l.value.entry_type,
          (l) => l.value.entity ?? null,
          (l) => l.value.entity_reference ?? null,
          (l) => l.value.currency,
          (l) => l.value.amount,
        ],
        run,
      ),
    );
    const files = batch.flatMap((b) =>
      b.files.map((f) => [
        b.record.disbursement_id,
        f.fileNo,
        f.name,
        f.extension,
        f.sha256,
        f.sizeBytes === null ? null : BigInt(f.sizeBytes),
        f.layout,
        f.parseStatus,
        f.parseError,
        f.lines.length,
        f.footerCount,
        f.footerTotal,
        run,
      ]),
    );
    await c.run(
      `CREATE OR REPLACE TEMP TABLE _files AS SELECT * EXCLUDE (downloaded_at) FROM disbursement_files LIMIT 0`,
    );
    await appendRows(
      c,
      '_files',
      [
        'varchar', 'integer', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar', 'varchar', 'integer',
        'bigint', 'bigint', 'varchar',
      ],
      files,
    );
    await c.run('INSERT INTO disbursement_files SELECT *, CASE WHEN sha256 IS NOT NULL THEN now() END FROM _files');
    await appendSlices(
      c,
      'file_lines',
      [
        'varchar', 'integer', 'integer', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar',
        'varchar', 'integer',
      ],
      fileLineSlices(batch, run),
    );
    const quarantine = batch.flatMap((b) =>
      b.quarantine.map((q) => [run, b.record.disbursement_id, q.resource, q.lineNo, q.reason, q.raw]),
    );
    if (quarantine.length) {
      await c.run(
        'CREATE OR REPLACE TEMP TABLE _q (run_id VARCHAR, disbursement_id VARCHAR, resource VARCHAR, line_no INTEGER, reason VARCHAR, raw VARCHAR)',
      );
      await appendRows(c, '_q', ['varchar', 'varchar', 'varchar', 'integer', 'varchar', 'varchar'], quarantine);
      await c.run(
        'INSERT INTO quarantine SELECT run_id, disbursement_id, resource, line_no, reason, raw, now() FROM _q',
      );
    }
  }
}

/**
 * The n-th time each key comes, in the order given (lines come in line order): the occurrence column
 * file_line_disagreements pairs file and API lines by (migration 040).
 */
function occurrences(): (key: string | null | undefined) => number {
  const seen = new Map<string | null | undefined, number>();
  return (key) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n;
  };
}

/** Rows per slice the line builders hand the appender: one data chunk. */
const SLICE_ROWS = CHUNK;

/** `N` columns, as a tuple the builders take apart by name. */
type Columns<N extends number, T extends DuckDBValue[][] = []> =
  T['length'] extends N ? T : Columns<N, [...T, DuckDBValue[]]>;

/** `width` columns of SLICE_ROWS values, refilled slice after slice. */
function sliceColumns(width: number): DuckDBValue[][] {
  return Array.from({ length: width }, () => new Array<DuckDBValue>(SLICE_ROWS).fill(null));
}

/**
 * A line table's rows, a slice at a time, straight from the bundles: disbursement_id, line_no, the
 * line's own fields (`fields`, in table order), run_id, raw, occurrence (of its `reference` in its
 * disbursement) — the layout payouts, refunds and adjustments share. The same arrays are refilled for
 * every slice (appendSlices reads each before asking for the next).
 */
function* lineSlices<T>(
  batch: readonly DisbursementBundle[],
  linesOf: (b: DisbursementBundle) => ReadonlyArray<Line<T>>,
  reference: (l: Line<T>) => string | null | undefined,
  fields: ReadonlyArray<(l: Line<T>) => DuckDBValue>,
  runId: string,
): Generator<ColumnSlice> {
  const columns = sliceColumns(fields.length + 5);
  const [ids, lineNos] = columns as Columns<2>;
  const [runs, raws, occurrence] = columns.slice(fields.length + 2) as Columns<3>;
  const own = columns.slice(2, fields.length + 2);
  let rows = 0;
  for (const b of batch) {
    const nth = occurrences();
    for (const l of linesOf(b)) {
      for (let i = 0; i < fields.length; i += 1) own[i]![rows] = fields[i]!(l);
      ids[rows] = b.record.disbursement_id;
      lineNos[rows] = l.lineNo;
      runs[rows] = runId;
      raws[rows] = l.raw;
      occurrence[rows] = nth(reference(l));
      rows += 1;
      if (rows === SLICE_ROWS) {
        yield { columns, rows };
        rows = 0;
      }
    }
  }
  if (rows > 0) yield { columns, rows };
}

/** The file_lines table's rows, a slice at a time, straight from the bundles' parsed files (as lineSlices). */
function* fileLineSlices(batch: readonly DisbursementBundle[], runId: string): Generator<ColumnSlice> {
  const columns = sliceColumns(12);
  const [
    ids,
    fileNos,
    lineNos,
    kinds,
    entryTypes,
    references,
    paymentIds,
    currencies,
    amounts,
    runs,
    raws,
    occurrence,
  ] = columns as Columns<12>;
  let rows = 0;
  for (const b of batch) {
    for (const f of b.files) {
      const nth = occurrences();
      for (const l of f.lines) {
        occurrence[rows] = nth(l.reference === null ? `${l.kind}\u0001` : `${l.kind}\u0000${l.reference}`);
        ids[rows] = b.record.disbursement_id;
        fileNos[rows] = f.fileNo;
        lineNos[rows] = l.lineNo;
        kinds[rows] = l.kind;
        entryTypes[rows] = l.entryType;
        references[rows] = l.reference;
        paymentIds[rows] = l.paymentId;
        currencies[rows] = l.currency;
        amounts[rows] = l.amount;
        runs[rows] = runId;
        raws[rows] = l.raw;
        rows += 1;
        if (rows === SLICE_ROWS) {
          yield { columns, rows };
          rows = 0;
        }
      }
    }
  }
  if (rows > 0) yield { columns, rows };
}

/** What the store already holds, for incremental decisions. */
export async function loadStoredState(connection: DuckDBConnection): Promise<Map<string, StoredState>> {
  const reader = await connection.runAndReadAll(
    `SELECT d.disbursement_id, d.content_hash, d.version, d.first_run_id, d.sync_status, epoch_ms(d.delivered_at),
            d.raw, a.month
       FROM disbursements AS d LEFT JOIN archived_disbursements AS a USING (disbursement_id)`,
  );
  const map = new Map<string, StoredState>();
  for (const row of reader.getRows()) {
    const raw = JSON.parse(String(row[6] ?? '{}')) as Parameters<typeof recordHash>[0];
    map.set(String(row[0]), {
      contentHash: String(row[1]),
      recordHash: recordHash(raw),
      version: Number(row[2]),
      firstRunId: String(row[3]),
      syncStatus: String(row[4]),
      deliveredAt: Number(row[5]),
      archivedMonth: row[7] === null ? null : String(row[7]),
    });
  }
  return map;
}

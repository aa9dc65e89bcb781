// load_ratio: recon's store step (StoreWriter, as the sync feeds it) against DuckDB's own bulk reader
// writing the same rows into the same tables of a fresh store: `disbursements` disbursements, each with
// `payoutsPer` payouts and a settlement file listing them again (disbursements, payouts,
// disbursement_files, file_lines). The same column types and the same validation on both sides: the
// writer appends values already parsed and the reader parses its NDJSON once (the raw payloads are JSON
// objects inside it, stored as JSON without a second parse); neither validates anything else.
// Three interleaved pairs (lib.ts, interleavedPairs), each on fresh stores.
// Args: disbursements payoutsPer pairs
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { openStore } from '../../src/store/db.js';
import { StoreWriter } from '../../src/store/writer.js';
import { interleavedPairs, peakRssMb, seconds, stage, tempDir } from '../lib.js';
import { bundle, rowsNdjson } from '../synthetic.js';

const RUN_ID = 'bench-load';
const TABLES = ['disbursements', 'payouts', 'disbursement_files', 'file_lines'] as const;

/** Each table's columns as the reader is told their types (the store's own types), in the table's order. */
const READS: Record<(typeof TABLES)[number], { file: string; columns: string; select: string }> = {
  disbursements: {
    file: 'disbursements.ndjson',
    columns: `disbursement_id: 'VARCHAR', recipient_id: 'VARCHAR', status: 'VARCHAR', delivered_at: 'TIMESTAMPTZ', number_of_payments: 'BIGINT',
      number_of_refunds: 'BIGINT', number_of_adjustments: 'BIGINT', amount: 'BIGINT', currency: 'VARCHAR', bank_account_number: 'VARCHAR',
      sync_status: 'VARCHAR', sync_note: 'VARCHAR', version: 'INTEGER', content_hash: 'VARCHAR', first_run_id: 'VARCHAR', run_id: 'VARCHAR', raw: 'JSON'`,
    select: `disbursement_id, recipient_id, status, delivered_at, number_of_payments, number_of_refunds, number_of_adjustments, amount, currency,
      bank_account_number, sync_status, sync_note, version, content_hash, first_run_id, run_id, now(), raw`,
  },
  payouts: {
    file: 'payouts.ndjson',
    columns: `disbursement_id: 'VARCHAR', line_no: 'INTEGER', recipient_id: 'VARCHAR', reference: 'VARCHAR', status: 'VARCHAR',
      payment_id: 'VARCHAR', currency: 'VARCHAR', amount: 'BIGINT', run_id: 'VARCHAR', raw: 'JSON', occurrence: 'INTEGER'`,
    select: '*',
  },
  disbursement_files: {
    file: 'files.ndjson',
    columns: `disbursement_id: 'VARCHAR', file_no: 'INTEGER', name: 'VARCHAR', extension: 'VARCHAR', sha256: 'VARCHAR', size_bytes: 'BIGINT',
      layout: 'VARCHAR', parse_status: 'VARCHAR', parse_error: 'VARCHAR', line_count: 'INTEGER', footer_count: 'BIGINT', footer_total: 'BIGINT', run_id: 'VARCHAR'`,
    select: '*, now()',
  },
  file_lines: {
    file: 'file_lines.ndjson',
    columns: `disbursement_id: 'VARCHAR', file_no: 'INTEGER', line_no: 'INTEGER', kind: 'VARCHAR', entry_type: 'VARCHAR', reference: 'VARCHAR',
      payment_id: 'VARCHAR', currency: 'VARCHAR', amount: 'BIGINT', run_id: 'VARCHAR', raw: 'VARCHAR', occurrence: 'INTEGER'`,
    select: '*',
  },
};

stage(async ([disbursementsArg = '10000', payoutsArg = '100', pairsArg = '3']) => {
  const disbursements = Number(disbursementsArg);
  const payoutsPer = Number(payoutsArg);
  const tmp = tempDir();
  try {
    const bundles = Array.from({ length: disbursements }, (_, d) => bundle(d, payoutsPer, true));
    const outs = Object.fromEntries(TABLES.map((t) => [t, createWriteStream(path.join(tmp.dir, READS[t].file))])) as Record<(typeof TABLES)[number], WriteStream>;
    for (const b of bundles) {
      const rows = rowsNdjson(b, RUN_ID);
      const parts: Array<[(typeof TABLES)[number], string]> = [['disbursements', rows.disbursements], ['payouts', rows.payouts],
        ['disbursement_files', rows.files], ['file_lines', rows.fileLines]];
      for (const [t, text] of parts) if (!outs[t].write(text)) await once(outs[t], 'drain');
    }
    for (const out of Object.values(outs)) {
      out.end();
      await once(out, 'close');
    }

    const measured = await interleavedPairs(Number(pairsArg),
      (i) => storeWriter(path.join(tmp.dir, `writer-${i}.duckdb`), bundles),
      (i) => readJson(path.join(tmp.dir, `json-${i}.duckdb`), tmp.dir));
    for (const { recon, baseline } of measured) {
      if (JSON.stringify(recon.rows) !== JSON.stringify(baseline.rows)) {
        throw new Error(`the two sides wrote different rows: ${JSON.stringify(recon.rows)} vs ${JSON.stringify(baseline.rows)}`);
      }
    }
    const rows = measured[0]!.recon.rows;
    const pairs = measured.map((p) => ({ recon: p.recon.seconds, duckdb: p.baseline.seconds, ratio: p.recon.seconds / p.baseline.seconds,
      reconCpu: p.recon.cpu, duckdbCpu: p.baseline.cpu, cpuRatio: p.recon.cpu / p.baseline.cpu }));
    return { rows, pairs, peakRssMb: peakRssMb() };
  } finally {
    tmp.cleanup();
  }
});

async function countRows(db: Awaited<ReturnType<typeof openStore>>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await db.connection.runAndReadAll(`SELECT count(*) FROM ${t}`)).getRows()[0]![0]);
  return out;
}

/** CPU seconds of the whole process (every DuckDB thread included) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
};

async function storeWriter(db: string, bundles: ReturnType<typeof bundle>[]): Promise<{ seconds: number; cpu: number; rows: Record<string, number> }> {
  const store = await openStore(db);
  // as the sync writes: a batch appended on one connection while the one before commits on the other
  const second = await store.instance.connect();
  try {
    const writer = new StoreWriter(store.connection, RUN_ID, new Map(), { second });
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (const b of bundles) await writer.add(b);
    await writer.flush();
    const s = seconds(started);
    return { seconds: s, cpu: cpuSince(cpu), rows: await countRows(store) };
  } finally {
    second.closeSync();
    store.close();
  }
}

async function readJson(db: string, dir: string): Promise<{ seconds: number; cpu: number; rows: Record<string, number> }> {
  const store = await openStore(db);
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await store.connection.run('BEGIN');
    for (const t of TABLES) {
      const r = READS[t];
      await store.connection.run(`INSERT INTO ${t} SELECT ${r.select} FROM read_json('${path.join(dir, r.file)}', format = 'newline_delimited', columns = {${r.columns}})`);
    }
    await store.connection.run('COMMIT');
    const s = seconds(started);
    return { seconds: s, cpu: cpuSince(cpu), rows: await countRows(store) };
  } finally {
    store.close();
  }
}

// load_ratio: recon's store step (StoreWriter, as the sync feeds it) writing pages already fetched —
// `disbursements` bundles × `payoutsPer` payouts — against DuckDB's own read_json of the same payout rows
// from NDJSON into the same table of a fresh store. Each side runs `repeat` times on a fresh store; the
// best time of each is kept.
// Args: disbursements payoutsPer repeat
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { openStore } from '../../../src/load/db.js';
import { StoreWriter } from '../../../src/load/writer.js';
import { peakRssMb, seconds, stage, tempDir } from '../lib.js';
import { bundle, payoutRowsNdjson } from '../synthetic.js';

const RUN_ID = 'bench-load';

stage(async ([disbursementsArg = '10000', payoutsArg = '100', repeatArg = '2']) => {
  const disbursements = Number(disbursementsArg);
  const payoutsPer = Number(payoutsArg);
  const tmp = tempDir();
  try {
    const bundles = Array.from({ length: disbursements }, (_, d) => bundle(d, payoutsPer));
    const ndjson = path.join(tmp.dir, 'payouts.ndjson');
    const out = createWriteStream(ndjson);
    for (const b of bundles) if (!out.write(payoutRowsNdjson(b, RUN_ID))) await once(out, 'drain');
    out.end();
    await once(out, 'close');

    const recon: number[] = [];
    const duckdb: number[] = [];
    let rows = 0;
    for (let i = 0; i < Number(repeatArg); i += 1) {
      duckdb.push(await readJson(path.join(tmp.dir, `json-${i}.duckdb`), ndjson));
      const r = await storeWriter(path.join(tmp.dir, `writer-${i}.duckdb`), bundles);
      recon.push(r.seconds);
      rows = r.rows;
    }
    return { rows, reconS: Math.min(...recon), duckdbS: Math.min(...duckdb), reconRuns: recon, duckdbRuns: duckdb, peakRssMb: peakRssMb() };
  } finally {
    tmp.cleanup();
  }
});

async function storeWriter(db: string, bundles: ReturnType<typeof bundle>[]): Promise<{ seconds: number; rows: number }> {
  const store = await openStore(db);
  try {
    const writer = new StoreWriter(store.connection, RUN_ID, new Map());
    const started = performance.now();
    for (const b of bundles) await writer.add(b);
    await writer.flush();
    const s = seconds(started);
    const n = (await store.connection.runAndReadAll('SELECT count(*) FROM payouts')).getRows()[0]![0];
    return { seconds: s, rows: Number(n) };
  } finally {
    store.close();
  }
}

async function readJson(db: string, ndjson: string): Promise<number> {
  const store = await openStore(db);
  try {
    const started = performance.now();
    await store.connection.run(`
      INSERT INTO payouts SELECT * FROM read_json('${ndjson}', format = 'newline_delimited', columns = {
        disbursement_id: 'VARCHAR', line_no: 'INTEGER', recipient_id: 'VARCHAR', reference: 'VARCHAR', status: 'VARCHAR',
        payment_id: 'VARCHAR', currency: 'VARCHAR', amount: 'BIGINT', run_id: 'VARCHAR', raw: 'VARCHAR'})`);
    return seconds(started);
  } finally {
    store.close();
  }
}

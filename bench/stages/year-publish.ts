// year_publish_ratio and year_export_ratio: the same night's publish of the accountants' snapshot and
// `recon export --parquet` on a store holding twelve months of history against one holding one month. Both
// stores are the checks benchmark's realistic store (`perMonth` disbursements × `payoutsPer` payouts a month,
// their files' lines, refunds and adjustments); the twelve-month one spreads its deliveries over a year. Each
// is published and exported once (the history), then a night restates a day's disbursements of the last
// month and records a run; that night's publish and export are timed. Both should follow the night's change,
// not the history: about one month's files written in either store.
// Args: perMonth payoutsPer
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openStore } from '../../src/store/db.js';
import { openReadOnly, publishSnapshot } from '../../src/store/publish.js';
import { exportParquet } from '../../src/store/export.js';
import { buildRealisticStoreInSql } from '../synthetic.js';
import { peakRssMb, seconds, stage, tempDir } from '../lib.js';

interface Night { publishS: number; exportS: number; monthFilesWritten: number; exportFilesWritten: number;
  nights: number[][]; storeMb: number; snapshotMb: number; exportMb: number; firstPublishS: number; firstExportS: number }

async function oneStore(dir: string, months: number, perMonth: number, payoutsPer: number): Promise<Night> {
  const db = path.join(dir, `recon-${months}.duckdb`);
  const published = path.join(dir, `published-${months}`, 'recon.duckdb');
  const out = path.join(dir, `export-${months}`);
  const store = await openStore(db);
  const c = store.connection;
  let first: { publishS: number; exportS: number };
  try {
    await buildRealisticStoreInSql(c, months * perMonth, payoutsPer, 'bench-build');
    // the n-th disbursement in month n mod `months`, the last of them 2026-10
    await c.run(`UPDATE disbursements SET delivered_at = TIMESTAMPTZ '2026-10-10 12:00:00+00'
      - to_days(CAST((CAST(substr(disbursement_id, 5) AS BIGINT) % ${months}) * 30 AS INTEGER))`);
    first = { publishS: await timedPublish(c, published).then((r) => r.s), exportS: (await timedExport(published, out)).s };
    // two nights, each a day's disbursements of the last month restated and a run recorded; the quicker of
    // the two is the figure (the machine may be shared)
    const nights: Array<{ publish: Awaited<ReturnType<typeof timedPublish>>; exported: { s: number; written: number } }> = [];
    for (const n of [1, 2]) {
      const day = Math.max(1, Math.round(perMonth / 30));
      await c.run(`UPDATE payouts SET amount = amount + 1, run_id = 'bench-night-${n}' WHERE disbursement_id IN (
        SELECT disbursement_id FROM disbursements WHERE strftime(delivered_at AT TIME ZONE 'UTC', '%Y-%m') = '2026-10'
        ORDER BY disbursement_id LIMIT ${day} OFFSET ${n * day}) AND line_no = 1`);
      await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status)
        VALUES ('bench-night-${n}', 'run', now(), now(), 'succeeded')`);
      nights.push({ publish: await timedPublish(c, published), exported: await timedExport(published, out) });
    }
    const publish = nights.map((x) => x.publish).sort((a, b) => a.s - b.s)[0]!;
    const exported = nights.map((x) => x.exported).sort((a, b) => a.s - b.s)[0]!;
    return {
      publishS: publish.s, exportS: exported.s, monthFilesWritten: publish.written, exportFilesWritten: exported.written,
      nights: nights.map((x) => [x.publish.s, x.exported.s]),
      storeMb: await fileMb(c, db), snapshotMb: await folderMb(path.dirname(published)), exportMb: await folderMb(out),
      firstPublishS: first.publishS, firstExportS: first.exportS,
    };
  } finally {
    store.close();
  }
}

async function timedPublish(c: DuckDBConnection, published: string) {
  const started = performance.now();
  const r = await publishSnapshot({ sourceConnection: c, publishedPath: published });
  return { s: seconds(started), written: r.filesWritten };
}

async function timedExport(published: string, out: string) {
  const snap = await openReadOnly(published, { memory_limit: '192MB' });
  try {
    const started = performance.now();
    const r = await exportParquet(snap.connection, out);
    return { s: seconds(started), written: r.filesWritten };
  } finally {
    snap.connection.closeSync();
    snap.instance.closeSync();
  }
}

async function fileMb(c: DuckDBConnection, db: string): Promise<number> {
  await c.run('CHECKPOINT');
  return (await stat(db)).size / 1e6;
}

/** Every file under `dir`, in MB (the snapshot with its month files; an export folder). */
async function folderMb(dir: string): Promise<number> {
  let bytes = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) bytes += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return bytes / 1e6;
}

stage(async ([perMonthArg = '10000', payoutsArg = '100']) => {
  const tmp = tempDir();
  try {
    const perMonth = Number(perMonthArg);
    const payoutsPer = Number(payoutsArg);
    const one = await oneStore(tmp.dir, 1, perMonth, payoutsPer);
    const year = await oneStore(tmp.dir, 12, perMonth, payoutsPer);
    return {
      perMonth, payoutsPer, one, year,
      publishRatio: year.publishS / one.publishS, exportRatio: year.exportS / one.exportS, peakRssMb: peakRssMb(),
    };
  } finally {
    tmp.cleanup();
  }
});

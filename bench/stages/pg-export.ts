// pg_export_s_per_1M and pg_night_ratio: the PostgreSQL export of a store of twelve months (the checks
// benchmark's realistic store, its deliveries spread over a year), first whole, then a night later with
// one month restated — which should cost about a twelfth of the first (the months written whole, runs and
// findings, come on top). PostgreSQL is Debian's, started in a temp folder as the tests start it.
// Args: disbursements payoutsPer
import path from 'node:path';
import { openStore } from '../../src/store/db.js';
import { publishSnapshot } from '../../src/store/publish.js';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import { runPostgresExport } from '../../pipelines/warehouse.js';
import { warehouseSettings } from '../../pipelines/settings.js';
import { provisionExport, startPostgres } from '../../test/helpers/postgres.js';
import { buildRealisticStoreInSql } from '../synthetic.js';
import { peakRssMb, seconds, stage, tempDir } from '../lib.js';

stage(async ([disbursementsArg = '5000', payoutsArg = '100']) => {
  const tmp = tempDir();
  const server = await startPostgres();
  try {
    await provisionExport(server, { database: 'finance', schema: 'recon', role: 'recon_bench', password: 'bench' });
    const db = path.join(tmp.dir, 'recon.duckdb');
    const published = path.join(tmp.dir, 'published', 'recon.duckdb');
    const store = await openStore(db);
    try {
      await buildRealisticStoreInSql(store.connection, Number(disbursementsArg), Number(payoutsArg), 'bench-build');
      // a year of deliveries: the n-th disbursement in month n mod 12
      await store.connection.run(`UPDATE disbursements SET delivered_at = TIMESTAMPTZ '2025-11-10 12:00:00+00'
        + to_days(CAST((CAST(substr(disbursement_id, 5) AS BIGINT) % 12) * 30 AS INTEGER))`);
      await publishSnapshot({ sourceConnection: store.connection, publishedPath: published });
    } finally {
      store.close();
    }
    const { config } = parseCommandArgs(['--db', db, '--memory-mb', '192'], COMMAND_OPTIONS.export, {}, {});
    const settings = warehouseSettings(config, server.url('recon_bench', 'bench', 'finance'))!;
    const exportOnce = async () => {
      const started = performance.now();
      const out = await runPostgresExport(config, settings, silentLogger);
      if (!out.result) throw new Error(`export failed: ${out.error}`);
      return { s: seconds(started), ...out.result };
    };
    const first = await exportOnce();
    // a night: one disbursement of one month restated, a run recorded
    const again = await openStore(db);
    try {
      await again.connection.run(`UPDATE payouts SET amount = amount + 1 WHERE disbursement_id = (SELECT min(disbursement_id) FROM disbursements
        WHERE strftime(delivered_at AT TIME ZONE 'UTC', '%Y-%m') = '2026-03') AND line_no = 1`);
      await again.connection.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('bench-night', 'run', now(), now(), 'succeeded')`);
      await publishSnapshot({ sourceConnection: again.connection, publishedPath: published });
    } finally {
      again.close();
    }
    const night = await exportOnce();
    const unchanged = await exportOnce();
    const [size] = await server.query<{ mb: number }>(`SELECT (sum(pg_total_relation_size(c.oid)) / 1048576)::int AS mb FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'recon' AND c.relkind = 'r'`, [], 'finance');
    return { first, night, unchanged, perMillionS: first.s / (first.rows / 1e6), ratio: night.s / first.s, pgMb: size?.mb, peakRssMb: peakRssMb() };
  } finally {
    await server.stop();
    tmp.cleanup();
  }
});

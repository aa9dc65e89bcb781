// excel_peak_rss_mb [after checks, same process]: what `recon run` holds at the end of a night — a check
// run over the checks stage's store, then the run's exception workbook written from it, in one process
// (the bin's memory settings, child.ts's NODE_FLAGS). The checks stage starts it as a child once its own
// pairs are done, so neither the bench's store build nor its bare-work baseline (spilling hash aggregates
// and joins of 1M–10M rows: at 1M alone they peak 15–20 MB above recon's checks) is counted as recon's.
// Args: db memoryMb (the checks stage's: recon's default --memory-mb)
import path from 'node:path';
import { runChecks } from '../../src/checks/runner.js';
import { openStore, setMemoryLimit } from '../../src/store/db.js';
import { writeRunWorkbook } from '../../src/report/run-report.js';
import { peakRssMb, seconds, stage } from '../lib.js';

stage(async ([db, memoryMb]) => {
  if (!db || !memoryMb) throw new Error('usage: checks-workbook <db> <memoryMb>');
  const store = await openStore(db);
  try {
    const c = store.connection;
    await setMemoryLimit(c, Number(memoryMb));
    const checks = await runChecks(c, { runId: 'bench-checks-night' });
    const rssBeforeWorkbookMb = peakRssMb();
    const started = performance.now();
    await writeRunWorkbook(c, { runId: checks.runId, reportsDir: path.join(path.dirname(db), 'reports'), serviceUrl: 'http://127.0.0.1', checks });
    return { findings: checks.findings, rssBeforeWorkbookMb, workbookS: seconds(started), peakRssMb: peakRssMb() };
  } finally {
    store.close();
  }
});

// Builds a store of year_checks_ratio (bench/year.ts: disbursements [from, to) at perMonth a month, then a
// CHECKPOINT) into the file it is given and exits: a child, so that the building's memory is in no stage's
// figure. Args: db from to perMonth
import { openStore } from '../../src/store/db.js';
import { buildYearInSql } from '../year.js';
import { seconds, stage } from '../lib.js';

stage(async ([db, from, to, perMonth]) => {
  if (!db || !from || !to || !perMonth) throw new Error('usage: year-store <db> <from> <to> <perMonth>');
  const started = performance.now();
  const store = await openStore(db);
  try {
    await buildYearInSql(store.connection, Number(from), Number(to), Number(perMonth), 'bench-build');
    await store.connection.run('CHECKPOINT');
  } finally {
    store.close();
  }
  const u = process.resourceUsage();
  return { buildS: seconds(started), buildCpuS: (u.userCPUTime + u.systemCPUTime) / 1e6 };
});

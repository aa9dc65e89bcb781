// Builds a store of year_checks_ratio (bench/year.ts: disbursements [from, to) at perMonth a month, then a
// CHECKPOINT) into the file it is given and exits: a child, so that the building's memory is in no stage's
// figure. Args: db from to perMonth
import { buildYearInSql } from '../year.js';
import { buildStore, stage } from '../lib.js';

stage(async ([db, from, to, perMonth]) => {
  if (!db || !from || !to || !perMonth) throw new Error('usage: year-store <db> <from> <to> <perMonth>');
  const built = await buildStore(db, async (c) => {
    await buildYearInSql(c, Number(from), Number(to), Number(perMonth), 'bench-build');
    return {};
  });
  const u = process.resourceUsage();
  return { ...built, buildCpuS: (u.userCPUTime + u.systemCPUTime) / 1e6 };
});

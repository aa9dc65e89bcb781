// Builds the checks stage's store (buildRealisticStoreInSql, then a CHECKPOINT) into the file it is given
// and exits: the checks stage starts it as a child, so the building's memory (an in-process SQL build of
// up to 10M payouts, no limit) is in no stage's maxRSS. Args: db disbursements payoutsPer
import { buildRealisticStoreInSql } from '../synthetic.js';
import { buildStore, stage } from '../lib.js';

stage(async ([db, disbursementsArg = '10000', payoutsArg = '100']) => {
  if (!db) throw new Error('usage: checks-store <db> [disbursements] [payoutsPer]');
  return buildStore(db, async (c) => {
    await buildRealisticStoreInSql(c, Number(disbursementsArg), Number(payoutsArg), 'bench-build');
    return {};
  });
});

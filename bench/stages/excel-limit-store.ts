// Builds the excel-limit stage's store (buildPastSheetStoreInSql, then a CHECKPOINT) into the file it is given and
// exits: built by a child of its own, without recon's memory limit, so the building is in no command's
// peak RSS. Args: db disbursements payoutsPer
import { buildPastSheetStoreInSql } from '../synthetic.js';
import { buildStore, stage } from '../lib.js';

stage(async ([db, disbursementsArg = '1050000', payoutsArg = '3']) => {
  if (!db) throw new Error('usage: excel-limit-store <db> [disbursements] [payoutsPer]');
  return buildStore(db, async (c) => {
    await buildPastSheetStoreInSql(c, Number(disbursementsArg), Number(payoutsArg), 'bench-excel-limit-build');
    const [row] = (await c.runAndReadAll(`SELECT (SELECT count(*) FROM disbursements), (SELECT count(*) FROM payouts),
      (SELECT count(*) FROM refunds) + (SELECT count(*) FROM adjustments), (SELECT count(*) FROM file_lines)`)).getRows();
    const [disbursements, payouts, otherLines, fileLines] = row!.map(Number);
    return { disbursements, payouts, otherLines, fileLines };
  });
});

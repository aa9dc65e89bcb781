// Builds the excel-limit stage's store (buildPastSheetStoreInSql, then a CHECKPOINT) into the file it is given and
// exits: built by a child of its own, without recon's memory limit, so the building is in no command's
// peak RSS. Args: db disbursements payoutsPer
import { openStore } from '../../src/store/db.js';
import { buildPastSheetStoreInSql } from '../synthetic.js';
import { seconds, stage } from '../lib.js';

stage(async ([db, disbursementsArg = '1050000', payoutsArg = '3']) => {
  if (!db) throw new Error('usage: excel-limit-store <db> [disbursements] [payoutsPer]');
  const started = performance.now();
  const store = await openStore(db);
  try {
    await buildPastSheetStoreInSql(store.connection, Number(disbursementsArg), Number(payoutsArg), 'bench-excel-limit-build');
    await store.connection.run('CHECKPOINT');
    const [row] = (await store.connection.runAndReadAll(`SELECT (SELECT count(*) FROM disbursements), (SELECT count(*) FROM payouts),
      (SELECT count(*) FROM refunds) + (SELECT count(*) FROM adjustments), (SELECT count(*) FROM file_lines)`)).getRows();
    const [disbursements, payouts, otherLines, fileLines] = row!.map(Number);
    return { buildS: seconds(started), disbursements, payouts, otherLines, fileLines };
  } finally {
    store.close();
  }
});

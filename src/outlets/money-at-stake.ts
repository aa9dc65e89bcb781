// Money at stake in the findings that need a person, per currency. The one place it is computed for
// the mail, the alert and the metrics (#27: each cause once, its money at stake as finding_stake.sql
// defines it; the workbook's Summary reads the same finding_groups roots).
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../store/sql.js';

export interface MoneyAtStake {
  currency: string;
  /** Integer subunits of `currency`. */
  subunits: bigint;
  /** Causes (root findings) that carry it. */
  findings: number;
}

/** Sum of the money at stake of the run's new and still-open causes (finding_groups roots), per currency. */
export async function moneyAtStake(connection: DuckDBConnection, runId: string): Promise<MoneyAtStake[]> {
  const rows = (await connection.runAndReadAll(sqlText('outlets/money_at_stake'), [runId])).getRowObjectsJS();
  return rows.map((r) => ({ currency: String(r.currency), subunits: BigInt(String(r.at_stake)), findings: Number(r.findings) }));
}

// Money at stake in the findings that need a person, per currency. The one place it is computed for
// the mail, the alert and the metrics: issue #27 (findings grouped by cause, one reporting currency)
// replaces this function and sql/outlets/money_at_stake.sql, and every outlet follows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../store/sql.js';

export interface MoneyAtStake {
  currency: string;
  /** Integer subunits of `currency`. */
  subunits: bigint;
  /** Findings that carry it. */
  findings: number;
}

/** Sum of |difference| (or the finding's amount without one) of the run's new and still-open findings, per currency. */
export async function moneyAtStake(connection: DuckDBConnection, runId: string): Promise<MoneyAtStake[]> {
  const rows = (await connection.runAndReadAll(sqlText('outlets/money_at_stake'), [runId])).getRowObjectsJS();
  return rows.map((r) => ({ currency: String(r.currency), subunits: BigInt(String(r.at_stake)), findings: Number(r.findings) }));
}

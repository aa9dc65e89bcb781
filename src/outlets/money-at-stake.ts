// Money at stake in the findings that need a person, per currency, as the money_at_stake view gives it: each
// cause's money once (finding_groups), the same figure the workbook's Summary shows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { runMoneyAtStake } from '../store/read/summaries.js';

export interface MoneyAtStake {
  currency: string;
  /** Integer subunits of `currency`. */
  subunits: bigint;
  /** Causes that carry it. */
  findings: number;
}

/** The run's money at stake, per currency (the money_at_stake view). */
export async function moneyAtStake(connection: DuckDBConnection, runId: string): Promise<MoneyAtStake[]> {
  return (await runMoneyAtStake(connection, runId)).map((r) => ({ currency: r.currency, subunits: r.atStake, findings: r.causes }));
}

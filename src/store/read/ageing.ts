// How long money has been at stake: the causes of a check run that need a person (finding_groups roots,
// new or still open), aged in business days since first seen, in four buckets per currency, with the money
// at stake of each bucket in that currency (sql/outlets/cause_ageing.sql). The workbook's Summary, the mail
// and the metrics read the same rows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../sql.js';

/** The buckets, in business days since first seen. */
export const AGE_BUCKETS = ['0–2', '3–7', '8–30', '> 30'] as const;
type AgeBucket = (typeof AGE_BUCKETS)[number];

export interface CauseAgeing {
  /** null: causes without a currency (counts), which carry no money. */
  currency: string | null;
  /** One per bucket, in order: causes and their money at stake (null: no money in it). */
  buckets: Array<{ bucket: AgeBucket; causes: number; atStake: bigint | null }>;
  /** The oldest cause's age, in business days. */
  oldest: number;
}

/** Per currency (then the causes without one), every bucket, counted to `now` (the run's own clock). */
export async function causeAgeing(c: DuckDBConnection, runId: string, now: Date): Promise<CauseAgeing[]> {
  const rows = (await c.runAndReadAll(sqlText('outlets/cause_ageing'), [runId, now.toISOString()])).getRowObjectsJS();
  const out = new Map<string | null, CauseAgeing>();
  for (const r of rows) {
    const currency = (r.currency as string | null) ?? null;
    let a = out.get(currency);
    if (!a) {
      a = { currency, oldest: 0, buckets: AGE_BUCKETS.map((bucket) => ({ bucket, causes: 0, atStake: null })) };
      out.set(currency, a);
    }
    const b = a.buckets[Number(r.bucket)]!;
    b.causes = Number(r.causes);
    b.atStake = r.at_stake === null || r.at_stake === undefined ? null : BigInt(String(r.at_stake));
    a.oldest = Math.max(a.oldest, Number(r.oldest));
  }
  return [...out.values()];
}

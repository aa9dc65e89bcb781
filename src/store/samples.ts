// Payment samples for payment_cross_check: pick payouts never sampled before (so successive nights cover
// new payments), and store what the payment details said.
import type { DuckDBConnection } from '@duckdb/node-api';

/** A payment sampled for payment_cross_check, and what its details said (src/sync/payments.ts reads them). */
export interface SampleTarget {
  paymentId: string;
  disbursementId: string;
  payoutReference: string | null;
}

export interface PaymentSample extends SampleTarget {
  /** 200, 404 (unknown payment), another status, or null when no answer came (a network failure). */
  httpStatus: number | null;
  paymentStatus: string | null;
  reportedDisbursementId: string | null;
  payoutFound: boolean;
  payoutAmount: bigint | null;
  payoutCurrency: string | null;
  raw: string | null;
}
import { appendRows } from './append.js';
import { inTransaction } from './transaction.js';

/** Up to `limit` payouts not sampled yet, in a pseudo-random order that changes with the seed (the run id). */
export async function pickSampleTargets(c: DuckDBConnection, limit: number, seed: string): Promise<SampleTarget[]> {
  if (limit <= 0) return [];
  const reader = await c.runAndReadAll(
    `SELECT p.payment_id, p.disbursement_id, p.reference
       FROM payouts p
       JOIN disbursements d USING (disbursement_id)
      WHERE d.sync_status <> 'incomplete'
        AND NOT EXISTS (SELECT 1 FROM payment_samples s WHERE s.payment_id = p.payment_id AND s.disbursement_id = p.disbursement_id)
      ORDER BY hash(p.payment_id || $1), p.payment_id
      LIMIT ${Math.floor(limit)}`,
    [seed],
  );
  return reader
    .getRows()
    .map((r) => ({
      paymentId: String(r[0]),
      disbursementId: String(r[1]),
      payoutReference: r[2] === null ? null : String(r[2]),
    }));
}

export async function saveSamples(c: DuckDBConnection, runId: string, samples: PaymentSample[]): Promise<void> {
  if (samples.length === 0) return;
  await c.run(`CREATE OR REPLACE TEMP TABLE _s (payment_id VARCHAR, disbursement_id VARCHAR, payout_reference VARCHAR, http_status INTEGER,
    payment_status VARCHAR, reported_disbursement_id VARCHAR, payout_found VARCHAR, payout_amount BIGINT, payout_currency VARCHAR, raw VARCHAR)`);
  await appendRows(
    c,
    '_s',
    ['varchar', 'varchar', 'varchar', 'integer', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar'],
    samples.map((s) => [
      s.paymentId,
      s.disbursementId,
      s.payoutReference,
      s.httpStatus,
      s.paymentStatus,
      s.reportedDisbursementId,
      String(s.payoutFound),
      s.payoutAmount,
      s.payoutCurrency,
      s.raw,
    ]),
  );
  await inTransaction(c, () =>
    c.run(
      `INSERT OR REPLACE INTO payment_samples
      SELECT payment_id, disbursement_id, payout_reference, $1, now(), http_status, payment_status, reported_disbursement_id,
             payout_found = 'true', payout_amount, payout_currency, CAST(raw AS JSON) FROM _s`,
      [runId],
    ),
  );
}

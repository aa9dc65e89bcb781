// An auditor's sample for payment_cross_check: read GET /payments/{paymentID} for a few payouts per run
// (a request budget) and record what the payment itself says about its disbursement and payout.
import type { PaymentsClient } from '../api/client.js';
import { NotFoundError } from '../api/errors.js';
import { PaymentDetailsSchema } from '../api/schemas.js';

export interface SampleTarget {
  paymentId: string;
  disbursementId: string;
  payoutReference: string | null;
}

export interface PaymentSample extends SampleTarget {
  httpStatus: number;
  paymentStatus: string | null;
  reportedDisbursementId: string | null;
  payoutFound: boolean;
  payoutAmount: bigint | null;
  payoutCurrency: string | null;
  raw: string | null;
}

export async function samplePayment(client: PaymentsClient, target: SampleTarget): Promise<PaymentSample> {
  let body: unknown;
  try {
    body = await client.getJson(`/payments/${encodeURIComponent(target.paymentId)}`);
  } catch (err) {
    if (err instanceof NotFoundError) {
      return { ...target, httpStatus: 404, paymentStatus: null, reportedDisbursementId: null, payoutFound: false, payoutAmount: null, payoutCurrency: null, raw: null };
    }
    throw err;
  }
  const raw = JSON.stringify(body);
  const parsed = PaymentDetailsSchema.safeParse(body);
  if (!parsed.success) {
    return { ...target, httpStatus: 200, paymentStatus: null, reportedDisbursementId: null, payoutFound: false, payoutAmount: null, payoutCurrency: null, raw };
  }
  const p = parsed.data;
  // the payouts[] entry of this disbursement (and reference, when the payout carries one)
  const entry = (p.payouts ?? []).find(
    (x) => x.disbursement_id === target.disbursementId && (target.payoutReference === null || x.reference === target.payoutReference),
  );
  return {
    ...target,
    httpStatus: 200,
    paymentStatus: p.status,
    reportedDisbursementId: p.disbursement_id ?? null,
    payoutFound: entry !== undefined,
    payoutAmount: entry?.amount === undefined || entry.amount === null ? null : BigInt(entry.amount),
    payoutCurrency: entry?.currency ?? null,
    raw,
  };
}

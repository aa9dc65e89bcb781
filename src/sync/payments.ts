// An auditor's sample for payment_cross_check: read GET /payments/{paymentID} for a few payouts per run
// (a request budget) and record what the payment itself says about its disbursement and payout.
import type { PaymentsClient } from '../api/client.js';
import { ApiError, NotFoundError, RateLimitedError } from '../api/errors.js';
import { canonicalJson, tooDeepStandIn } from './canonical.js';
import { PaymentDetailsSchema } from '../api/schemas.js';
import type { PaymentSample, SampleTarget } from '../store/samples.js';

export type { PaymentSample, SampleTarget };

/** Tries per payment look-up: a sample is a spot check, not worth the night's request budget. */
const LOOKUP_ATTEMPTS = 3;

/** A sample whose answer says nothing of the payment (an error, or a body recon cannot read): kept as it came. */
function unread(target: SampleTarget, httpStatus: number | null, raw: string | null): PaymentSample {
  return {
    ...target, httpStatus, paymentStatus: null, reportedDisbursementId: null,
    payoutFound: false, payoutAmount: null, payoutCurrency: null, raw,
  };
}

/**
 * Read one payment's details. Whatever the service answers, the answer is a sample: 404 says the service
 * does not know the payment (a finding), any other failure — a key without this permission (401/403), a
 * 422, a 5xx that outlived its few retries — leaves it unverified (a warning), never a failed run.
 */
export async function samplePayment(client: PaymentsClient, target: SampleTarget): Promise<PaymentSample> {
  let body: unknown;
  try {
    body = await client.getJson(`/payments/${encodeURIComponent(target.paymentId)}`, undefined, {
      maxAttempts: LOOKUP_ATTEMPTS,
    });
  } catch (err) {
    if (!(err instanceof ApiError) || err instanceof RateLimitedError) throw err;
    return unread(target, err instanceof NotFoundError ? 404 : (err.status ?? null), null);
  }
  const raw = canonicalJson(body);
  if (raw === null) {
    return unread(target, 200, tooDeepStandIn());
  }
  const parsed = PaymentDetailsSchema.safeParse(body);
  if (!parsed.success) {
    return unread(target, 200, raw);
  }
  const p = parsed.data;
  // the payouts[] entry of this disbursement (and reference, when the payout carries one)
  const entry = (p.payouts ?? []).find(
    (x) =>
      x.disbursement_id === target.disbursementId &&
      (target.payoutReference === null || x.reference === target.payoutReference),
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

// Anomalies (docs/sandbox.md, Anomalies): which disbursement gets which kind, at most one each; the
// choice depends only on (seed, index). anomalies.ts applies them.
import { ANOMALY_KINDS, type AnomalyKind } from './kinds.js';
import type { Resolved } from './options.js';
import type { Recipient } from './recipients.js';
import { rngFor } from './rng.js';

/** What the choice reads of the dataset. */
export interface AnomalySource {
  readonly n: number;
  readonly seed: string;
  readonly recipients: readonly Recipient[];
  recipientOf(index: number): Recipient;
}

interface Context {
  index: number;
  recipient: Recipient;
  recipients: number;
  disbursements: number;
}

/** Why a kind cannot be planted on a disbursement, or null when it can. */
function whyNotApplicable(kind: AnomalyKind, ctx: Context): string | null {
  switch (kind) {
    case 'count_refunds_wrong':
      return ctx.recipient.netting ? null : 'its recipient does not collect refunds by netting';
    case 'duplicate_payout':
    case 'bank_account_changed':
      return ctx.index >= ctx.recipients
        ? null
        : 'it has no earlier disbursement of the same recipient (index < recipients)';
    case 'payout_missing_from_api':
    case 'payout_missing_from_file':
    case 'file_amount_differs':
    case 'missing_files':
      return ctx.recipient.layouts.length > 0 ? null : 'its recipient has no file layouts';
    case 'payment_points_elsewhere':
      return ctx.disbursements >= 2 ? null : 'there is no other disbursement to point at';
    default:
      return null;
  }
}

export function chooseAnomalies(ds: AnomalySource, opts: Resolved['anomalies']): Int8Array {
  const out = new Int8Array(ds.n).fill(-1);
  const R = ds.recipients.length;
  const ctx = (index: number): Context => ({
    index,
    recipient: ds.recipientOf(index),
    recipients: R,
    disbursements: ds.n,
  });
  if (opts.rate > 0) {
    for (let i = R; i < ds.n; i += 1) {
      const rng = rngFor(ds.seed, 'anomaly', i);
      if (!rng.chance(opts.rate)) continue;
      const c = ctx(i);
      const fitting = opts.kinds.filter((k) => whyNotApplicable(k, c) === null);
      if (fitting.length > 0) out[i] = ANOMALY_KINDS.indexOf(rng.pick(fitting));
    }
  }
  for (const { index, kind } of opts.plant) {
    const why = whyNotApplicable(kind, ctx(index));
    if (why) throw new RangeError(`sandbox options: cannot plant ${kind} on disbursement ${index}: ${why}`);
    out[index] = ANOMALY_KINDS.indexOf(kind);
  }
  return out;
}

// One disbursement per anomaly kind, on recipients where every kind applies (refunds by netting and
// files configured: recipients 1, 2 and 3 of the default six), for demos and acceptance tests.
import { ANOMALY_KINDS, type AnomalyKind } from './kinds.js';

export function plantEveryKind(firstIndex = 12, recipients = 6): Array<{ index: number; kind: AnomalyKind }> {
  const base = Math.ceil(firstIndex / recipients) * recipients;
  return ANOMALY_KINDS.map((kind, k) => ({ kind, index: base + recipients * k + (1 + (k % 3)) }));
}

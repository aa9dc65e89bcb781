// The vocabularies of docs/sandbox.md (Anomalies, Faults): what can be planted in the data and what can
// go wrong on the wire. ANOMALY_CHECKS is the table's last column: the check ids expected to find a kind.

export const ANOMALY_KINDS = [
  'total_off_by_one', 'debit_as_credit', 'count_payments_wrong', 'count_refunds_wrong', 'count_adjustments_wrong',
  'currency_mismatch', 'duplicate_payout', 'payout_missing_from_api', 'payout_missing_from_file', 'file_amount_differs',
  'bank_account_changed', 'invalid_record', 'restated', 'missing_files', 'unknown_entry_type',
  'payment_points_elsewhere',
] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

export const ANOMALY_CHECKS: Readonly<Record<AnomalyKind, string[]>> = {
  total_off_by_one: ['total_identity'],
  debit_as_credit: ['total_identity'],
  count_payments_wrong: ['count_payments'],
  count_refunds_wrong: ['count_refunds'],
  count_adjustments_wrong: ['count_adjustments'],
  currency_mismatch: ['currency_mismatch'],
  duplicate_payout: ['duplicate_payout'],
  payout_missing_from_api: ['file_vs_api'],
  payout_missing_from_file: ['file_vs_api'],
  file_amount_differs: ['file_vs_api', 'gross_variance'],
  bank_account_changed: ['bank_account_changed'],
  invalid_record: ['invalid_record'],
  restated: ['restated'],
  missing_files: ['missing_files'],
  unknown_entry_type: ['unknown_entry_type'],
  payment_points_elsewhere: ['payment_cross_check'],
};

export const FAULT_KINDS = ['500', '502', '503', 'html', 'slow', 'reset', 'truncated', '429'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export function isAnomalyKind(value: string): value is AnomalyKind {
  return (ANOMALY_KINDS as readonly string[]).includes(value);
}

export function isFaultKind(value: string): value is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(value);
}

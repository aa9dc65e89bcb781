// The shape of one served disbursement (see model.ts, which builds it, and anomalies.ts, which alters it).
import type { BaseAdjustment, BasePayout, BaseRefund } from './dataset.js';
import type { AnomalyKind } from './kinds.js';
import type { Layout, Recipient } from './recipients.js';

export type InvalidMode = 'string_amount' | 'no_reference';

export interface ModelPayout extends BasePayout {
  inApi: boolean;
  inFile: boolean;
  /** Amount written in the files (differs from `amount` only under file_amount_differs). */
  fileAmount: number;
  invalid: InvalidMode | null;
  /** disbursement_id named by this payment's details. */
  detailsDisbursementId: string;
  /** True for a payout settled again from an earlier disbursement (duplicate_payout). */
  duplicate: boolean;
}

export interface Model {
  index: number;
  id: string;
  recipient: Recipient;
  deliveredAtMs: number;
  currency: string;
  account: string;
  payouts: ModelPayout[];
  refunds: BaseRefund[];
  adjustments: BaseAdjustment[];
  amount: number;
  numberOfPayments: number;
  numberOfRefunds: number;
  numberOfAdjustments: number;
  /** Layouts served by /files (empty under missing_files). */
  files: Layout[];
  anomaly: AnomalyKind | null;
  /** What the anomaly touched (a reference, payment id or field), for the ground truth. */
  subject: string | null;
}

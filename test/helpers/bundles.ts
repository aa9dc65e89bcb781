// A small disbursement bundle as the sync hands it to StoreWriter, for the store's unit tests.
import { contentHash, type DisbursementBundle, type FileResult } from '../../src/store/bundle.js';

/** A disbursement with two payouts, a refund, an adjustment and a tagged file of three lines; `spoil` changes one value. */
export function testBundle(id: string, spoil: (b: DisbursementBundle) => void = () => {}): DisbursementBundle {
  const line = <T>(lineNo: number, value: T) => ({ lineNo, value, raw: JSON.stringify(value) });
  const file: FileResult = {
    fileNo: 1, name: `${id}.dat`, extension: 'dat', sha256: null, sizeBytes: 120, layout: 'tagged-dat', parseStatus: 'parsed', parseError: null,
    lines: [1, 2, 3].map((n) => ({ lineNo: n + 1, kind: 'payout' as const, entryType: null, reference: `${id}_f${n}`, paymentId: null, currency: 'EUR', amount: 100n * BigInt(n), raw: `D,P,${id}_f${n}` })),
    footerCount: 3n, footerTotal: 600n, problems: [],
  };
  const b = {
    record: { disbursement_id: id, recipient_id: 'r1', status: 'delivered', delivered_at: '2026-10-05T06:00:00Z', number_of_payments: 2,
      number_of_refunds: 1, number_of_adjustments: 1, amount: 1000, currency: 'EUR', bank_account_number: null },
    payouts: [1, 2].map((n) => line(n, { recipient_id: 'r1', reference: `${id}_p${n}`, status: 'paid', payment_id: `pay${n}`, currency: 'EUR', amount: 500 })),
    refunds: [line(1, { refund_id: `${id}_r1`, payment: { id: 'pay1', external_reference: null }, amount: 50, currency: 'EUR' })],
    adjustments: [line(1, { reference: `${id}_a1`, category: 'fee', amount: 50, currency: 'EUR', entry_type: 'credit', entity: null, entity_reference: null })],
    files: [file], quarantine: [], syncStatus: 'complete' as const, syncNote: null,
  } as unknown as Omit<DisbursementBundle, 'contentHash' | 'raw'>;
  spoil(b as DisbursementBundle);
  return { ...b, raw: JSON.stringify(b.record), contentHash: contentHash(b) };
}


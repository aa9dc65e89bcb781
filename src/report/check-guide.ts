// What each check means, in one sentence an accountant can act on, and what to do next. Shown on the
// Checks sheet of the exception workbook beside this run's count. A check without an entry here is still
// listed (its id and count), so a new check file never disappears from the workbook.

export interface CheckGuide {
  meaning: string;
  action: string;
}

export const CHECK_GUIDE: Readonly<Record<string, CheckGuide>> = {
  total_identity: {
    meaning: 'The disbursement total is not payouts + credit adjustments − refunds − debit adjustments.',
    action: 'Ask the provider which line is missing or wrong; post the difference to suspense until they answer, then acknowledge with their ticket number.',
  },
  gross_variance: {
    meaning: 'Lines in the settlement file differ from the API lines in both directions, even where the net agrees.',
    action: 'Compare the listed lines with the file; ask the provider to correct the file or the API.',
  },
  count_payments: {
    meaning: 'The disbursement states another number of payments than the payout lines received.',
    action: 'Ask the provider for the missing payout lines (or why some are extra); acknowledge once explained.',
  },
  count_refunds: {
    meaning: 'The disbursement states another number of refunds than the refund lines received.',
    action: 'Ask the provider for the missing refund line; if confirmed, acknowledge with the ticket number.',
  },
  count_adjustments: {
    meaning: 'The disbursement states another number of adjustments than the adjustment lines received.',
    action: 'Ask the provider for the missing adjustment (fee, chargeback, correction) and book it when it arrives.',
  },
  currency_mismatch: {
    meaning: 'A line is in another currency than its disbursement; it is held in suspense in its own currency.',
    action: 'Ask the provider to restate the disbursement in one currency; do not book the line into the disbursement currency.',
  },
  duplicate_payout: {
    meaning: 'A payment was settled again after an earlier disbursement already paid it.',
    action: 'Claim the duplicate back from the provider or confirm it is a second, genuine payout.',
  },
  duplicate_refund: {
    meaning: 'A refund was deducted again after an earlier disbursement already deducted it.',
    action: 'Ask the provider to return the second deduction.',
  },
  duplicate_adjustment: {
    meaning: 'An adjustment reference appears again after an earlier disbursement already carried it.',
    action: 'Ask the provider whether the adjustment was applied twice.',
  },
  file_vs_api: {
    meaning: 'The settlement file and the API disagree on a line, a footer, or the file could not be read.',
    action: 'Check the named file line against the API line; for a file that could not be read, ask for it again.',
  },
  missing_files: {
    meaning: 'No settlement file came with a disbursement of a recipient that always gets one.',
    action: 'Ask the provider to publish the file; the finding closes when a later run downloads it.',
  },
  invalid_record: {
    meaning: 'A record from the provider broke the interface (wrong type, missing field); it is kept raw in quarantine.',
    action: 'Send the Payload column to the provider; the disbursement is not reconciled until the record is valid.',
  },
  incomplete_disbursement: {
    meaning: 'Not every line of the disbursement could be read; it is never reported as reconciled.',
    action: 'Nothing to book yet: the next run reads it again. If it stays, forward the detail to the provider.',
  },
  payment_cross_check: {
    meaning: "A sampled payment's own details disagree with its payout line in the disbursement.",
    action: 'Ask the provider which is right, the payment or the disbursement; correct the booking if the payment is.',
  },
  restated: {
    meaning: 'The provider changed a disbursement after it was delivered; the earlier version is kept in history.',
    action: 'Compare both versions (disbursement_history); rebook if the month is still open.',
  },
  post_close_change: {
    meaning: 'A disbursement of a month already closed was changed by the provider afterwards.',
    action: 'Decide whether to reissue the close (recon close --reissue) or book the change in the current month.',
  },
  unknown_entry_type: {
    meaning: 'An adjustment is neither credit nor debit, so it cannot be placed in the identity.',
    action: 'Ask the provider how to treat the entry type; book it by hand until recon knows it.',
  },
  unlisted_currency: {
    meaning: 'A currency code outside the interface list; amounts are shown with two decimals.',
    action: 'Confirm the currency with the provider before booking.',
  },
  bank_account_changed: {
    meaning: 'The disbursement went to another bank account than the recipient used before.',
    action: 'Confirm the account change with the recipient before accepting the settlement.',
  },
};

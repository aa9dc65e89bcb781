// zod schemas per resource, from the interface's Disbursement sections. Unknown fields are accepted and
// kept (looseObject); IDs and references are opaque non-empty strings (interface § Conventions: their
// format may change without a new version); amounts are integers in subunits; a currency must look like
// an ISO 4217 code — a well-formed code outside the interface's list is a finding, not a rejection.
import { z } from 'zod';
import { parseServiceTimestamp } from '../timestamp.js';
import { InexactNumber } from './json.js';

const id = z.string().min(1, 'must be a non-empty string');
const amount = z.number().int('must be an integer number of subunits').nonnegative('must not be negative');
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code (three capital letters)');
// read exactly (src/timestamp.ts), never by Date.parse: an impossible or non-ISO one quarantines its record
const timestamp = z.string().superRefine((s, ctx) => {
  const at = parseServiceTimestamp(s);
  if (typeof at === 'string') ctx.addIssue({ code: 'custom', message: at });
});
const count = z.number().int().nonnegative();

export const DisbursementSchema = z.looseObject({
  disbursement_id: id,
  recipient_id: id,
  status: z.string(),
  delivered_at: timestamp,
  number_of_payments: count,
  number_of_refunds: count,
  number_of_adjustments: count,
  // the total may in principle be negative (debits above payouts): integer is all the interface promises
  amount: z.number().int('must be an integer number of subunits'),
  currency,
  bank_account_number: z.string().nullish(),
});
export type Disbursement = z.infer<typeof DisbursementSchema>;

export const PayoutSchema = z.looseObject({
  recipient_id: id,
  reference: id,
  status: z.string().nullish(),
  payment_id: id,
  currency,
  amount,
});
export type Payout = z.infer<typeof PayoutSchema>;

export const RefundSchema = z.looseObject({
  refund_id: id,
  payment: z.looseObject({ id, external_reference: z.string().nullish() }),
  amount,
  currency,
});
export type Refund = z.infer<typeof RefundSchema>;

export const AdjustmentSchema = z.looseObject({
  reference: id,
  category: z.string().nullish(),
  amount,
  currency,
  // credit | debit per the interface; anything else is kept and reported by unknown_entry_type
  entry_type: z.string().min(1),
  entity: z.string().nullish(),
  entity_reference: z.string().nullish(),
});
export type Adjustment = z.infer<typeof AdjustmentSchema>;

const FileLinkSchema = z.looseObject({ name: z.string(), url: z.string().url() });
export const FileListSchema = z.array(FileLinkSchema);
export type FileLink = z.infer<typeof FileLinkSchema>;

export const EnvelopeSchema = z.looseObject({
  total_entries: count,
  total_pages: count,
  page: z.number().int().positive(),
  per_page: z.number().int().positive(),
});

const PaymentPayoutSchema = z.looseObject({
  recipient_id: z.string().nullish(),
  reference: z.string().nullish(),
  disbursement_id: z.string().nullish(),
  status: z.string().nullish(),
  amount: z.number().int().nullish(),
  currency: z.string().nullish(),
});

export const PaymentDetailsSchema = z.looseObject({
  payment_id: id,
  status: z.string(),
  disbursement_id: z.string().nullish(),
  amount_to: z.number().int().nullish(),
  currency_to: z.string().nullish(),
  payouts: z.array(PaymentPayoutSchema).optional(),
});

/** A readable one-line reason from a zod failure, e.g. "amount: must be an integer number of subunits". */
const NOUN: Record<string, string> = {
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  int: 'a whole number',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * The value at `path` in `input`, as a short quote ("12.50", 7, an object, a number's digits as sent),
 * or undefined when absent.
 */
function quoteAt(input: unknown, path: readonly PropertyKey[]): string | undefined {
  const v = valueAt(input, path);
  if (v === undefined) return undefined;
  if (v === null) return 'null';
  if (v instanceof InexactNumber) return v.text.length > 40 ? `${v.text.slice(0, 39)}…` : v.text;
  if (typeof v === 'object') return Array.isArray(v) ? 'a list' : 'an object';
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * What is wrong with a record, in words an accountant can forward: which field, what was expected, what
 * came ("amount should be a number but is "12.50"; reference is missing"). `input` is the record (to
 * quote the value that came); without it the validator's own words are used.
 */
export function describeIssues(error: z.ZodError, input?: unknown): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : 'the record';
      const got = input === undefined ? undefined : quoteAt(input, issue.path);
      const inexact = input === undefined ? undefined : valueAt(input, issue.path);
      if (inexact instanceof InexactNumber) {
        const why = /^-?\d+$/.test(inexact.text)
          ? 'past 2^53 a double rounds whole numbers' : 'a double holds 15 significant digits and up to 1e308';
        return `${field}: ${got} cannot be read exactly as a number (${why}); not stored`;
      }
      // a message the schema wrote itself ("must not be negative") says it best; zod's defaults start "Invalid"
      const own = !issue.message.startsWith('Invalid');
      if (input !== undefined && issue.code === 'invalid_type' && (!own || got === undefined)) {
        const expected = NOUN[String(issue.expected)] ?? String(issue.expected);
        return got === undefined
          ? `${field} is missing (should be ${expected})`
          : `${field} should be ${expected} but is ${got}`;
      }
      if (input !== undefined && issue.code === 'invalid_value') {
        return `${field} should be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} but is ` +
                 `${got ?? 'missing'}`;
      }
      return `${field}: ${issue.message}${got === undefined ? '' : ` (got ${got})`}`;
    })
    .join('; ');
}

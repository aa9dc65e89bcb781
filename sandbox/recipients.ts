// The sandbox's recipients: each has one currency, a refund collection method and a fixed set of file
// layouts (interface: "Available files and their content depend on the recipient configuration").
import { currencyFactor } from './money.js';
import { rngFor } from './rng.js';

export type Layout = 'csv' | 'txt' | 'dat';

export const CURRENCIES = ['EUR', 'USD', 'JPY', 'KWD', 'MGA', 'VND'] as const;

/**
 * r0 EUR: dat, r1 USD: txt, r2 JPY: csv, r3 KWD: csv+dat, r4 MGA: csv, r5 VND: none — one recipient gets
 * none, one gets two, and the csv (major units) covers the awkward decimals: 0 (JPY), 3 (KWD), 1 (MGA).
 */
const LAYOUTS: readonly (readonly Layout[])[] = [['dat'], ['txt'], ['csv'], ['csv', 'dat'], ['csv'], []];

/** Half of the recipients (r1, r2, r3) collect refunds by netting; only those have refunds. */
const NETTING = [false, true, true, true, false, false];

/** Plausible payout range per currency, in major units. */
const PAYOUT_MAJOR: Readonly<Record<string, [number, number]>> = {
  EUR: [5, 900],
  USD: [5, 1000],
  GBP: [5, 800],
  JPY: [500, 90_000],
  KWD: [1.5, 280],
  MGA: [20_000, 4_000_000],
  VND: [100_000, 20_000_000],
};

/** Approximate value of one major unit in USD, for FX payments' amount_from. */
const USD_VALUE: Readonly<Record<string, number>> = {
  EUR: 1.08, USD: 1, GBP: 1.27, JPY: 0.0067, KWD: 3.25, MGA: 0.00022, VND: 0.00004, CHF: 1.12, CAD: 0.73,
};

/** Payer currencies of FX payments. */
export const PAYER_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'CAD', 'JPY'] as const;

export interface Recipient {
  index: number;
  id: string;
  currency: string;
  netting: boolean;
  layouts: readonly Layout[];
}

export function makeRecipients(seed: string, count: number): Recipient[] {
  const out: Recipient[] = [];
  for (let k = 0; k < count; k += 1) {
    const rng = rngFor(seed, 'recipient', k);
    out.push({
      index: k,
      id: `rcp_${rng.hex(10)}${k.toString(36)}`,
      currency: CURRENCIES[k % CURRENCIES.length] as string,
      netting: NETTING[k % NETTING.length] ?? false,
      layouts: LAYOUTS[k % LAYOUTS.length] ?? [],
    });
  }
  return out;
}

/** '****' + 4 digits, stable per recipient and account version (bank_account_changed bumps the version). */
export function maskedAccount(seed: string, recipient: number, version: number): string {
  let digits = rngFor(seed, 'account', recipient, version).int(0, 9999);
  if (version > 0 && digits === rngFor(seed, 'account', recipient, version - 1).int(0, 9999))
    digits = (digits + 1) % 10_000;
  return `****${String(digits).padStart(4, '0')}`;
}

/** [min, max] payout amount in subunits. */
export function payoutRange(currency: string): [number, number] {
  const [lo, hi] = PAYOUT_MAJOR[currency] ?? [5, 900];
  const factor = currencyFactor(currency);
  return [Math.round(lo * factor), Math.round(hi * factor)];
}

/** Amount in `from` subunits that buys `amountTo` subunits of `to`, with a small FX margin. */
export function convert(amountTo: number, to: string, from: string, margin: number): number {
  const major = amountTo / currencyFactor(to);
  const usd = major * (USD_VALUE[to] ?? 1);
  const fromMajor = (usd / (USD_VALUE[from] ?? 1)) * (1 + margin);
  return Math.max(1, Math.round(fromMajor * currencyFactor(from)));
}

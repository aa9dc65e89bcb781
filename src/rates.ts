// Exchange rates the user gives (--rates FILE): how money at stake in several currencies is ordered
// and totalled in one reporting currency. Without them recon never adds or ranks amounts of different
// currencies. The file is CSV, strictly read:
//   currency,rate_to_USD,as_of          the header names the reporting currency (here USD)
//   EUR,1.0842,2026-11-26               one row per currency: what one major unit is worth in it, and the
//   KWD,3.2571,2026-11-26               day of the rate; the reporting currency itself may be listed at 1
// A rate is a positive decimal with at most 12 decimals; a code is three capitals; a day exists. Anything
// else, a repeated currency, or more than MAX_RATES rows is refused with the line it is on.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from './errors.js';
import { isCalendarDate } from './month.js';
import { currencyFactor } from './money.js';
import { parseUserCsv } from './user-csv.js';

export const RATE_SCALE_DIGITS = 12;
const RATE_SCALE = 10n ** BigInt(RATE_SCALE_DIGITS);
const MAX_RATES = 1000;
const MAX_FILE_BYTES = 256 * 1024;
const CODE = /^[A-Z]{3}$/;
const DECIMAL = new RegExp(`^(\\d{1,12})(?:\\.(\\d{1,${RATE_SCALE_DIGITS}}))?$`);

export interface Rate {
  currency: string;
  /** What one major unit is worth in the reporting currency, × 10^12 (exact). */
  scaled: bigint;
  /** The rate as written. */
  text: string;
  asOf: string;
}

export interface Rates {
  /** The currency totals and ordering are converted to. */
  reporting: string;
  /** Every currency with a rate (the reporting currency always, at 1). */
  rates: Rate[];
  /** Where they came from (the file's name), for the workbook. */
  source: string;
}

/** A rates file's text, or a UsageError naming the line and what is wrong. */
export function parseRates(text: string, source: string): Rates {
  const where = (line: number) => `--rates ${source} line ${line}`;
  const rows = parseUserCsv(text, `--rates ${source}`, MAX_RATES);
  const header = rows[0];
  const m = header && header.length === 3 ? /^rate_to_([A-Z]{3})$/.exec(header[1]!) : null;
  if (!header || header[0] !== 'currency' || !m || header[2] !== 'as_of') {
    throw new UsageError(
      `${where(1)}: expected the header currency,rate_to_XXX,as_of (XXX the reporting currency, e.g. ` +
        `currency,rate_to_USD,as_of)`,
    );
  }
  const reporting = m[1]!;
  if (rows.length > MAX_RATES + 1) throw new UsageError(`--rates ${source}: more than ${MAX_RATES} rates`);
  const seen = new Map<string, Rate>();
  let latest = '';
  rows.slice(1).forEach((row, i) => {
    const line = i + 2;
    if (row.length !== 3)
      throw new UsageError(`${where(line)}: expected 3 fields (currency, rate, as-of day), found ${row.length}`);
    const [currency, rate, asOf] = row as [string, string, string];
    if (!CODE.test(currency))
      throw new UsageError(
        `${where(line)}: "${currency.slice(0, 12)}" is not a currency code (three capitals, e.g. EUR)`,
      );
    const d = DECIMAL.exec(rate);
    if (!d)
      throw new UsageError(
        `${where(line)}: rate "${rate.slice(0, 24)}" of ${currency} is not a decimal number with a dot and at most ` +
          `${RATE_SCALE_DIGITS} decimals, e.g. 1.0842`,
      );
    const scaled = BigInt(d[1]!) * RATE_SCALE + BigInt((d[2] ?? '').padEnd(RATE_SCALE_DIGITS, '0'));
    if (scaled === 0n) throw new UsageError(`${where(line)}: rate of ${currency} is 0`);
    if (!isCalendarDate(asOf))
      throw new UsageError(
        `${where(line)}: as-of "${asOf.slice(0, 24)}" of ${currency} is not a day YYYY-MM-DD that exists`,
      );
    if (seen.has(currency)) throw new UsageError(`${where(line)}: ${currency} is listed twice`);
    if (currency === reporting && scaled !== RATE_SCALE)
      throw new UsageError(`${where(line)}: ${currency} is the reporting currency; its rate must be 1`);
    seen.set(currency, { currency, scaled, text: rate, asOf });
    if (asOf > latest) latest = asOf;
  });
  if (seen.size === 0) throw new UsageError(`--rates ${source}: no rates below the header`);
  if (!seen.has(reporting)) seen.set(reporting, { currency: reporting, scaled: RATE_SCALE, text: '1', asOf: latest });
  return { reporting, rates: [...seen.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)), source };
}

/** The rates file at `file` (bounded in size), parsed; a UsageError when it cannot be read or is wrong. */
export function readRates(file: string): Rates {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES)
      throw new UsageError(`--rates ${file}: larger than ${MAX_FILE_BYTES / 1024} KiB; expected one line per currency`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `--rates ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  return parseRates(text, file);
}

/**
 * `subunits` of `currency` in subunits of the reporting currency, rounded half up (subunits are never
 * negative here: money at stake); null when the currency has no rate.
 */
export function convert(rates: Rates, subunits: bigint, currency: string): bigint | null {
  const rate = rates.rates.find((r) => r.currency === currency);
  if (!rate) return null;
  const num = subunits * rate.scaled * BigInt(currencyFactor(rates.reporting));
  const den = BigInt(currencyFactor(currency)) * RATE_SCALE;
  return (num * 2n + den) / (2n * den);
}

/** The rates as SQL rows (currency, scaled rate) for the ordering of findings: codes and integers only. */
export function ratesValues(rates: Rates | null): Array<{ currency: string; scaled: bigint }> {
  return rates ? rates.rates.map((r) => ({ currency: r.currency, scaled: r.scaled })) : [];
}

// Four eyes: above a threshold per currency (major units; '*' for every other currency), accepting money as
// it is — an acknowledgement of a finding, or a close's unaccounted money — needs a second, different person.
// Written "EUR:10000,USD:12000,*:5000" (or, in the config file, {"EUR": 10000, "USD": "12000"}). A currency
// without an entry (and no '*') has no threshold; a finding without money (a count) never needs it.
import { currencyFactor, formatMajor } from '../money.js';

interface FourEyesLimit {
  /** ISO 4217 code, or '*'. */
  currency: string;
  /** Decimal text in major units. */
  major: string;
}

export type FourEyes = readonly FourEyesLimit[];

const ENTRY = /^([A-Z]{3}|\*):(\d+(?:\.\d+)?)$/;

/** The limits of a --four-eyes value (text or the config file's map), or null when it is not one. */
export function parseFourEyes(value: unknown): FourEyes | null {
  const amount = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? String(v) : '?');
  const entries = typeof value === 'string'
    ? value.split(',').map((e) => e.trim()).filter((e) => e !== '')
    : value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}:${amount(v)}`)
      : null;
  if (entries === null) return null;
  const limits: FourEyesLimit[] = [];
  for (const entry of entries) {
    const m = ENTRY.exec(entry.toUpperCase());
    if (!m || limits.some((l) => l.currency === m[1])) return null;
    limits.push({ currency: m[1]!, major: m[2]! });
  }
  return limits;
}

/** The limit that holds for `currency` (its own, else '*'), or null. */
function fourEyesLimit(limits: FourEyes, currency: string | null): FourEyesLimit | null {
  if (currency === null) return null;
  return limits.find((l) => l.currency === currency) ?? limits.find((l) => l.currency === '*') ?? null;
}

/** Whether `subunits` of `currency` is above its limit, compared exactly (never in floating point). */
export function aboveLimit(limits: FourEyes, currency: string | null, subunits: bigint | null): FourEyesLimit | null {
  const limit = fourEyesLimit(limits, currency);
  if (!limit || subunits === null || currency === null) return null;
  const [whole, frac = ''] = limit.major.split('.');
  const scale = 10n ** BigInt(frac.length);
  const magnitude = subunits < 0n ? -subunits : subunits;
  // subunits / factor > whole.frac  ⇔  subunits × 10^len(frac) > (whole frac) × factor
  return magnitude * scale > BigInt(`${whole}${frac}`) * BigInt(currencyFactor(currency)) ? limit : null;
}

/** "EUR 10000" as the limit reads in messages. */
export function limitText(limit: FourEyesLimit, currency: string): string {
  return `${currency} ${limit.major}${limit.currency === '*' ? ' (the * limit)' : ''}`;
}

/** "EUR 12000.00" */
export function moneyText(subunits: bigint, currency: string): string {
  return `${currency} ${formatMajor(subunits < 0n ? -subunits : subunits, currency)}`;
}

/** The same person, whatever the case or spacing they typed their name in. */
export function samePerson(a: string | null, b: string | null): boolean {
  const norm = (s: string | null) => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  return a !== null && b !== null && norm(a) === norm(b);
}

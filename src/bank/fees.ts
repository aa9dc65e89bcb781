// The bank charges recon accepts on a provider's credit: a credit short of the disbursement it
// settles by at most the currency's limit is classified bank_fee, not "amount differs". The setting is a
// list of CCY:AMOUNT:PERCENT% entries (the amount in major units of that currency), '*' for every other
// currency; both limits must hold. Without an entry for a currency (and no '*'), any shortfall is a finding.

interface FeeLimit {
  currency: string; // ISO 4217 code or '*'
  maxFeeMajor: string; // decimal text, major units
  maxPercent: string; // decimal text, of the disbursement's amount
}

export const DEFAULT_FEE_TOLERANCE = '*:25:1%';

const ENTRY = /^([A-Z]{3}|\*):(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)%?$/;

/** The entries of a --bank-fee-tolerance value, or null when it is not one. */
export function parseFeeTolerance(text: string): FeeLimit[] | null {
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const limits: FeeLimit[] = [];
  for (const entry of entries) {
    const m = ENTRY.exec(entry.toUpperCase());
    if (!m || Number(m[3]) > 100 || limits.some((l) => l.currency === m[1])) return null;
    limits.push({ currency: m[1]!, maxFeeMajor: m[2]!, maxPercent: m[3]! });
  }
  return limits;
}

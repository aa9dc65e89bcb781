// Currency facts from the interface's Conventions section: ISO 4217 codes, integer subunits, and the
// subunit-to-unit factor per code (100 unless listed otherwise). Money never becomes a float here.

const LISTED = `AED AFN AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BZD CAD
CDF CHF CLP CNH CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD
HNL HRK HTG HUF IDR ILS INR ISK JMD JOD JPY KES KGS KHR KMF KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA
MKD MMK MNT MOP MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RWF
SAR SBD SCR SEK SGD SHP SLL SOS SRD STD SZL THB TJS TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VND VUV WST XAF
XCD XOF XPF YER ZAR ZMW`;

export const LISTED_CURRENCIES: ReadonlySet<string> = new Set(LISTED.split(/\s+/).filter(Boolean));

const SPECIAL_FACTORS: Readonly<Record<string, number>> = {
  CLP: 1, JPY: 1, VUV: 1,
  MGA: 5,
  VND: 10,
  BHD: 1000, KWD: 1000, LYD: 1000, OMR: 1000, TND: 1000,
};

/** Subunits per major unit. Unlisted codes fall back to 100 (they are reported as findings elsewhere). */
export function currencyFactor(code: string): number {
  return SPECIAL_FACTORS[code] ?? 100;
}

/**
 * ISO 4217 minor units where they are not 2 (BAI2 amounts carry them implied; the interface's factors differ for VND
 * and MGA).
 */
const ISO_MINOR_UNITS: Readonly<Record<string, number>> = Object.fromEntries([
  ...'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ...'BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3]),
]);

export function isoMinorUnits(code: string): number {
  return ISO_MINOR_UNITS[code] ?? 2;
}

/**
 * The smallest amount, in the interface's subunits, that a ledger holding ISO 4217 minor units can book:
 * 1 where every subunit is a whole minor unit (EUR, JPY, MGA's fifths are 0.20), 10 for VND (the service
 * counts tenths, ISO 4217 none), 100 for ISK or KRW (counted in hundredths, ISO 4217 none).
 */
export function isoStep(code: string): bigint {
  const factor = BigInt(currencyFactor(code));
  const minor = 10n ** BigInt(isoMinorUnits(code));
  let [a, b] = [factor, minor];
  while (b !== 0n) [a, b] = [b, a % b];
  return factor / a;
}

/**
 * Exact decimal string of a subunit amount at the currency's ISO 4217 minor units ((331776790n, 'VND') →
 * "33177679", (6n, 'MGA') → "1.20"). Throws when the amount is not a whole number of minor units (round it
 * to isoStep first): a ledger file never carries a digit the ledger cannot hold.
 */
export function formatIso(subunits: bigint, code: string): string {
  if (subunits % isoStep(code) !== 0n)
    throw new Error(`${subunits} subunits of ${code} is not a whole number of ISO 4217 minor units`);
  const decimals = isoMinorUnits(code);
  const scale = 10n ** BigInt(decimals);
  const negative = subunits < 0n;
  const scaled = ((negative ? -subunits : subunits) * scale) / BigInt(currencyFactor(code));
  const text =
    decimals === 0 ? `${scaled}` : `${scaled / scale}.${(scaled % scale).toString().padStart(decimals, '0')}`;
  return negative ? `-${text}` : text;
}

/**
 * Decimal places needed to show any subunit amount of this currency exactly in major units.
 * 1 → 0, 10 → 1, 100 → 2, 1000 → 3, and MGA's factor 5 → 1 (one subunit is 0.2).
 */
export function currencyDecimals(code: string): number {
  const factor = currencyFactor(code);
  let decimals = 0;
  // smallest d such that 10^d is a multiple of the factor
  while ((10 ** decimals) % factor !== 0) decimals += 1;
  return decimals;
}

/** Exact decimal string of a subunit amount in major units, e.g. (1234n, 'EUR') → "12.34", (6n, 'MGA') → "1.2". */
export function formatMajor(subunits: bigint | number, code: string): string {
  const factor = BigInt(currencyFactor(code));
  const decimals = currencyDecimals(code);
  const scale = 10n ** BigInt(decimals);
  const value = BigInt(subunits);
  const negative = value < 0n;
  const scaled = ((negative ? -value : value) * scale) / factor; // exact: factor divides 10^decimals
  const whole = scaled / scale;
  const frac = scaled % scale;
  const text = decimals === 0 ? `${whole}` : `${whole}.${frac.toString().padStart(decimals, '0')}`;
  return negative ? `-${text}` : text;
}

/** Excel number format showing the currency's decimals, e.g. '#,##0.00'. */
export function excelNumberFormat(code: string): string {
  const decimals = currencyDecimals(code);
  return decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`;
}

/**
 * Parse a major-unit decimal string ("1,234.50", "-0.2", "12") into subunits, exactly.
 * Returns null when the text is not a number or does not land on a whole subunit.
 */
export function parseMajor(text: string, code: string): bigint | null {
  const cleaned = text.trim().replace(/[\s,_]/g, '');
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const [, sign, whole, fracRaw = ''] = match;
  const scale = 10n ** BigInt(fracRaw.length);
  const numerator = BigInt(`${whole}${fracRaw}`) * BigInt(currencyFactor(code));
  if (numerator % scale !== 0n) return null;
  const value = numerator / scale;
  return sign === '-' ? -value : value;
}

/**
 * What a disbursement's money is made of, in subunits of its own currency, each part a magnitude: the
 * interface's identity is payouts + credits − refunds − debits (credit and debit adjustments) = the total.
 * One set of names wherever these parts are carried or added up.
 */
export interface MoneyShape {
  payouts: bigint;
  refunds: bigint;
  credits: bigint;
  debits: bigint;
}

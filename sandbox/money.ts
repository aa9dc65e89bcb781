// The sandbox's own money arithmetic, written apart from recon's (src/money.ts): were both to share one
// table, a wrong factor would cancel out between the service and its client instead of being caught.
// test/unit/sandbox/money.test.ts holds both to the interface's table.
//
// The interface, Conventions: "Subunit-to-unit factors: 100 for every listed code except the following."
const FACTOR_OF: ReadonlyMap<string, number> = new Map([
  ['CLP', 1], ['JPY', 1], ['VUV', 1],
  ['MGA', 5],
  ['VND', 10],
  ['BHD', 1000], ['KWD', 1000], ['LYD', 1000], ['OMR', 1000], ['TND', 1000],
]);

/** Subunits per unit, as the interface states them. */
export function currencyFactor(code: string): number {
  return FACTOR_OF.get(code) ?? 100;
}

/** ISO 4217 minor units (what a bank's BAI2 file implies), where they are not 2. */
const ISO_MINOR: ReadonlyMap<string, number> = new Map([
  ...[
    'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF',
    'XPF',
  ].map((c) => [c, 0] as const),
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3] as const),
]);

export function isoMinorUnits(code: string): number {
  return ISO_MINOR.get(code) ?? 2;
}

/**
 * A subunit amount as the decimal text a file or a statement shows, exactly: the integer part and the
 * remainder in units of 1/factor written as a decimal fraction (MGA: one subunit is 0.2).
 */
export function formatMajor(subunits: bigint | number, code: string): string {
  const factor = BigInt(currencyFactor(code));
  const value = BigInt(subunits);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = abs / factor;
  let rest = abs % factor;
  if (factor === 1n) return `${sign}${whole}`;
  // digits of rest/factor in base 10 until they end (every factor here divides a power of ten)
  let digits = '';
  const minDigits = factor === 1000n ? 3 : factor === 100n ? 2 : 1;
  while (rest !== 0n || digits.length < minDigits) {
    rest *= 10n;
    digits += String(rest / factor);
    rest %= factor;
  }
  return `${sign}${whole}.${digits}`;
}

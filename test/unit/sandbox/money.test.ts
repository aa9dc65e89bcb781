// The sandbox computes money with its own code (sandbox/money.ts), so that a wrong factor in recon's
// (src/money.ts) shows up as a disagreement instead of cancelling out. Both are held here to the table the
// interface gives (Conventions: "Subunit-to-unit factors: 100 for every listed code except the following").
import { describe, expect, it } from 'vitest';
import * as recon from '../../../src/money.js';
import * as sandbox from '../../../sandbox/money.js';

/** The interface's table, as written there. */
const INTERFACE_FACTORS: Record<number, string[]> = {
  1: ['CLP', 'JPY', 'VUV'],
  5: ['MGA'],
  10: ['VND'],
  1000: ['BHD', 'KWD', 'LYD', 'OMR', 'TND'],
};
const factorOf = (code: string): number => Number(Object.entries(INTERFACE_FACTORS).find(([, codes]) => codes.includes(code))?.[0] ?? 100);

describe('money in the sandbox and in recon', () => {
  it('both give every listed code the factor of the interface table', () => {
    expect(recon.LISTED_CURRENCIES.size).toBe(142); // the interface lists 142 codes
    for (const code of recon.LISTED_CURRENCIES) {
      expect(recon.currencyFactor(code), code).toBe(factorOf(code));
      expect(sandbox.currencyFactor(code), code).toBe(factorOf(code));
    }
  });

  it('both write the same exact major-unit text for every code and amount (one MGA subunit is 0.2)', () => {
    const amounts = [0n, 1n, 4n, 5n, 6n, 99n, 100n, 101n, 1234n, -1n, -1234567n, 9007199254740993n];
    for (const code of recon.LISTED_CURRENCIES) {
      for (const a of amounts) expect(sandbox.formatMajor(a, code), `${code} ${a}`).toBe(recon.formatMajor(a, code));
    }
    expect(sandbox.formatMajor(6n, 'MGA')).toBe('1.2');
    expect(sandbox.formatMajor(1500n, 'KWD')).toBe('1.500');
  });
});

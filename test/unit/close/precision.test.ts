// The Journal at a ledger's decimals: every amount a whole number of ISO 4217 minor units, every currency
// balanced, the difference rounding made on the rounding line and nowhere else.
import { describe, expect, it } from 'vitest';
import { toLedgerPrecision } from '../../../src/close/precision.js';
import { formatIso, isoStep } from '../../../src/money.js';
import { journalLine } from '../../../src/report/journal.js';
import type { JournalEntry } from '../../../src/report/types.js';
import { testRandom } from '../../helpers/seed.js';

const sum = (lines: readonly JournalEntry[], currency: string) =>
  lines.filter((l) => l.currency === currency).reduce((s, l) => s + l.debit - l.credit, 0n);

describe('the journal at ISO 4217 decimals', () => {
  it('knows what a ledger can hold: VND whole dong (the service counts tenths), ISK and JPY whole, MGA fifths as 0.20, KWD thousandths', () => {
    expect([isoStep('VND'), isoStep('ISK'), isoStep('JPY'), isoStep('MGA'), isoStep('KWD'), isoStep('EUR')]).toEqual([10n, 100n, 1n, 1n, 1n, 1n]);
    expect([formatIso(3317767910n, 'VND'), formatIso(6n, 'MGA'), formatIso(1234567n, 'KWD'), formatIso(-5n, 'EUR'), formatIso(1200n, 'ISK')])
      .toEqual(['331776791', '1.20', '1234.567', '-0.05', '12']);
    expect(() => formatIso(3317767907n, 'VND')).toThrow(/not a whole number of ISO 4217 minor units/);
  });

  it('rounds VND tenths to whole dong and books what is left on the rounding line', () => {
    const journal = [
      journalLine('VND', 'bank', 'received', 3317767904n, 0n),
      journalLine('VND', 'refunds', 'refunded', 3n, 0n),
      journalLine('VND', 'clearing', 'paid out', 0n, 3317767907n),
    ];
    expect(toLedgerPrecision(journal).map((l) => [l.role, l.debit, l.credit])).toEqual([
      ['bank', 3317767900n, 0n], ['clearing', 0n, 3317767910n], ['rounding', 10n, 0n],
    ]);
  });

  it('leaves exact currencies as they are, and keeps the Bank line of nothing', () => {
    const journal = [journalLine('EUR', 'bank', 'received', 0n, 0n), journalLine('MGA', 'bank', 'x', 6n, 0n), journalLine('MGA', 'clearing', 'y', 0n, 6n)];
    expect(toLedgerPrecision(journal)).toEqual(journal);
  });

  it('balances any journal that balanced, in every currency, each amount a whole minor unit (seeded)', () => {
    const rnd = testRandom('ledger-precision');
    const currencies = ['VND', 'ISK', 'KRW', 'EUR', 'MGA', 'KWD', 'JPY'];
    const roles = ['bank', 'refunds', 'fees', 'clearing', 'credit_adjustments', 'bank_charges'] as const;
    for (let round = 0; round < 200; round += 1) {
      const journal: JournalEntry[] = [];
      for (const currency of currencies) {
        let balance = 0n;
        for (let i = 0; i < 1 + Math.floor(rnd.next() * 6); i += 1) {
          const amount = BigInt(Math.floor(rnd.next() * 1e9));
          const debit = rnd.next() < 0.5;
          journal.push(journalLine(currency, roles[i % roles.length]!, 'line', debit ? amount : 0n, debit ? 0n : amount));
          balance += debit ? amount : -amount;
        }
        journal.push(journalLine(currency, 'suspense', 'balance', balance < 0n ? -balance : 0n, balance > 0n ? balance : 0n));
      }
      const ledger = toLedgerPrecision(journal);
      for (const currency of currencies) {
        expect(sum(ledger, currency), `${currency} seed ${rnd.seed}`).toBe(0n);
        const step = isoStep(currency);
        expect(ledger.filter((l) => l.currency === currency).every((l) => l.debit % step === 0n && l.credit % step === 0n)).toBe(true);
        // rounding moves each line by less than a minor unit: the rounding line is at most half a unit per line
        const rounding = ledger.filter((l) => l.currency === currency && l.role === 'rounding');
        expect(rounding.length).toBeLessThanOrEqual(step === 1n ? 0 : 1);
        const lines = journal.filter((l) => l.currency === currency).length;
        for (const r of rounding) expect(r.debit + r.credit <= (step / 2n) * BigInt(lines) + step).toBe(true);
      }
    }
  });
});

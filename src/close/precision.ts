// The Journal at the decimals a ledger holds: ISO 4217 minor units. The interface counts some currencies finer
// than ISO 4217 does (VND in tenths where ISO has none; ISK, KRW and the like in hundredths where ISO has none),
// and no ledger books 0.7 of a dong. Each line is rounded to its currency's minor unit (half away from zero),
// and what the rounding leaves between debits and credits is booked on the `rounding` role's line, so every
// currency still balances and the difference is shown, never lost. MGA's fifths are whole minor units (0.20):
// nothing to round.
import { isoMinorUnits, isoStep } from '../money.js';
import { journalLine } from '../report/journal.js';
import type { JournalEntry } from '../report/types.js';

/** `amount` (≥ 0) to the nearest multiple of `step`, a half away from zero. */
function roundTo(amount: bigint, step: bigint): bigint {
  return ((amount + step / 2n) / step) * step;
}

/** The journal with every amount a whole number of ISO 4217 minor units, each currency balanced by its rounding line. */
export function toLedgerPrecision(journal: readonly JournalEntry[]): JournalEntry[] {
  const out: JournalEntry[] = [];
  const currencies = [...new Set(journal.map((e) => e.currency))];
  for (const currency of currencies) {
    const step = isoStep(currency);
    const lines: JournalEntry[] = [];
    for (const e of journal.filter((x) => x.currency === currency)) {
      const r = step === 1n ? e : { ...e, debit: roundTo(e.debit, step), credit: roundTo(e.credit, step) };
      // a line rounded to nothing is left out; one that was nothing already (the Bank line, kept to show where cash went) stays
      if (r.debit !== 0n || r.credit !== 0n || (e.debit === 0n && e.credit === 0n)) lines.push(r);
    }
    const left = lines.reduce((s, e) => s + e.debit - e.credit, 0n);
    out.push(...lines);
    if (left !== 0n) {
      const what = `Rounding to the ${isoMinorUnits(currency) === 0 ? 'whole' : 'smallest'} ${currency} a ledger holds `
        + `(ISO 4217: ${isoMinorUnits(currency)} decimals; the service counts finer)`;
      out.push(journalLine(currency, 'rounding', what, left < 0n ? -left : 0n, left > 0n ? left : 0n));
    }
  }
  return out;
}

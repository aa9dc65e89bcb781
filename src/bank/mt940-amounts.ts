// MT940 amounts and balances. SWIFT's field specifications write an amount with a decimal comma and no
// other separator ("1875,40", "0,"); exports of some banks (Rabobank's CSV-era MT940, UK banks' files) write
// a decimal point ("43985.66"). A file is read in the one mark its amounts use: an amount with a comma and
// another with a point in one file refuse it, naming the line, and so does an amount with both — never a
// fraction dropped or guessed.
import {
  StatementError, amountOf, clip, currencyOf, yymmdd, DECIMAL_COMMA, DECIMAL_POINT, type NumberStyle,
  type StatementBalance,
} from './statement.js';

interface WrittenAmount {
  line: number;
  tag: string;
  amount: string;
}

/**
 * The decimal mark of the file's amounts (a comma when none has a fraction), or a refusal naming the line that mixes
 * both.
 */
export function decimalMarkOf(file: string, amounts: readonly WrittenAmount[]): NumberStyle {
  let first: (WrittenAmount & { mark: ',' | '.' }) | null = null;
  for (const a of amounts) {
    const comma = a.amount.includes(',');
    const point = a.amount.includes('.');
    const where = `line ${a.line} (:${a.tag}:)`;
    if (comma && point)
      throw new StatementError(
        file,
        where,
        `amount "${clip(a.amount, 40) ?? ''}" has both a decimal comma and a point`,
      );
    if (!comma && !point) continue;
    const mark = comma ? ',' : '.';
    if (!first) first = { ...a, mark };
    else if (first.mark !== mark) {
      const name = (m: string) => (m === ',' ? 'comma' : 'point');
      throw new StatementError(
        file,
        where,
        `amount "${clip(a.amount, 40) ?? ''}" is written with a decimal ${name(mark)}, ` +
          `but the amount on line ${first.line} with a decimal ${name(first.mark)}: the file mixes both`,
      );
    }
  }
  return first?.mark === '.' ? DECIMAL_POINT : DECIMAL_COMMA;
}

/** A balance field (:60F:, :62F:, …): D/C mark, YYMMDD date, currency, amount. */
export function balanceOf(file: string, f: { tag: string; value: string; line: number }, style: NumberStyle,
): StatementBalance {
  const fail = (reason: string): never => {
    throw new StatementError(file, `line ${f.line} (:${f.tag}:)`, reason);
  };
  const m = /^([CD])(\d{6})([A-Z]{3})(\d[\d,.]*)$/.exec(f.value.trim());
  if (!m) fail(`"${clip(f.value, 40) ?? ''}" is not a balance (C|D, YYMMDD, currency, amount)`);
  const [, mark, date, ccy, amount] = m!;
  const currency = currencyOf(ccy, fail);
  const value = amountOf(amount!, currency, fail, style);
  return { amount: mark === 'D' ? -value : value, currency, date: yymmdd(date!, fail, true).date };
}

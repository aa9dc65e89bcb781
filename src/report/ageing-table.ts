// How long the money has been at stake, on the exception workbook's Summary: per currency, the causes
// that need a person in four buckets of business days since first seen, each with its money at stake in
// that currency (never a total across currencies); the causes without money (counts) on a row of their own.
import type ExcelJS from 'exceljs';
import { setAmount, setCount, setText } from './cells.js';
import { writeSmallTable, type ColumnSpec } from './table-sheet.js';
import { AGE_BUCKETS, type CauseAgeing } from '../store/read/ageing.js';

export function writeAgeing(sheet: ExcelJS.Worksheet, at: number, ageing: readonly CauseAgeing[]): number {
  const columns: Array<Omit<ColumnSpec<CauseAgeing>, 'width'>> = [
    { header: 'Open causes by age (business days)', write: (c, a) => setText(c, a.currency ?? 'no amount (counts)') },
    ...AGE_BUCKETS.flatMap((bucket, i): Array<Omit<ColumnSpec<CauseAgeing>, 'width'>> => [
      { header: `${bucket} days`, numeric: true, write: (c, a) => setCount(c, a.buckets[i]!.causes) },
      { header: `${bucket}: at stake`, numeric: true,
        write: (c, a) => {
          const b = a.buckets[i]!;
          if (a.currency !== null && b.causes > 0) setAmount(c, b.atStake ?? 0n, a.currency);
        } },
    ]),
  ];
  if (ageing.length === 0) {
    const row = sheet.getRow(at);
    setText(row.getCell(1), 'Open causes by age: none need a person');
    row.commit();
    return at + 1;
  }
  return writeSmallTable(sheet, at, columns, ageing);
}

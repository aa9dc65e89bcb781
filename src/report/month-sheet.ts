// The Month sheet: a month's shape at a glance. Disbursed totals per day, one chart per currency (never
// a total across currencies), and the open findings on each day's disbursements, as native Excel charts
// over the sheet's own cells (src/report/xlsx-parts.ts), so the numbers behind a bar are one click away.
import { BOLD, DATE_FORMAT, setAmount, setCount, setDate, setText, styleHeader, styleTitle } from './cells.js';
import { addSheet, columnLetter } from './table-sheet.js';
import { pace, type StreamingWorkbook } from './workbook-file.js';
import { drawCharts, type ColumnChart } from './xlsx-parts.js';
import { currencyFactor } from '../money.js';
import type { MonthShape } from './types.js';

export type { MonthShape };

const PALETTE = ['4472C4', 'ED7D31', '70AD47', '7F6084', '4BACC6', 'C0504D'];
const FINDINGS_COLOR = 'C00000';
const HEADER_ROW = 4;
/** Each chart is this many rows tall, one row apart; alone on its row it spans at least MIN_CHART_COLUMNS. */
const CHART_ROWS = 15;
const MIN_CHART_COLUMNS = 6;

/** Writes and commits the Month sheet: the table of days, then its charts under it. */
export async function writeMonthSheet(
  workbook: StreamingWorkbook,
  shape: MonthShape,
  sheetName = 'Month',
): Promise<void> {
  const columns = 1 + shape.currencies.length + 1;
  const sheet = addSheet(
    workbook,
    sheetName,
    [12, ...shape.currencies.map(() => 17), 15, ...Array<number>(MIN_CHART_COLUMNS).fill(14)],
    HEADER_ROW,
  );
  const title = sheet.getRow(1);
  setText(title.getCell(1), `The month's shape: ${shape.title}`);
  styleTitle(title.getCell(1));
  title.commit();
  const note = sheet.getRow(2);
  setText(
    note.getCell(1),
    shape.currencies.length === 0
      ? 'No disbursement was delivered in these days.'
      : `Disbursed: the totals the service reported, per delivery day, each currency on its own.${
          shape.otherCurrencies.length > 0
            ? ` Not charted (fewer disbursements): ` +
                `${shape.otherCurrencies.slice(0, 20).join(', ')}${shape.otherCurrencies.length > 20 ? ', …' : ''}.`
            : ''
        } Open findings: on the disbursements delivered that day.`,
  );
  note.commit();

  const header = sheet.getRow(HEADER_ROW);
  const headers = ['Day', ...shape.currencies.map((c) => c.currency), 'Open findings'];
  headers.forEach((h, i) => {
    const cell = header.getCell(i + 1);
    setText(cell, h);
    styleHeader(cell);
    if (i > 0) cell.alignment = { horizontal: 'right' };
  });
  header.commit();
  for (let i = 0; i < shape.days.length; i++) {
    const row = sheet.getRow(HEADER_ROW + 1 + i);
    setDate(row.getCell(1), shape.days[i]!, DATE_FORMAT);
    shape.currencies.forEach((c, k) => setAmount(row.getCell(2 + k), c.totals[i]!, c.currency));
    setCount(row.getCell(columns), shape.findings[i]!);
    row.commit();
    await pace(sheet, i + 1);
  }
  const totals = sheet.getRow(HEADER_ROW + shape.days.length + 1);
  setText(totals.getCell(1), 'Total');
  totals.getCell(1).font = BOLD;
  shape.currencies.forEach((c, k) => {
    const cell = totals.getCell(2 + k);
    setAmount(
      cell,
      c.totals.reduce((a, b) => a + b, 0n),
      c.currency,
    );
    cell.font = BOLD;
  });
  setCount(
    totals.getCell(columns),
    shape.findings.reduce((a, b) => a + b, 0),
  );
  totals.getCell(columns).font = BOLD;
  // printed, the charts start on a page of their own rather than cut under the table
  totals.addPageBreak();
  totals.commit();

  const first = HEADER_ROW + 1;
  const last = HEADER_ROW + Math.max(shape.days.length, 1);
  const categories = { range: `A${first}:A${last}`, days: shape.days, format: 'd mmm' };
  // Charts go under the table, inside its width, so the sheet prints at full size: two side by side
  // when the table is wide enough, else one per row over at least MIN_CHART_COLUMNS columns.
  const top = HEADER_ROW + shape.days.length + 2; // zero-based: a blank row under the totals
  const perRow = columns >= 6 ? 2 : 1;
  const span = perRow === 2 ? Math.floor(columns / 2) : Math.max(columns, MIN_CHART_COLUMNS);
  const at = (i: number): ColumnChart['anchor'] => {
    const fromCol = (i % perRow) * span;
    const fromRow = top + Math.floor(i / perRow) * (CHART_ROWS + 1);
    return {
      fromCol,
      fromRow,
      toCol: perRow === 2 && i % 2 === 1 ? columns : fromCol + span,
      toRow: fromRow + CHART_ROWS,
    };
  };
  const charts: ColumnChart[] = shape.currencies.map((c, k) => {
    const column = columnLetter(2 + k);
    return {
      title: `Disbursed per day, ${c.currency}`,
      sheetName,
      categories,
      valueFormat: '#,##0',
      series: [
        {
          nameCell: `${column}${HEADER_ROW}`,
          name: c.currency,
          range: `${column}${first}:${column}${last}`,
          values: c.totals.map((t) => Number(t) / currencyFactor(c.currency)),
          color: PALETTE[k % PALETTE.length]!,
        },
      ],
      anchor: at(k),
    };
  });
  const findingsColumn = columnLetter(columns);
  charts.push({
    title: 'Open findings per delivery day',
    sheetName,
    categories,
    valueFormat: '0',
    series: [
      {
        nameCell: `${findingsColumn}${HEADER_ROW}`,
        name: 'Open findings',
        range: `${findingsColumn}${first}:${findingsColumn}${last}`,
        values: shape.findings,
        color: FINDINGS_COLOR,
      },
    ],
    anchor: at(shape.currencies.length),
  });
  drawCharts(workbook, sheet, charts);
  // two rows of charts to a printed page, none cut by a page break
  const chartRows = Math.ceil(charts.length / perRow);
  for (let j = 2; j < chartRows; j += 2) {
    const row = sheet.getRow(top + j * (CHART_ROWS + 1));
    row.addPageBreak();
    row.commit();
  }
  sheet.commit();
}

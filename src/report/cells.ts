// How one value becomes one cell. Every writer goes through these so amounts, dates and untrusted
// text look and behave the same in every workbook.
import type ExcelJS from 'exceljs';
import { currencyFactor, excelNumberFormat, formatMajor } from '../money.js';
import { safeText } from './safe-text.js';
import type { FindingStatus, Severity } from './types.js';

/**
 * What the setters use of a cell: its value and its style's parts. An exceljs Cell is one; so is the
 * reused cell a table row is written through (table-sheet.ts), which is why a setter touches nothing else.
 */
export interface CellTarget {
  value: ExcelJS.CellValue;
  numFmt: string | undefined;
  font: Partial<ExcelJS.Font> | undefined;
  fill: ExcelJS.Fill | undefined;
  border: Partial<ExcelJS.Borders> | undefined;
  alignment: Partial<ExcelJS.Alignment> | undefined;
  readonly address: string;
  readonly worksheet: ExcelJS.Worksheet;
}

type Cell = CellTarget;

/** Dates are written as UTC serials (exceljs converts with getTime()), so headers say "(UTC)". */
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';
export const DATE_FORMAT = 'yyyy-mm-dd';
const COUNT_FORMAT = '#,##0';

// Excel keeps 15 significant digits; a longer amount written as a number would be silently rounded.
const EXCEL_SIGNIFICANT_DIGITS = 15;

// A cell font without a name makes LibreOffice fall back to a serif face; always name the default.
const BASE_FONT: Partial<ExcelJS.Font> = { name: 'Calibri', size: 11 };
export const font = (over: Partial<ExcelJS.Font>): Partial<ExcelJS.Font> => ({ ...BASE_FONT, ...over });
export const BOLD = font({ bold: true });
/** A link, as spreadsheet programs show one. */
export const LINK = font({ color: { argb: 'FF0563C1' }, underline: true });

const SOLID = (argb: string): ExcelJS.Fill => ({ type: 'pattern', pattern: 'solid', fgColor: { argb } });

// Excel's own "light red fill with dark red text" / "yellow fill with dark yellow text" pairs.
const SEVERITY_STYLE: Record<Severity, { fill: ExcelJS.Fill; font: Partial<ExcelJS.Font> }> = {
  error: { fill: SOLID('FFFFC7CE'), font: font({ color: { argb: 'FF9C0006' } }) },
  warning: { fill: SOLID('FFFFEB9C'), font: font({ color: { argb: 'FF9C5700' } }) },
};

// Constants rather than a fresh object per cell: the table writer recognises a style it has already
// given an id by the identity of its parts (ColumnStyles in table-sheet.ts).
const RESOLVED_FONT = font({ color: { argb: 'FF808080' } });
const RIGHT: Partial<ExcelJS.Alignment> = { horizontal: 'right' };

const HEADER_FILL = SOLID('FFD9E1F2');
const HEADER_BORDER: Partial<ExcelJS.Borders> = { bottom: { style: 'thin', color: { argb: 'FF8EA9DB' } } };

/** Untrusted or free text. Always a string-typed cell; empty when null. */
export function setText(cell: Cell, value: string | null | undefined): void {
  if (value === null || value === undefined || value === '') return;
  cell.value = safeText(value);
}

/**
 * Integer subunits as a major-unit number with the currency's decimals (JPY 0, EUR 2, KWD 3,
 * MGA 1). Null stays empty. Without a currency the value is a count (count
 * checks), shown as a plain integer. An amount too long for Excel's precision is written as exact text instead.
 */
export function setAmount(cell: Cell, subunits: bigint | null, currency: string | null): void {
  if (subunits === null) return;
  if (currency === null) {
    // Every amount the service sends has a currency; a finding without one compares counts (e.g.
    // number_of_payments vs lines received), so it is a plain integer, never labelled as money.
    setExactNumber(cell, subunits, COUNT_FORMAT);
    return;
  }
  // Below 10^15 subunits the amount has at most 15 significant digits, and dividing by the factor is
  // correctly rounded: the same double as parsing the exact decimal text, without building it.
  if (subunits > -EXACT_LIMIT && subunits < EXACT_LIMIT) {
    cell.value = Number(subunits) / currencyFactor(currency);
    cell.numFmt = numberFormat(currency);
    return;
  }
  const exact = formatMajor(subunits, currency);
  if (significantDigits(exact) > EXCEL_SIGNIFICANT_DIGITS) {
    cell.value = exact;
    cell.alignment = RIGHT;
    return;
  }
  cell.value = Number(exact);
  cell.numFmt = numberFormat(currency);
}

const EXACT_LIMIT = 10n ** BigInt(EXCEL_SIGNIFICANT_DIGITS);
const FORMATS = new Map<string, string>();
export function numberFormat(currency: string): string {
  let f = FORMATS.get(currency);
  if (f === undefined) FORMATS.set(currency, (f = excelNumberFormat(currency)));
  return f;
}

export function setCount(cell: Cell, value: number | bigint): void {
  setExactNumber(cell, value, COUNT_FORMAT);
}

export function setDate(cell: Cell, value: Date | null, numFmt = DATE_TIME_FORMAT): void {
  if (value === null || Number.isNaN(value.getTime())) return;
  cell.value = value;
  cell.numFmt = numFmt;
}

export function setSeverity(cell: Cell, severity: Severity): void {
  cell.value = severity;
  cell.fill = SEVERITY_STYLE[severity].fill;
  cell.font = SEVERITY_STYLE[severity].font;
}

/** A disbursement's status; the ones that need a person are coloured like an error (or a warning: incomplete). */
export function setDisbursementStatus(cell: Cell, status: string): void {
  cell.value = status;
  const style =
    status === 'exceptions' || status === 'invalid'
      ? SEVERITY_STYLE.error
      : status === 'incomplete'
        ? SEVERITY_STYLE.warning
        : null;
  if (style) {
    cell.fill = style.fill;
    cell.font = style.font;
  }
}

/** New findings are bold so the morning reader sees what changed since yesterday. */
export function setStatus(cell: Cell, status: FindingStatus): void {
  cell.value = status;
  if (status === 'new') cell.font = BOLD;
  if (status === 'resolved') cell.font = RESOLVED_FONT;
}

export function styleHeader(cell: Cell): void {
  cell.font = BOLD;
  cell.fill = HEADER_FILL;
  cell.border = HEADER_BORDER;
}

export function styleTitle(cell: Cell): void {
  cell.font = font({ bold: true, size: 14 });
}

function setExactNumber(cell: Cell, value: number | bigint, numFmt: string): void {
  const text = value.toString();
  if (significantDigits(text) > EXCEL_SIGNIFICANT_DIGITS) {
    cell.value = text;
    cell.alignment = RIGHT;
    return;
  }
  cell.value = Number(value);
  cell.numFmt = numFmt;
}

function significantDigits(decimal: string): number {
  return decimal.replace(/[^0-9]/g, '').replace(/^0+/, '').length;
}

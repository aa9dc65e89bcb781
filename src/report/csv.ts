// CSV output for `recon sql --format csv`: RFC 4180 quoting plus formula neutralisation of text.
import { safeText } from './safe-text.js';

/** RFC 4180 record separator. */
export const CSV_EOL = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field. Text is always quoted (so a spreadsheet splitting on `;`, tab or `|` keeps it whole),
 * stripped of control characters, and neutralised: a formula trigger (`=`, `+`, `-`, `@`) at its start
 * or after any separator character gets a `'`. Numbers, bigints and booleans are written as-is — a
 * negative number is data, not a formula. Dates become ISO 8601 UTC; null/undefined an empty field.
 */
export function toCsvField(value: unknown): string {
  const data = dataText(value);
  if (data !== null) return NEEDS_QUOTES.test(data) ? `"${data.replaceAll('"', '""')}"` : data;
  const text = untrustedText(value);
  return text === null ? '' : `"${safeText(text, 'csv').replaceAll('"', '""')}"`;
}

/** One CSV record without its line terminator (join records with CSV_EOL). */
export function toCsvRecord(values: readonly unknown[]): string {
  return values.map(toCsvField).join(',');
}

/** Text of values that cannot carry a formula, or null for anything that might. */
function dataText(value: unknown): string | null {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  return null;
}

function untrustedText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return describeValue(value);
}

/** Text for values a query can return besides scalars (DuckDB lists, structs, timestamps). */
export function describeValue(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) &&
    value.toString !== Object.prototype.toString) {
    return String(value);
  }
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
}

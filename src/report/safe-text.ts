// Text that came from the payments service (ids, subjects, details, notes, URLs) is untrusted.
// In xlsx it is always written as a string-typed cell, so `=HYPERLINK(...)` is shown, never run.
// CSV has no cell types: Excel and LibreOffice evaluate a field that starts with a formula trigger,
// so there (and only there) such text gets a leading apostrophe (OWASP "CSV injection").

/** Excel refuses cells longer than this; longer text is cut and marked rather than corrupting the file. */
export const MAX_CELL_CHARS = 32_767;

const TRUNCATION_MARK = ' …[truncated]';

// `=`, `+`, `-`, `@`, tab and CR start a formula or DDE call in common spreadsheets; the full-width
// forms are folded to ASCII by some East Asian Excel locales, so they count too.
const FORMULA_TRIGGER = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

type TextTarget = 'xlsx' | 'csv';

/**
 * Control characters a terminal acts on (ESC starts escape sequences, C1 has CSI/OSC): C0 but tab and line breaks, DEL,
 * C1.
 */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** A separator a spreadsheet may split on, then a formula trigger: the start of a cell once split there. */
const TRIGGER_AFTER_SEPARATOR = /([,;|\t])(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** Text with the control characters a terminal would obey removed (line breaks and tabs kept). */
function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** Text for one line of a terminal table: no control characters, no line breaks. */
export function terminalText(text: string): string {
  return stripControls(text).replace(/[\r\n\t]+/g, ' ');
}

/** True when a spreadsheet opening this text from CSV would treat it as a formula. */
function looksLikeFormula(text: string): boolean {
  return FORMULA_TRIGGER.test(text);
}

/**
 * Untrusted text ready for a cell. For 'xlsx' the text is kept exactly (only cut at Excel's cell
 * limit); the caller writes it as a JS string, which exceljs stores as a string cell. For 'csv' a
 * formula-looking value is prefixed with a single quote.
 */
export function safeText(value: string | null | undefined, target: TextTarget = 'xlsx'): string {
  if (value === null || value === undefined) return '';
  if (target === 'csv') {
    // whatever separator the importing spreadsheet chooses (, ; tab |), no piece of the text starts a formula
    const text = stripControls(value).replace(TRIGGER_AFTER_SEPARATOR, "$1'");
    return looksLikeFormula(text) ? `'${text}` : text;
  }
  if (value.length <= MAX_CELL_CHARS) return value;
  return value.slice(0, MAX_CELL_CHARS - TRUNCATION_MARK.length) + TRUNCATION_MARK;
}

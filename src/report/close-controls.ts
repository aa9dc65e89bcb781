// The close's controls on its Summary sheet, below the totals: who closed the month and who accepted (and
// approved) its unaccounted money, each with the operating-system user and host that ran recon, and the
// close's entry in the audit trail: its number and hash, which `recon verify --head HASH` finds in the store
// for as long as nobody rewrote the trail, so a printed close can be held against the store later.
import type ExcelJS from 'exceljs';
import { BOLD, setText } from './cells.js';
import type { CloseControls, Who } from './types.js';

export type { CloseControls, Who };

/** "ana (operating-system user ana on host books-1)" */
function whoText(w: Who): string {
  const machine = [w.osUser ? `operating-system user ${w.osUser}` : null, w.host ? `on host ${w.host}` : null]
    .filter(Boolean).join(' ');
  return `${w.by ?? 'not named (no --by)'}${machine ? ` (${machine})` : ''}`;
}

/** Writes the controls from row `at`; returns the row after them. */
export function writeCloseControls(
  sheet: ExcelJS.Worksheet, at: number, c: CloseControls, acceptedBy: string | null,
): number {
  const fields: Array<[string, string]> = [['Closed by', whoText(c.closer)]];
  if (c.acceptance && acceptedBy) {
    const accepted = whoText({ by: acceptedBy, osUser: c.acceptance.osUser, host: c.acceptance.host });
    fields.push(['Unaccounted accepted by', accepted]);
    fields.push(['Approved by', c.acceptance.approval ? whoText(c.acceptance.approval) : 'nobody yet']);
  }
  if (c.trail) {
    fields.push(['Audit trail entry', String(c.trail.seq)]);
    fields.push(['Audit trail hash', c.trail.hash]);
    fields.push(['Checked by', 'recon verify --head <this hash>: exit 0 while the store holds this close as printed']);
  }
  let row = at;
  for (const [label, value] of fields) {
    const r = sheet.getRow(row++);
    r.getCell(1).value = label;
    r.getCell(1).font = BOLD;
    setText(r.getCell(2), value);
    r.commit();
  }
  return row;
}

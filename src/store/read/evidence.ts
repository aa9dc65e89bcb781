// What a close's evidence pack reads from the store: the month's part of the audit trail (from its first
// entry of the month to the close's own), the bank statements the month used and their entries. Each is
// read page by page, for the pack's files to be written as they come.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../sql.js';

const PAGE = 5_000;

/** The trail's entries of `month` (from its first instant, UTC) up to entry `lastSeq`, in pages. */
export async function* monthTrail(
  c: DuckDBConnection, month: string, lastSeq: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const start = await c.runAndReadAll(sqlText('controls/trail_segment_start'), [`${month}-01T00:00:00Z`, lastSeq]);
  let after = Number(start.getRowsJS()[0]?.[0] ?? lastSeq) - 1;
  while (after < lastSeq) {
    const read = await c.runAndReadAll(sqlText('controls/trail_page'), [after, Math.min(PAGE, lastSeq - after)]);
    const page = read.getRowObjectsJS();
    if (page.length === 0) return;
    yield page;
    after = Number(page[page.length - 1]!.seq);
  }
}

/** Rows of one of the evidence queries (sql/controls/evidence_*.sql) for `month`, in pages. */
export async function* evidenceRows(
  c: DuckDBConnection, query: 'statements' | 'bank_entries', month: string,
): AsyncGenerator<Record<string, unknown>[]> {
  const sql = `${sqlText(`controls/evidence_${query}`)} LIMIT $2 OFFSET $3`;
  for (let offset = 0; ; offset += PAGE) {
    const page = (await c.runAndReadAll(sql, [month, PAGE, offset])).getRowObjectsJS();
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
  }
}

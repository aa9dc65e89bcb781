// The disbursements a workbook lists, chosen once into TEMP tables the sheets then read page by page: a
// run's workbook lists what a person acts on — this night's window and every disbursement with a finding
// not yet resolved — and the close lists its month. Every disbursement stored stays in the reconciliation
// and bank_status views of the snapshot (docs/workbooks.md). Computed once: paged through the views, each
// page recomputed every disbursement's lines and bank status (a million disbursements, 210 pages of them).
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../sql-text.js';
import { withoutInsertionOrder } from '../db.js';

/** The listed disbursements' reconciliation rows, each with its place in disbursement order (`place`, from 0). */
export const LISTED_DISBURSEMENTS = 'listed_disbursements';
/** Their bank status, the same disbursements. */
export const LISTED_BANK = 'listed_bank';

export interface ListedCounts {
  /** Disbursements listed. */
  listed: number;
  /** Of them, in the night's window (a run's workbook) or delivered in the month (a close). */
  window: number;
  /** Of them, with a finding not yet resolved (new, open or acknowledged). */
  withFindings: number;
  /** Every disbursement in the store. */
  stored: number;
}

/**
 * A check run's night: the runs that began after the check run before it began, up to this one. A
 * disbursement is in the night's window when one of those runs read it in depth (deep_reads), wrote it (new,
 * changed, read again, stored incomplete: disbursements.run_id) or imported a bank credit that settled it
 * (bank_matches) or names it (bank_named_all). A read by a run the store has no record of counts as this
 * night's: nothing shows it older. The night's first check run (no check run before it) has every
 * disbursement stored in its window: the backfill.
 */
const NIGHT = `
WITH this_run AS (SELECT max(started_at) AS started_at FROM runs WHERE run_id = $1),
since AS (
  SELECT max(r.started_at) AS started_at
  FROM check_runs AS k JOIN runs AS r ON r.run_id = k.run_id
  WHERE r.started_at < (SELECT started_at FROM this_run)
),
earlier AS (SELECT run_id FROM runs WHERE started_at <= (SELECT started_at FROM since)),
credits AS (
  SELECT t.statement_id, t.entry_ref FROM bank_transactions AS t
  WHERE t.direction = 'credit' AND t.run_id NOT IN (SELECT run_id FROM earlier)
),
night AS (
  SELECT d.disbursement_id FROM disbursements AS d
  LEFT JOIN deep_reads AS r ON r.disbursement_id = d.disbursement_id
  WHERE d.run_id NOT IN (SELECT run_id FROM earlier) OR r.run_id NOT IN (SELECT run_id FROM earlier)
  UNION SELECT m.disbursement_id FROM bank_matches AS m JOIN credits AS c USING (statement_id, entry_ref)
  UNION SELECT n.disbursement_id FROM bank_named_all AS n JOIN credits AS c USING (statement_id, entry_ref)
)`;

const UNRESOLVED = `SELECT DISTINCT disbursement_id FROM findings WHERE state IN ('open', 'acknowledged') AND disbursement_id IS NOT NULL`;

/** The reconciliation columns the Disbursements sheets show (rows.ts reads them from the TEMP table). */
const RECONCILIATION = `disbursement_id, recipient_id, delivered_at, currency, reported, computed, difference, status, open_findings,
  acknowledged_findings, payouts_sum, refunds_sum, credits_sum, debits_sum`;
const BANK_STATUS = `disbursement_id, delivered_at, currency, amount, bank_account_number, bank_status, credited_on, statement_id,
  matched_by_reference, match_kind, credit_amount, fee, batch_size, bank_difference, uncovered_on`;

/**
 * The run's list (`runId`: a check run): the night's window and every disbursement with a finding not yet
 * resolved, with their reconciliation rows and, with `bank`, their bank status. Call with bank_matches
 * computed once (run-report.ts, withBankMatches): the window reads it.
 */
export async function listNight(c: DuckDBConnection, runId: string, bank: boolean): Promise<ListedCounts> {
  await withoutInsertionOrder(c, () => c.run(`CREATE OR REPLACE TEMP TABLE listed_ids AS ${NIGHT}
    SELECT d.disbursement_id, n.disbursement_id IS NOT NULL AS in_window, u.disbursement_id IS NOT NULL AS with_findings
    FROM disbursements AS d
    LEFT JOIN night AS n ON n.disbursement_id = d.disbursement_id
    LEFT JOIN (${UNRESOLVED}) AS u ON u.disbursement_id = d.disbursement_id
    WHERE n.disbursement_id IS NOT NULL OR u.disbursement_id IS NOT NULL`, [runId]));
  return fill(c, bank);
}

/** The close's list: every disbursement delivered in `month` (YYYY-MM, as month_of counts it). */
export async function listMonth(c: DuckDBConnection, month: string, bank: boolean): Promise<ListedCounts> {
  await withoutInsertionOrder(c, () => c.run(`CREATE OR REPLACE TEMP TABLE listed_ids AS
    SELECT d.disbursement_id, true AS in_window, u.disbursement_id IS NOT NULL AS with_findings
    FROM disbursements AS d LEFT JOIN (${UNRESOLVED}) AS u ON u.disbursement_id = d.disbursement_id
    WHERE month_of(d.delivered_at) = ${sqlString(month)}`));
  return fill(c, bank);
}

/**
 * The listed rows, each reconciliation row with its place in disbursement order (`place`, from 0: the order
 * the sheet lists them in). The places are numbered over the ids alone, then joined: numbered over the wide
 * rows, or the rows sorted whole, a backfill's million disbursements passed --memory-mb 192. Nothing here is
 * read back by its place in the table (the sheets page by key), so insertion order is not kept either.
 */
async function fill(c: DuckDBConnection, bank: boolean): Promise<ListedCounts> {
  await withoutInsertionOrder(c, async () => {
    await c.run(`CREATE OR REPLACE TEMP TABLE listed_places AS
      SELECT disbursement_id, row_number() OVER (ORDER BY disbursement_id) - 1 AS place FROM listed_ids`);
    const columns = RECONCILIATION.split(',').map((col) => `r.${col.trim()}`).join(', ');
    await c.run(`CREATE OR REPLACE TEMP TABLE ${LISTED_DISBURSEMENTS} AS
      SELECT ${columns}, l.place FROM reconciliation AS r JOIN listed_places AS l ON l.disbursement_id = r.disbursement_id`);
    if (bank) {
      await c.run(`CREATE OR REPLACE TEMP TABLE ${LISTED_BANK} AS
        SELECT ${BANK_STATUS} FROM bank_status WHERE disbursement_id IN (SELECT disbursement_id FROM listed_ids)`);
    }
  });
  const [row] = (
    await c.runAndReadAll(`SELECT count(*), count(*) FILTER (WHERE in_window), count(*) FILTER (WHERE with_findings),
    (SELECT count(*) FROM disbursements) FROM listed_ids`)
  ).getRows();
  const [listed, window, withFindings, stored] = (row ?? [0, 0, 0, 0]).map(Number) as [number, number, number, number];
  return { listed, window, withFindings, stored };
}

/** The TEMP tables of a list gone. */
async function dropListed(c: DuckDBConnection): Promise<void> {
  for (const table of ['listed_ids', 'listed_places', LISTED_DISBURSEMENTS, LISTED_BANK])
    await c.run(`DROP TABLE IF EXISTS temp.main.${table}`);
}

/** Runs `fn` with the list made by `make`, dropped after. */
export async function withListed<T>(
  c: DuckDBConnection,
  make: () => Promise<ListedCounts>,
  fn: (counts: ListedCounts) => Promise<T>,
): Promise<T> {
  try {
    return await fn(await make());
  } finally {
    await dropListed(c);
  }
}

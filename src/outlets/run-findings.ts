// A run's findings in check order, page by page (sql/outlets/run_findings.sql): the results file and the
// JUnit file are written from one pass over them, whatever their number.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FindingStatus, LatestFinding } from '../checks/index.js';
import { checkColumns } from '../store/read/findings.js';
import { sqlText } from '../store/sql.js';

/**
 * A finding of the run as the checks stage defines it, without the lifecycle fields the files do not carry;
 * with its cause: the root it repeats (null on a root) and, on a root, the cause's money at stake.
 */
export type RunFinding = Omit<
  LatestFinding,
  | 'status'
  | 'ageDays'
  | 'lastSeen'
  | 'ackNote'
  | 'ackBy'
  | 'ackAt'
  | 'ackEntries'
  | 'stake'
  | 'stakeConverted'
  | 'rootKey'
  | 'isRoot'
  | 'groupSize'
> & {
  status: Exclude<FindingStatus, 'resolved'>;
  repeats: string | null;
  stake: bigint | null;
};

export async function* runFindings(
  connection: DuckDBConnection,
  runId: string,
  pageSize = 5000,
): AsyncGenerator<RunFinding[]> {
  let after: [string, string] = ['', ''];
  for (;;) {
    const rows = (
      await connection.runAndReadAll(sqlText('outlets/run_findings'), [runId, ...after, pageSize])
    ).getRowObjectsJS();
    const page = rows.map((r): RunFinding => ({
      ...checkColumns(r),
      status: r.status as RunFinding['status'],
      repeats: r.is_root === false ? String(r.root_key) : null,
      stake: r.cause_stake === null || r.cause_stake === undefined ? null : BigInt(r.cause_stake as bigint),
    }));
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = [last.checkId, last.key];
  }
}

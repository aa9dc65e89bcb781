// Store assertions shared by the crash tests: a disbursement is never visible without all its lines.
import { expect } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import { query } from './recon.js';

export interface LineCounts { payouts: number; refunds: number; adjustments: number; file_lines: number }

/**
 * Every stored disbursement has all its lines: the counts the service serves (expected, by id), and a
 * 'complete' one has exactly them. Returns how many disbursements were looked at.
 */
export async function assertWholeDisbursements(db: string, expected: Map<string, LineCounts>): Promise<number> {
  const rows = await query(db, `SELECT d.disbursement_id, d.sync_status,
      (SELECT count(*) FROM payouts p WHERE p.disbursement_id = d.disbursement_id) AS payouts,
      (SELECT count(*) FROM refunds r WHERE r.disbursement_id = d.disbursement_id) AS refunds,
      (SELECT count(*) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id) AS adjustments,
      (SELECT count(*) FROM file_lines l WHERE l.disbursement_id = d.disbursement_id) AS file_lines
    FROM disbursements d`);
  for (const r of rows) {
    const e = expected.get(String(r.disbursement_id));
    expect(e, `unknown disbursement ${String(r.disbursement_id)}`).toBeDefined();
    expect({ payouts: Number(r.payouts), refunds: Number(r.refunds), adjustments: Number(r.adjustments), file_lines: Number(r.file_lines) },
      String(r.disbursement_id)).toEqual(e);
  }
  return rows.length;
}

export function sandboxLineCounts(sb: Sandbox): Map<string, LineCounts> {
  return new Map([...sb.truth.disbursements()].map((t) => [t.disbursement_id, {
    payouts: t.expected.payouts.count, refunds: t.expected.refunds.count, adjustments: t.expected.adjustments.count, file_lines: t.expected.file_lines,
  }]));
}


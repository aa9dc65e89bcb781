// A store of disbursements over several months, written in SQL (exact values the tests choose: JPY, KWD,
// VND, amounts past 2^53), then published as the snapshot the PostgreSQL export reads.
import path from 'node:path';
import { openStore } from '../../src/store/db.js';
import { publishSnapshot } from '../../src/store/publish.js';

export interface MonthsStore {
  db: string;
  published: string;
}

export interface Line {
  id: string;
  month: string;
  currency: string;
  /** Each payout's amount (subunits, as text so a value past 2^53 stays exact). */
  payouts: string[];
  raw?: string;
}

/** Writes `lines` (a disbursement each, its payouts, the amount their sum) into the store and publishes it. */
export async function writeMonthsStore(dir: string, lines: readonly Line[], runId = 'seed-run'): Promise<MonthsStore> {
  const db = path.join(dir, 'recon.duckdb');
  const published = path.join(dir, 'published', 'recon.duckdb');
  const store = await openStore(db);
  try {
    const c = store.connection;
    await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ($1, 'run', now(), now(), 'succeeded')
      ON CONFLICT DO UPDATE SET started_at = now()`, [runId]);
    for (const l of lines) {
      await c.run('DELETE FROM payouts WHERE disbursement_id = $1', [l.id]);
      await c.run('DELETE FROM disbursements WHERE disbursement_id = $1', [l.id]);
      await c.run(`INSERT INTO disbursements (disbursement_id, recipient_id, status, delivered_at, number_of_payments, number_of_refunds,
          number_of_adjustments, amount, currency, sync_status, content_hash, first_run_id, run_id, synced_at, raw)
        VALUES ($1, 'rcp_1', 'delivered', CAST($2 || '-15 10:20:30.123456+00' AS TIMESTAMPTZ), $3, 0, 0, CAST($4 AS HUGEINT), $5, 'complete',
          md5($1 || $4), $6, $6, now(), CAST($7 AS JSON))`,
      [l.id, l.month, l.payouts.length, l.payouts.reduce((s, p) => s + BigInt(p), 0n).toString(), l.currency, runId,
        l.raw ?? JSON.stringify({ disbursement_id: l.id, note: 'tab\there, newline\nthere, back\\slash' })]);
      for (const [i, amount] of l.payouts.entries()) {
        await c.run(`INSERT INTO payouts (disbursement_id, line_no, recipient_id, reference, status, payment_id, currency, amount, run_id, raw, occurrence)
          VALUES ($1, $2, 'rcp_1', $3, 'paid', $4, $5, CAST($6 AS BIGINT), $7, '{"k":1}', 1)`, [l.id, i + 1, `po_${l.id}_${i}`, `pay_${l.id}_${i}`, l.currency, amount, runId]);
      }
    }
    await publishSnapshot({ sourceConnection: c, publishedPath: published });
  } finally {
    store.close();
  }
  return { db, published };
}

/** `count` disbursements a month over `months` months from 2026-01, `payouts` each, currencies in turn. */
export function monthsOfLines(months: number, count: number, payouts: number): Line[] {
  const currencies = ['EUR', 'JPY', 'KWD', 'VND', 'USD', 'MGA'];
  const out: Line[] = [];
  for (let m = 0; m < months; m += 1) {
    const month = `2026-${String(m + 1).padStart(2, '0')}`;
    for (let d = 0; d < count; d += 1) {
      const n = m * count + d;
      out.push({ id: `dsb_${month}_${d}`, month, currency: currencies[n % currencies.length]!,
        payouts: Array.from({ length: payouts }, (_, i) => String(1000 + ((n * 7919 + i * 104_729) % 99_000))) });
    }
  }
  return out;
}

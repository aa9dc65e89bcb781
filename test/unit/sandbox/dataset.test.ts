import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/index.js';
import { get, getJson, identity, served, withSandbox } from './helpers.js';

const NOW = Date.parse('2026-11-01T08:00:00Z');

/** Everything a client could read, as raw bytes, with the port taken out of file links. */
async function snapshot(sb: Sandbox): Promise<string[]> {
  const out: string[] = [];
  const strip = (text: string): string => text.split(sb.url).join('<base>');
  for (const page of [1, 2, 3]) out.push((await get(sb, `/payments/v1/disbursements?page=${page}&per_page=7`)).text);
  for (const i of [0, 3, 7, 13, 19]) {
    const id = sb.truth.disbursement(i).disbursement_id;
    for (const child of ['', '/payouts?per_page=100', '/refunds', '/adjustments', '/files']) {
      out.push(strip((await get(sb, `/payments/v1/disbursements/${id}${child}`)).text));
    }
    const files = await getJson<Array<{ url: string }>>(sb, `/payments/v1/disbursements/${id}/files`);
    for (const f of files) out.push((await get(sb, f.url, null)).text);
    const payouts = await getJson<{ payouts: Array<{ payment_id: string }> }>(sb, `/payments/v1/disbursements/${id}/payouts`);
    out.push((await get(sb, `/payments/v1/payments/${payouts.payouts[0]?.payment_id ?? ''}`)).text);
  }
  return out;
}

describe('sandbox dataset', () => {
  const options: SandboxOptions = { disbursements: 20, anomalies: { rate: 0.4 }, now: () => NOW };

  it('serves byte-identical pages, children and files for the same seed, different ones for another seed', async () => {
    const a = await startSandbox({ ...options, seed: 'same' });
    const b = await startSandbox({ ...options, seed: 'same' });
    const c = await startSandbox({ ...options, seed: 'other' });
    try {
      // different request order on b: generation must not depend on what was asked before
      await get(b, `/payments/v1/disbursements/${b.truth.disbursement(19).disbursement_id}/payouts`);
      const [sa, sb2, sc] = [await snapshot(a), await snapshot(b), await snapshot(c)];
      expect(sb2).toEqual(sa);
      expect(sa.length).toBeGreaterThan(30);
      expect(sc[0]).not.toEqual(sa[0]);
      expect(sc.filter((text, k) => text === sa[k]).length).toBeLessThan(3);
      expect(a.truth.anomalies()).toEqual(b.truth.anomalies());
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('keeps the identity amount = Σpayouts + Σcredit − Σrefunds − Σdebit on clean disbursements', async () => {
    await withSandbox({ seed: 8, disbursements: 24, now: () => NOW }, async (sb) => {
      for (let i = 0; i < 24; i += 1) {
        const s = await served(sb, sb.truth.disbursement(i).disbursement_id);
        expect(s.header.amount).toBe(identity(s));
        expect(s.header.amount as number).toBeGreaterThan(0);
        expect(s.header.number_of_payments).toBe(s.payouts.length);
        expect(s.header.number_of_refunds).toBe(s.refunds.length);
        expect(s.header.number_of_adjustments).toBe(s.adjustments.length);
        expect(Number.isInteger(s.header.amount)).toBe(true);
        for (const line of [...s.payouts, ...s.refunds, ...s.adjustments]) {
          expect(line.currency).toBe(s.header.currency);
          expect(Number.isInteger(line.amount) && (line.amount as number) > 0).toBe(true);
        }
      }
    });
  });

  it('has refunds only for the recipients that net refunds, and gives each recipient its own currency', async () => {
    await withSandbox({ seed: 9, disbursements: 60 }, async (sb) => {
      const byRecipient = new Map<string, { currency: Set<string>; refunds: number; accounts: Set<string> }>();
      const list = await getJson<{ disbursements: Array<Record<string, unknown>> }>(sb, '/payments/v1/disbursements?per_page=60');
      for (const d of list.disbursements) {
        const r = byRecipient.get(d.recipient_id as string) ?? { currency: new Set(), refunds: 0, accounts: new Set() };
        r.currency.add(d.currency as string);
        r.refunds += d.number_of_refunds as number;
        r.accounts.add(d.bank_account_number as string);
        byRecipient.set(d.recipient_id as string, r);
      }
      expect(byRecipient.size).toBe(6);
      const currencies = [...byRecipient.values()].map((r) => [...r.currency].join());
      expect(currencies.sort()).toEqual(['EUR', 'JPY', 'KWD', 'MGA', 'USD', 'VND']);
      const withRefunds = [...byRecipient.values()].filter((r) => r.refunds > 0).map((r) => [...r.currency].join());
      expect(withRefunds.sort()).toEqual(['JPY', 'KWD', 'USD']);
      for (const r of byRecipient.values()) expect([...r.accounts]).toEqual([expect.stringMatching(/^\*{4}\d{4}$/)]);
    });
  });

  it('spreads delivered_at over the months before endDate, newest exactly at endDate', async () => {
    await withSandbox({ seed: 9, disbursements: 100, months: 3, endDate: '2026-06-30T12:00:00Z' }, async (sb) => {
      const dates = [...sb.truth.disbursements()].map((d) => Date.parse(d.delivered_at));
      expect(dates.at(-1)).toBe(Date.parse('2026-06-30T12:00:00Z'));
      expect(dates[0]).toBeGreaterThan(Date.parse('2026-03-29T00:00:00Z'));
      expect(dates[0]).toBeLessThan(Date.parse('2026-04-02T00:00:00Z'));
      for (let k = 1; k < dates.length; k += 1) expect(dates[k]).toBeGreaterThan(dates[k - 1] ?? 0);
    });
  });

  it('varies payouts per disbursement around the configured mean', async () => {
    await withSandbox({ seed: 4, disbursements: 300, payoutsPerDisbursement: 10 }, async (sb) => {
      const counts = [...sb.truth.disbursements()].map((d) => d.expected.payouts.count);
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...counts)).toBeLessThanOrEqual(19);
      const mean = counts.reduce((s, c) => s + c, 0) / counts.length;
      expect(mean).toBeGreaterThan(9);
      expect(mean).toBeLessThan(11);
    });
  });

  // How fast it starts is measured by the bench (sandbox stage), not asserted here against the clock.
  it('serves page 500 of a 100k-disbursement dataset', async () => {
    await withSandbox({ seed: 1, disbursements: 100_000, payoutsPerDisbursement: 100, anomalies: { rate: 0.05 } }, async (sb) => {
      const env = await getJson<{ total_entries: number; disbursements: unknown[] }>(sb, '/payments/v1/disbursements?page=500&per_page=100');
      expect(env.total_entries).toBe(100_000);
      expect(env.disbursements).toHaveLength(100);
    });
  });
});

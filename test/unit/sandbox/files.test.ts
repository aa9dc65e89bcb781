import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseMajor } from '../../../src/money.js';
import { get, getJson, served, withSandbox, type Served } from './helpers.js';

const NOW = Date.parse('2026-11-01T08:00:00Z');

interface Line {
  type: string;
  reference: string;
  paymentId: string;
  amount: number;
  currency: string;
}

const TYPES: Record<string, string> = { PAYOUT: 'P', REFUND: 'R', ADJUSTMENT_CREDIT: 'AC', ADJUSTMENT_DEBIT: 'AD' };

function apiLines(s: Served): Line[] {
  return [
    ...s.payouts.map((p) => ({ type: 'P', reference: p.reference as string, paymentId: p.payment_id as string, amount: p.amount as number, currency: p.currency as string })),
    ...s.refunds.map((r) => ({ type: 'R', reference: r.refund_id as string, paymentId: (r.payment as { id: string }).id, amount: r.amount as number, currency: r.currency as string })),
    ...s.adjustments.map((a) => ({
      type: a.entry_type === 'credit' ? 'AC' : 'AD', reference: a.reference as string, paymentId: a.entity_reference as string, amount: a.amount as number, currency: a.currency as string,
    })),
  ];
}

function parseCsv(body: string): Line[] {
  const rows = parse(body, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  return rows.map((r) => {
    const amount = parseMajor(r.amount ?? '', r.currency ?? '');
    if (amount === null) throw new Error(`csv amount ${r.amount} is not a whole ${r.currency} subunit`);
    return { type: TYPES[r.record_type ?? ''] ?? '?', reference: r.reference ?? '', paymentId: r.payment_id ?? '', amount: Number(amount), currency: r.currency ?? '' };
  });
}

function parseTxt(body: string): Line[] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = body.slice(1).trimEnd().split('\n');
  expect(header).toBe('TYPE|REF|PAYMENT_ID|AMOUNT_MINOR|CCY');
  return rows.map((row) => {
    const [type = '', reference = '', paymentId = '', amount = '', currency = ''] = row.split('|');
    return { type, reference, paymentId, amount: Number(amount), currency };
  });
}

function parseDat(body: string, s: Served): Line[] {
  const rows = body.trimEnd().split('\n');
  expect(rows[0]).toBe(`H;${s.header.disbursement_id as string};${s.header.delivered_at as string}`);
  const details = rows.slice(1, -1).map((row) => {
    const [d, type = '', reference = '', paymentId = '', amount = '', currency = ''] = row.split(';');
    expect(d).toBe('D');
    return { type, reference, paymentId, amount: Number(amount), currency };
  });
  const [t, count, total] = (rows.at(-1) ?? '').split(';');
  expect(t).toBe('T');
  expect(Number(count)).toBe(details.length);
  expect(Number(total)).toBe(s.header.amount); // footer total = disbursement amount when clean
  return details;
}

describe('sandbox files', () => {
  it('parse back to exactly the API lines in every layout (csv, txt with BOM, dat with footer)', async () => {
    await withSandbox({ seed: 21, disbursements: 12, now: () => NOW }, async (sb) => {
      const seen = new Set<string>();
      const currencies = new Set<string>();
      for (let i = 0; i < 12; i += 1) {
        const s = await served(sb, sb.truth.disbursement(i).disbursement_id);
        const expected = apiLines(s);
        for (const f of s.files) {
          const layout = f.name.split('.').pop() ?? '';
          seen.add(layout);
          const lines = layout === 'csv' ? parseCsv(f.body) : layout === 'txt' ? parseTxt(f.body) : parseDat(f.body, s);
          if (layout === 'csv') currencies.add(s.header.currency as string);
          expect(lines).toEqual(expected);
        }
      }
      expect([...seen].sort()).toEqual(['csv', 'dat', 'txt']);
      expect([...currencies].sort()).toEqual(['JPY', 'KWD', 'MGA']);
    });
  });

  it('writes csv amounts in major units with the currency decimals', async () => {
    await withSandbox({ seed: 21, disbursements: 6, now: () => NOW }, async (sb) => {
      const samples: Record<string, RegExp> = { JPY: /^\d+$/, KWD: /^\d+\.\d{3}$/, MGA: /^\d+\.\d$/ };
      for (const i of [2, 3, 4]) {
        const s = await served(sb, sb.truth.disbursement(i).disbursement_id);
        const csv = s.files.find((f) => f.name.endsWith('.csv'));
        expect(csv?.name).toBe(`settlement_${s.header.disbursement_id as string}.csv`);
        const rows = parse(csv?.body ?? '', { columns: true }) as Array<Record<string, string>>;
        const pattern = samples[s.header.currency as string];
        for (const r of rows) expect(r.amount).toMatch(pattern ?? /x/);
      }
    });
  });

  it('serves a pre-signed link without API key, and refuses expired or tampered links with 403', async () => {
    let clock = NOW;
    await withSandbox({ seed: 21, disbursements: 6, now: () => clock, linkTtlSeconds: 60 }, async (sb) => {
      const id = sb.truth.disbursement(1).disbursement_id;
      const [file] = await getJson<Array<{ name: string; url: string }>>(sb, `/payments/v1/disbursements/${id}/files`);
      const url = new URL(file?.url ?? '');
      expect(url.hostname).toBe('127.0.0.1');
      expect(Number(url.searchParams.get('expires'))).toBe(NOW / 1000 + 60);
      const ok = await get(sb, url.href, null);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-disposition')).toContain(file?.name ?? '?');

      const tampered = new URL(url.href);
      const sig = tampered.searchParams.get('signature') ?? '';
      tampered.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
      const bad = await get(sb, tampered.href, null);
      expect(bad.status).toBe(403);
      expect(bad.text).toContain('<Error>');
      const longer = new URL(url.href);
      longer.searchParams.set('expires', String(NOW / 1000 + 3600));
      expect((await get(sb, longer.href, null)).status).toBe(403);
      const other = new URL(url.href.replace(`/files/${id}/`, `/files/${sb.truth.disbursement(2).disbursement_id}/`));
      expect((await get(sb, other.href, null)).status).toBe(403);

      clock = NOW + 61_000;
      const expired = await get(sb, url.href, null);
      expect(expired.status).toBe(403);
      expect(expired.text).toContain('expired');
    });
  });

  it('lists no files for the recipient without layouts and two for the one with two', async () => {
    await withSandbox({ seed: 21, disbursements: 6, now: () => NOW }, async (sb) => {
      const count = async (i: number): Promise<number> =>
        (await getJson<unknown[]>(sb, `/payments/v1/disbursements/${sb.truth.disbursement(i).disbursement_id}/files`)).length;
      expect(await count(5)).toBe(0);
      expect(await count(3)).toBe(2);
      expect(sb.truth.disbursement(3).expected.files).toBe(2);
    });
  });
});

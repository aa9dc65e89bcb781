import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.js';
import { get, getJson, withSandbox } from './helpers.js';

type Env = { total_entries: number; total_pages: number; page: number; per_page: number; disbursements: Array<Record<string, unknown>> };

describe('sandbox read interface', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 11, disbursements: 45, maxPerPage: 20 });
  });
  afterAll(() => sb.close());

  it('pages the list with the default of 10 per page, newest first', async () => {
    const env = await getJson<Env>(sb, '/payments/v1/disbursements');
    expect(env).toMatchObject({ total_entries: 45, total_pages: 5, page: 1, per_page: 10 });
    expect(env.disbursements).toHaveLength(10);
    const dates = env.disbursements.map((d) => d.delivered_at as string);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(env.disbursements[0]?.delivered_at).toBe('2026-10-31T22:00:00Z');
    const last = await getJson<Env>(sb, '/payments/v1/disbursements?page=5');
    expect(last.disbursements).toHaveLength(5);
  });

  it('walks every disbursement exactly once across pages', async () => {
    const ids: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const env = await getJson<Env>(sb, `/payments/v1/disbursements?page=${page}&per_page=17`);
      expect(env).toMatchObject({ total_entries: 45, total_pages: 3, page, per_page: 17 });
      ids.push(...env.disbursements.map((d) => d.disbursement_id as string));
    }
    expect(new Set(ids).size).toBe(45);
  });

  it('caps per_page at maxPerPage and says so in the envelope', async () => {
    const env = await getJson<Env>(sb, '/payments/v1/disbursements?per_page=500');
    expect(env.per_page).toBe(20);
    expect(env.total_pages).toBe(3);
    expect(env.disbursements).toHaveLength(20);
  });

  it('answers a page past the end with an empty array', async () => {
    const env = await getJson<Env>(sb, '/payments/v1/disbursements?page=9&per_page=10');
    expect(env).toMatchObject({ total_entries: 45, total_pages: 5, page: 9, disbursements: [] });
  });

  it('rejects page=0 and per_page=abc with a 422 validation body', async () => {
    const got = await get(sb, '/payments/v1/disbursements?page=0&per_page=abc');
    expect(got.status).toBe(422);
    const body = JSON.parse(got.text) as { title: string; status: unknown; errors: Array<Record<string, string>> };
    expect(body.title).toBe('Unprocessable entity');
    expect(Number(body.status)).toBe(422);
    expect(body.errors.map((e) => e.param).sort()).toEqual(['page', 'per_page']);
    for (const e of body.errors) expect(e).toMatchObject({ type: 'invalid_param', source: expect.any(String), message: expect.any(String) });
    expect((await get(sb, '/payments/v1/disbursements?page=-1')).status).toBe(422);
    expect((await get(sb, '/payments/v1/disbursements?per_page=1.5')).status).toBe(422);
  });

  it('answers an unknown disbursement with a 404 error body on every child', async () => {
    for (const suffix of ['', '/payouts', '/refunds', '/adjustments', '/files']) {
      const got = await get(sb, `/payments/v1/disbursements/nope-123${suffix}`);
      expect(got.status).toBe(404);
      const body = JSON.parse(got.text) as Record<string, unknown>;
      expect(body).toMatchObject({ title: 'Not Found', detail: expect.any(String), type: expect.any(String) });
      expect(Number(body.status)).toBe(404);
      expect('errors' in body).toBe(true);
    }
    expect((await get(sb, '/payments/v1/payments/pay_nope')).status).toBe(404);
  });

  it('serves payouts in a stable order with the interface fields and unknown extras', async () => {
    const env = await getJson<Env>(sb, '/payments/v1/disbursements?per_page=1');
    const id = env.disbursements[0]?.disbursement_id as string;
    const a = await get(sb, `/payments/v1/disbursements/${id}/payouts?per_page=5`);
    const b = await get(sb, `/payments/v1/disbursements/${id}/payouts?per_page=5`);
    expect(a.text).toBe(b.text);
    const payout = (JSON.parse(a.text) as { payouts: Array<Record<string, unknown>> }).payouts[0];
    expect(Object.keys(payout ?? {})).toEqual(
      expect.arrayContaining(['recipient_id', 'reference', 'status', 'payment_id', 'currency', 'amount', 'created_at', '_links']),
    );
    const keyOrders = new Set(env.disbursements.map((d) => Object.keys(d).join()));
    const more = await getJson<Env>(sb, '/payments/v1/disbursements?per_page=10');
    for (const d of more.disbursements) keyOrders.add(Object.keys(d).join());
    expect(keyOrders.size).toBeGreaterThan(1);
  });

  it('serves payment details with payouts naming the disbursement, FX payments included', async () => {
    const env = await getJson<Env>(sb, '/payments/v1/disbursements?per_page=20');
    let fx = 0;
    for (const d of env.disbursements.slice(0, 6)) {
      const id = d.disbursement_id as string;
      const payouts = (await getJson<{ payouts: Array<Record<string, unknown>> }>(sb, `/payments/v1/disbursements/${id}/payouts?per_page=100`)).payouts;
      for (const p of payouts.slice(0, 8)) {
        const pay = await getJson(sb, `/payments/v1/payments/${p.payment_id as string}`);
        expect(pay).toMatchObject({ status: 'delivered', disbursement_id: id, amount_to: p.amount, currency_to: p.currency });
        expect(pay.payouts).toEqual([expect.objectContaining({ disbursement_id: id, reference: p.reference, amount: p.amount })]);
        if (pay.currency_from !== pay.currency_to) fx += 1;
      }
    }
    expect(fx).toBeGreaterThan(0);
  });
});

describe('sandbox authentication', () => {
  for (const status of [401, 500] as const) {
    it(`answers a missing or wrong key with ${status} and the error body`, async () => {
      await withSandbox({ seed: 1, disbursements: 5, authFailureStatus: status, apiKey: 'k-1' }, async (sb) => {
        for (const key of [null, 'wrong']) {
          const got = await get(sb, '/payments/v1/disbursements', key);
          expect(got.status).toBe(status);
          const body = JSON.parse(got.text) as Record<string, unknown>;
          expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
          expect(Number(body.status)).toBe(status);
        }
        expect((await get(sb, '/payments/v1/disbursements', 'k-1')).status).toBe(200);
        // the control prefix needs no key
        expect((await get(sb, '/__sandbox/stats', null)).status).toBe(200);
      });
    });
  }
});

describe('sandbox statistics', () => {
  it('counts requests by endpoint and logs them without query strings', async () => {
    await withSandbox({ seed: 3, disbursements: 12 }, async (sb) => {
      const env = await getJson<Env>(sb, '/payments/v1/disbursements?per_page=5');
      await get(sb, '/payments/v1/disbursements?page=2');
      const id = env.disbursements[1]?.disbursement_id as string; // index 10: r4, MGA, csv
      await getJson(sb, `/payments/v1/disbursements/${id}`);
      const files = await getJson<Array<{ url: string }>>(sb, `/payments/v1/disbursements/${id}/files`);
      const payouts = await getJson<{ payouts: Array<{ payment_id: string }> }>(sb, `/payments/v1/disbursements/${id}/payouts`);
      await get(sb, `/payments/v1/disbursements/${id}/refunds`);
      await get(sb, `/payments/v1/disbursements/${id}/adjustments`);
      await get(sb, `/payments/v1/payments/${payouts.payouts[0]?.payment_id ?? ''}`);
      await get(sb, files[0]?.url ?? '', null);
      await get(sb, '/somewhere/else');
      await get(sb, '/__sandbox/anomalies', null);
      const stats = sb.stats();
      expect(stats.requests.total).toBe(10);
      expect(stats.requests.byEndpoint).toEqual({
        list: 2, disbursement: 1, files: 1, payouts: 1, refunds: 1, adjustments: 1, payment: 1, download: 1, other: 1,
      });
      expect(JSON.parse((await get(sb, '/__sandbox/stats', null)).text)).toEqual(stats);
      const log = sb.requestLog();
      expect(log).toHaveLength(10);
      expect(log[0]).toMatchObject({ method: 'GET', endpoint: 'list', path: '/payments/v1/disbursements', status: 200, ip: '127.0.0.1' });
      expect(log.every((e) => !e.path.includes('?'))).toBe(true);
      expect(log[9]).toMatchObject({ endpoint: 'other', status: 404 });
      sb.resetStats();
      expect(sb.stats().requests.total).toBe(0);
      expect(sb.requestLog()).toEqual([]);
    });
  });

  it('keeps only the last requestLogSize requests', async () => {
    await withSandbox({ seed: 3, disbursements: 3, requestLogSize: 4 }, async (sb) => {
      for (let p = 1; p <= 6; p += 1) await get(sb, `/payments/v1/disbursements?page=${p}`);
      expect(sb.requestLog().map((e) => e.status)).toEqual([200, 200, 200, 200]);
      expect(sb.requestLog()).toHaveLength(4);
      expect(sb.stats().requests.total).toBe(6);
    });
  });
});

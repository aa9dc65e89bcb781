import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind } from '../../../sandbox/index.js';
import { get, getJson, withSandbox } from './helpers.js';
import { VirtualClock } from '../../helpers/clock.js';

const LIST = '/payments/v1/disbursements';
const fast = { rateLimit: { limit: 20, windowMs: 1000, blockMs: 300 }, serverTimeoutMs: 200 };

describe('sandbox rate limit', () => {
  it('answers 429 over the limit, keeps the IP blocked, then recovers', async () => {
    const clock = new VirtualClock();
    await withSandbox({ seed: 2, disbursements: 10, ...fast, now: clock.now, rateLimit: { ...fast.rateLimit, retryAfter: true } }, async (sb) => {
      for (let k = 0; k < 20; k += 1) {
        expect((await get(sb, LIST)).status).toBe(200);
        await get(sb, '/__sandbox/stats', null); // not counted
      }
      const over = await get(sb, LIST);
      expect(over.status).toBe(429);
      expect(Number((JSON.parse(over.text) as { status: unknown }).status)).toBe(429);
      expect(over.headers.get('retry-after')).toBe('1');
      // blocked: file downloads and unauthenticated requests too
      expect((await get(sb, LIST)).status).toBe(429);
      expect((await get(sb, LIST, null)).status).toBe(429);
      expect(sb.stats().rateLimited).toBe(3);
      clock.advance(299);
      expect((await get(sb, LIST)).status).toBe(429); // still inside the 300 ms block
      clock.advance(1001); // past the block, and the window's old requests
      expect((await get(sb, LIST)).status).toBe(200);
      expect(sb.requestLog().filter((e) => e.status === 429)).toHaveLength(4);
    });
  });

  it('uses a sliding window: old requests stop counting', async () => {
    const clock = new VirtualClock();
    await withSandbox({ seed: 2, disbursements: 10, now: clock.now, rateLimit: { limit: 5, windowMs: 300, blockMs: 300 } }, async (sb) => {
      for (let k = 0; k < 5; k += 1) expect((await get(sb, LIST)).status).toBe(200);
      clock.advance(300);
      for (let k = 0; k < 5; k += 1) expect((await get(sb, LIST)).status).toBe(200);
      expect((await get(sb, LIST)).status).toBe(429);
    });
  });
});

describe('sandbox faults', () => {
  async function underFault(kind: FaultKind, check: (sb: Parameters<Parameters<typeof withSandbox>[1]>[0]) => Promise<void>): Promise<void> {
    await withSandbox({ seed: 5, disbursements: 30, ...fast, faults: { rate: 1, kinds: [kind] } }, async (sb) => {
      await check(sb);
      expect(sb.stats().faults[kind]).toBeGreaterThan(0);
    });
  }

  for (const kind of ['500', '502', '503'] as const) {
    it(`injects a ${kind} with the error body`, async () => {
      await underFault(kind, async (sb) => {
        const got = await get(sb, LIST);
        expect(got.status).toBe(Number(kind));
        expect(Number((JSON.parse(got.text) as { status: unknown }).status)).toBe(Number(kind));
      });
    });
  }

  it('injects an HTML error page with status 502', async () => {
    await underFault('html', async (sb) => {
      const got = await get(sb, LIST);
      expect(got.status).toBe(502);
      expect(got.headers.get('content-type')).toContain('text/html');
      expect(got.text).toContain('<html>');
    });
  });

  it('answers a slow request with 500 after serverTimeoutMs', async () => {
    await underFault('slow', async (sb) => {
      const got = await get(sb, LIST);
      expect(got.status).toBe(500);
      expect(JSON.parse(got.text)).toMatchObject({ title: 'Internal Server Error' });
    });
  });

  it('answers 500 after the time-out when the configured latency exceeds it', async () => {
    await withSandbox({ seed: 5, disbursements: 3, serverTimeoutMs: 100, latencyMs: [150, 160] }, async (sb) => {
      expect((await get(sb, LIST)).status).toBe(500);
    });
  });

  it('destroys the socket mid-response on reset', async () => {
    await underFault('reset', async (sb) => {
      await expect(get(sb, LIST)).rejects.toThrow();
      expect(sb.requestLog()[0]?.status).toBe(0);
    });
  });

  it('cuts the JSON in half on truncated, with status 200', async () => {
    await underFault('truncated', async (sb) => {
      const got = await get(sb, LIST);
      expect(got.status).toBe(200);
      expect(got.text.length).toBeGreaterThan(10);
      expect(() => JSON.parse(got.text) as unknown).toThrow();
    });
  });

  it('blocks the IP on a 429 storm until blockMs passes', async () => {
    const clock = new VirtualClock();
    await withSandbox({ seed: 5, disbursements: 3, ...fast, now: clock.now, faults: { rate: 1, kinds: ['429'] } }, async (sb) => {
      expect((await get(sb, LIST)).status).toBe(429);
      sb.setFaults({ rate: 0 });
      expect((await get(sb, LIST)).status).toBe(429);
      clock.advance(300);
      expect((await get(sb, LIST)).status).toBe(200);
      expect(sb.stats()).toMatchObject({ rateLimited: 2, faults: { '429': 1 } });
    });
  });

  it('injects faults at about the configured rate and only on API requests', async () => {
    await withSandbox({ seed: 5, disbursements: 3, faults: { rate: 0.3, kinds: ['500', '503'] } }, async (sb) => {
      let failed = 0;
      for (let k = 0; k < 60; k += 1) if ((await get(sb, LIST)).status !== 200) failed += 1;
      expect(failed).toBeGreaterThan(5);
      expect(failed).toBeLessThan(35);
      const { faults } = sb.stats();
      expect(faults['500'] + faults['503']).toBe(failed);
      for (const kind of FAULT_KINDS) if (kind !== '500' && kind !== '503') expect(faults[kind]).toBe(0);
    });
  });

  it('hands out already-expired links at expiredLinkRate', async () => {
    await withSandbox({ seed: 5, disbursements: 6, faults: { expiredLinkRate: 1 } }, async (sb) => {
      const id = sb.truth.disbursement(3).disbursement_id;
      const [file] = await getJson<Array<{ url: string }>>(sb, `/payments/v1/disbursements/${id}/files`);
      const got = await get(sb, file?.url ?? '', null);
      expect(got.status).toBe(403);
      expect(got.text).toContain('expired');
    });
  });

  it('shifts the newest-first list while a client pages (appearWhilePaging)', async () => {
    await withSandbox({ seed: 5, disbursements: 30, faults: { appearWhilePaging: 3 } }, async (sb) => {
      type Env = { total_entries: number; disbursements: Array<{ disbursement_id: string }> };
      const newest = sb.truth.disbursement(29);
      expect(newest.visible).toBe(false);
      expect((await get(sb, `${LIST}/${newest.disbursement_id}`)).status).toBe(404);
      const totals: number[] = [];
      const ids: string[] = [];
      for (let page = 1; page <= 4; page += 1) {
        const env = await getJson<Env>(sb, `${LIST}?page=${page}&per_page=5`);
        totals.push(env.total_entries);
        ids.push(...env.disbursements.map((d) => d.disbursement_id));
      }
      expect(totals).toEqual([27, 28, 29, 30]);
      expect(new Set(ids).size).toBeLessThan(ids.length); // the shift repeats items across pages
      expect(ids).not.toContain(newest.disbursement_id);
      expect(sb.truth.disbursement(29).visible).toBe(true);
      expect((await get(sb, `${LIST}/${newest.disbursement_id}`)).status).toBe(200);
    });
  });

  it('counts fewer entries than its lists serve (lagTotals), on every page and every list', async () => {
    await withSandbox({ seed: 5, disbursements: 9, payoutsPerDisbursement: 12, faults: { lagTotals: 6 } }, async (sb) => {
      type Env = { total_entries: number; total_pages: number; disbursements: Array<{ disbursement_id: string }> };
      const pages = [];
      for (let page = 1; page <= 4; page += 1) pages.push(await getJson<Env>(sb, `${LIST}?page=${page}&per_page=3`));
      expect(pages.map((p) => [p.total_entries, p.total_pages, p.disbursements.length])).toEqual([[3, 1, 3], [3, 1, 3], [3, 1, 3], [3, 1, 0]]);
      expect(new Set(pages.flatMap((p) => p.disbursements.map((d) => d.disbursement_id))).size).toBe(9);
      const id = pages[0]!.disbursements[0]!.disbursement_id;
      const payouts = await getJson<{ total_entries: number; payouts: unknown[] }>(sb, `${LIST}/${id}/payouts?per_page=100`);
      expect(payouts.total_entries).toBe(Math.max(0, payouts.payouts.length - 6));
    });
  });
});

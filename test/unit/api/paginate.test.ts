// Paging to the list's end, whatever its totals say (src/api/paginate.ts): the envelope's totals are a
// count the service made ("the list can lag"), so recon pages on while the service says there is more or
// the page came full, warns when the totals counted fewer than were read, and still never pages forever.
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../../src/api/client.js';
import { RequestBudget } from '../../../src/api/budget.js';
import { SLACK_PAGES, paginate, type ListOutcome } from '../../../src/api/paginate.js';
import { silentLogger } from '../../../src/log.js';
import { startFakeService, type FakeReply, type FakeRequest, type FakeService } from '../../helpers/fake-service.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ disbursement_id: `d${i + 1}` }));

/** A list of `list` entries served `perPage` at a time, its envelope changed by `envelope`. */
async function list(all: unknown[], envelope: (req: FakeRequest, served: unknown[]) => Record<string, unknown>): Promise<FakeService> {
  const f = await startFakeService({ disbursements: [], override: (req): FakeReply => {
    const served = all.slice((req.page - 1) * req.perPage, req.page * req.perPage);
    return { body: { page: req.page, per_page: req.perPage, disbursements: served, ...envelope(req, served) } };
  } });
  open.push(f);
  return f;
}

async function readAll(f: FakeService, perPage: number): Promise<{ ids: string[]; outcome: ListOutcome; requests: number[] }> {
  const client = new PaymentsClient({ baseUrl: f.url, apiKey: f.apiKey, logger: silentLogger,
    budget: new RequestBudget({ limit: 1_000_000, intervalMs: 60_000 }) });
  open.push(client);
  const pages = paginate(client, '/disbursements', 'disbursements', { perPage });
  const ids: string[] = [];
  for (;;) {
    const next = await pages.next();
    if (next.done) return { ids, outcome: next.value, requests: f.log.map((e) => e.page) };
    ids.push(...next.value.items.map((i) => (i as { disbursement_id: string }).disbursement_id));
  }
}

describe('paging a list whose totals lag', () => {
  it('a full first page with has_more: true and totals of 3 / 1: all 9 are read, and the lag is a warning', async () => {
    const f = await list(items(9), (req) => ({ total_entries: 3, total_pages: 1, has_more: req.page * 3 < 9 }));
    const { ids, outcome, requests } = await readAll(f, 3);
    expect(ids).toEqual(items(9).map((i) => i.disbursement_id));
    expect(requests).toEqual([1, 2, 3]);
    expect(outcome).toEqual({ totalEntries: 3, collected: 9, pages: 3, ended: 'last_page',
      lagged: '/disbursements: the service counted 3 entries in 1 pages, 9 entries were read in 3 pages' });
  });

  it('without has_more, a full page is paged on until a short or empty page', async () => {
    const f = await list(items(9), () => ({ total_entries: 3, total_pages: 1 }));
    const { ids, outcome, requests } = await readAll(f, 3);
    expect(ids).toHaveLength(9);
    expect(requests).toEqual([1, 2, 3, 4]);
    expect(outcome).toMatchObject({ collected: 9, ended: 'empty_page', lagged: expect.stringContaining('9 entries were read') });
  });

  it('has_more: true on a short page is paged on too', async () => {
    const all = items(7);
    const f = await list(all, (req, served) => ({ total_entries: 2, total_pages: 1, has_more: req.page === 1,
      ...(req.page === 1 ? { disbursements: served.slice(0, 2) } : {}) }));
    const { ids } = await readAll(f, 5);
    expect(ids).toEqual(['d1', 'd2', 'd6', 'd7']); // what page 2 holds; whether d3–d5 are missing is the caller's to judge
  });

  it('an honest list is read as before, and its totals are no warning', async () => {
    const f = await list(items(7), (req) => ({ total_entries: 7, total_pages: 3 }));
    const { outcome, requests } = await readAll(f, 3);
    expect(requests).toEqual([1, 2, 3]);
    expect(outcome).toEqual({ totalEntries: 7, collected: 7, pages: 3, ended: 'last_page', lagged: null });
  });

  it('a service that answers every page past the end with its last page ends there', async () => {
    const all = items(6);
    const f = await list(all, () => ({ total_entries: 6, total_pages: 2 }));
    f.set({ override: (req) => ({ body: { page: req.page, per_page: 3, total_entries: 6, total_pages: 2,
      disbursements: all.slice((Math.min(req.page, 2) - 1) * 3, Math.min(req.page, 2) * 3) } }) });
    const { ids, outcome } = await readAll(f, 3);
    expect(ids).toHaveLength(6);
    expect(outcome).toMatchObject({ collected: 6, ended: 'last_page', lagged: null });
  });

  it(`still never pages forever: at most the first announcement plus ${SLACK_PAGES} pages, then ended by the cap`, async () => {
    const f = await list(items(300), () => ({ total_entries: 3, total_pages: 1, has_more: true }));
    const { outcome, requests } = await readAll(f, 3);
    expect(requests).toHaveLength(1 + SLACK_PAGES);
    expect(outcome).toMatchObject({ collected: 3 * (1 + SLACK_PAGES), ended: 'page_cap' });
  });
});

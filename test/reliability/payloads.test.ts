// Item 4: hostile payloads from a scripted fake service, one test each. Every one ends either in a
// quarantined record with its reason (the disbursement then says 'invalid' or 'incomplete'), or in a
// clean failure: exit 2, the run recorded as failed, and nothing half-written (the store's fingerprints
// are those of the run before).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprints, query } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import type { Sandbox } from '../../sandbox/index.js';
import { buildDisbursement, envelope, type FakeDisbursement, type FakeOptions, type FakeService, type Item } from '../helpers/fake-service.js';
import { fakeServicesPerTest, syncFake } from '../helpers/whole-store.js';
import { logCount, runCli } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';

const { fake, store } = fakeServicesPerTest('recon-payload-');
/** A disbursement whose payout `index` is replaced by `change(payout)`. */
function withPayout(index: number, change: (p: Item) => Item, o: Parameters<typeof buildDisbursement>[0] = {}): FakeDisbursement {
  const d = buildDisbursement(o);
  d.payouts![index] = change({ ...d.payouts![index]! });
  return d;
}
async function quarantine(db: string) {
  return query(db, 'SELECT disbursement_id, resource, line_no, reason, raw FROM quarantine ORDER BY disbursement_id, line_no');
}
async function status(db: string, id: string) {
  const [d] = await query(db, `SELECT sync_status, sync_note, (SELECT count(*) FROM payouts p WHERE p.disbursement_id = d.disbursement_id) AS payouts
    FROM disbursements d WHERE disbursement_id = '${id}'`);
  return d ? { status: String(d.sync_status), note: d.sync_note === null ? null : String(d.sync_note), payouts: Number(d.payouts) } : null;
}
async function lastRun(db: string) {
  const [r] = await query(db, 'SELECT status, error FROM runs ORDER BY started_at DESC LIMIT 1');
  return { status: String(r!.status), error: String(r!.error ?? '') };
}
const id = (d: FakeDisbursement) => String(d.record.disbursement_id);

/** One good night, then the hostile one; the hostile run must fail cleanly and leave the store as it was. */
async function expectCleanFailure(hostile: FakeDisbursement, override: FakeOptions['override'], why: RegExp): Promise<FakeService> {
  const good = [buildDisbursement({ file: true }), buildDisbursement()];
  const f = await fake(good);
  const { db } = store();
  expect((await syncFake(f, db)).code).toBe(0);
  const before = await fingerprints(db);
  f.set({ disbursements: [hostile, ...good], override });
  const run = await syncFake(f, db);
  expect(run.code).toBe(2);
  expect(await lastRun(db)).toMatchObject({ status: 'failed', error: expect.stringMatching(why) });
  expect(await status(db, id(hostile))).toBeNull();
  expect(await fingerprints(db)).toEqual(before);
  return f;
}

describe('records that fail validation are quarantined with their reason', () => {
  it('wrong types: a string amount on a payout, a string count on a disbursement', async () => {
    const d = withPayout(1, (p) => ({ ...p, amount: '12.50' }));
    const bad = buildDisbursement();
    bad.record.number_of_payments = '3';
    const f = await fake([d, bad]);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    const q = await quarantine(db);
    expect(q.map((r) => [r.disbursement_id, r.resource, r.line_no])).toEqual([[id(d), 'payout', 2], [id(bad), 'disbursement', null]]);
    // plain words, which field, what was expected, what came
    expect(String(q[0]!.reason)).toBe('amount should be a number but is "12.50"');
    expect(String(q[1]!.reason)).toMatch(/^number_of_payments should be .* but is "3"/);
    expect(JSON.parse(String(q[0]!.raw)).amount).toBe('12.50');
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 2 });
    expect(await status(db, id(bad))).toBeNull();
  });

  it('missing required fields: a payout without payment_id, a disbursement without currency', async () => {
    const d = withPayout(0, ({ payment_id: _gone, ...p }) => p);
    const bad = buildDisbursement();
    delete bad.record.currency;
    const f = await fake([d, bad]);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    const q = await quarantine(db);
    expect(q.map((r) => [r.resource, String(r.reason)])).toEqual([['payout', 'payment_id is missing (should be text)'], ['disbursement', 'currency is missing (should be text)']]);
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 2 });
  });

  it('nulls: a payout whose reference and amount are null', async () => {
    const d = withPayout(2, (p) => ({ ...p, reference: null, amount: null }));
    const f = await fake([d]);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    const [q] = await quarantine(db);
    expect(String(q!.reason)).toMatch(/reference/);
    expect(String(q!.reason)).toMatch(/amount/);
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 2 });
  });

  it('extra fields are accepted, and kept in raw', async () => {
    const d = withPayout(0, (p) => ({ ...p, settlement_batch: { id: 'b1', tags: ['x'] } }));
    d.record.risk_score = 0.3;
    const f = await fake([d]);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    expect(await quarantine(db)).toEqual([]);
    expect(await status(db, id(d))).toMatchObject({ status: 'complete', payouts: 3 });
    const [p] = await query(db, `SELECT raw->>'$.settlement_batch.id' AS batch FROM payouts WHERE line_no = 1`);
    expect(p!.batch).toBe('b1');
    const [r] = await query(db, `SELECT raw->>'$.risk_score' AS risk FROM disbursements`);
    expect(r!.risk).toBe('0.3');
  });

  it('a currency code not in the interface\'s list is accepted and reported by unlisted_currency; a malformed one is quarantined', async () => {
    const unlisted = buildDisbursement({ currency: 'XXX' });
    const malformed = withPayout(0, (p) => ({ ...p, currency: 'euro' }));
    const f = await fake([unlisted, malformed]);
    const { dir, db } = store();
    const { outcome } = await nightlyOnce({ url: f.url, apiKey: f.apiKey } as unknown as Sandbox, dir);
    expect(outcome.code).toBe(1);
    expect(await status(db, id(unlisted))).toMatchObject({ status: 'complete', payouts: 3 });
    const q = await quarantine(db);
    expect(q.map((r) => [r.disbursement_id, r.resource, r.line_no])).toEqual([[id(malformed), 'payout', 1]]);
    expect(String(q[0]!.reason)).toMatch(/currency: must be an ISO 4217 code/);
    const findings = await query(db, `SELECT check_id, disbursement_id FROM findings WHERE check_id IN ('unlisted_currency', 'invalid_record') ORDER BY check_id, disbursement_id`);
    expect(findings.map((r) => r.check_id)).toContain('invalid_record');
    expect(new Set(findings.filter((r) => r.check_id === 'unlisted_currency').map((r) => r.disbursement_id))).toEqual(new Set([id(unlisted)]));
  });

  it('a negative or fractional amount is quarantined', async () => {
    const d = buildDisbursement({ payouts: 4 });
    d.payouts![1]!.amount = -3;
    d.payouts![3]!.amount = 12.5;
    const f = await fake([d]);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    const q = await quarantine(db);
    expect(q.map((r) => [r.line_no, String(r.reason)])).toEqual([
      [2, 'amount: must not be negative (got -3)'], [4, 'amount: must be an integer number of subunits (got 12.5)']]);
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 2 });
  });
});

describe('answers that are not what they claim', () => {
  // a child list that stays broken after its retries costs its own disbursement, not the night
  async function expectOnlyItIncomplete(hostile: FakeDisbursement, override: FakeOptions['override'], why: RegExp): Promise<FakeService> {
    const good = [buildDisbursement({ file: true }), buildDisbursement()];
    const f = await fake([hostile, ...good], override);
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    expect(await status(db, id(hostile))).toMatchObject({ status: 'incomplete', note: expect.stringMatching(why), payouts: 0 });
    for (const g of good) expect(await status(db, id(g))).toMatchObject({ status: 'complete' });
    return f;
  }

  it('non-JSON with status 200 is retried, then leaves only its disbursement incomplete', async () => {
    const hostile = buildDisbursement();
    const payouts = `/disbursements/${id(hostile)}/payouts`;
    const f = await expectOnlyItIncomplete(hostile, (r) => (r.path === payouts ? { body: 'OK' } : undefined), /not JSON/);
    expect(f.log.filter((e) => e.path === payouts)).toHaveLength(10); // every attempt, and no more
  });

  it('truncated JSON with status 200 is retried, then leaves only its disbursement incomplete', async () => {
    const hostile = buildDisbursement();
    const adjustments = `/disbursements/${id(hostile)}/adjustments`;
    await expectOnlyItIncomplete(hostile, (r, fallback) => {
      if (r.path !== adjustments) return undefined;
      const text = JSON.stringify(fallback().body);
      return { body: text.slice(0, Math.floor(text.length / 2)) };
    }, /not JSON/);
  });

  it('an HTML page with status 200 for the disbursement list fails the run cleanly', async () => {
    const hostile = buildDisbursement();
    const f = await expectCleanFailure(hostile, (r) => (r.path === '/disbursements'
      ? { headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body><h1>Maintenance</h1></body></html>' } : undefined), /not JSON \(<!DOCTYPE html>/);
    expect(f.log.filter((e) => e.path.startsWith(`/disbursements/`) && e.path.includes(id(hostile)))).toEqual([]);
  });

  it('a body over the client\'s size limit is refused without retrying: the disbursement is incomplete, a file too large is kept as too_large', async () => {
    const d = buildDisbursement();
    const withFile = buildDisbursement({ file: true });
    const payouts = `/disbursements/${id(d)}/payouts`;
    const huge = `{"total_entries":1,"total_pages":1,"page":1,"per_page":100,"payouts":[{"pad":"${'x'.repeat(21 * 1024 * 1024)}"}]}`;
    const f = await fake([d, withFile], (r) => (r.path === payouts ? { body: huge } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, ['--max-file-mb', '0.0001'])).code).toBe(0);
    expect(await status(db, id(d))).toMatchObject({ status: 'incomplete', note: expect.stringMatching(/over the \d+-byte limit/), payouts: 0 });
    expect(f.log.filter((e) => e.path === payouts)).toHaveLength(1);
    const [file] = await query(db, `SELECT parse_status, sha256 FROM disbursement_files WHERE disbursement_id = '${id(withFile)}'`);
    expect(file).toEqual({ parse_status: 'too_large', sha256: null });
  });
  it('a file over --max-file-mb does not bring the process down (a real child: the refused body used to crash it with exit 1)', async () => {
    const d = buildDisbursement({ file: true });
    const f = await fake([d]);
    const { db } = store();
    const run = await runCli(['sync', '--api-url', f.url, '--api-key', f.apiKey, '--db', db, '--max-file-mb', '0.0001', '--sample-budget', '0']);
    expect(run.code, run.stderr).toBe(0);
    const [file] = await query(db, `SELECT parse_status FROM disbursement_files`);
    expect(file!.parse_status).toBe('too_large');
    expect(await status(db, id(d))).toMatchObject({ status: 'complete', payouts: 3 });
  });
});

describe('pagination that lies', () => {
  const PER_PAGE = ['--per-page', '10'];

  it('total_pages lower than the entries: every line is still read, by total_entries', async () => {
    const d = buildDisbursement({ payouts: 25 });
    const list = [d, ...Array.from({ length: 14 }, () => buildDisbursement())];
    const f = await fake(list, (r, fallback) => (r.path === '/disbursements' || r.path.endsWith('/payouts')
      ? { body: { ...(fallback().body as Item), total_pages: 1 } } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    expect(Number((await query(db, 'SELECT count(*) AS n FROM disbursements'))[0]!.n)).toBe(15);
    expect(await status(db, id(d))).toMatchObject({ status: 'complete', payouts: 25 });
  });

  it('totals that lag (3 / 1) under a full first page with has_more: all 9 disbursements are listed and read, none skipped', async () => {
    const list = Array.from({ length: 9 }, () => buildDisbursement());
    const f = await fake(list, (r, fallback) => (r.path === '/disbursements'
      ? { body: { ...(fallback().body as Item), total_entries: 3, total_pages: 1, has_more: r.page * r.perPage < 9 } } : undefined));
    const { db } = store();
    const run = await syncFake(f, db, ['--per-page', '3']);
    expect(run.code).toBe(0);
    expect([run.result!.listed, run.result!.fetched, run.result!.listComplete]).toEqual([9, 9, true]);
    expect(run.result!.warnings).toEqual([expect.stringContaining('the service counted 3 entries in 1 pages, 9 entries were read in 3 pages')]);
    expect((await query(db, 'SELECT disbursement_id FROM disbursements ORDER BY 1')).map((r) => r.disbursement_id)).toEqual(list.map(id).sort());
  });

  it('total_pages higher than the pages: the first empty page ends the list, complete', async () => {
    const d = buildDisbursement({ payouts: 15 });
    const payouts = `/disbursements/${id(d)}/payouts`;
    const f = await fake([d], (r, fallback) => (r.path === payouts ? { body: { ...(fallback().body as Item), total_pages: 9 } } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    expect(await status(db, id(d))).toMatchObject({ status: 'complete', payouts: 15 });
    expect(f.log.filter((e) => e.path === payouts).map((e) => e.page)).toEqual([1, 2, 3]);
  });

  it('duplicate disbursements across list pages are stored once', async () => {
    const list = Array.from({ length: 12 }, () => buildDisbursement());
    const f = await fake(list, (r) => (r.path === '/disbursements' && r.page === 2
      ? { body: envelope('disbursements', [...list.slice(10), ...list.slice(0, 3)].map((d) => d.record), 1, 100, { page: 2, total_entries: 15, per_page: 10 }) }
      : r.path === '/disbursements' && r.page === 1 ? { body: envelope('disbursements', list.map((d) => d.record), 1, 10, { total_entries: 15 }) } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    const rows = await query(db, 'SELECT disbursement_id FROM disbursements ORDER BY disbursement_id');
    expect(rows.map((r) => r.disbursement_id)).toEqual(list.map(id).sort());
  });

  it('a payout repeated on a later page is quarantined as a repeat, not counted twice', async () => {
    const d = buildDisbursement({ payouts: 12 });
    const payouts = `/disbursements/${id(d)}/payouts`;
    const f = await fake([d], (r) => (r.path === payouts && r.page === 2
      ? { body: envelope('payouts', [d.payouts![10], d.payouts![3], d.payouts![11]], 1, 10, { page: 2, total_entries: 13, total_pages: 2, per_page: 10 }) }
      : r.path === payouts ? { body: envelope('payouts', d.payouts!, 1, 10, { total_entries: 13, total_pages: 2 }) } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    const q = await quarantine(db);
    expect(q.map((r) => [r.line_no, String(r.reason)])).toEqual([[12, 'repeats line 4 of an earlier page (the list changed while it was read)']]);
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 12 });
    const [sum] = await query(db, `SELECT CAST(sum(amount) AS BIGINT) AS s FROM payouts`);
    expect(BigInt(sum!.s as bigint)).toBe(BigInt(Number(d.record.amount)));
  });

  it('an empty page before the end leaves the disbursement incomplete, with how much arrived', async () => {
    const d = buildDisbursement({ payouts: 25 });
    const payouts = `/disbursements/${id(d)}/payouts`;
    const f = await fake([d], (r, fallback) => (r.path === payouts && r.page === 2 ? { body: { ...(fallback().body as Item), payouts: [] } } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    expect(await status(db, id(d))).toMatchObject({ status: 'incomplete', note: 'payouts: 10 of 25 announced lines received (empty page)' });
  });

  it('a child list that never ends is cut off after the announced pages plus slack: incomplete', async () => {
    const d = buildDisbursement({ payouts: 10 });
    const payouts = `/disbursements/${id(d)}/payouts`;
    const page = (n: number) => Array.from({ length: 10 }, (_, i) => ({ ...d.payouts![0]!, reference: `p${n}_${i}`, payment_id: `pay${n}_${i}` }));
    const f = await fake([d], (r) => (r.path === payouts
      ? { body: { total_entries: (r.page + 1) * 10, total_pages: r.page + 1, page: r.page, per_page: 10, payouts: page(r.page) } } : undefined));
    const { db } = store();
    expect((await syncFake(f, db, PER_PAGE)).code).toBe(0);
    expect(await status(db, id(d))).toMatchObject({ status: 'incomplete', note: expect.stringMatching(/^payouts: the list did not end after \d+ pages$/) });
    expect(f.log.filter((e) => e.path === payouts).length).toBeLessThanOrEqual(d.payouts!.length + 5);
  });

  it('a disbursement list that never ends is cut off after a bounded number of pages, and the run says so', async () => {
    // The disbursements listed so far are kept (each whole or 'incomplete'), and the cut-off itself is a
    // quarantined 'page' record with its reason, which the invalid_record check reports.
    let n = 0;
    const f = await fake([], (r) => (r.path === '/disbursements'
      ? { body: { total_entries: (r.page + 1) * 10, total_pages: r.page + 1, page: r.page, per_page: 10,
        disbursements: Array.from({ length: 10 }, () => buildDisbursement({ id: `endless_${(n += 1)}` }).record) } }
      : undefined));
    const { dir, db } = store();
    const log = path.join(dir, 'sync.log');
    const run = await runCliHere(['sync', '--api-url', f.url, '--api-key', f.apiKey, '--db', db, '--log-file', log, '--per-page', '10', '--sample-budget', '0', '--rate-per-minute', '60000']);
    expect(run.code, run.stderr).toBe(0);
    const pages = f.log.filter((e) => e.path === '/disbursements').length;
    expect(pages).toBe(2 + 5); // the first envelope announced 2 pages; 5 pages of slack
    expect(logCount(log, 'the disbursement list ended before its announced size; the next run picks up the rest')).toBe(1);
    const rows = await query(db, `SELECT sync_status, CAST(count(*) AS INTEGER) AS n FROM disbursements GROUP BY ALL`);
    expect(rows).toEqual([{ sync_status: 'incomplete', n: 70 }]); // their children answer 404
    const q = await query(db, `SELECT resource, reason FROM quarantine WHERE disbursement_id IS NULL`);
    expect(q).toEqual([{ resource: 'page', reason: expect.stringMatching(/did not end after 7 pages/) }]);
  });
});

describe('numbers a double cannot hold', () => {
  it('a payout and a disbursement of 9007199254740993 are quarantined quoting those digits; the raw payloads keep them; the rest reconciles', async () => {
    // JSON written by hand: JavaScript cannot even hold the number this service sends
    const PLACEHOLDER = 777_000_777;
    const d = withPayout(1, (p) => ({ ...p, amount: PLACEHOLDER }));
    const big = buildDisbursement();
    big.record.amount = PLACEHOLDER;
    const good = buildDisbursement();
    const exact = (body: unknown) => JSON.stringify(body).replaceAll(String(PLACEHOLDER), '9007199254740993');
    const f = await fake([d, big, good], (r, fallback) => (r.path === '/disbursements' || r.path === `/disbursements/${id(d)}/payouts`
      ? { headers: { 'content-type': 'application/json' }, body: exact(fallback().body) } : undefined));
    const { db } = store();
    expect((await syncFake(f, db)).code).toBe(0);
    const q = await quarantine(db);
    expect(q.map((r) => [r.disbursement_id, r.resource, r.line_no, r.reason])).toEqual([
      [id(d), 'payout', 2, 'amount: 9007199254740993 cannot be read exactly as a number (past 2^53 a double rounds whole numbers); not stored'],
      [id(big), 'disbursement', null, 'amount: 9007199254740993 cannot be read exactly as a number (past 2^53 a double rounds whole numbers); not stored'],
    ]);
    for (const r of q) {
      expect(String(r.raw)).toContain('"amount":9007199254740993');
      expect(String(r.raw)).not.toContain('9007199254740992');
    }
    expect(await status(db, id(d))).toMatchObject({ status: 'invalid', payouts: 2 });
    expect(await status(db, id(big))).toBeNull();
    expect(await status(db, id(good))).toMatchObject({ status: 'complete', payouts: 3 });
    expect(await query(db, `SELECT count(*)::INT AS n FROM disbursements WHERE raw LIKE '%9007199254740992%'`)).toEqual([{ n: 0 }]);
  });
});

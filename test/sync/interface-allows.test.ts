// What the interface allows a service to do costs at most the one disbursement it touches.
// Each case drives a scripted fake service (127.0.0.1) into the behaviour, then checks that the run
// completed, every other disbursement reconciled, and the touched one says what happened.
import { describe, expect, it } from 'vitest';
import { fingerprints, query } from '../helpers/recon.js';
import { buildDisbursement, envelope, type FakeDisbursement, type FakeService } from '../helpers/fake-service.js';
import { fakeServicesPerTest, syncFake } from '../helpers/whole-store.js';
import { ROTATION_NIGHTS, slotDue } from '../../src/sync/rotation.js';

const { fake, store } = fakeServicesPerTest('recon-allows-');
const db = () => store().db;
const id = (d: FakeDisbursement) => String(d.record.disbursement_id);
async function statuses(file: string): Promise<Record<string, { status: string; note: string | null }>> {
  const rows = await query(file, 'SELECT disbursement_id, sync_status, sync_note FROM disbursements');
  return Object.fromEntries(rows.map((r) => [String(r.disbursement_id), { status: String(r.sync_status), note: r.sync_note === null ? null : String(r.sync_note) }]));
}
async function files(file: string) {
  return query(file, 'SELECT disbursement_id, parse_status, parse_error FROM disbursement_files ORDER BY disbursement_id');
}

describe('the interface allows it, recon survives it', () => {
  it('the same lines in another order and with fields reordered are not a restatement', async () => {
    const d = buildDisbursement({ payouts: 5, file: true });
    const f = await fake([d]);
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    const before = await fingerprints(file);
    const reorder = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
    d.payouts = d.payouts!.slice().reverse().map(reorder);
    const again = await syncFake(f, file, ['--full']);
    expect(again.code).toBe(0);
    expect(again.result!.fetched).toBe(1);
    expect(again.result!.restated).toBe(0);
    expect((await fingerprints(file)).disbursement_history).toEqual(before.disbursement_history);
  });

  // Every slot of the period, one case each: the id is chosen for its slot night, never left to the order of
  // the file's tests. With the default lookback (7 days, the period) the window holds six nights after the
  // first read, so the slot of the first read's own night (night 7) comes round after the window has ended.
  const DELIVERED = Date.parse('2026-10-01T10:00:00Z');
  const night = (k: number) => DELIVERED + 14 * 3_600_000 + k * 86_400_000; // 00:00 the next day, then daily
  const period = Array.from({ length: ROTATION_NIGHTS }, (_, i) => i + 1); // nights 1..N after the first read
  const slotNightOf = (d: string) => period.find((k) => slotDue(d, night(k)));
  const idForNight = (k: number) => {
    for (let n = 0; ; n += 1) if (slotNightOf(`rot_${n}`) === k) return `rot_${n}`;
  };
  it('a payout restated without a change to the list record is caught within the rotation period, each disbursement on its slot night', async () => {
    // one disbursement per slot night of the period, all read on night 0, then all restated
    const deliveredAt = new Date(DELIVERED).toISOString();
    const ds = period.map((k) => buildDisbursement({ id: idForNight(k), payouts: 4, deliveredAt }));
    const f = await fake(ds);
    const file = db();
    expect((await syncFake(f, file, [], { now: () => night(0) })).code).toBe(0);
    // two payouts trade amounts: the total, the counts and every list field stay the same
    for (const d of ds) {
      const [a, b] = [d.payouts![0]!, d.payouts![1]!];
      [a.amount, b.amount] = [b.amount, a.amount];
    }
    const hashes = async () => new Map((await query(file, 'SELECT disbursement_id, content_hash FROM disbursements'))
      .map((r) => [String(r.disbursement_id), String(r.content_hash)]));
    let before = await hashes();
    const caughtOn: Record<string, number> = {};
    const rotations: number[] = [];
    // then each night of the period and one a period later: each read again once, never again once out of the window
    for (const k of [...period, 2 * ROTATION_NIGHTS]) {
      const run = await syncFake(f, file, [], { now: () => night(k) });
      expect(run.code, `night ${k}`).toBe(0);
      rotations.push(run.result!.reasons.rotation);
      const after = await hashes();
      for (const [d, h] of after) {
        if (before.get(d) === h) continue;
        expect(caughtOn[d], `${d} restated twice`).toBeUndefined();
        caughtOn[d] = k;
      }
      before = after;
    }
    expect(caughtOn).toEqual(Object.fromEntries(period.map((k) => [idForNight(k), k])));
    expect(rotations).toEqual([...period.map(() => 1), 0]);
  });

  it('a 422 to per_page=100 is answered by asking again smaller, and the size is remembered', async () => {
    const d = buildDisbursement({ payouts: 30 });
    const f = await fake([d], (req) => (req.perPage > 25
      ? { status: 422, body: { title: 'Unprocessable entity', status: '422', detail: 'Invalid pagination parameters', errors: [{ param: 'per_page', message: 'per_page must be at most 25' }] } }
      : undefined));
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    expect((await statuses(file))[id(d)]).toEqual({ status: 'complete', note: null });
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([{ value: '25' }]);
    const refused = f.log.filter((r) => r.status === 422).length;
    await syncFake(f, file, ['--full']);
    expect(f.log.filter((r) => r.status === 422).length).toBe(refused); // the next run asks for 25 at once
  });

  it('one misleading "at most 2" is believed for that night only, with a warning; the next night asks large again', async () => {
    const d = buildDisbursement({ payouts: 30 });
    let misleading = true;
    const f = await fake([d], (req) => (misleading && req.perPage > 2
      ? { status: 400, body: { title: 'Bad Request', status: 400, detail: 'per_page must be at most 2' } } : undefined));
    const file = db();
    const first = await syncFake(f, file);
    expect(first.code).toBe(0);
    expect(first.result!.warnings).toEqual([
      "the service accepted no more than 2 per page, below the interface's default of 10: believed for this run only, asked again larger next run"]);
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([]);
    misleading = false;
    const before = f.log.length;
    const second = await syncFake(f, file, ['--full']);
    expect(second.result!.warnings).toEqual([]);
    // the list, payouts (30 on one page), refunds, adjustments, each asked once at the large size; no refusal
    expect(f.log.slice(before).filter((r) => !r.path.endsWith('/files')).map((r) => [r.page, r.status])).toEqual([[1, 200], [1, 200], [1, 200], [1, 200]]);
  });

  it('a remembered page size is asked again larger a week after it was learned', async () => {
    const d = buildDisbursement({ payouts: 30 });
    let maximum = 25;
    const f = await fake([d], (req) => (req.perPage > maximum
      ? { status: 422, body: { title: 'Unprocessable entity', status: 422, detail: `per_page must be at most ${maximum}` } } : undefined));
    const file = db();
    const day = (k: number) => Date.parse('2026-11-01T02:30:00Z') + k * 86_400_000;
    expect((await syncFake(f, file, [], { now: () => day(0) })).code).toBe(0);
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([{ value: '25' }]);
    maximum = 1000; // the service raised its limit
    const refusedBefore = f.log.filter((r) => r.status === 422).length;
    await syncFake(f, file, ['--full'], { now: () => day(6) });
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([{ value: '25' }]); // within the week: kept
    await syncFake(f, file, ['--full'], { now: () => day(7) });
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([{ value: '1000' }]);
    expect(f.log.filter((r) => r.status === 422).length).toBe(refusedBefore);
  });

  it('without a named maximum it halves down to the service default', async () => {
    const d = buildDisbursement({ payouts: 12 });
    const f = await fake([d], (req) => (req.perPage > 20 ? { status: 400, body: { title: 'Bad Request', status: 400, detail: 'bad paging' } } : undefined));
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    expect(await query(file, `SELECT value FROM service_settings WHERE key = 'per_page'`)).toEqual([{ value: '12' }]);
  });

  it('a file that arrives slowly but steadily is downloaded (the time-out is between chunks)', async () => {
    // served by the sandbox in 8 slices 150 ms apart: 1.2 s in all, above the 500 ms time-out
    const { startSandbox } = await import('../../sandbox/index.js');
    const sb = await startSandbox({ seed: 3, disbursements: 4, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 }, realism: { slowFileRate: 1, slowFileSliceDelayMs: 150 } });
    try {
      const file = db();
      const run = await syncFake({ url: sb.url, apiKey: sb.apiKey } as FakeService, file, ['--timeout-ms', '500']);
      expect(run.code).toBe(0);
      const rows = await files(file);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.parse_status === 'parsed')).toBe(true);
    } finally {
      await sb.close();
    }
  });

  it('an ftp:// or file:// link fails that file at once, without retries; the rest reconciles', async () => {
    const bad = buildDisbursement({ file: true });
    const good = buildDisbursement({ file: true });
    const f = await fake([bad, good], (req) => (req.path === `/disbursements/${id(bad)}/files`
      ? { body: [{ name: 'a.csv', url: 'ftp://files.example/a.csv' }, { name: 'b.csv', url: 'file:///etc/passwd' }] }
      : undefined));
    const file = db();
    const run = await syncFake(f, file);
    expect(run.code).toBe(0);
    const rows = await files(file);
    const badFiles = rows.filter((r) => r.disbursement_id === id(bad));
    expect(badFiles.map((r) => r.parse_status)).toEqual(['download_failed', 'download_failed']);
    expect(badFiles.map((r) => r.parse_error)).toEqual([expect.stringMatching(/scheme ftp: is not http\(s\)/), expect.stringMatching(/scheme file: is not http\(s\)/)]);
    expect(rows.find((r) => r.disbursement_id === id(good))?.parse_status).toBe('parsed');
  });

  it('payment details refused (a key without that permission) cost no run and stop the sample after 5 refusals', async () => {
    const ds = [buildDisbursement({ payouts: 6 }), buildDisbursement({ payouts: 6 }), buildDisbursement({ payouts: 6 })];
    const f = await fake(ds, (req) => (req.path.startsWith('/payments/')
      ? { status: 403, body: { title: 'Forbidden', status: 403, detail: 'this key may not read payments' } } : undefined));
    const file = db();
    const run = await syncFake(f, file, ['--sample-budget', '20']);
    expect(run.code).toBe(0);
    expect(f.log.filter((r) => r.path.startsWith('/payments/')).length).toBe(5);
    expect(await query(file, 'SELECT http_status, count(*)::INT AS n FROM payment_samples GROUP BY ALL')).toEqual([{ http_status: 403, n: 5 }]);
  });

  it('a few refused look-ups among many are just unverified, the sample goes on', async () => {
    const ds = [buildDisbursement({ payouts: 6 }), buildDisbursement({ payouts: 6 }), buildDisbursement({ payouts: 6 })];
    let n = 0;
    const f = await fake(ds, (req) => (req.path.startsWith('/payments/') && ++n % 4 === 0
      ? { status: 403, body: { title: 'Forbidden', status: 403 } } : undefined));
    const file = db();
    expect((await syncFake(f, file, ['--sample-budget', '18'])).code).toBe(0);
    const [row] = await query(file, 'SELECT count(*)::INT AS n, count(*) FILTER (WHERE http_status = 403)::INT AS refused FROM payment_samples');
    expect(row).toEqual({ n: 18, refused: 4 });
  });

  it('a disbursement announcing 10^9 lines is not read, says why, and the night goes on', async () => {
    const huge = buildDisbursement();
    huge.record.number_of_payments = 1_000_000_000;
    const good = buildDisbursement();
    const f = await fake([huge, good], (req) => (req.path === `/disbursements/${id(huge)}/payouts`
      ? { body: { ...envelope('payouts', huge.payouts!, 1, 100), total_entries: 1_000_000_000, total_pages: 10_000_000 } }
      : undefined));
    const file = db();
    const run = await syncFake(f, file);
    expect(run.code).toBe(0);
    const s = await statuses(file);
    expect(s[id(huge)]!.status).toBe('incomplete');
    expect(s[id(huge)]!.note).toMatch(/announces 1000000000 lines, above the limit of 250000/);
    expect(s[id(good)]).toEqual({ status: 'complete', note: null });
  });

  it('a list that keeps serving lines past the line limit stops there and marks its disbursement incomplete', async () => {
    const endless = buildDisbursement({ payouts: 3 });
    const f = await fake([endless], (req) => (req.path === `/disbursements/${id(endless)}/payouts`
      ? { body: envelope('payouts', Array.from({ length: 40 }, (_, i) => ({ ...endless.payouts![0]!, reference: `r${req.page}_${i}` })), 1, 40, { page: req.page, total_entries: 100_000, total_pages: 2500 }) }
      : undefined));
    const file = db();
    const run = await syncFake(f, file, ['--max-lines', '100']);
    expect(run.code).toBe(0);
    expect((await statuses(file))[id(endless)]).toEqual({ status: 'incomplete', note: 'payouts: more than 100 lines for one disbursement (--max-lines); the rest was not read' });
  });

  it('a file with a 200 kB text line is unparseable, a finding on that file only', async () => {
    const d = buildDisbursement({ file: true });
    d.files![0]!.body = `record_type,reference,payment_id,amount,currency,description\r\nPAYOUT,${'x'.repeat(200_000)},p,1.00,EUR,payout\r\n`;
    const f = await fake([d, buildDisbursement()]);
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    const [row] = (await files(file)).filter((r) => r.disbursement_id === id(d));
    expect(row).toMatchObject({ parse_status: 'unparseable', parse_error: expect.stringMatching(/line 2 is \d+ bytes long, above the limit of 65536/) });
  });

  it('a record nested 200,000 levels deep is quarantined, naming its disbursement', async () => {
    const d = buildDisbursement({ payouts: 2 });
    const f = await fake([d, buildDisbursement()], (req) => (req.path === `/disbursements/${id(d)}/payouts`
      ? { body: `{"total_entries":2,"total_pages":1,"page":1,"per_page":100,"payouts":[${JSON.stringify(d.payouts![0])},{"extra":${'{"d":'.repeat(200_000)}1${'}'.repeat(200_000)}}]}` }
      : undefined));
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    const q = await query(file, `SELECT disbursement_id, resource, reason FROM quarantine WHERE disbursement_id = '${id(d)}'`);
    expect(q).toEqual([{ disbursement_id: id(d), resource: 'payout', reason: 'nests deeper than 64 levels; not kept' }]);
  }, 30_000);

  it('a download answered with a redirect is followed', async () => {
    const d = buildDisbursement({ file: true });
    const f = await fake([d], (req, fallback) => (req.path.startsWith('/files/') && req.attempt === 1
      ? { status: 302, headers: { location: `${req.path}?hop=1` }, body: '' }
      : req.path.startsWith('/files/') ? fallback() : undefined));
    const file = db();
    expect((await syncFake(f, file)).code).toBe(0);
    expect((await files(file)).map((r) => r.parse_status)).toEqual(['parsed']);
  });

  it('a page past the end answered 404 (the list shrank) ends the list; what is missing is said', async () => {
    const d = buildDisbursement({ payouts: 15 });
    const f = await fake([d], (req) => (req.path === `/disbursements/${id(d)}/payouts` && req.page === 2
      ? { status: 404, body: { title: 'Not Found', status: 404, detail: 'page out of range' } }
      : req.path === `/disbursements/${id(d)}/payouts` ? { body: envelope('payouts', d.payouts!, req.page, 10) } : undefined));
    const file = db();
    expect((await syncFake(f, file, ['--per-page', '10'])).code).toBe(0);
    expect((await statuses(file))[id(d)]).toEqual({ status: 'incomplete', note: 'payouts: 10 of 15 announced lines received (empty page)' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, send } from '../../../src/outlets/http.js';
import { pingEventFor, pingUrlFor } from '../../../src/outlets/ping.js';
import { deadPort, startReceiver, type Receiver } from '../../helpers/outlets.js';

const open: Receiver[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  open.push(r);
  return r;
}
const waits: number[] = [];
const limits = (over: Partial<{ timeoutMs: number; attempts: number }> = {}) => ({
  timeoutMs: 5_000, attempts: 3, sleep: async (ms: number) => { waits.push(ms); }, ...over,
});
const body = { contentType: 'application/json', text: '{"a":1}' };

describe('an outlet request', () => {
  it('retries a 500 and a 429, then delivers, waiting the capped backoff in between', async () => {
    waits.length = 0;
    const r = await receiver((_req, n) => ({ status: n === 1 ? 500 : n === 2 ? 429 : 204 }));
    const sent = await send('POST', `${r.url}/hook`, body, limits());
    expect(sent).toMatchObject({ ok: true, status: 204, attempts: 3 });
    expect(r.received.map((x) => x.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
    expect(waits).toEqual([backoffMs(1), backoffMs(2)]);
    expect([backoffMs(1), backoffMs(5), backoffMs(50)]).toEqual([500, 4000, 4000]);
  });

  it('gives up after its attempts, and never retries a 4xx that would be refused again', async () => {
    const down = await receiver(() => ({ status: 503 }));
    expect(await send('POST', down.url, body, limits())).toMatchObject({ ok: false, status: 503, attempts: 3, error: 'HTTP 503' });
    const refused = await receiver(() => ({ status: 400 }));
    expect(await send('POST', refused.url, body, limits())).toMatchObject({ ok: false, status: 400, attempts: 1 });
    expect(refused.received).toHaveLength(1);
  });

  it('ends at its time limit when the server never answers', async () => {
    const hang = await receiver(() => 'hang');
    const sent = await send('POST', hang.url, body, limits({ timeoutMs: 300 }));
    expect(sent.ok).toBe(false);
    expect(sent.error).toMatch(/no answer within/);
  });

  it('says so when nothing listens', async () => {
    const sent = await send('POST', `http://127.0.0.1:${await deadPort()}/`, body, limits({ attempts: 2 }));
    expect(sent).toMatchObject({ ok: false, status: null, attempts: 2, error: 'connection refused' });
  });

  it('follows a 307 on its own host with the same body, and no redirect to another host', async () => {
    const elsewhere = await receiver();
    const same = await receiver((req) => (req.path === '/old' ? { status: 307, headers: { location: '/new' } } : { status: 200 }));
    expect(await send('POST', `${same.url}/old`, body, limits())).toMatchObject({ ok: true });
    expect(same.received.map((x) => [x.path, x.body])).toEqual([['/old', '{"a":1}'], ['/new', '{"a":1}']]);

    // localhost is another host than 127.0.0.1 (both loopback: the test sends nothing off the machine)
    const away = await receiver(() => ({ status: 308, headers: { location: elsewhere.url.replace('127.0.0.1', 'localhost') } }));
    const sent = await send('POST', away.url, body, limits());
    expect(sent).toMatchObject({ ok: false, status: 308, attempts: 1 });
    expect(sent.error).toMatch(/another host not followed/);
    const moved = await receiver(() => ({ status: 302, headers: { location: '/x' } }));
    expect((await send('POST', moved.url, body, limits())).error).toMatch(/changing the method not followed/);
    expect(elsewhere.received).toHaveLength(0);
  });
});

describe('health pings (healthchecks.io convention)', () => {
  it('adds the event to the path and keeps the query', () => {
    expect(pingUrlFor('https://hc-ping.com/abc', 'start')).toBe('https://hc-ping.com/abc/start');
    expect(pingUrlFor('https://hc-ping.com/abc/', 'fail')).toBe('https://hc-ping.com/abc/fail');
    expect(pingUrlFor('https://hc.example/ping/key/slug?create=1', 'log')).toBe('https://hc.example/ping/key/slug/log?create=1');
    expect(pingUrlFor('https://hc-ping.com/abc', 'success')).toBe('https://hc-ping.com/abc');
  });

  it('pings success on exit 0 and 1, fail on 2, and only a log entry when locked out (3)', () => {
    expect([0, 1, 2, 3].map(pingEventFor)).toEqual(['success', 'success', 'fail', 'log']);
  });
});

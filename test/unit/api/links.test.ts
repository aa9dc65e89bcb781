// where a pre-signed file link may point. Checked on the link (and on every redirect) and on
// the address a name resolves to, before any connection is made.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { guardedLookup, isInternalAddress, linkRefusal } from '../../../src/api/links.js';
import { PaymentsClient } from '../../../src/api/client.js';
import { RequestBudget } from '../../../src/api/budget.js';

const remote = { apiIsLoopback: false, insecureHttp: false };
const local = { apiIsLoopback: true, insecureHttp: false };

describe('file link policy', () => {
  it('refuses other schemes, credentials, internal addresses and plain http to another host', () => {
    expect(linkRefusal(new URL('ftp://files.example/a.csv'), remote)).toMatch(/scheme ftp: is not http\(s\)/);
    expect(linkRefusal(new URL('file:///etc/passwd'), local)).toMatch(/scheme file:/);
    expect(linkRefusal(new URL('https://u:p@files.example/a'), remote)).toMatch(/credentials/);
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '10.0.0.7', '172.20.1.1', '192.168.1.1', '169.254.169.254', '[fd00::1]', '[fe80::1]', '0.0.0.0', '100.64.0.1']) {
      expect(linkRefusal(new URL(`https://${host}/f`), remote), host).toMatch(/this machine|private or link-local/);
    }
    expect(linkRefusal(new URL('http://files.example/f?signature=s'), remote)).toMatch(/plain http/);
    expect(linkRefusal(new URL('http://files.example/f'), { apiIsLoopback: false, insecureHttp: true })).toBeNull();
    expect(linkRefusal(new URL('https://files.example/f'), remote)).toBeNull();
    expect(linkRefusal(new URL('https://172.32.0.1/f'), remote)).toBeNull(); // just outside 172.16/12
  });

  it('lets loopback links through when the API itself is on loopback (the sandbox)', () => {
    expect(linkRefusal(new URL('http://127.0.0.1:4000/files/x'), local)).toBeNull();
  });

  it('refuses a name that resolves to an internal address, in the look-up, before connecting', async () => {
    const lookup = guardedLookup(remote);
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err?.code).toBe('ERECONINTERNAL');
    const ok = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(local)('localhost', {}, (e) => resolve(e)));
    expect(ok).toBeNull();
    expect(isInternalAddress('8.8.8.8')).toBe(false);
  });

  it('makes no request at all for a refused link', async () => {
    const client = new PaymentsClient({ baseUrl: 'https://api.payments.example', apiKey: 'k', budget: new RequestBudget({ limit: 100, intervalMs: 60_000 }), logger: pino({ level: 'silent' }) });
    try {
      await expect(client.download('http://10.1.2.3/files/x?signature=s', 1000)).rejects.toThrow(/file link refused: it points at a private or link-local address \(10\.1\.2\.3\)/);
      expect(client.stats.requests).toBe(0);
    } finally {
      await client.close();
    }
  });
});

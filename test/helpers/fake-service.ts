// A scripted fake of the payments service for the hostile-payload tests (issue: reliability item 4).
// The embedded sandbox produces realistic faults; this one serves exactly the shape a test asks for:
// honest pagination over the given records by default, and an `override` hook that replaces any answer
// (a lying envelope, an HTML page with status 200, a body over the size limit, a list that never ends …).
// node:http on 127.0.0.1, port 0; no API key check beyond "present and equal".
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

export type Item = Record<string, unknown>;

export interface FakeDisbursement {
  record: Item;
  payouts?: Item[];
  refunds?: Item[];
  adjustments?: Item[];
  /** Files of the disbursement: name as the service reports it, and the bytes it serves. */
  files?: Array<{ name: string; body: string | Buffer }>;
}

export interface FakeRequest {
  /** Path under /payments/v1 (e.g. '/disbursements/d1/payouts'), or '/files/…' for downloads. */
  path: string;
  page: number;
  perPage: number;
  /** How many times this exact path and page were asked for so far, this one included. */
  attempt: number;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. */
  body: unknown;
}

export interface FakeOptions {
  disbursements: FakeDisbursement[];
  apiKey?: string;
  /** Return a reply to replace the default answer, or undefined to keep it. */
  override?: (req: FakeRequest, fallback: () => FakeReply) => FakeReply | undefined;
}

export interface FakeService {
  readonly url: string;
  readonly apiKey: string;
  /** Every request: path (query dropped), page and status, in arrival order. */
  readonly log: Array<{ path: string; page: number; status: number }>;
  /** Signatures of every download link handed out (to grep logs for them). */
  readonly signatures: string[];
  set(options: Partial<FakeOptions>): void;
  close(): Promise<void>;
}

const PREFIX = '/payments/v1';
const CHILDREN = ['payouts', 'refunds', 'adjustments'] as const;

/** An honest pagination envelope over `items`. */
export function envelope(name: string, items: unknown[], page: number, perPage: number, over: Item = {}): Item {
  return {
    total_entries: items.length,
    total_pages: Math.max(1, Math.ceil(items.length / perPage)),
    page,
    per_page: perPage,
    [name]: items.slice((page - 1) * perPage, page * perPage),
    ...over,
  };
}

export async function startFakeService(initial: FakeOptions): Promise<FakeService> {
  let options: FakeOptions = { apiKey: 'fake-key', ...initial };
  const log: FakeService['log'] = [];
  const signatures: string[] = [];
  const attempts = new Map<string, number>();
  let base = '';

  const signed = (id: string, n: number): string => {
    const signature = createHash('sha256').update(`${id}/${n}/fake-secret`).digest('hex');
    if (!signatures.includes(signature)) signatures.push(signature);
    return `${base}/files/${encodeURIComponent(id)}/${n}?expires=${Math.floor(Date.now() / 1000) + 3600}&signature=${signature}`;
  };

  const defaultReply = (path: string, page: number, perPage: number): FakeReply => {
    const list = options.disbursements;
    if (path === '/disbursements') return { body: envelope('disbursements', list.map((d) => d.record), page, perPage) };
    const m = /^\/disbursements\/([^/]+)(?:\/(payouts|refunds|adjustments|files))?$/.exec(path);
    const d = m ? list.find((x) => x.record.disbursement_id === decodeURIComponent(m[1]!)) : undefined;
    if (!m || !d) return { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `No resource at ${path}` } };
    const child = m[2];
    if (child === undefined) return { body: d.record };
    if (child === 'files') return { body: (d.files ?? []).map((f, i) => ({ name: f.name, url: signed(String(d.record.disbursement_id), i + 1) })) };
    return { body: envelope(child, d[child as (typeof CHILDREN)[number]] ?? [], page, perPage) };
  };

  const download = (path: string): FakeReply => {
    const m = /^\/files\/([^/]+)\/(\d+)$/.exec(path);
    const d = m ? options.disbursements.find((x) => x.record.disbursement_id === decodeURIComponent(m[1]!)) : undefined;
    const f = d?.files?.[Number(m?.[2]) - 1];
    return f ? { headers: { 'content-type': 'text/csv' }, body: f.body } : { status: 404, headers: { 'content-type': 'application/xml' }, body: '<Error>NoSuchKey</Error>' };
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const isDownload = url.pathname.startsWith('/files/');
    const path = isDownload ? url.pathname : url.pathname.slice(PREFIX.length);
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const key = `${path}?${page}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    let reply: FakeReply;
    if (!isDownload && (!url.pathname.startsWith(PREFIX) || req.headers['x-authentication-key'] !== options.apiKey)) {
      reply = { status: 401, body: { title: 'Unauthorized', status: 401, detail: 'Missing or invalid X-Authentication-Key' } };
    } else {
      const fallback = () => (isDownload ? download(path) : defaultReply(path, page, perPage));
      reply = options.override?.({ path, page, perPage, attempt }, fallback) ?? fallback();
    }
    const status = reply.status ?? 200;
    log.push({ path, page, status });
    const raw = reply.body;
    const body = Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === 'string' ? raw : JSON.stringify(raw));
    const type = typeof raw === 'string' || Buffer.isBuffer(raw) ? 'text/plain' : 'application/json';
    res.writeHead(status, { 'content-type': type, 'content-length': String(body.length), ...reply.headers });
    res.end(body);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    get apiKey() {
      return options.apiKey!;
    },
    log,
    signatures,
    set(next) {
      options = { ...options, ...next };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ---- building honest records -------------------------------------------------------------------

let counter = 0;

/** Ids count from fd_1 again: each test file's records are the same whichever files its worker ran before. */
export function restartFakeIds(): void {
  counter = 0;
}

export interface BuildOptions {
  id?: string;
  recipient?: string;
  currency?: string;
  payouts?: number;
  /** Amount of payout i (from 0). */
  amount?: (i: number) => number;
  file?: boolean;
  deliveredAt?: string;
}

/** A disbursement whose record agrees with its payouts (and, with `file`, a settlement CSV that agrees too). */
export function buildDisbursement(o: BuildOptions = {}): FakeDisbursement {
  counter += 1;
  const id = o.id ?? `fd_${counter}`;
  const currency = o.currency ?? 'EUR';
  const recipient = o.recipient ?? 'rcp_1';
  const amount = o.amount ?? ((i: number) => 1000 + i * 7);
  const payouts = Array.from({ length: o.payouts ?? 3 }, (_, i) => ({
    recipient_id: recipient, reference: `${id}_po_${i + 1}`, status: 'paid', payment_id: `${id}_pay_${i + 1}`, currency, amount: amount(i),
  }));
  const total = payouts.reduce((s, p) => s + p.amount, 0);
  const record = {
    disbursement_id: id, recipient_id: recipient, status: 'delivered', delivered_at: o.deliveredAt ?? '2026-10-01T10:00:00Z',
    number_of_payments: payouts.length, number_of_refunds: 0, number_of_adjustments: 0, amount: total, currency,
    bank_account_number: '****1234',
  };
  const files = o.file ? [{ name: `settlement_${id}.csv`, body: settlementCsv(payouts) }] : [];
  return { record, payouts, refunds: [], adjustments: [], files };
}

/** The sandbox's `csv` layout: amounts in major units (two decimals, as for EUR). */
export function settlementCsv(payouts: Item[]): string {
  const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const rows = payouts.map((p) => ['PAYOUT', String(p.reference), String(p.payment_id), (Number(p.amount) / 100).toFixed(2), String(p.currency), 'payout']
    .map(quote).join(','));
  return ['record_type,reference,payment_id,amount,currency,description', ...rows].join('\r\n') + '\r\n';
}

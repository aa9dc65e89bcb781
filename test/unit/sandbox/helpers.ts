// Small HTTP helpers for the sandbox tests: a raw GET, a JSON GET, and "everything the API and the files
// say about one disbursement".
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/index.js';

export interface Got {
  status: number;
  headers: Headers;
  /** Body decoded as UTF-8 with a BOM kept (fetch's text() would drop it). */
  text: string;
}

export async function get(sb: Sandbox, path: string, key: string | null = sb.apiKey): Promise<Got> {
  const res = await fetch(path.startsWith('http') ? path : `${sb.url}${path}`, {
    headers: key === null ? {} : { 'X-Authentication-Key': key },
  });
  return { status: res.status, headers: res.headers, text: Buffer.from(await res.arrayBuffer()).toString('utf8') };
}

type Obj = Record<string, unknown>;

export async function getJson<T = Obj>(sb: Sandbox, path: string): Promise<T> {
  const got = await get(sb, path);
  if (got.status !== 200) throw new Error(`GET ${path} → ${got.status}: ${got.text}`);
  return JSON.parse(got.text) as T;
}

/** Every item of a paginated child endpoint. */
export async function getAll(sb: Sandbox, path: string, name: string): Promise<Obj[]> {
  const out: Obj[] = [];
  for (let page = 1; ; page += 1) {
    const env = await getJson(sb, `${path}?page=${page}&per_page=100`);
    const items = env[name] as Obj[];
    out.push(...items);
    if (page >= (env.total_pages as number)) return out;
  }
}

export interface Served {
  header: Obj;
  payouts: Obj[];
  refunds: Obj[];
  adjustments: Obj[];
  files: Array<{ name: string; url: string; body: string }>;
}

export async function served(sb: Sandbox, id: string): Promise<Served> {
  const base = `/payments/v1/disbursements/${id}`;
  const list = await getJson<Array<{ name: string; url: string }>>(sb, `${base}/files`);
  const files = [];
  for (const f of list) files.push({ ...f, body: (await get(sb, f.url, null)).text });
  return {
    header: await getJson(sb, base),
    payouts: await getAll(sb, `${base}/payouts`, 'payouts'),
    refunds: await getAll(sb, `${base}/refunds`, 'refunds'),
    adjustments: await getAll(sb, `${base}/adjustments`, 'adjustments'),
    files,
  };
}

/** Σpayouts + Σcredit − Σrefunds − Σdebit of the lines the API serves. */
export function identity(s: Served): number {
  const sum = (xs: Obj[]): number => xs.reduce((t, x) => t + (x.amount as number), 0);
  return (
    sum(s.payouts) +
    sum(s.adjustments.filter((a) => a.entry_type === 'credit')) -
    sum(s.refunds) -
    sum(s.adjustments.filter((a) => a.entry_type === 'debit'))
  );
}

export async function withSandbox<T>(options: SandboxOptions, fn: (sb: Sandbox) => Promise<T>): Promise<T> {
  const sb = await startSandbox(options);
  try {
    return await fn(sb);
  } finally {
    await sb.close();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

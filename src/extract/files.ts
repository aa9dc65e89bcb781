// Disbursement files: ask /files for pre-signed links, download each (asking again for fresh links when
// one has expired — by its expiry query parameter, or a 403), store the bytes by sha256 under the DB's
// folder (the service's file name is untrusted and never used as a path), and parse them.
import { TerminalError } from '../errors.js';
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PaymentsClient } from '../api/client.js';
import { BodyTooLargeError } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { FileListSchema, describeIssues, type FileLink } from '../api/schemas.js';
import type { Layout } from './layouts.js';
import { parseDisbursementFile, type FileLine } from './parse-file.js';

/** Fresh links asked for per file before giving up on it (reported as download_failed). */
const MAX_LINK_REFRESHES = 8;

export interface FileResult {
  fileNo: number;
  name: string;
  extension: string | null;
  sha256: string | null;
  sizeBytes: number | null;
  layout: string | null;
  parseStatus: 'parsed' | 'unrecognised' | 'unparseable' | 'too_large' | 'download_failed';
  parseError: string | null;
  lines: FileLine[];
  footerCount: bigint | null;
  footerTotal: bigint | null;
  problems: string[];
}

export interface FileDeps {
  client: PaymentsClient;
  layouts: Layout[];
  filesDir: string; // <db folder>/files
  maxFileBytes: number;
  now: () => number;
}

/** Expiry of a pre-signed link in ms since epoch, when the URL says (expires=unix, or X-Amz-Date + X-Amz-Expires). */
export function linkExpiry(url: string): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const q = parsed.searchParams;
  const expires = q.get('expires') ?? q.get('Expires') ?? q.get('se');
  if (expires) {
    const n = Number(expires);
    if (Number.isFinite(n)) return n > 1e12 ? n : n * 1000;
    const d = Date.parse(expires);
    if (Number.isFinite(d)) return d;
  }
  const amzDate = q.get('X-Amz-Date');
  const amzExpires = Number(q.get('X-Amz-Expires'));
  if (amzDate && Number.isFinite(amzExpires)) {
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (m) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + amzExpires * 1000;
  }
  return null;
}

export async function listFiles(client: PaymentsClient, disbursementId: string): Promise<FileLink[]> {
  const path_ = `/disbursements/${encodeURIComponent(disbursementId)}/files`;
  const body = await client.getJson(path_);
  const parsed = FileListSchema.safeParse(body);
  if (!parsed.success) throw new FileListError(`GET ${path_}: not a list of {name, url} (${describeIssues(parsed.error)})`);
  return parsed.data;
}

export class FileListError extends TerminalError {
  override readonly name = 'FileListError';
}

/** Fetch, store and parse every file of a disbursement. */
export async function fetchFiles(deps: FileDeps, disbursementId: string): Promise<FileResult[]> {
  let links = await listFiles(deps.client, disbursementId);
  const results: FileResult[] = [];
  for (let i = 0; i < links.length; i += 1) {
    let result: FileResult | null = null;
    for (let refresh = 0; refresh <= MAX_LINK_REFRESHES && result === null; refresh += 1) {
      const link = links[i]!;
      const expiry = linkExpiry(link.url);
      // The URL's expiry saves a doomed download once; after that the server judges (a 403), so a local
      // clock running ahead of the service's cannot make every fresh link look expired forever.
      if (refresh === 0 && expiry !== null && expiry <= deps.now() + 1000) {
        links = await refreshLinks(deps, disbursementId, links);
        continue;
      }
      result = await downloadOne(deps, link, i + 1);
      if (result === null) links = await refreshLinks(deps, disbursementId, links); // 403: expired or revoked
    }
    results.push(result ?? failed(links[i]!, i + 1, `the download link kept expiring or being refused (403) after asking /files for fresh links ${MAX_LINK_REFRESHES} times`));
  }
  return results;
}

async function refreshLinks(deps: FileDeps, disbursementId: string, previous: FileLink[]): Promise<FileLink[]> {
  const fresh = await listFiles(deps.client, disbursementId);
  // keep positions stable: the same file keeps its file_no (matched by name, else by position)
  return previous.map((old, i) => fresh.find((f) => f.name === old.name) ?? fresh[i] ?? old);
}

function extensionOf(name: string): string | null {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return m ? m[1]!.toLowerCase() : null;
}

function failed(link: FileLink, fileNo: number, reason: string, status: FileResult['parseStatus'] = 'download_failed'): FileResult {
  return {
    fileNo, name: link.name, extension: extensionOf(link.name), sha256: null, sizeBytes: null, layout: null,
    parseStatus: status, parseError: reason, lines: [], footerCount: null, footerTotal: null, problems: [],
  };
}

/** null means "ask for a fresh link" (403). */
async function downloadOne(deps: FileDeps, link: FileLink, fileNo: number): Promise<FileResult | null> {
  let body: Buffer;
  try {
    const res = await deps.client.download(link.url, deps.maxFileBytes);
    if (res.status === 403) return null;
    if (res.status < 200 || res.status >= 300) return failed(link, fileNo, `download answered ${res.status}`);
    body = res.body;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return failed(link, fileNo, `file is over the ${deps.maxFileBytes}-byte limit`, 'too_large');
    if (err instanceof ApiError && !err.transient) return failed(link, fileNo, err.message);
    throw err;
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  await storeBlob(deps.filesDir, sha256, body);
  const base = { fileNo, name: link.name, extension: extensionOf(link.name), sha256, sizeBytes: body.length };
  const parsed = parseDisbursementFile(body, deps.layouts);
  if (parsed.status !== 'parsed') {
    return { ...base, layout: null, parseStatus: parsed.status, parseError: parsed.reason, lines: [], footerCount: null, footerTotal: null, problems: [] };
  }
  return {
    ...base, layout: parsed.layout, parseStatus: 'parsed', parseError: parsed.problems.length ? parsed.problems.join('; ') : null,
    lines: parsed.lines, footerCount: parsed.footerCount, footerTotal: parsed.footerTotal, problems: parsed.problems,
  };
}

/** Content-addressed store: <filesDir>/<ab>/<sha256>; written to a temp name and renamed, so never half a file. */
export async function storeBlob(filesDir: string, sha256: string, body: Buffer): Promise<string> {
  const dir = path.join(filesDir, sha256.slice(0, 2));
  const target = path.join(dir, sha256);
  if (await stat(target).then((s) => s.size === body.length, () => false)) return target;
  await mkdir(dir, { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, body);
  await rename(tmp, target);
  return target;
}

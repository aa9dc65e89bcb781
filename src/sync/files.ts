// Disbursement files: ask /files for pre-signed links, download each (asking again for fresh links when
// one has expired — by its expiry query parameter, or a 403), store the bytes by sha256 under the DB's
// folder (the service's file name is untrusted and never used as a path), and parse them.
import { TerminalError } from '../errors.js';
import { createHash } from 'node:crypto';
import { rename, writeFile, stat } from 'node:fs/promises';
import { makeFolder } from '../files.js';
import path from 'node:path';
import type { PaymentsClient } from '../api/client.js';
import { BodyTooLargeError } from '../api/client.js';
import { ApiError, RateLimitedError } from '../api/errors.js';
import { FileListSchema, describeIssues, type FileLink } from '../api/schemas.js';
import type { Layout } from './layouts.js';
import { DEFAULT_PARSE_LIMITS, parseDisbursementFile } from './parse-file.js';
import type { FileResult, LineProblem } from '../store/bundle.js';

export type { FileResult };

/** Fresh links asked for per file before giving up on it (reported as download_failed). */
const MAX_LINK_REFRESHES = 8;

export interface FileDeps {
  client: PaymentsClient;
  layouts: Layout[];
  filesDir: string; // <db folder>/files
  maxFileBytes: number;
  /** Lines a disbursement may hold (its lists, and each of its files). */
  maxLines: number;
  now: () => number;
}

/** Below this a number of seconds is a duration, above it an instant (1 000 000 000 s is September 2001). */
const EPOCH_SECONDS = 1e9;

/**
 * When a pre-signed link expires, in ms since epoch, or null when the URL does not say. The interface:
 * links "expire after the duration in the link's expiry query parameter", so `expiry` (and `expires`,
 * `X-Amz-Expires`) holding a small number is a duration in seconds from when /files answered
 * (`listedAtMs`); X-Amz-Expires counts from X-Amz-Date when that is given; a number that is an epoch
 * (seconds or ms) or a date is an instant.
 */
export function linkExpiry(url: string, listedAtMs: number): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const q = parsed.searchParams;
  const value = ['expiry', 'Expiry', 'expires', 'Expires', 'expires_in', 'se']
    .map((k) => q.get(k))
    .find((v) => v !== null && v !== '');
  if (value !== undefined && value !== null) {
    const n = Number(value);
    if (Number.isFinite(n) && value.trim() !== '')
      return n > 1e12 ? n : n > EPOCH_SECONDS ? n * 1000 : listedAtMs + n * 1000;
    const d = Date.parse(value);
    if (Number.isFinite(d)) return d;
  }
  const amzExpires = Number(q.get('X-Amz-Expires') ?? NaN);
  if (Number.isFinite(amzExpires)) {
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
    const from = m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : listedAtMs;
    return from + amzExpires * 1000;
  }
  return null;
}

async function listFiles(client: PaymentsClient, disbursementId: string): Promise<FileLink[]> {
  const path_ = `/disbursements/${encodeURIComponent(disbursementId)}/files`;
  const body = await client.getJson(path_);
  const parsed = FileListSchema.safeParse(body);
  if (!parsed.success)
    throw new FileListError(`GET ${path_}: not a list of {name, url} (${describeIssues(parsed.error)})`);
  return parsed.data;
}

export class FileListError extends TerminalError {
  override readonly name = 'FileListError';
}

/** Fetch, store and parse every file of a disbursement. */
export async function fetchFiles(deps: FileDeps, disbursementId: string): Promise<FileResult[]> {
  let links = await listFiles(deps.client, disbursementId);
  let listedAt = deps.now();
  const results: FileResult[] = [];
  for (let i = 0; i < links.length; i += 1) {
    let result: FileResult | null = null;
    for (let refresh = 0; refresh <= MAX_LINK_REFRESHES && result === null; refresh += 1) {
      const link = links[i]!;
      const expiry = linkExpiry(link.url, listedAt);
      // The URL's expiry saves a doomed download once; after that the server judges (a 403), so a local
      // clock running ahead of the service's cannot make every fresh link look expired forever.
      if (refresh === 0 && expiry !== null && expiry <= deps.now() + 1000) {
        links = await refreshLinks(deps, disbursementId, links);
        listedAt = deps.now();
        continue;
      }
      result = await downloadOne(deps, link, i + 1);
      if (result === null) {
        links = await refreshLinks(deps, disbursementId, links); // 403: expired or revoked
        listedAt = deps.now();
      }
    }
    results.push(
      result ??
        failed(
          links[i]!,
          i + 1,
          `the download link kept expiring or being refused (403) after asking /files for fresh links ` +
            `${MAX_LINK_REFRESHES} times`,
        ),
    );
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

function failed(
  link: FileLink,
  fileNo: number,
  reason: string,
  status: FileResult['parseStatus'] = 'download_failed',
): FileResult {
  return {
    fileNo,
    name: link.name,
    extension: extensionOf(link.name),
    sha256: null,
    sizeBytes: null,
    layout: null,
    parseStatus: status,
    parseError: reason,
    lines: [],
    footerCount: null,
    footerTotal: null,
    problems: [],
  };
}

/** null means "ask for a fresh link" (403). */
async function downloadOne(deps: FileDeps, link: FileLink, fileNo: number): Promise<FileResult | null> {
  let body: Buffer;
  try {
    const res = await deps.client.download(link.url, deps.maxFileBytes);
    if (res.status === 403) return null;
    if (res.status < 200 || res.status >= 300) return failed(link, fileNo, `download answered HTTP ${res.status}`);
    body = res.body;
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      return failed(link, fileNo, `file is over the ${deps.maxFileBytes}-byte limit`, 'too_large');
    // one file that cannot be had (refused, redirected away, failing after its retries) is a finding on
    // that file; the disbursement's lines still reconcile
    if (err instanceof ApiError && !(err instanceof RateLimitedError)) return failed(link, fileNo, err.message);
    throw err;
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  await storeBlob(deps.filesDir, sha256, body);
  const base = { fileNo, name: link.name, extension: extensionOf(link.name), sha256, sizeBytes: body.length };
  const parsed = parseDisbursementFile(body, deps.layouts, { ...DEFAULT_PARSE_LIMITS, maxLines: deps.maxLines });
  if (parsed.status !== 'parsed') {
    return {
      ...base,
      layout: null,
      parseStatus: parsed.status,
      parseError: parsed.reason,
      lines: [],
      footerCount: null,
      footerTotal: null,
      problems: [],
    };
  }
  return {
    ...base,
    layout: parsed.layout,
    parseStatus: 'parsed',
    parseError: parsed.problems.length ? parsed.problems.map(describeProblem).join('; ') : null,
    lines: parsed.lines,
    footerCount: parsed.footerCount,
    footerTotal: parsed.footerTotal,
    problems: parsed.problems,
  };
}

/** "line 7: amount … is not …", or the reason alone for the file as a whole. */
export function describeProblem(p: LineProblem): string {
  return p.lineNo === null ? p.reason : `line ${p.lineNo}: ${p.reason}`;
}

/** Content-addressed store: <filesDir>/<ab>/<sha256>; written to a temp name and renamed, so never half a file. */
async function storeBlob(filesDir: string, sha256: string, body: Buffer): Promise<string> {
  const dir = path.join(filesDir, sha256.slice(0, 2));
  const target = path.join(dir, sha256);
  if (await stat(target).then((s) => s.size === body.length, () => false)) return target;
  await makeFolder(dir);
  const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, body);
  await rename(tmp, target);
  return target;
}

// recon doctor: before the first night, what would make it fail — the key against the service (the disbursements list;
// a payment's details where sampling is on), the clock against the service's, the store's and the workbooks' folders,
// free disk, a run holding the lock, the host-wide budget file, the PostgreSQL a night exports to — one line each. Exit
// 2 when the night would fail, 0 otherwise (a warning says what would be worse, not broken).
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, type ExitCode } from '../errors.js';
import { AuthError, RateLimitedError, type ApiError } from '../api/errors.js';
import { assertReachable } from '../api/reach.js';
import { probe, type ProbeAnswer } from '../api/probe.js';
import { exists, requireWritableFolder } from '../files.js';
import { acquireLock, LockHeldError } from '../ops/lock.js';
import { SharedBudget } from '../api/shared-budget.js';
import { checkWarehouse } from '../warehouse/doctor.js';
import { guardOutputs } from '../access/own-files.js';
import type { DoctorSettings } from './settings.js';

export type { DoctorSettings } from './settings.js';

type Verdict = 'OK' | 'WARN' | 'FAIL' | 'SKIP';

export interface DoctorLine {
  check: string;
  verdict: Verdict;
  reason: string;
}

export interface DoctorOptions {
  now?: () => number;
  /** Below this a night fails for room (the store, its spill files, the workbook); default 256 MB. */
  minFreeMb?: number;
  /** The local clock may differ from the service's by this much (beyond the request's own time); default 60 s. */
  maxSkewMs?: number;
}

const MB = 1024 * 1024;

export async function diagnose(
  settings: DoctorSettings,
  o: DoctorOptions = {},
): Promise<{ code: ExitCode; lines: DoctorLine[] }> {
  const lines: DoctorLine[] = [];
  const add = (check: string, verdict: Verdict, reason: string) => lines.push({ check, verdict, reason });
  await serviceChecks(settings, o, add);
  const dbDir = settings.layout.dir;
  await folderCheck('store folder', dbDir, '--db / RECON_DB', add);
  await folderCheck('reports folder', settings.reportsDir, '--reports / RECON_REPORTS_DIR', add);
  await diskCheck(
    [
      ['store', dbDir],
      ['reports', settings.reportsDir],
    ],
    (o.minFreeMb ?? 256) * MB,
    add,
  );
  await outputsCheck(settings, add);
  await lockCheck(settings.layout.lock, add);
  if (settings.budgetFile) await budgetFileCheck(settings.budgetFile, o.now ?? Date.now, add);
  if (settings.warehouse) {
    const r = await checkWarehouse(settings.warehouse);
    add('postgres', r.verdict, r.reason);
  }
  return { code: lines.some((l) => l.verdict === 'FAIL') ? EXIT.FAILED : EXIT.OK, lines };
}

type Add = (check: string, verdict: Verdict, reason: string) => void;

async function serviceChecks(settings: DoctorSettings, o: DoctorOptions, add: Add): Promise<void> {
  const service = settings.service;
  try {
    if ('error' in service) throw new Error(service.error);
    await assertReachable(service.apiUrl);
  } catch (err) {
    add('service', 'FAIL', (err as Error).message);
    add('payments', 'SKIP', 'the service could not be asked');
    add('clock', 'SKIP', 'the service could not be asked');
    return;
  }
  const ask = async (p: string): Promise<ProbeAnswer | string> => {
    try {
      return await probe(service.apiUrl, service.apiKey, p, { timeoutMs: settings.timeoutMs, now: o.now });
    } catch (err) {
      return `GET ${p.replace(/\?.*$/, '')} failed: ${(err as Error).message}`;
    }
  };
  const list = await ask('/disbursements?per_page=1');
  if (typeof list === 'string') {
    add('service', 'FAIL', `${list}; check --api-url / PAYMENTS_API_URL`);
  } else if (list.error) {
    add(
      'service',
      list.error instanceof RateLimitedError ? 'WARN' : 'FAIL',
      refusal(list.error, 'the disbursements list'),
    );
  } else {
    const total = (list.json as { total_entries?: unknown } | null)?.total_entries;
    add(
      'service',
      'OK',
      `the key reads the disbursements list${typeof total === 'number' ? ` (${total} delivered disbursements)` : ''}`,
    );
  }
  await paymentsCheck(settings.sampleBudget, typeof list === 'string' ? null : list, ask, add);
  clockCheck(typeof list === 'string' ? null : list, o.maxSkewMs ?? 60_000, add);
}

/** What a refused request means for a night, in the words the client's errors already use. */
function refusal(error: ApiError, what: string): string {
  if (error instanceof AuthError)
    return `the service refused the key for ${what} (${error.status}); set PAYMENTS_API_KEY or pass --api-key ` +
             `(disbursements need their own permission)`;
  if (error instanceof RateLimitedError)
    return `the service is blocking this IP now (429): a night started now would pause first; another program may ` +
             `share the 500/min`;
  return `${what}: ${error.message}`;
}

async function paymentsCheck(
  sampleBudget: number,
  list: ProbeAnswer | null,
  ask: (p: string) => Promise<ProbeAnswer | string>,
  add: Add,
): Promise<void> {
  if (sampleBudget === 0)
    return add('payments', 'SKIP', 'sampling is off (--sample-budget 0): no payment details are read');
  const first = (list?.json as { disbursements?: Array<{ disbursement_id?: unknown }> } | null)?.disbursements?.[0]
    ?.disbursement_id;
  if (list === null || list.error || typeof first !== 'string') {
    return add(
      'payments',
      'SKIP',
      list && !list.error
        ? 'no delivered disbursement yet to take a payment from'
        : 'the disbursements list could not be read',
    );
  }
  const payouts = await ask(`/disbursements/${encodeURIComponent(first)}/payouts?per_page=1`);
  if (typeof payouts === 'string' || payouts.error) {
    return add(
      'payments',
      'FAIL',
      typeof payouts === 'string' ? payouts : refusal(payouts.error!, `the payouts of ${first}`),
    );
  }
  const paymentId = (payouts.json as { payouts?: Array<{ payment_id?: unknown }> } | null)?.payouts?.[0]?.payment_id;
  if (typeof paymentId !== 'string')
    return add('payments', 'SKIP', `disbursement ${first} lists no payout to take a payment from`);
  const details = await ask(`/payments/${encodeURIComponent(paymentId)}`);
  if (typeof details === 'string') return add('payments', 'FAIL', details);
  if (!details.error) return add('payments', 'OK', 'the key reads payment details (payment_cross_check samples them)');
  if (details.error instanceof AuthError && details.status === 403) {
    // a key may lack this permission (interface § Authentication): the look-ups are unverified, the night goes on
    return add(
      'payments',
      'WARN',
      'the key may not read payment details (403): the sampled look-ups will be unverified; --sample-budget 0 turns ' +
        'sampling off',
    );
  }
  add('payments', details.error instanceof AuthError ? 'FAIL' : 'WARN', refusal(details.error, 'payment details'));
}

function clockCheck(answer: ProbeAnswer | null, maxSkewMs: number, add: Add): void {
  if (!answer) return add('clock', 'SKIP', 'the service could not be asked');
  if (!answer.date) return add('clock', 'SKIP', 'the service sends no Date header to compare with');
  // the Date header has whole seconds and was stamped somewhere during the trip
  const skew = answer.receivedAt - answer.tookMs / 2 - answer.date.getTime() - 500;
  const allowed = maxSkewMs + answer.tookMs / 2 + 500;
  const words = `${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ahead of' : 'behind'} the service's (its Date ` +
                  `header)`;
  if (Math.abs(skew) <= allowed)
    return add('clock', 'OK', `this machine's clock is within ${Math.round(allowed / 1000)} s of the service's`);
  add(
    'clock',
    'WARN',
    `this machine's clock is ${words}: the lookback and the schedule count in local time; set it right (NTP)`,
  );
}

async function folderCheck(check: string, dir: string, setting: string, add: Add): Promise<void> {
  const existed = await exists(dir);
  try {
    await requireWritableFolder(dir, setting);
    add(check, 'OK', `${dir} can be written${existed ? '' : ' (created now)'}`);
  } catch (err) {
    add(check, 'FAIL', (err as Error).message);
  }
}

/** The host-wide budget file (--budget-file): its folder writable, and whether a 429 has the host blocked now. */
async function budgetFileCheck(file: string, now: () => number, add: Add): Promise<void> {
  try {
    await requireWritableFolder(path.dirname(file), '--budget-file / RECON_BUDGET_FILE');
  } catch (err) {
    add('budget file', 'FAIL', (err as Error).message);
    return;
  }
  const blockedUntil = new SharedBudget(file).blockedUntil();
  if (blockedUntil > now()) {
    add(
      'budget file',
      'WARN',
      `${file}: every recon on this host is paused by a 429 until ` +
        `${new Date(blockedUntil).toISOString().slice(11, 16)} UTC`,
    );
  } else {
    add(
      'budget file',
      'OK',
      `${file} can be shared by every recon process on this ` +
        `host${(await exists(file)) ? '' : ' (made by the first request)'}`,
    );
  }
}

async function diskCheck(places: Array<[string, string]>, minFree: number, add: Add): Promise<void> {
  const parts: string[] = [];
  let verdict: Verdict = 'OK';
  for (const [name, dir] of places) {
    const stats = await statfs(dir).catch(() => null);
    if (!stats) continue; // the folder check above already said why
    const free = Number(stats.bavail) * Number(stats.bsize);
    parts.push(
      `${name}: ${free >= 10 * 1024 * MB ? `${Math.round(free / (1024 * MB))} GB` : `${Math.round(free / MB)} MB`} ` +
        `free`,
    );
    if (free < minFree) verdict = 'FAIL';
  }
  if (parts.length === 0) return add('disk', 'SKIP', 'no folder to measure');
  add(
    'disk',
    verdict,
    `${parts.join(', ')}${verdict === 'FAIL' ? ` — under ${Math.round(minFree / MB)} MB, a night would run out of ` +
                                                 `room` : ''}`,
  );
}

/** Every path an option names for recon to write, against recon's own files (a night would refuse it). */
async function outputsCheck(settings: DoctorSettings, add: Add): Promise<void> {
  try {
    await guardOutputs(settings.outputs, settings.layout);
    if (settings.outputs.length > 0)
      add(
        'output paths',
        'OK',
        `${settings.outputs.map((o) => o.flag.split(' ')[0]).join(', ')}: none is one of recon's own files`,
      );
  } catch (err) {
    add('output paths', 'FAIL', (err as Error).message);
  }
}

async function lockCheck(lockPath: string, add: Add): Promise<void> {
  try {
    const lock = await acquireLock(lockPath, { command: 'recon doctor' });
    await lock.release();
    add('run lock', 'OK', 'no run holds the store');
  } catch (err) {
    if (err instanceof LockHeldError)
      return add(
        'run lock',
        'WARN',
        `${err.message.replace(/; it exits 3 — .*$/, '')}: a night started now would exit 3`,
      );
    add('run lock', 'SKIP', `the lock could not be tried: ${(err as Error).message}`);
  }
}

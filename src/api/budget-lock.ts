// The lock beside a host-wide budget file (src/api/shared-budget.ts): held for the few milliseconds a
// process takes its turn from the file. It names its owner — pid, host, boot id, the process's start time —
// and is judged by that owner, not by its age alone: a lock whose mtime is an hour ahead (a crash, then the
// clock set back) was never "older than 5 s", and every process on the host waited for it in silence. A
// lock is taken over when its owner is gone: another boot, a pid no longer running or now another process,
// or this very process (a pid reused by a restarted container). A live owner is waited for, and the wait
// is told (onWait) with what it waits for. Only an owner that cannot be probed (another host on a shared
// disk, or a lock without an owner) is judged by its age, in either direction.
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { abortError, sleep } from './budget.js';

/** An owner that cannot be probed holding the lock longer than this (or dated this far ahead) is gone. */
const STALE_LOCK_MS = 5_000;
/** Pause between attempts to take a lock another process holds (real time: it is I/O, not pacing). */
const LOCK_RETRY_MS = 2;
/** How often a wait for a live owner is told again. */
const RETELL_MS = 30_000;

/** What a lock says of its owner: written whole by takeBudgetLock; a lock that cannot be read so has no owner. */
const OwnerSchema = z.object({
  pid: z.number(),
  host: z.string(),
  bootId: z.string().nullable().default(null),
  /** The owner's start time (Linux: /proc/<pid>/stat field 22), to tell a reused pid. */
  start: z.string().nullable().default(null),
  /** This lock's own id: which of a process's locks it is. */
  token: z.string(),
  /** When it was taken, by the owner's clock (ms since epoch); 0 when not said. */
  at: z.number().default(0),
});
type Owner = z.infer<typeof OwnerSchema>;

export interface LockOptions {
  /**
   * Told when the lock is held by a live owner (after `tellAfterMs`, then every 30 s) with what the wait is
   * for, and with null when a told wait is over.
   */
  onWait?: (what: string | null) => void;
  /** Real time waited before the first telling (default 1 s). */
  tellAfterMs?: number;
}

/** Locks this process holds right now, by path: a lock of our pid not among them is a predecessor's. */
const heldHere = new Map<string, string>();

export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): { owner: Owner | null; mtimeMs: number } | null {
  let mtimeMs: number;
  let text: string;
  try {
    mtimeMs = statSync(lockPath).mtimeMs;
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return null; // released meanwhile
  }
  try {
    const parsed = OwnerSchema.safeParse(JSON.parse(text));
    return { owner: parsed.success ? parsed.data : null, mtimeMs };
  } catch {
    return { owner: null, mtimeMs };
  }
}

/** Why the lock's owner is gone (the lock may be taken over), or null while it may still be working. */
function gone(lockPath: string, found: { owner: Owner | null; mtimeMs: number }, now: number): string | null {
  const o = found.owner;
  if (o === null || o.host !== hostname()) {
    const age = now - found.mtimeMs;
    if (Math.abs(age) <= STALE_LOCK_MS) return null;
    if (age < 0) return 'its time is ahead of the clock (a clock set back)';
    return `it is ${Math.round(age / 1000)} s old and its owner cannot be asked`;
  }
  const boot = bootId();
  if (o.bootId && boot && o.bootId !== boot) return 'it was taken before the host last started';
  if (o.pid === process.pid) {
    return heldHere.get(lockPath) === o.token ? null : 'it was left by an earlier process with this pid';
  }
  if (!alive(o.pid)) return `its owner (pid ${o.pid}) is no longer running`;
  const start = o.start ? processStart(o.pid) : null;
  if (start !== null && start !== o.start) return `pid ${o.pid} is now another process`;
  return null;
}

function describe(lockPath: string, o: Owner | null, now: number): string {
  const where = o !== null && o.host !== hostname() ? ` on host ${o.host}` : '';
  const who = o === null ? 'a lock file that names no owner' : `pid ${o.pid}${where}`;
  const since = o && o.at > 0 ? `, taken ${Math.round((now - o.at) / 1000)} s ago` : '';
  return `waiting for the request budget's lock ${lockPath}, held by ${who}${since} and still running; `
    + 'no request leaves until it is released (stop that process, or remove the lock file if it is not recon)';
}

/** Create the lock with its owner in one step (a hard link of a written file: never an empty lock). */
function tryCreate(lockPath: string, owner: Owner): boolean {
  const tmp = `${lockPath}.${process.pid}.${owner.token}`;
  writeFileSync(tmp, `${JSON.stringify(owner)}\n`);
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if ((err as NodeJS.ErrnoException).code !== 'EPERM' && (err as NodeJS.ErrnoException).code !== 'ENOTSUP') throw err;
    // a file system without hard links: create exclusively, then write (empty for a moment; judged by age then)
    try {
      closeSync(openSync(lockPath, 'wx'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    writeFileSync(lockPath, `${JSON.stringify(owner)}\n`);
    return true;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

/** Take the lock at `lockPath`; resolves to the function that releases it. A stop signal ends the wait. */
export async function takeBudgetLock(lockPath: string, o: LockOptions = {}, signal?: AbortSignal): Promise<() => void> {
  const owner: Owner = { pid: process.pid, host: hostname(), bootId: bootId(), start: processStart(process.pid),
    token: randomBytes(6).toString('hex'), at: 0 };
  const began = Date.now();
  let toldAt: number | null = null;
  for (;;) {
    if (signal?.aborted) throw abortError();
    owner.at = Date.now();
    if (tryCreate(lockPath, owner)) {
      heldHere.set(lockPath, owner.token);
      if (toldAt !== null) o.onWait?.(null);
      return () => release(lockPath, owner.token);
    }
    const found = readOwner(lockPath);
    const now = Date.now();
    if (found && gone(lockPath, found, now) !== null) {
      // judged again just before removing: the same owner's lock, not one a faster contender just made
      const again = readOwner(lockPath);
      const same = again && again.owner?.token === found.owner?.token && again.mtimeMs === found.mtimeMs;
      if (same) unlinkQuietly(lockPath);
      continue;
    }
    if (found && now - began >= (o.tellAfterMs ?? 1000) && (toldAt === null || now - toldAt >= RETELL_MS)) {
      toldAt = now;
      o.onWait?.(describe(lockPath, found.owner, now));
    }
    await sleep(LOCK_RETRY_MS, signal);
  }
}

function release(lockPath: string, token: string): void {
  if (heldHere.get(lockPath) === token) heldHere.delete(lockPath);
  // only our own: a lock taken over from us (an owner that could not be probed) is someone else's now
  if (readOwner(lockPath)?.owner?.token === token) unlinkQuietly(lockPath);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // released or taken over meanwhile
  }
}

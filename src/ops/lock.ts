// One recon run at a time: a lock file created atomically with O_EXCL ('wx'). A holder that died
// (same host, and its pid gone, or now a different process — another boot, another start time: a pid is
// reused, in a container recon is pid 1 every time) or a lock file that is garbage and older than a
// minute is taken over; anything else is respected and reported as LockHeldError, which the CLI maps to
// exit code 3 (EXIT.LOCKED).
import { EXIT, TransientError } from '../errors.js';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The run lock of a store: `<db>.lock` beside it. */
export function lockPathOf(db: string): string {
  return path.join(path.dirname(path.resolve(db)), `${path.basename(db)}.lock`);
}

const LockFileSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  startedAt: z.string(),
  command: z.string(),
  /** The kernel's boot id when the lock was taken (Linux), and the holder's process start time. */
  bootId: z.string().optional(),
  processStart: z.string().optional(),
});
type LockFile = z.infer<typeof LockFileSchema>;

/** A lock file younger than this that cannot be parsed is probably being written right now. */
const GARBAGE_GRACE_MS = 60_000;
/** Contenders that see a takeover in progress wait this long between looks. */
const RETRY_DELAY_MS = 20;
const MAX_ATTEMPTS = 300; // × RETRY_DELAY_MS: outlasts GUARD_GRACE_MS, so a dead contender's guard is cleared
/**
 * The takeover guard is held for milliseconds; one older than this belongs to a process killed inside
 * takeOverStale (a SIGKILL can land there) and is removed. Judging stays by content inside the guard,
 * so removing a guard a live contender has just re-created cannot let two runs hold the lock.
 */
const GUARD_GRACE_MS = 3_000;

export interface RunLock {
  readonly lockPath: string;
  readonly holder: LockFile;
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

interface LockDeps {
  now?: () => Date;
  hostname?: string;
  pid?: number;
  /** Liveness probe for a pid on this host; the default sends signal 0. */
  isAlive?: (pid: number) => boolean;
  /** Start time of a process (Linux: /proc/<pid>/stat), null where it cannot be known. */
  processStart?: (pid: number) => string | null;
  bootId?: string | null;
}

export class LockHeldError extends TransientError {
  override readonly name = 'LockHeldError';
  readonly exitCode = EXIT.LOCKED;

  constructor(
    readonly lockPath: string,
    readonly holderPid: number | null,
    readonly holderStartedAt: string | null,
    readonly holderCommand: string | null,
    readonly holderHostname: string | null = null,
  ) {
    super(LockHeldError.describe(lockPath, holderPid, holderStartedAt, holderCommand, holderHostname));
  }

  private static describe(
    lockPath: string, pid: number | null, startedAt: string | null, command: string | null, host: string | null,
  ): string {
    if (pid === null) {
      return `another recon run is creating the lock ${lockPath} right now; it exits 3 — retry in a minute`;
    }
    const where = host !== null && host !== osHostname() ? ` on host ${host}` : '';
    return `another recon run holds the lock (pid ${pid}${where}, \`${command ?? '?'}\`, since ${startedAt ?? '?'}); `
      + `it exits 3 — wait for it or stop it (lock file: ${lockPath})`;
  }
}

/** Takes the run lock or throws LockHeldError. The caller releases it; nothing is registered globally. */
export async function acquireLock(
  lockPath: string, info: { command: string } = { command: 'recon' }, deps: LockDeps = {},
): Promise<RunLock> {
  const now = deps.now ?? (() => new Date());
  const isAlive = deps.isAlive ?? pidIsAlive;
  const startOf = deps.processStart ?? processStartTime;
  const boot = deps.bootId === undefined ? bootId() : deps.bootId;
  const pid = deps.pid ?? process.pid;
  const ours: LockFile = {
    pid,
    hostname: deps.hostname ?? osHostname(),
    startedAt: now().toISOString(),
    command: info.command,
    ...(boot ? { bootId: boot } : {}),
    ...(startOf(pid) ? { processStart: startOf(pid)! } : {}),
  };

  // The holder's pid is alive and still the process that took the lock (same boot, same start time).
  const holderAlive = (h: LockFile): boolean => {
    if (!isAlive(h.pid)) return false;
    if (h.bootId && boot && h.bootId !== boot) return false;
    const start = h.processStart ? startOf(h.pid) : null;
    return !(start !== null && start !== h.processStart);
  };
  // A holder on another host cannot be probed, so it is always respected.
  const isStale = (found: Exclude<Holder, { kind: 'gone' }>): boolean => (found.kind === 'garbage'
    ? now().getTime() - found.mtimeMs > GARBAGE_GRACE_MS
    : found.holder.hostname === ours.hostname && !holderAlive(found.holder));

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const ino = await tryCreate(lockPath, ours);
    if (ino !== null) return heldLock(lockPath, ours, ino);

    const found = await readHolder(lockPath);
    if (found.kind === 'gone') continue; // released between our open and our read
    if (!isStale(found)) throw heldError(lockPath, found);
    if (!(await takeOverStale(lockPath, isStale, now))) await delay(RETRY_DELAY_MS);
  }
  throw new Error(
    `could not take the lock ${lockPath} after ${MAX_ATTEMPTS} attempts; remove it if no recon run is active`,
  );
}

interface WaitOptions {
  /** How long to wait for a holder to finish; 0 refuses at once (LockHeldError). */
  waitMs: number;
  /** Between looks (default 1 s). */
  pollMs?: number;
  /** Told once, when the lock is held and the wait begins (a line for the person waiting). */
  onWait?: (held: LockHeldError) => void;
  sleep?: (ms: number) => Promise<void>;
  /** An aborted signal ends the wait with the last LockHeldError. */
  signal?: AbortSignal;
}

/**
 * Takes the lock, waiting up to `waitMs` for the run that holds it to finish (an acknowledgement
 * made during a 45-minute run waits for it instead of being refused). Past the wait, the holder's
 * LockHeldError (exit 3) as without waiting.
 */
export async function acquireLockWaiting(
  lockPath: string, info: { command: string }, wait: WaitOptions, deps: LockDeps = {},
): Promise<RunLock> {
  const now = deps.now ?? (() => new Date());
  const pause = wait.sleep ?? delay;
  const deadline = now().getTime() + wait.waitMs;
  let told = false;
  for (;;) {
    try {
      return await acquireLock(lockPath, info, deps);
    } catch (err) {
      if (!(err instanceof LockHeldError)) throw err;
      const left = deadline - now().getTime();
      if (left <= 0 || wait.signal?.aborted) throw err;
      if (!told) wait.onWait?.(err);
      told = true;
      await pause(Math.min(left, wait.pollMs ?? 1000));
    }
  }
}

/** Creates the lock file with O_EXCL; returns its inode, or null when the file already exists. */
async function tryCreate(lockPath: string, record: LockFile): Promise<number | null> {
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return null;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(record)}\n`);
    await handle.sync();
    return (await handle.stat()).ino;
  } catch (error) {
    await unlink(lockPath).catch(() => undefined); // an empty lock file would block others for a minute
    throw error;
  } finally {
    await handle.close();
  }
}

type Holder =
  | { kind: 'gone' }
  | { kind: 'garbage'; ino: number; mtimeMs: number }
  | { kind: 'held'; ino: number; holder: LockFile };

async function readHolder(lockPath: string): Promise<Holder> {
  let ino: number;
  let mtimeMs: number;
  let text: string;
  try {
    ({ ino, mtimeMs } = await stat(lockPath));
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  const parsed = LockFileSchema.safeParse(parseJson(text));
  return parsed.success ? { kind: 'held', ino, holder: parsed.data } : { kind: 'garbage', ino, mtimeMs };
}

/**
 * Moves a stale lock aside. A short-lived guard file (also 'wx') makes judge-and-move exclusive:
 * without it, a contender that judged the old file stale could move aside the fresh lock a faster
 * contender has just created, and both would run. The file is judged again inside the guard, by its
 * content: comparing inode numbers is not enough, because the fresh lock may reuse the stale one's
 * inode. Returns false when another contender holds the guard.
 */
async function takeOverStale(
  lockPath: string, isStale: (found: Exclude<Holder, { kind: 'gone' }>) => boolean, now: () => Date,
): Promise<boolean> {
  const guardPath = `${lockPath}.takeover`;
  let guard;
  try {
    guard = await open(guardPath, 'wx');
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    await removeIfOlderThan(guardPath, GUARD_GRACE_MS, now); // a contender that died mid-takeover
    return false;
  }
  try {
    // While we hold the guard, only a stale file's owner could remove it, and that owner is gone.
    const found = await readHolder(lockPath);
    if (found.kind === 'gone' || !isStale(found)) return true;
    const aside = `${lockPath}.stale-${process.pid}-${now().getTime()}`;
    await rename(lockPath, aside);
    await unlink(aside);
    return true;
  } finally {
    await guard.close();
    await unlink(guardPath).catch(() => undefined);
  }
}

function heldLock(lockPath: string, holder: LockFile, ino: number): RunLock {
  let released = false;
  return {
    lockPath,
    holder,
    async release() {
      if (released) return;
      released = true;
      const found = await readHolder(lockPath);
      const stillOurs = found.kind === 'held' && found.ino === ino
        && found.holder.pid === holder.pid && found.holder.startedAt === holder.startedAt;
      if (stillOurs) await unlink(lockPath).catch(() => undefined);
    },
  };
}

function heldError(lockPath: string, found: Exclude<Holder, { kind: 'gone' }>): LockHeldError {
  if (found.kind === 'garbage') return new LockHeldError(lockPath, null, null, null);
  const { pid, startedAt, command, hostname } = found.holder;
  return new LockHeldError(lockPath, pid, startedAt, command, hostname);
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), or null off Linux. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the name in (…) may hold spaces
    return fields[19] ?? null; // field 22 overall: the 20th after pid and (comm)
  } catch {
    return null;
  }
}

/** The kernel's id of this boot (Linux), or null. */
function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Signal 0 checks existence only. EPERM means it exists under another user, so it is alive. */
export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

async function removeIfOlderThan(path: string, ageMs: number, now: () => Date): Promise<void> {
  try {
    const { mtimeMs } = await stat(path);
    if (now().getTime() - mtimeMs > ageMs) await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

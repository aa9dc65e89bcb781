// The nightly scheduler behind `recon schedule`. Fire times follow nextRun (cron-time.ts). In
// production node-cron does the firing; tests inject a clock and timers and drive time by hand.
// Overlap is prevented twice: node-cron's noOverlap, and our own in-flight flag (which also covers the
// catch-up run node-cron does not know about). The file lock is the job's own business (runNight).
import cron, { type ScheduledTask } from 'node-cron';
import { isOverdue, nextRun, validateSchedule } from './cron-time.js';

export { isOverdue, nextRun, ScheduleConfigError } from './cron-time.js';

export interface Clock {
  now(): Date;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The subset of pino's logger the scheduler uses. */
export interface SchedulerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface SchedulerOptions {
  cron: string;
  timeZone: string;
  /** One whole run (it takes the file lock itself); resolves to the run's exit code. */
  runNight: () => Promise<number>;
  lastSuccess: () => Promise<Date | null>;
  clock?: Clock;
  timers?: Timers;
  logger?: SchedulerLogger;
  /** Defaults to true unless a clock or timers are injected. */
  useNodeCron?: boolean;
}

export interface Scheduler {
  /** Resolves once the start-up check (and a catch-up run, if due, has been started) is done. */
  readonly started: Promise<void>;
  /** Resolves after stop() once the in-flight run, if any, has finished. */
  readonly done: Promise<void>;
  /** Stops firing and waits for an in-flight run. */
  stop(): Promise<void>;
}

/** setTimeout cannot wait longer than 2^31-1 ms; longer waits wake up early and re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** node-cron and our timer may report the same fire time a few milliseconds apart. */
const SAME_SLOT_MS = 1_000;

const silent: SchedulerLogger = { info() {}, warn() {}, error() {} };

export function startScheduler(opts: SchedulerOptions): Scheduler {
  validateSchedule(opts.cron, opts.timeZone); // a bad RECON_CRON / RECON_TZ fails now, not at 02:30
  const clock = opts.clock ?? { now: () => new Date() };
  const timers: Timers = opts.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const logger = opts.logger ?? silent;
  const useNodeCron = opts.useNodeCron ?? (opts.clock === undefined && opts.timers === undefined);
  const slotAfter = (t: Date): Date => nextRun(opts.cron, opts.timeZone, t);

  let stopped = false;
  let inFlight: Promise<void> | null = null;
  /** Fire times at or before this have been served (run, or skipped because a run was in flight). */
  let servedUntil = clock.now();
  let timer: { handle: unknown } | null = null;
  let task: ScheduledTask | null = null;

  function startRun(reason: 'scheduled' | 'catch-up'): void {
    if (inFlight !== null) {
      logger.warn({ reason }, 'previous recon run is still in progress; skipping this one');
      return;
    }
    logger.info({ reason }, 'starting recon run');
    inFlight = opts.runNight()
      .then(
        (exitCode) => logger.info({ reason, exitCode }, 'recon run finished'),
        (err: unknown) => logger.error({ reason, err }, 'recon run failed'),
      )
      .finally(() => { inFlight = null; });
  }

  /** Every trigger ends here. A second trigger for a slot already served is dropped. */
  function onFire(at: Date, source: 'timer' | 'node-cron'): void {
    if (stopped) return;
    const due = slotAfter(servedUntil);
    if (due.getTime() > at.getTime() + SAME_SLOT_MS) {
      logger.info({ source, at: at.toISOString() }, 'fire time already served; ignoring');
      return;
    }
    servedUntil = at;
    startRun('scheduled');
    armTimer();
  }

  /**
   * Arms our own timer for the next slot. With node-cron firing, only when node-cron would not fire at
   * that slot: node-cron 4.6 skips a time in the spring-forward gap and fires the fall-back hour's
   * second occurrence, where our rule fires right after the gap and at the first occurrence.
   */
  function armTimer(): void {
    if (timer !== null) timers.clearTimeout(timer.handle);
    timer = null;
    if (stopped) return;
    const due = slotAfter(servedUntil);
    if (task !== null) {
      const theirs = task.getNextRuns(1)[0];
      if (theirs !== undefined && Math.abs(theirs.getTime() - due.getTime()) <= SAME_SLOT_MS) return;
      logger.info({ at: due.toISOString() }, 'node-cron would miss this fire time (DST change); timer armed');
    }
    const wait = Math.min(Math.max(due.getTime() - clock.now().getTime(), 0), MAX_TIMER_MS);
    timer = {
      handle: timers.setTimeout(() => {
        timer = null;
        // Woke early (long wait, or a timer that runs ahead of the clock): wait for the rest.
        if (clock.now().getTime() < due.getTime()) armTimer();
        else onFire(due, 'timer');
      }, wait),
    };
  }

  async function begin(): Promise<void> {
    let last: Date | null;
    try {
      last = await opts.lastSuccess();
    } catch (err) {
      logger.error({ err }, 'could not read the last successful run; no catch-up run');
      last = new Date(8.64e15); // "the future": never overdue
    }
    if (stopped) return;
    if (isOverdue(last, opts.cron, opts.timeZone, clock.now())) {
      logger.info({ lastSuccess: last?.toISOString() ?? null }, 'a scheduled run was missed; catching up now');
      startRun('catch-up');
    }
    if (useNodeCron) {
      task = cron.schedule(opts.cron, async (ctx) => {
        onFire(ctx.date, 'node-cron');
        await inFlight; // keeps node-cron's noOverlap informed while the run lasts
      }, { timezone: opts.timeZone, noOverlap: true, name: 'recon-nightly', logger: nodeCronLogger(logger) });
    }
    armTimer();
  }

  const started = begin();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => { resolveDone = resolve; });

  async function stop(): Promise<void> {
    if (!stopped) {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer.handle);
      timer = null;
      await started;
      await task?.destroy();
      task = null;
      await inFlight;
      resolveDone();
    }
    return done;
  }

  return { started, done, stop };
}

/** Routes node-cron's own messages (missed executions, overlaps) into our logger. */
function nodeCronLogger(logger: SchedulerLogger): NonNullable<Parameters<typeof cron.schedule>[2]>['logger'] {
  const component = 'node-cron';
  return {
    info: (message) => logger.info({ component }, message),
    warn: (message) => logger.warn({ component }, message),
    error: (message, err) => logger.error({ component, err: err ?? message }, String(message)),
    debug: () => undefined,
  };
}

// A bounded work queue: one producer pushes items, up to a limit of workers take them in order. The
// limit may move while the pool runs (the sync's adaptive concurrency, src/api/concurrency.ts): a raised
// limit starts workers at once, a lowered one lets the surplus finish what they hold and take nothing more.
// The producer waits while more than `maxQueued` items wait (memory stays bounded whatever the list's size);
// the first failure, or the stop signal, makes the workers finish what they hold and take nothing more.

/** A limit that can change; the pool hears of each change. */
export interface MovingLimit {
  readonly limit: number;
  onChange(listener: () => void): () => void;
}

interface PoolOptions {
  concurrency: number | MovingLimit;
  maxQueued: number;
  signal?: AbortSignal;
}

export class WorkPool<T> {
  private readonly queue: T[] = [];
  private readonly waiting: Array<() => void> = [];
  private failed: { error: unknown } | null = null;
  private readonly workers = new Set<Promise<void>>();
  /** Workers alive, and of those the ones holding an item (the others are about to take one). */
  private alive = 0;
  private busy = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly work: (item: T) => Promise<void>, private readonly o: PoolOptions) {
    o.signal?.addEventListener('abort', () => this.wake(), { once: true }); // the producer must notice
    this.unsubscribe = typeof o.concurrency === 'number' ? () => undefined : o.concurrency.onChange(() => this.spawn());
  }

  /** True once stopped by the signal or a failure: the producer should stop producing. */
  get stopping(): boolean {
    return this.o.signal?.aborted === true || this.failed !== null;
  }

  /** Items wait while every allowed worker holds one: the limit is what holds them back. */
  get saturated(): boolean {
    return this.queue.length > this.alive - this.busy && this.alive >= this.limit;
  }

  /** Workers running now. */
  get running(): number {
    return this.alive;
  }

  /** Adds an item; resolves when the queue has room again (back-pressure). */
  async push(item: T): Promise<void> {
    this.queue.push(item);
    this.spawn();
    while (this.queue.length > this.o.maxQueued && !this.stopping) await this.sleep();
  }

  /** Records a failure of the producer; the workers stop as for their own. */
  fail(error: unknown): void {
    this.failed ??= { error };
    this.wake();
  }

  /** No more items: waits until the workers are done; throws the first failure. */
  async close(): Promise<void> {
    this.spawn();
    while (this.workers.size > 0) await Promise.all([...this.workers]);
    this.unsubscribe();
    if (this.failed) throw this.failed.error;
  }

  private get limit(): number {
    const c = this.o.concurrency;
    return Math.max(1, typeof c === 'number' ? c : c.limit);
  }

  /** Starts workers while items wait for one and the limit allows. */
  private spawn(): void {
    while (!this.stopping && this.queue.length > this.alive - this.busy && this.alive < this.limit) {
      this.alive += 1;
      const worker = this.worker().finally(() => this.workers.delete(worker));
      this.workers.add(worker);
    }
  }

  private async worker(): Promise<void> {
    try {
      // a worker begins on the next turn, so a burst of pushes starts as many as wait, not one each
      await Promise.resolve();
      while (!this.stopping && this.alive <= this.limit) {
        const next = this.queue.shift();
        if (next === undefined) return;
        this.wake(); // room in the queue for the producer
        this.busy += 1;
        try {
          await this.work(next);
        } catch (error) {
          this.fail(error);
          return;
        } finally {
          this.busy -= 1;
        }
      }
    } finally {
      this.alive -= 1;
    }
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    this.waiting.splice(0).forEach((resolve) => resolve());
  }
}

// A bounded work queue: one producer pushes items, `concurrency` workers take them in order. The
// producer waits while more than `maxQueued` items wait (memory stays bounded whatever the list's size);
// the first failure, or the stop signal, makes the workers finish what they hold and take nothing more.

export interface PoolOptions {
  concurrency: number;
  maxQueued: number;
  signal?: AbortSignal;
}

export class WorkPool<T> {
  private readonly queue: T[] = [];
  private readonly waiting: Array<() => void> = [];
  private open = true;
  private failed: { error: unknown } | null = null;
  private readonly workers: Promise<void>[];

  constructor(private readonly work: (item: T) => Promise<void>, private readonly o: PoolOptions) {
    o.signal?.addEventListener('abort', () => this.wake(), { once: true }); // idle workers and the producer must notice
    this.workers = Array.from({ length: Math.max(1, o.concurrency) }, () => this.worker());
  }

  /** True once stopped by the signal or a failure: the producer should stop producing. */
  get stopping(): boolean {
    return this.o.signal?.aborted === true || this.failed !== null;
  }

  /** Adds an item; resolves when the queue has room again (back-pressure). */
  async push(item: T): Promise<void> {
    this.queue.push(item);
    this.wake();
    while (this.queue.length > this.o.maxQueued && !this.stopping) await this.sleep();
  }

  /** Records a failure of the producer; the workers stop as for their own. */
  fail(error: unknown): void {
    this.failed ??= { error };
    this.wake();
  }

  /** No more items: waits until the workers are done; throws the first failure. */
  async close(): Promise<void> {
    this.open = false;
    this.wake();
    await Promise.all(this.workers);
    if (this.failed) throw this.failed.error;
  }

  private async worker(): Promise<void> {
    for (;;) {
      if (this.stopping) return;
      const next = this.queue.shift();
      if (next === undefined) {
        if (!this.open) return;
        await this.sleep();
        continue;
      }
      this.wake(); // room in the queue for the producer
      try {
        await this.work(next);
      } catch (error) {
        this.fail(error);
        return;
      }
    }
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    this.waiting.splice(0).forEach((resolve) => resolve());
  }
}

// An outlet request's bounds, apart from the HTTP code that uses them (undici): the settings read them on
// every command, and `recon sql` should not load an HTTP client to print a query.
export interface DeliveryLimits {
  /** Everything, retries and waits included, ends after this. */
  timeoutMs: number;
  /** Attempts in all (1 = no retry). */
  attempts: number;
  /** Injected by tests so retries do not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_LIMITS: DeliveryLimits = { timeoutMs: 15_000, attempts: 3 };

// A one-line progress display on a TTY (disbursements done/listed, requests, rate, ETA); nothing when piped.
export interface Progress {
  update(p: { listed: number; done: number; queued: number; requests: number }): void;
  done(): void;
}

export function progressReporter(stream: NodeJS.WriteStream, now: () => number = Date.now): Progress {
  if (!stream.isTTY || process.env.CI) return { update() {}, done() {} };
  const start = now();
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const t = now();
      if (t - last < 250) return;
      last = t;
      const minutes = (t - start) / 60_000;
      const rate = minutes > 0 ? Math.round(p.requests / minutes) : 0;
      const perDisb = p.done > 0 ? (t - start) / p.done : 0;
      const left = Math.max(0, p.listed - p.done);
      const eta = perDisb > 0 ? `${Math.round((left * perDisb) / 1000)}s` : '?';
      stream.write(`\r\x1b[2Kdisbursements ${p.done}/${p.listed}  requests ${p.requests}  ${rate}/min  ETA ${eta}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}

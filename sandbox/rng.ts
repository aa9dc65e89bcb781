// Deterministic randomness. Every stream is seeded by FNV-1a of `seed:purpose:index`, so what is
// generated for disbursement i never depends on what was generated (or requested) before it.

/** 32-bit FNV-1a of a string, finished with a murmur3 avalanche so nearby inputs spread well. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of `seed:purpose:index[:sub]`, the seed of one stream. */
export function streamHash(seed: string, purpose: string, index: number | string, sub?: number | string): number {
  return fnv1a(sub === undefined ? `${seed}:${purpose}:${index}` : `${seed}:${purpose}:${index}:${sub}`);
}

/** mulberry32: small, fast, good enough for test data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed32: number) {
    this.state = seed32 >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Float in [lo, hi). */
  float(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Integer spread log-uniformly over [lo, hi]: small amounts are more common than large ones. */
  logInt(lo: number, hi: number): number {
    return Math.min(hi, Math.max(lo, Math.round(Math.exp(this.float(Math.log(lo), Math.log(hi))))));
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /** Lower-case hex string of n characters. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return out.slice(0, n);
  }
}

export function rngFor(seed: string, purpose: string, index: number | string, sub?: number | string): Rng {
  return new Rng(streamHash(seed, purpose, index, sub));
}

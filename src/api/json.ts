// The service's JSON read without altering a number. The interface bounds no number (§ Conventions:
// amounts are integers in subunits), and JSON.parse reads each as a double: 9007199254740993 arrives as
// 9007199254740992, another amount, which a record re-written from the parsed value would then hold. Here
// a number whose value a double does not carry is kept as an InexactNumber with its digits as sent: no
// schema accepts it (the record is quarantined, quoting those digits) and the canonical text of a record
// (src/sync/canonical.ts) writes them back unchanged.
import { randomBytes } from 'node:crypto';

/** A JSON number a double cannot hold: its text as the service sent it. */
export class InexactNumber {
  constructor(readonly text: string) {}
}

/** Strings (skipped whole, escapes included) and numbers, in one left-to-right pass. */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/**
 * A double holds every decimal of at most 15 significant digits without an exponent, so a text where no
 * value (after a colon, a bracket or a comma) starts 16 digits in a row (a point allowed between them) or
 * an exponent needs no closer look. Identifiers such as "BATCH-31FFC3AE" do not count.
 */
const SUSPECT = /(?:^|[:[,])\s*-?\d(?:[\d.]{15}|[\d.]*[eE])/;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

interface Decimal {
  sign: '' | '-';
  /** Significant digits, without leading or trailing zeros ('' for zero). */
  digits: string;
  /** The value is sign · digits · 10^power. */
  power: number;
}

/** A decimal's value as sign, significant digits and power of ten ("-1200.50" → -, 12005, 1). */
function decimal(text: string): Decimal | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  const all = `${m[2]}${m[3] ?? ''}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  const power = Number(m[4] ?? 0) - (m[3]?.length ?? 0) + (all.length - digits.length);
  return { sign: m[1] === '-' ? '-' : '', digits, power: digits === '' ? 0 : power };
}

/**
 * Whether the double JSON.parse makes of `token` is the number sent: for a whole number, exactly its
 * value (an amount is compared and summed as that value); for a fraction, the same decimal when written
 * back (a fraction is never an amount, and 0.1 is as exact as JSON text can be).
 */
export function holdsExactly(token: string): boolean {
  const n = Number(token);
  const sent = decimal(token);
  if (!Number.isFinite(n) || sent === null) return false;
  if (sent.digits === '') return n === 0;
  if (sent.power >= 0) {
    if (!Number.isInteger(n) || sent.digits.length + sent.power > 400) return false;
    return BigInt(n) === BigInt(`${sent.sign}${sent.digits}`) * 10n ** BigInt(sent.power);
  }
  const back = decimal(String(n));
  return back !== null && back.sign === sent.sign && back.digits === sent.digits && back.power === sent.power;
}

/**
 * JSON.parse, except that a number a double cannot hold becomes an InexactNumber with its digits. Throws
 * SyntaxError as JSON.parse does (the text is parsed as it came first: what is valid does not change).
 */
export function parseJsonExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!SUSPECT.test(text)) return value;
  let rebuilt = '';
  let from = 0;
  const marker = `\u0000${randomBytes(8).toString('hex')}:`;
  for (const m of text.matchAll(TOKEN)) {
    if (m[0].charCodeAt(0) === 34 /* " */ || holdsExactly(m[0])) continue;
    rebuilt += `${text.slice(from, m.index)}${JSON.stringify(marker + m[0])}`;
    from = m.index + m[0].length;
  }
  if (from === 0) return value;
  return restore(JSON.parse(rebuilt + text.slice(from)), marker);
}

/**
 * Every marked string back to the InexactNumber it stands for. Walked with a list, not recursion: the
 * service bounds no nesting. Properties are redefined, never assigned (a key "__proto__" is data here).
 */
function restore(root: unknown, marker: string): unknown {
  const back = (v: unknown) => (typeof v === 'string' && v.startsWith(marker)
    ? new InexactNumber(v.slice(marker.length)) : v);
  const top = back(root);
  const pending: object[] = typeof top === 'object' && top !== null ? [top] : [];
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (typeof v === 'object' && v !== null) pending.push(v);
      else if (typeof v === 'string' && v.startsWith(marker)) {
        Object.defineProperty(node, key, { value: back(v), writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return top;
}

// Disbursement files (docs/sandbox.md, File layouts) and their pre-signed links. Every file line is a
// payout, refund or adjustment of the disbursement; files are rendered on demand from the model.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { formatMajor } from './money.js';
import type { Model } from './model.js';
import type { Layout } from './recipients.js';

export type LineType = 'P' | 'R' | 'AC' | 'AD' | 'AR';

export interface FileLine {
  type: LineType;
  reference: string;
  paymentId: string;
  amount: number;
  currency: string;
  description: string;
}

const CSV_TYPES: Record<LineType, string> = {
  P: 'PAYOUT',
  R: 'REFUND',
  AC: 'ADJUSTMENT_CREDIT',
  AD: 'ADJUSTMENT_DEBIT',
  // unknown_entry_type: the file shows the reversal too, under a type clients do not know either
  AR: 'ADJUSTMENT_REVERSAL',
};

const ENTRY_TYPES = { credit: 'AC', debit: 'AD', reversal: 'AR' } as const;

export function fileLines(m: Model): FileLine[] {
  const out: FileLine[] = [];
  for (const p of m.payouts) {
    if (!p.inFile) continue;
    out.push({
      type: 'P',
      reference: p.reference,
      paymentId: p.paymentId,
      amount: p.fileAmount,
      currency: p.currency,
      description: `Payout ${p.reference}`,
    });
  }
  for (const r of m.refunds) {
    out.push({
      type: 'R',
      reference: r.refundId,
      paymentId: r.paymentId,
      amount: r.amount,
      currency: r.currency,
      description: `Refund of ${r.paymentId}`,
    });
  }
  for (const a of m.adjustments) {
    const description = a.category === 'chargeback_fee'
      ? `Chargeback fee, case "${a.reference.slice(-6)}"` // needs CSV quoting on purpose
      : `${a.category.replace(/_/g, ' ')} ${a.entryType}`;
    out.push({
      type: ENTRY_TYPES[a.entryType],
      reference: a.reference,
      paymentId: a.paymentId,
      amount: a.amount,
      currency: a.currency,
      description,
    });
  }
  return out;
}

/** Net total as the disbursement identity computes it: P + AC − R − AD (unknown types count 0). */
function netTotal(lines: FileLine[]): number {
  let total = 0;
  for (const l of lines)
    total += l.type === 'P' || l.type === 'AC' ? l.amount : l.type === 'R' || l.type === 'AD' ? -l.amount : 0;
  return total;
}

export function fileName(layout: Layout, disbursementId: string): string {
  switch (layout) {
    case 'csv': return `settlement_${disbursementId}.csv`;
    case 'txt': return `payouts_${disbursementId}.txt`;
    case 'dat': return `disb_${disbursementId}.dat`;
  }
}

export const CONTENT_TYPES: Record<Layout, string> = {
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  dat: 'application/octet-stream',
};

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function renderFile(layout: Layout, m: Model, deliveredAt: string): string {
  const lines = fileLines(m);
  switch (layout) {
    case 'csv': {
      const rows = ['record_type,reference,payment_id,amount,currency,description'];
      for (const l of lines) {
        rows.push(
          [CSV_TYPES[l.type], l.reference, l.paymentId, formatMajor(l.amount, l.currency), l.currency, l.description]
            .map(csvField)
            .join(','),
        );
      }
      return `${rows.join('\r\n')}\r\n`;
    }
    case 'txt': {
      const rows = [
        'TYPE|REF|PAYMENT_ID|AMOUNT_MINOR|CCY',
        ...lines.map((l) => `${l.type}|${l.reference}|${l.paymentId}|${l.amount}|${l.currency}`),
      ];
      return `\uFEFF${rows.join('\n')}\n`;
    }
    case 'dat': {
      const rows = [
        `H;${m.id};${deliveredAt}`,
        ...lines.map((l) => `D;${l.type};${l.reference};${l.paymentId};${l.amount};${l.currency}`),
        `T;${lines.length};${netTotal(lines)}`,
      ];
      return `${rows.join('\n')}\n`;
    }
  }
}

/** Pre-signed links: HMAC-SHA256 over `path\nexpires` with a per-sandbox secret derived from the seed. */
export class LinkSigner {
  private readonly secret: Buffer;

  constructor(seed: string) {
    this.secret = createHash('sha256').update(`recon-sandbox-files:${seed}`).digest();
  }

  sign(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }

  url(baseUrl: string, path: string, expires: number): string {
    return `${baseUrl}${path}?expires=${expires}&signature=${this.sign(path, expires)}`;
  }

  /** A link that expires `seconds` after `issuedS` (epoch seconds), said as a duration: ?issued=&expiry=&signature=. */
  durationUrl(baseUrl: string, path: string, issuedS: number, seconds: number): string {
    return `${baseUrl}${path}?issued=${issuedS}&expiry=${seconds}&signature=${this.sign(path, issuedS + seconds)}`;
  }

  verifyDuration(
    path: string,
    issued: string | null,
    expiry: string | null,
    signature: string | null,
    nowMs: number,
  ): 'ok' | 'expired' | 'bad' {
    if (!issued || !/^\d+$/.test(issued) || !expiry || !/^-?\d+$/.test(expiry)) return 'bad';
    return this.verify(path, String(Number(issued) + Number(expiry)), signature, nowMs);
  }

  /** 'ok', 'expired' or 'bad' for a download request. */
  verify(path: string, expires: string | null, signature: string | null, nowMs: number): 'ok' | 'expired' | 'bad' {
    if (!expires || !/^\d+$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return 'bad';
    const expected = Buffer.from(this.sign(path, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'bad';
    return Number(expires) * 1000 > nowMs ? 'ok' : 'expired';
  }
}

export function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
}

// Bank statements of the sandbox's disbursements (#17): what the client's bank would send for the
// accounts the disbursements went to, one statement per account, in the three formats banks send
// (camt.053, MT940, a CSV portal export, in turn by account), with the provider's credits one business day
// after delivery, the account's other traffic, and planted bank cases with their expected finding:
//   missing_credit      no credit at all                                  → bank_missing_credit
//   fee_deducted        a credit 2.5 % short, naming the disbursement     → bank_amount_differs
//   duplicate_credit    the credit twice                                  → bank_duplicate_credit
//   other_account       the credit on another account's statement         → bank_account_mismatch
//   late_credit         three business days after delivery (two late)     → none (inside the window)
//   no_reference        a remittance text without the id, unique amount   → none (matched by amount and date)
// The planted disbursements carry no API anomaly of their own. Deterministic: same sandbox, same bytes.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatMajor } from '../money.js';
import type { Truth, TruthDisbursement } from './truth.js';

export type BankCase = 'missing_credit' | 'fee_deducted' | 'duplicate_credit' | 'other_account' | 'late_credit' | 'no_reference';
export const BANK_CASES: readonly BankCase[] = ['missing_credit', 'fee_deducted', 'duplicate_credit', 'other_account', 'late_credit', 'no_reference'];
export const BANK_CASE_CHECKS: Record<BankCase, string | null> = {
  missing_credit: 'bank_missing_credit',
  fee_deducted: 'bank_amount_differs',
  duplicate_credit: 'bank_duplicate_credit',
  other_account: 'bank_account_mismatch',
  late_credit: null,
  no_reference: null,
};

/** The provider as the bank names the payer of its credits. */
export const PROVIDER_NAME = 'PAYMENTS SERVICE BV';

interface Entry {
  account: string;
  currency: string;
  date: string; // booking = value date, YYYY-MM-DD
  amount: bigint;
  direction: 'credit' | 'debit';
  remittance: string;
  endToEnd: string | null;
  counterparty: string;
  ref: string;
}

export interface WrittenStatements {
  files: string[];
  planted: Array<{ kind: BankCase; disbursement_id: string; check: string | null }>;
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `n` business days (Monday to Friday) after the day of `ms`. */
function businessDaysAfter(ms: number, n: number): number {
  let t = Date.parse(`${isoDay(ms)}T00:00:00Z`);
  for (let k = 0; k < n;) {
    t += DAY;
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) k += 1;
  }
  return t;
}

/** A full account number for a masked one: an IBAN-shaped number ending in the visible digits. */
export function fullAccount(masked: string, currency: string): string {
  const tail = masked.replace(/\D/g, '').slice(-4).padStart(4, '0');
  let h = 0;
  for (const ch of `${masked}:${currency}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `NL${String(10 + (h % 89))}RCON${String(h % 1_000_000).padStart(6, '0')}${tail}`;
}

export function statementEntries(truth: Truth): { entries: Entry[]; planted: WrittenStatements['planted'] } {
  const ds = [...truth.disbursements()].filter((d) => d.visible);
  const entries: Entry[] = [];
  const planted: WrittenStatements['planted'] = [];
  // planted cases: disbursements without an API anomaly, spread over the older half (their windows are covered)
  const clean = ds.filter((d) => d.anomaly === null).sort((a, b) => a.delivered_at.localeCompare(b.delivered_at));
  const chosen = new Map<string, BankCase>();
  const half = Math.floor(clean.length / 2);
  BANK_CASES.forEach((kind, k) => {
    const d = clean[Math.floor(((k + 1) * half) / (BANK_CASES.length + 1))];
    if (d && !chosen.has(d.disbursement_id)) {
      chosen.set(d.disbursement_id, kind);
      planted.push({ kind, disbursement_id: d.disbursement_id, check: BANK_CASE_CHECKS[kind] });
    }
  });
  const accounts = [...new Set(ds.map((d) => `${d.bank_account_number}|${d.currency}`))].sort();
  const credit = (d: TruthDisbursement, over: Partial<Entry> = {}): Entry => ({
    account: fullAccount(d.bank_account_number, d.currency), currency: d.currency,
    date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 1)), amount: BigInt(d.amount), direction: 'credit',
    remittance: `SETTLEMENT ${d.disbursement_id}`, endToEnd: `E2E-${d.disbursement_id}`, counterparty: PROVIDER_NAME,
    ref: `BNK-${d.disbursement_id}`, ...over,
  });
  for (const d of ds) {
    const kind = chosen.get(d.disbursement_id);
    if (kind === 'missing_credit') continue;
    if (kind === 'fee_deducted') {
      entries.push(credit(d, { amount: BigInt(d.amount) - BigInt(Math.max(1, Math.round(d.amount * 0.025))) }));
    } else if (kind === 'duplicate_credit') {
      entries.push(credit(d));
      entries.push(credit(d, { date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 2)), ref: `BNK-${d.disbursement_id}-2` }));
    } else if (kind === 'other_account') {
      // booked on another account of the same currency (or a made-up one when there is none)
      const other = accounts.find((a) => a.endsWith(`|${d.currency}`) && !a.startsWith(`${d.bank_account_number}|`));
      const masked = other ? other.split('|')[0]! : `****${String((Number(d.bank_account_number.slice(-4)) + 1) % 10_000).padStart(4, '0')}`;
      entries.push(credit(d, { account: fullAccount(masked, d.currency) }));
    } else if (kind === 'late_credit') {
      entries.push(credit(d, { date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 3)) }));
    } else if (kind === 'no_reference') {
      entries.push(credit(d, { remittance: 'PAYMENTS SERVICE SETTLEMENT', endToEnd: null }));
    } else {
      entries.push(credit(d));
    }
  }
  // the accounts' other traffic: a customer's transfer and a monthly fee, never the provider's
  const last = Math.max(...ds.map((d) => Date.parse(d.delivered_at)));
  accounts.forEach((a, i) => {
    const [masked, currency] = a.split('|') as [string, string];
    const account = fullAccount(masked, currency);
    entries.push({ account, currency, date: isoDay(Date.parse(ds[0]!.delivered_at) + DAY), amount: BigInt(12_345 + i), direction: 'credit',
      remittance: `INVOICE ${1000 + i}`, endToEnd: null, counterparty: 'A CUSTOMER LTD', ref: `BNK-OTHER-${i}` });
    // the statements run a week past the last delivery: every window but the newest is covered
    entries.push({ account, currency, date: isoDay(businessDaysAfter(last, 5)), amount: 500n, direction: 'debit',
      remittance: 'ACCOUNT FEE', endToEnd: null, counterparty: 'THE BANK', ref: `BNK-FEE-${i}` });
  });
  return { entries, planted };
}

const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function camt(account: string, currency: string, entries: Entry[], id: string): string {
  const ntry = entries.map((e) => `      <Ntry>
        <NtryRef>${esc(e.ref)}</NtryRef>
        <Amt Ccy="${e.currency}">${formatMajor(e.amount, e.currency)}</Amt>
        <CdtDbtInd>${e.direction === 'credit' ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt>
        <ValDt><Dt>${e.date}</Dt></ValDt>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs>${e.endToEnd ? `<EndToEndId>${esc(e.endToEnd)}</EndToEndId>` : '<EndToEndId>NOTPROVIDED</EndToEndId>'}</Refs>
          <RltdPties>${e.direction === 'credit' ? `<Dbtr><Pty><Nm>${esc(e.counterparty)}</Nm></Pty></Dbtr>` : `<Cdtr><Pty><Nm>${esc(e.counterparty)}</Nm></Pty></Cdtr>`}</RltdPties>
          <RmtInf><Ustrd>${esc(e.remittance)}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${id}</MsgId><CreDtTm>${entries[entries.length - 1]?.date ?? '2026-01-01'}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${id}</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <Acct><Id><IBAN>${account}</IBAN></Id><Ccy>${currency}</Ccy></Acct>
${ntry}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

function mt940(account: string, currency: string, entries: Entry[], id: string): string {
  const yymmdd = (d: string) => d.slice(2).replace(/-/g, '');
  const amount = (e: Entry) => formatMajor(e.amount, e.currency).replace('.', ',');
  const first = entries[0]?.date ?? '2026-01-01';
  const lastDay = entries[entries.length - 1]?.date ?? first;
  const lines = [`:20:${id.slice(0, 16)}`, `:25:${account}`, ':28C:1/1', `:60F:C${yymmdd(first)}${currency}0,00`];
  for (const e of entries) {
    lines.push(`:61:${yymmdd(e.date)}${e.date.slice(5, 7)}${e.date.slice(8, 10)}${e.direction === 'credit' ? 'C' : 'D'}${amount(e)}NTRFNONREF//${e.ref}`);
    lines.push(`:86:${e.endToEnd ? `/EREF/${e.endToEnd}` : ''}/REMI/${e.remittance}/NAME/${e.counterparty}`);
  }
  lines.push(`:62F:C${yymmdd(lastDay)}${currency}0,00`, '-');
  return `${lines.join('\r\n')}\r\n`;
}

function csv(account: string, entries: Entry[]): string {
  const q = (t: string) => (/[;"\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  const day = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
  const rows = ['Account;Booking date;Value date;Amount;Currency;Counterparty;Remittance information;End-to-end ID;Transaction ID'];
  for (const e of entries) {
    const major = formatMajor(e.amount, e.currency).replace('.', ',');
    rows.push([account, day(e.date), day(e.date), `${e.direction === 'debit' ? '-' : ''}${major}`, e.currency, q(e.counterparty), q(e.remittance), q(e.endToEnd ?? ''), e.ref].join(';'));
  }
  return `${rows.join('\n')}\n`;
}

/** Writes one statement file per account into `dir`; returns the files and the planted cases. */
export async function writeStatements(truth: Truth, dir: string): Promise<WrittenStatements> {
  const { entries, planted } = statementEntries(truth);
  await mkdir(dir, { recursive: true });
  const byAccount = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = byAccount.get(e.account) ?? [];
    list.push(e);
    byAccount.set(e.account, list);
  }
  const files: string[] = [];
  let k = 0;
  for (const [account, list] of [...byAccount].sort(([a], [b]) => a.localeCompare(b))) {
    list.sort((a, b) => a.date.localeCompare(b.date) || a.ref.localeCompare(b.ref));
    const currency = list[0]!.currency;
    const id = `STMT-${account.slice(-8)}`;
    const [name, text] = k % 3 === 0 ? [`${id}.camt053.xml`, camt(account, currency, list, id)]
      : k % 3 === 1 ? [`${id}.mt940.sta`, mt940(account, currency, list, id)] : [`${id}.csv`, csv(account, list)];
    const file = path.join(dir, name);
    await writeFile(file, text);
    files.push(file);
    k += 1;
  }
  return { files, planted };
}

// The sandbox's bank statements written in the formats banks send: camt.053 (a batch credit as
// a batch booking with one TxDtls per disbursement), MT940, a `portal-eu-semicolon` CSV export and BAI2.
// Each states its period and balances where its format has them: camt.053 FrToDt with the OPBD and CLBD
// balances, MT940's :60F: and :62F: opening and closing balances (SWIFT: mandatory), BAI2 one group a
// business day (prior-day reporting) with the 010 opening and 015 closing ledger summaries; the CSV export
// has neither. The account opens at zero: each closing balance is its opening plus credits less debits.
import { currencyFactor, formatMajor, isoMinorUnits } from './money.js';

export interface StatementEntry {
  account: string;
  currency: string;
  date: string; // booking = value date, YYYY-MM-DD
  amount: bigint;
  direction: 'credit' | 'debit';
  remittance: string;
  endToEnd: string | null;
  counterparty: string;
  ref: string;
  /** A batch credit's transactions: each disbursement it pays. */
  batch?: Array<{ endToEnd: string; remittance: string; amount: bigint }>;
}

export type StatementFormat = 'camt' | 'mt940' | 'csv' | 'bai2';

/** The days a statement covers (YYYY-MM-DD). */
export interface StatementPeriod {
  from: string;
  to: string;
}

/** One account's statement, whatever format it is written in. */
export interface Statement {
  account: string;
  currency: string;
  /** In booking order. */
  entries: StatementEntry[];
  id: string;
  period: StatementPeriod;
}

const net = (entries: StatementEntry[]) =>
  entries.reduce((t, e) => t + (e.direction === 'credit' ? e.amount : -e.amount), 0n);

const esc = (t: string) =>
  t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function camtTransactions(e: StatementEntry): string {
  const party = (name: string) =>
    e.direction === 'credit'
      ? `<Dbtr><Pty><Nm>${esc(name)}</Nm></Pty></Dbtr>`
      : `<Cdtr><Pty><Nm>${esc(name)}</Nm></Pty></Cdtr>`;
  if (e.batch) {
    return `<NtryDtls>
          <Btch><NbOfTxs>${e.batch.length}</NbOfTxs><TtlAmt Ccy="${e.currency}">${formatMajor(e.amount, e.currency)}</TtlAmt><CdtDbtInd>CRDT</CdtDbtInd></Btch>
${e.batch
  .map(
    (t) => `          <TxDtls>
            <Refs><EndToEndId>${esc(t.endToEnd)}</EndToEndId></Refs>
            <Amt Ccy="${e.currency}">${formatMajor(t.amount, e.currency)}</Amt>
            <RltdPties>${party(e.counterparty)}</RltdPties>
            <RmtInf><Ustrd>${esc(t.remittance)}</Ustrd></RmtInf>
          </TxDtls>`,
  )
  .join('\n')}
        </NtryDtls>`;
  }
  return `<NtryDtls><TxDtls>
          <Refs>${e.endToEnd ? `<EndToEndId>${esc(e.endToEnd)}</EndToEndId>` : '<EndToEndId>NOTPROVIDED</EndToEndId>'}</Refs>
          <RltdPties>${party(e.counterparty)}</RltdPties>
          <RmtInf><Ustrd>${esc(e.remittance)}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>`;
}

function camtBalance(code: 'OPBD' | 'CLBD', amount: bigint, currency: string, day: string): string {
  return (
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt ` +
      `Ccy="${currency}">${formatMajor(amount < 0n ? -amount : amount, currency)}</Amt>` +
    `<CdtDbtInd>${amount < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${day}</Dt></Dt></Bal>`
  );
}

function camt({ account, currency, entries, id, period }: Statement): string {
  const ntry = entries
    .map(
      (e) => `      <Ntry>
        <NtryRef>${esc(e.ref)}</NtryRef>
        <Amt Ccy="${e.currency}">${formatMajor(e.amount, e.currency)}</Amt>
        <CdtDbtInd>${e.direction === 'credit' ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt>
        <ValDt><Dt>${e.date}</Dt></ValDt>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>${e.batch ? 'BOOK' : 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
        ${camtTransactions(e)}${e.batch ? `\n        <AddtlNtryInf>${esc(e.remittance)}</AddtlNtryInf>` : ''}
      </Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${id}</MsgId><CreDtTm>${entries[entries.length - 1]?.date ?? '2026-01-01'}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${id}</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <FrToDt><FrDtTm>${period.from}T00:00:00</FrDtTm><ToDtTm>${period.to}T23:59:59</ToDtTm></FrToDt>
      <Acct><Id><IBAN>${account}</IBAN></Id><Ccy>${currency}</Ccy></Acct>
      ${camtBalance('OPBD', 0n, currency, period.from)}
      ${camtBalance('CLBD', net(entries), currency, period.to)}
${ntry}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

const yymmdd = (d: string) => d.slice(2).replace(/-/g, '');

function mt940({ account, currency, entries, id, period }: Statement): string {
  const amount = (e: StatementEntry) => formatMajor(e.amount, e.currency).replace('.', ',');
  const balance = (v: bigint) => `${v < 0n ? 'D' : 'C'}${formatMajor(v < 0n ? -v : v, currency).replace('.', ',')}`;
  const lines = [`:20:${id.slice(0, 16)}`, `:25:${account}`, ':28C:1/1', `:60F:C${yymmdd(period.from)}${currency}0,00`];
  for (const e of entries) {
    lines.push(
      `:61:${yymmdd(e.date)}${e.date.slice(5, 7)}${e.date.slice(8, 10)}${e.direction === 'credit' ? 'C' : 'D'}${amount(e)}NTRFNONREF//${e.ref}`,
    );
    lines.push(`:86:${e.endToEnd ? `/EREF/${e.endToEnd}` : ''}/REMI/${e.remittance}/NAME/${e.counterparty}`);
  }
  const closing = balance(net(entries));
  lines.push(`:62F:${closing.slice(0, 1)}${yymmdd(period.to)}${currency}${closing.slice(1)}`, '-');
  return `${lines.join('\r\n')}\r\n`;
}

function csv({ account, entries }: Statement): string {
  const q = (t: string) => (/[;"\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  const day = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
  const rows = [
    'Account;Booking date;Value date;Amount;Currency;Counterparty;Remittance information;End-to-end ID;Transaction ID',
  ];
  for (const e of entries) {
    const major = formatMajor(e.amount, e.currency).replace('.', ',');
    rows.push(
      [
        account,
        day(e.date),
        day(e.date),
        `${e.direction === 'debit' ? '-' : ''}${major}`,
        e.currency,
        q(e.counterparty),
        q(e.remittance),
        q(e.endToEnd ?? ''),
        e.ref,
      ].join(';'),
    );
  }
  return `${rows.join('\n')}\n`;
}

/** A subunit amount as BAI2 writes it (digits, the currency's ISO minor units implied), or null when it cannot be. */
export function bai2Units(amount: bigint, currency: string): bigint | null {
  const scaled = amount * 10n ** BigInt(isoMinorUnits(currency));
  const factor = BigInt(currencyFactor(currency));
  return scaled % factor === 0n ? scaled / factor : null;
}

/** Every business day (Monday to Friday) of the period, and any other day an entry is booked on. */
function reportingDays(period: StatementPeriod, entries: StatementEntry[]): string[] {
  const days = new Set(entries.map((e) => e.date));
  for (let t = Date.parse(`${period.from}T00:00:00Z`); t <= Date.parse(`${period.to}T00:00:00Z`); t += 86_400_000) {
    if (![0, 6].includes(new Date(t).getUTCDay())) days.add(new Date(t).toISOString().slice(0, 10));
  }
  return [...days].sort();
}

/**
 * BAI2: one group per business day, the account in it with its opening (010) and closing (015) ledger
 * balances and its details (165 ACH credit, 195 incoming transfer, 699 debit); the account control total
 * adds the summaries' amounts and the details'.
 */
function bai2({ account, currency, entries, id, period }: Statement): string {
  const days = reportingDays(period, entries);
  const records = [
    `01,RCONBANK,RECON,${yymmdd(days[days.length - 1] ?? '2026-01-01')},1800,${id.replace(/\D/g, '').slice(-6) || '1'},,,2/`,
  ];
  let fileTotal = 0n;
  let balance = 0n;
  for (const day of days) {
    const details = entries
      .filter((e) => e.date === day)
      .map((e) => {
        const type = e.direction === 'debit' ? '699' : e.counterparty === 'A CUSTOMER LTD' ? '195' : '165';
        const text = [e.remittance, e.counterparty].join(' ');
        return {
          units: bai2Units(e.amount, e.currency)!,
          record: `16,${type},${bai2Units(e.amount, e.currency)},0,${e.ref},${e.endToEnd ?? ''},${text}/`,
        };
      });
    const opening = balance;
    balance += net(entries.filter((e) => e.date === day));
    const [open, close] = [bai2Units(opening, currency)!, bai2Units(balance, currency)!];
    const total = details.reduce((s, d) => s + d.units, 0n) + open + close;
    fileTotal += total;
    records.push(
      `02,RECON,RCONBANK,1,${yymmdd(day)},,${currency},2/`,
      `03,${account},${currency},010,${open},,,015,${close},,/`,
      ...details.map((d) => d.record),
      `49,${total},${details.length + 2}/`,
      `98,${total},1,${details.length + 4}/`,
    );
  }
  records.push(`99,${fileTotal},${days.length},${records.length + 1}/`);
  return `${records.join('\n')}\n`;
}

/**
 * Whether every amount of these entries can be written in BAI2 (VND's subunits are tenths the ISO code has none of).
 */
export const bai2Fits = (entries: StatementEntry[]) => entries.every((e) => bai2Units(e.amount, e.currency) !== null);

const WRITERS: Record<StatementFormat, [extension: string, write: (s: Statement) => string]> = {
  camt: ['camt053.xml', camt],
  mt940: ['mt940.sta', mt940],
  csv: ['csv', csv],
  bai2: ['bai2.txt', bai2],
};

export function renderStatement(format: StatementFormat, statement: Statement): [extension: string, text: string] {
  const [extension, write] = WRITERS[format];
  return [extension, write(statement)];
}

// ISO 20022 camt.053 (BankToCustomerStatement), read with fast-xml-parser: Document/BkToCstmrStmt/Stmt,
// each with its Id, Acct/Id (IBAN or Othr/Id) and its Ntry elements (Amt with its Ccy attribute,
// CdtDbtInd CRDT | DBIT, BookgDt and ValDt as Dt or DtTm, NtryRef / AcctSvcrRef, and in NtryDtls/TxDtls
// the Refs/EndToEndId, RmtInf/Ustrd and the other party's name). Entries not booked (Sts other than
// BOOK) are left out: they are not money on the account yet. A batch booking (#25: NtryDtls/Btch, several
// TxDtls) stays one entry, the bank credit, carrying each transaction's references so the credit can
// settle the several disbursements it pays. camt.052 (intraday report) and camt.054 (notification) are
// refused with a sentence: their entries reach the day's camt.053 booked. A DOCTYPE (entity
// declarations) is refused before parsing: a statement never needs one. A statement's period is its
// FrToDt (from and to date-times, their dates kept); its balances are the Bal of type OPBD (opening booked;
// PRCD, the previous statement's closing booked, where a bank sends that instead) and CLBD (closing booked).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  MAX_ENTRIES, MAX_RAW, StatementError, amountOf, clip, isoDate, type BankEntry, type Statement, type StatementBalance,
} from './statement.js';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false, // amounts and ids stay text: no float, no lost leading zeros
  parseAttributeValue: false,
  processEntities: true,
  isArray: (name) => ['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Bal'].includes(name),
});

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return text((v as Node)['#text']);
  return String(v);
};
const at = (node: unknown, ...path: string[]): unknown => {
  let n = node;
  for (const p of path) {
    if (n === null || typeof n !== 'object') return undefined;
    n = (n as Node)[p];
  }
  return n;
};

const ROOTS: Record<string, string> = {
  BkToCstmrStmt: 'camt.053',
  BkToCstmrAcctRpt: 'camt.052',
  BkToCstmrDbtCdtNtfctn: 'camt.054',
};

export function isCamt(content: string): boolean {
  return /<(\w+:)?(BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)[\s>]/.test(content.slice(0, 4096)) || /camt\.05[234]/.test(content.slice(0, 1024));
}

/** Every TxDtls of an entry (NtryDtls may repeat, each with one or more TxDtls). */
const transactions = (ntry: Node): Node[] => asArray(at(ntry, 'NtryDtls') as Node[] | undefined).flatMap((d) => asArray(at(d, 'TxDtls') as Node[] | undefined));

function remittanceOf(tx: unknown): string[] {
  const unstructured = asArray(at(tx, 'RmtInf', 'Ustrd') as unknown[] | undefined).map(text);
  return [...unstructured, text(at(tx, 'RmtInf', 'Strd', 'CdtrRefInf', 'Ref')), text(at(tx, 'AddtlTxInf'))].filter((t): t is string => t !== null && t !== '');
}

const partyName = (tx: unknown, role: 'Dbtr' | 'Cdtr') => text(at(tx, 'RltdPties', role, 'Nm')) ?? text(at(tx, 'RltdPties', role, 'Pty', 'Nm'));

export function parseCamt053(file: string, content: string): Statement[] {
  const doctype = /<!DOCTYPE/i.exec(content);
  if (doctype) throw new StatementError(file, `line ${content.slice(0, doctype.index).split('\n').length}`, 'a DOCTYPE (entity declarations) has no place in a bank statement');
  const valid = XMLValidator.validate(content);
  if (valid !== true) throw new StatementError(file, `line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
  const doc = parser.parse(content) as Node;
  const kind = Object.keys(ROOTS).find((r) => at(doc, 'Document', r) !== undefined);
  if (kind && kind !== 'BkToCstmrStmt') {
    throw new StatementError(file, `Document/${kind}`, `a ${ROOTS[kind]} ${kind === 'BkToCstmrAcctRpt' ? 'intraday account report' : 'debit/credit notification'}: `
      + 'recon reads booked statements only; import the day\'s camt.053 statement, which carries the same entries booked');
  }
  const root = at(doc, 'Document', 'BkToCstmrStmt');
  if (!root) throw new StatementError(file, 'Document/BkToCstmrStmt', 'missing: not a camt.053 statement');
  const statements = asArray(at(root, 'Stmt') as Node[] | undefined);
  if (statements.length === 0) throw new StatementError(file, 'BkToCstmrStmt/Stmt', 'no statement in the file');
  let total = 0;
  return statements.map((stmt, s) => {
    const where = (path: string) => `Stmt[${s + 1}]/${path}`;
    const id = text(at(stmt, 'Id'));
    if (!id) throw new StatementError(file, where('Id'), 'missing');
    const account = text(at(stmt, 'Acct', 'Id', 'IBAN')) ?? text(at(stmt, 'Acct', 'Id', 'Othr', 'Id'));
    if (!account) throw new StatementError(file, where('Acct/Id'), 'no IBAN or Othr/Id');
    const accountCurrency = text(at(stmt, 'Acct', 'Ccy'));
    const entries: BankEntry[] = [];
    asArray(at(stmt, 'Ntry') as Node[] | undefined).forEach((ntry, k) => {
      const fail = (path: string) => (reason: string): never => {
        throw new StatementError(file, where(`Ntry[${k + 1}]/${path}`), reason);
      };
      if ((total += 1) > MAX_ENTRIES) fail('')(`more than ${MAX_ENTRIES} entries`);
      const status = text(at(ntry, 'Sts', 'Cd')) ?? text(at(ntry, 'Sts'));
      if (status !== null && status !== 'BOOK') return;
      entries.push(entryOf(ntry, account, accountCurrency, fail, { statementId: `camt:${clip(id, 200)}`, index: k }));
    });
    const dated = (path: string) => {
      const t = text(at(stmt, 'FrToDt', path));
      const fail = (reason: string): never => {
        throw new StatementError(file, where(`FrToDt/${path}`), reason);
      };
      return t === null ? null : isoDate(t, fail);
    };
    const balances = asArray(at(stmt, 'Bal') as Node[] | undefined)
      .map((b, k) => balanceOf(file, b, where(`Bal[${k + 1}]`), accountCurrency));
    const ofType = (...codes: string[]) => codes.map((c) => balances.find((b) => b.type === c)).find((b) => b !== undefined)?.balance ?? null;
    const period = { from: dated('FrDtTm'), to: dated('ToDtTm') };
    return { format: 'camt.053' as const, bankStatementId: id, account, entries, period, opening: ofType('OPBD', 'PRCD'), closing: ofType('CLBD') };
  });
}

/** A Bal element: its type code (OPBD, CLBD, …) and its signed amount with its date. */
function balanceOf(file: string, bal: Node, where: string, accountCurrency: string | null,
): { type: string | null; balance: StatementBalance } {
  const fail = (path: string) => (reason: string): never => {
    throw new StatementError(file, `${where}/${path}`, reason);
  };
  const type = text(at(bal, 'Tp', 'CdOrPrtry', 'Cd')) ?? text(at(bal, 'Tp', 'CdOrPrtry', 'Prtry'));
  const amt = at(bal, 'Amt');
  const currency = (amt && typeof amt === 'object' ? text((amt as Node)['@Ccy']) : null) ?? accountCurrency
    ?? fail('Amt/@Ccy')('missing');
  const value = amountOf(text(amt) ?? fail('Amt')('missing'), currency, fail('Amt'));
  const indicator = text(at(bal, 'CdtDbtInd'));
  if (indicator !== 'CRDT' && indicator !== 'DBIT') fail('CdtDbtInd')(`"${clip(indicator, 20) ?? ''}" is neither CRDT nor DBIT`);
  const day = text(at(bal, 'Dt', 'Dt')) ?? text(at(bal, 'Dt', 'DtTm')) ?? fail('Dt')('missing');
  const amount = indicator === 'DBIT' ? -value : value;
  return { type, balance: { amount, currency: currency.trim().toUpperCase(), date: isoDate(day, fail('Dt')) } };
}

function entryOf(ntry: Node, account: string, accountCurrency: string | null, fail: (path: string) => (reason: string) => never,
  legacy: { statementId: string; index: number }): BankEntry {
  const amt = at(ntry, 'Amt');
  const currency = (amt && typeof amt === 'object' ? text((amt as Node)['@Ccy']) : null) ?? accountCurrency ?? fail('Amt/@Ccy')('missing');
  const amountText = text(amt) ?? fail('Amt')('missing');
  const amount = amountOf(amountText, currency, fail('Amt'));
  const indicator = text(at(ntry, 'CdtDbtInd'));
  if (indicator !== 'CRDT' && indicator !== 'DBIT') fail('CdtDbtInd')(`"${clip(indicator, 20) ?? ''}" is neither CRDT nor DBIT`);
  const date = (path: string) => {
    const d = text(at(ntry, path, 'Dt')) ?? text(at(ntry, path, 'DtTm'));
    return d === null ? null : isoDate(d, fail(path));
  };
  const txs = transactions(ntry);
  const other = indicator === 'CRDT' ? 'Dbtr' : 'Cdtr';
  const ref = text(at(ntry, 'NtryRef')) ?? text(at(ntry, 'AcctSvcrRef')) ?? text(at(txs[0], 'Refs', 'AcctSvcrRef'));
  const entryText = text(at(ntry, 'AddtlNtryInf'));
  const reversal = text(at(ntry, 'RvslInd')) === 'true' ? ['recon: RvslInd true, a reversal'] : [];
  const single = txs.length <= 1;
  const names = [...new Set(txs.map((tx) => partyName(tx, other)).filter((n): n is string => n !== null))];
  return {
    bankRef: clip(ref, 200),
    account,
    bookingDate: date('BookgDt'),
    valueDate: date('ValDt'),
    amount,
    currency,
    direction: indicator === 'CRDT' ? 'credit' : 'debit',
    endToEndId: single ? clip(text(at(txs[0], 'Refs', 'EndToEndId'))) : null,
    remittance: clip([...(single ? remittanceOf(txs[0]) : []), ...(entryText ? [entryText] : [])].join(' ')),
    counterparty: clip(names.length === 1 || single ? names[0] : null),
    batch: single ? null : txs.map((tx) => clip([text(at(tx, 'Refs', 'EndToEndId')), ...remittanceOf(tx)].filter(Boolean).join(' ')) ?? ''),
    raw: [JSON.stringify(ntry), ...reversal].join('\n').slice(0, MAX_RAW),
    legacy: { statementId: legacy.statementId, entryRef: ref ? `r:${clip(ref, 200)}` : `i:${legacy.index + 1}` },
  };
}

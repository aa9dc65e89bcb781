// ISO 20022 camt.053 (BankToCustomerStatement), read with fast-xml-parser: Document/BkToCstmrStmt/Stmt,
// each with its Id, Acct/Id (IBAN or Othr/Id) and its Ntry elements (Amt with its Ccy attribute,
// CdtDbtInd CRDT | DBIT, BookgDt and ValDt as Dt or DtTm, NtryRef / AcctSvcrRef, and in NtryDtls/TxDtls
// the Refs/EndToEndId, RmtInf/Ustrd and the other party's name). Entries not booked (Sts other than
// BOOK) are left out: they are not money on the account yet.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_ENTRIES, MAX_RAW, StatementError, amountOf, clip, isoDate, type BankEntry, type Statement } from './statement.js';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false, // amounts and ids stay text: no float, no lost leading zeros
  parseAttributeValue: false,
  processEntities: true,
  isArray: (name) => ['Stmt', 'Ntry', 'TxDtls', 'Ustrd'].includes(name),
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

export function isCamt053(content: string): boolean {
  return /<(\w+:)?BkToCstmrStmt[\s>]/.test(content.slice(0, 4096)) || /camt\.053/.test(content.slice(0, 1024));
}

export function parseCamt053(file: string, content: string): Statement[] {
  const valid = XMLValidator.validate(content);
  if (valid !== true) throw new StatementError(file, `line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
  const doc = parser.parse(content) as Node;
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
      const w = (path: string) => where(`Ntry[${k + 1}]/${path}`);
      const fail = (path: string) => (reason: string): never => {
        throw new StatementError(file, w(path), reason);
      };
      if ((total += 1) > MAX_ENTRIES) throw new StatementError(file, w(''), `more than ${MAX_ENTRIES} entries`);
      const status = text(at(ntry, 'Sts', 'Cd')) ?? text(at(ntry, 'Sts'));
      if (status !== null && status !== 'BOOK') return;
      const amt = at(ntry, 'Amt');
      const currency = (amt && typeof amt === 'object' ? text((amt as Node)['@Ccy']) : null) ?? accountCurrency;
      if (!currency) fail('Amt/@Ccy')('missing');
      const amountText = text(amt);
      if (amountText === null) fail('Amt')('missing');
      const amount = amountOf(amountText!, currency!, fail('Amt'));
      const indicator = text(at(ntry, 'CdtDbtInd'));
      if (indicator !== 'CRDT' && indicator !== 'DBIT') fail('CdtDbtInd')(`"${clip(indicator, 20) ?? ''}" is neither CRDT nor DBIT`);
      const date = (path: string) => {
        const d = text(at(ntry, path, 'Dt')) ?? text(at(ntry, path, 'DtTm'));
        return d === null ? null : isoDate(d, fail(path));
      };
      const tx = asArray(at(ntry, 'NtryDtls', 'TxDtls') as Node[] | undefined)[0];
      const unstructured = asArray(at(tx, 'RmtInf', 'Ustrd') as unknown[] | undefined).map(text).filter((t): t is string => t !== null);
      const structured = text(at(tx, 'RmtInf', 'Strd', 'CdtrRefInf', 'Ref'));
      const counterparty = indicator === 'CRDT'
        ? text(at(tx, 'RltdPties', 'Dbtr', 'Nm')) ?? text(at(tx, 'RltdPties', 'Dbtr', 'Pty', 'Nm'))
        : text(at(tx, 'RltdPties', 'Cdtr', 'Nm')) ?? text(at(tx, 'RltdPties', 'Cdtr', 'Pty', 'Nm'));
      const ref = text(at(ntry, 'NtryRef')) ?? text(at(ntry, 'AcctSvcrRef')) ?? text(at(tx, 'Refs', 'AcctSvcrRef'));
      entries.push({
        entryRef: ref ? `r:${clip(ref, 200)}` : `i:${k + 1}`,
        account,
        bookingDate: date('BookgDt'),
        valueDate: date('ValDt'),
        amount,
        currency: currency!,
        direction: indicator === 'CRDT' ? 'credit' : 'debit',
        endToEndId: clip(text(at(tx, 'Refs', 'EndToEndId'))),
        remittance: clip([...unstructured, ...(structured ? [structured] : []), text(at(tx, 'AddtlTxInf')), text(at(ntry, 'AddtlNtryInf'))]
          .filter((t): t is string => t !== null && t !== '').join(' ')),
        counterparty: clip(counterparty),
        raw: JSON.stringify(ntry).slice(0, MAX_RAW),
      });
    });
    return { format: 'camt.053', statementId: `camt:${clip(id, 200)}`, account, entries };
  });
}

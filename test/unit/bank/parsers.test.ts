// each statement format read from a real-shaped sample written from its public specification
// (ISO 20022 camt.053.001.08, SWIFT MT940, two bank-portal CSV exports), and refused as a whole, naming the
// line or element, when malformed.
import { describe, expect, it } from 'vitest';
import { parseStatementBytes, parseStatementText } from '../../../src/bank/parse.js';
import { maskAccount } from '../../../src/bank/statement.js';
import { accountKey } from '../../../src/bank/identity.js';
import { refused } from '../../helpers/statements.js';

const CAMT = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>MSG-20261103-01</MsgId><CreDtTm>2026-11-03T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-2026-11-03-001</Id>
      <ElctrncSeqNb>307</ElctrncSeqNb>
      <CreDtTm>2026-11-03T18:00:00</CreDtTm>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-02</Dt></Dt></Bal>
      <Ntry>
        <NtryRef>0001</NtryRef>
        <Amt Ccy="EUR">4287.61</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-03</Dt></BookgDt>
        <ValDt><Dt>2026-11-03</Dt></ValDt>
        <AcctSvcrRef>BANKREF-77</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>E2E-dsb_0042</EndToEndId></Refs>
          <RltdPties><Dbtr><Pty><Nm>PAYMENTS SERVICE BV</Nm></Pty></Dbtr></RltdPties>
          <RmtInf><Ustrd>SETTLEMENT dsb_0042</Ustrd><Ustrd>NOVEMBER</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>
      <Ntry>
        <Amt Ccy="EUR">12.50</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><DtTm>2026-11-03T10:15:00</DtTm></BookgDt>
        <ValDt><Dt>2026-11-03</Dt></ValDt>
        <NtryDtls><TxDtls><RltdPties><Cdtr><Nm>THE BANK</Nm></Cdtr></RltdPties><RmtInf><Ustrd>ACCOUNT FEE</Ustrd></RmtInf></TxDtls></NtryDtls>
      </Ntry>
      <Ntry>
        <Amt Ccy="EUR">99.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>PDNG</Cd></Sts>
        <BookgDt><Dt>2026-11-03</Dt></BookgDt>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>`;

const MT940 = [
  '{1:F01BANKDEFFAXXX0000000000}{2:O9401200261103BANKDEFFAXXX00000000002611031200N}{4:',
  ':20:STMT261103',
  ':25:NL91ABNA0417164300',
  ':28C:00307/001',
  ':60F:C261102JPY1000000,',
  ':61:2611031103C289847,NTRFNONREF//BNK-1',
  ':86:/EREF/E2E-dsb_0043/REMI/SETTLEMENT dsb_0043/NAME/PAYMENTS SERVICE BV',
  ':61:2611041104D500,NCHGNONREF',
  ':86:ACCOUNT FEE',
  'NOVEMBER',
  ':62F:C261104JPY1289347,',
  '-}',
].join('\r\n');

const CSV_EU = `Account;Booking date;Value date;Amount;Currency;Counterparty;Remittance information;End-to-end ID;Transaction ID
NL20RCON0000011234;03.11.2026;03.11.2026;2.087,573;KWD;PAYMENTS SERVICE BV;"SETTLEMENT dsb_0044; thanks";E2E-dsb_0044;T-1
NL20RCON0000011234;04.11.2026;04.11.2026;-1,000;KWD;THE BANK;ACCOUNT FEE;;
`;

const CSV_US = `Account Number,Posting Date,Effective Date,Amount,Type,Currency,Payer,Description,Reference,Bank Reference
000123456789,2026-11-03,2026-11-04,1537.02,CREDIT,USD,PAYMENTS SERVICE BV,SETTLEMENT dsb_0045,E2E-dsb_0045,
000123456789,2026-11-03,2026-11-04,1537.02,CREDIT,USD,PAYMENTS SERVICE BV,SETTLEMENT dsb_0045,E2E-dsb_0045,
`;

describe('bank statement formats', () => {
  it('camt.053: booked entries with amounts in subunits, dates, references, remittance and the other party', () => {
    const [s, ...more] = parseStatementText('stmt.xml', CAMT);
    expect(more).toEqual([]);
    expect(s!.format).toBe('camt.053');
    expect(s!.statementId).toBe(`camt.053:${accountKey('DE89370400440532013000').slice(0, 12)}:STMT-2026-11-03-001`);
    expect(s!.account).toBe('DE89370400440532013000');
    expect(s!.entries).toHaveLength(2); // the pending entry is not money on the account yet
    expect(s!.entries[0]).toMatchObject({ bankRef: '0001', entryKey: expect.stringMatching(/^2026-11-03:C428761EUR:[0-9a-f]{16}:1$/), amount: 428761n, currency: 'EUR', direction: 'credit', bookingDate: '2026-11-03',
      valueDate: '2026-11-03', endToEndId: 'E2E-dsb_0042', remittance: 'SETTLEMENT dsb_0042 NOVEMBER', counterparty: 'PAYMENTS SERVICE BV' });
    expect(s!.entries[1]).toMatchObject({ amount: 1250n, direction: 'debit', bookingDate: '2026-11-03', counterparty: 'THE BANK' });
  });

  it('MT940: :61: lines with their :86: information, the currency from :60F:, continuation lines, the SWIFT envelope', () => {
    const [s] = parseStatementText('stmt.sta', MT940);
    expect(s!.format).toBe('mt940');
    expect(s!.account).toBe('NL91ABNA0417164300');
    expect(s!.statementId).toBe(`mt940:${accountKey('NL91ABNA0417164300').slice(0, 12)}:STMT261103/00307/001`);
    expect(s!.entries[0]).toMatchObject({ bankRef: 'BNK-1', amount: 289847n, currency: 'JPY', direction: 'credit', valueDate: '2026-11-03',
      bookingDate: '2026-11-03', endToEndId: 'E2E-dsb_0043', remittance: 'SETTLEMENT dsb_0043', counterparty: 'PAYMENTS SERVICE BV' });
    expect(s!.entries[1]).toMatchObject({ amount: 500n, direction: 'debit', remittance: 'ACCOUNT FEE NOVEMBER' });
  });

  it('MT940 in the German :86: subfield style, an older :28: and a field of the bank’s own; camt.053 additional entry information', () => {
    const german = [':20:STARTUMS', ':25:37040044/0532013000', ':28:00012', ':NS:22BANK INTERNAL', ':60F:C261102EUR0,00',
      ':61:2611031103CR4287,61NTRFNONREF//B-9', ':86:166?00SEPA-GUTSCHRIFT?20EREF+E2E-dsb_0046?21SVWZ+SETTLEMENT dsb_0046?32PAYMENTS SERVICE?33 BV',
      ':62F:C261103EUR4287,61', '-'].join('\n');
    const [s] = parseStatementText('de.sta', german);
    expect(s!.bankStatementId).toBe('STARTUMS/00012');
    expect(s!.entries[0]).toMatchObject({ amount: 428761n, direction: 'credit', endToEndId: 'E2E-dsb_0046',
      remittance: 'EREF+E2E-dsb_0046SVWZ+SETTLEMENT dsb_0046', counterparty: 'PAYMENTS SERVICE BV' });
    const [c] = parseStatementText('x.xml', CAMT.replace('<RmtInf><Ustrd>SETTLEMENT dsb_0042</Ustrd><Ustrd>NOVEMBER</Ustrd></RmtInf>', '')
      .replace('<NtryRef>0001</NtryRef>', '<NtryRef>0001</NtryRef><AddtlNtryInf>PAYOUT dsb_0042</AddtlNtryInf>'));
    expect(c!.entries[0]!.remittance).toBe('PAYOUT dsb_0042');
  });

  it('CSV exports: the layout found by the header; decimal comma and DD.MM.YYYY; a Type column; repeated rows stay two entries', () => {
    const [eu] = parseStatementText('export.csv', CSV_EU);
    expect(eu!.format).toBe('csv');
    expect(eu!.entries[0]).toMatchObject({ bankRef: 'T-1', amount: 2087573n, currency: 'KWD', direction: 'credit', bookingDate: '2026-11-03', remittance: 'SETTLEMENT dsb_0044; thanks' });
    expect(eu!.entries[1]).toMatchObject({ amount: 1000n, direction: 'debit' });
    const [us] = parseStatementText('export.csv', CSV_US);
    expect(us!.entries).toHaveLength(2);
    expect(us!.entries[0]).toMatchObject({ amount: 153702n, currency: 'USD', direction: 'credit', valueDate: '2026-11-04' });
    expect(us!.entries[0]!.entryKey).not.toBe(us!.entries[1]!.entryKey);
    expect(maskAccount('000123456789')).toBe('********6789');
    // a generic export: common English column names, ISO dates, signed amounts, an IBAN with spaces
    const [generic] = parseStatementText('export.csv', 'Date,Value date,Description,Amount,Currency,IBAN,Name\n'
      + '2026-11-03,2026-11-04,SETTLEMENT dsb_0047,1234.50,EUR,DE89 3704 0044 0532 0130 00,PAYMENTS SERVICE BV\n'
      + '2026-11-05,,Card fee,-2.00,EUR,DE89 3704 0044 0532 0130 00,THE BANK\n');
    expect(generic!.entries[0]).toMatchObject({ amount: 123450n, direction: 'credit', bookingDate: '2026-11-03', valueDate: '2026-11-04',
      remittance: 'SETTLEMENT dsb_0047', counterparty: 'PAYMENTS SERVICE BV' });
    expect(generic!.entries[1]).toMatchObject({ amount: 200n, direction: 'debit', valueDate: null });
    expect(maskAccount(generic!.account)).toBe('******************3000');
  });

  it('refuses a malformed statement as a whole, naming the line or element', () => {
    expect(refused('a.xml', CAMT.replace('<Amt Ccy="EUR">4287.61</Amt>', '<Amt Ccy="EUR">4287,61</Amt>')).message).toMatch(/Stmt\[1\]\/Ntry\[1\]\/Amt.*not a number/);
    expect(refused('a.xml', CAMT.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>X</CdtDbtInd>')).message).toMatch(/Ntry\[2\]\/CdtDbtInd/);
    expect(refused('a.xml', CAMT.replace('</Stmt>', '')).message).toMatch(/a\.xml: line \d+: not well-formed XML/);
    expect(refused('a.sta', MT940.replace(':61:2611041104D500,NCHGNONREF', ':61:26110X1104D500,NCHGNONREF')).message).toMatch(/line 8 \(:61:\)/);
    expect(refused('a.sta', MT940.replace('2611031103C289847,', '2611031103C289847,5')).message).toMatch(/line 6.*whole number of subunits/);
    expect(refused('a.csv', CSV_EU.replace('03.11.2026;03.11.2026;2.087,573', '2026-11-03;03.11.2026;2.087,573')).message).toMatch(/line 2: date/);
    expect(refused('a.csv', CSV_US.replace('CREDIT,USD', 'SIDEWAYS,USD')).message).toMatch(/line 2: Type "SIDEWAYS"/);
    expect(refused('a.txt', 'hello\nworld\n').message).toMatch(/neither camt\.053 XML, MT940, BAI2 nor a CSV export/);
    expect(refused('a.csv', CSV_US.replace(',USD,', ',XYZ,')).message).toMatch(/currency XYZ/);
  });
});

describe('encodings and amounts', () => {
  const bytes = (text: string, encoding: BufferEncoding) => new Uint8Array(Buffer.from(text, encoding));

  it('reads UTF-16 with a byte-order mark, a declared XML encoding and Latin-1 where the format allows it', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV_EU, 'utf16le')]);
    expect(parseStatementBytes('export.csv', new Uint8Array(utf16))[0]!.entries[0]).toMatchObject({ amount: 2087573n, currency: 'KWD' });
    const latin1Camt = CAMT.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace('THE BANK', 'Bäckerei Müller');
    expect(parseStatementBytes('stmt.xml', bytes(latin1Camt, 'latin1'))[0]!.entries[1]!.counterparty).toBe('Bäckerei Müller');
    // a UTF-8 declaration over Latin-1 bytes: refused naming the line, never mojibake
    expect(() => parseStatementBytes('stmt.xml', bytes(CAMT.replace('THE BANK', 'Bäckerei'), 'latin1'))).toThrow(/stmt\.xml: line 32: the XML declares UTF-8 but this line is not UTF-8/);
    const latin1Mt940 = parseStatementBytes('de.sta', bytes(MT940.replace('ACCOUNT FEE', 'GEBÜHR'), 'latin1'));
    expect(latin1Mt940[0]!.entries[1]!.remittance).toBe('GEBÜHR NOVEMBER');
    expect(latin1Mt940[0]!.notes).toEqual(['not UTF-8 (line 9): read as Windows-1252 (Latin-1)']);
    // a layout that does not say latin1 refuses a file that is not UTF-8
    expect(() => parseStatementBytes('export.csv', bytes(CSV_EU.replace('THE BANK', 'DIE BÄNK'), 'latin1'))).toThrow(/export\.csv: line 3: not UTF-8, and layout portal-eu-semicolon/);
    expect(() => parseStatementBytes('x.bin', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toThrow(/binary content/);
  });

  it('enforces a layout’s decimal separator and refuses an amount past what 64 bits hold', () => {
    const eu = (amount: string) => CSV_EU.replace('2.087,573', amount);
    expect(parseStatementText('e.csv', eu('2087,573'))[0]!.entries[0]!.amount).toBe(2087573n);
    expect(parseStatementText('e.csv', eu('2.087,573'))[0]!.entries[0]!.amount).toBe(2087573n);
    for (const wrong of ['1000.000', '2087.573', '1.00', '2,087.573', '20.87,573']) {
      expect(refused('e.csv', eu(wrong)).message, wrong).toMatch(/e\.csv: line 2: amount ".*" is not a number written with a decimal comma and "\." between thousands/);
    }
    expect(refused('u.csv', CSV_US.replace('1537.02', '"1537,02"')).message).toMatch(/line 2: amount "1537,02" is not a number written with a decimal point, no thousands separator/);
    expect(refused('a.xml', CAMT.replace('4287.61', '92233720368547758.08')).message).toMatch(/Ntry\[1\]\/Amt: amount 92233720368547758\.08 EUR is larger than any account holds/);
    expect(parseStatementText('a.xml', CAMT.replace('4287.61', '92233720368547758.07'))[0]!.entries[0]!.amount).toBe(9223372036854775807n);
  });

  it('reads MT940 lines around the fields, funds codes, a wrapped :61:, 30 February, RC and RD, and refuses MT942', () => {
    const text = ['ABNANL2A', '940', 'ABNANL2A', ':20:X', ':25:NL91ABNA0417164300', ':28:1', ':60F:C260226EUR0,', ':61:2602300302DF24,00S   X',
      ':61:2603020302RC1,00NMSCNONREF', ':61:2603020302D', 'R2,50NTRFNONREF//B-2', 'SUPPLEMENTARY', ':62F:C260302EUR0,', '-', 'TRAILER'].join('\n');
    const [s] = parseStatementText('x.sta', text);
    expect(s!.entries.map((e) => [e.direction, e.amount, e.valueDate, e.bookingDate, e.bankRef])).toEqual([
      ['debit', 2400n, '2026-02-28', '2026-03-02', null], ['debit', 100n, '2026-03-02', '2026-03-02', null], ['debit', 250n, '2026-03-02', '2026-03-02', 'B-2']]);
    expect(s!.entries[0]!.raw).toMatch(/recon: the bank wrote 2026-02-30, read as 2026-02-28, the month's last day/);
    expect(s!.entries[1]!.raw).toMatch(/recon: RC, a reversal, booked as a debit/);
    expect(s!.notes).toEqual(['skipped 4 line(s) that are not MT940 fields (bank header or trailer lines): 1, 2, 3, 15']);
    expect(refused('x.sta', text.replace(':28:1', ':28:1\n:34F:EUR0,')).message).toMatch(/x\.sta: line 7: an MT942 interim transaction report/);
    expect(refused('x.sta', text.replace('2602300302', '2602320302')).message).toMatch(/line 8 \(:61:\): date 2026-02-32 does not exist/);
  });
});

describe('bounded memory', () => {
  it('refuses a text line over 64 KiB in every text format', () => {
    const long = 'X'.repeat(70_000);
    expect(refused('a.csv', CSV_EU.replace('ACCOUNT FEE', long)).message).toMatch(/a\.csv: line \d+: not readable as portal-eu-semicolon CSV/);
    expect(refused('a.sta', MT940.replace('NOVEMBER', long)).message).toMatch(/a\.sta: line 10: longer than 65536 characters/);
    expect(refused('a.bai', `01,A,B,261103,0000,1,,,2/\n02,B,A,1,261103,,USD,2/\n03,123,USD/\n16,165,100,0,,,${long}/\n`).message).toMatch(/a\.bai: line 4: longer than 65536 characters/);
  });
});

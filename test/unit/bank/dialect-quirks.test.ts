// Quirks of real BAI2 and MT940 files, each written from its format's public description (BAI Cash Management
// Balance Reporting Specifications v2; SWIFT MT940 as German banks document their SEPA :86: subfields): a
// statement is read exactly or refused naming the line, never read in part.
import { describe, expect, it } from 'vitest';
import { parseStatementText } from '../../../src/bank/parse.js';
import { refused } from '../../helpers/statements.js';

const signedEntries = (name: string, text: string) =>
  parseStatementText(name, text).flatMap((s) => s.entries)
    .map((e) => [e.direction === 'debit' ? -e.amount : e.amount, e.valueDate, e.bankRef, e.endToEndId]);

/** A one-account BAI2 file (records delimited by "/"), its trailers counting `accountRecords` records. */
const bai2 = (account: string[], total: string) => [
  '01,121000358,RECONCO,261104,0600,1,,,2/',
  '02,RECONCO,121000358,1,261103,,USD,2/',
  ...account,
  `49,${total},${account.length + 1}/`,
  `98,${total},1,${account.length + 3}/`,
  `99,${total},1,${account.length + 5}/`,
].join('\n');

describe('BAI2 quirks', () => {
  const account = [
    '03,0975312468,USD,010,35000000,,,015,35217175,,/',
    '16,165,217175,0,BNK0001,DSB-4001,SETTLEMENT DSB-4001/',
    '88,PAYMENTS SERVICE BV/',
  ];

  it('reads a continuation written "88:" as the 88 it stands for, and says so in the notes', () => {
    const [s] = parseStatementText('c.bai', bai2([account[0]!, account[1]!, '88:PAYMENTS SERVICE BV/'], '70434350'));
    expect(s!.entries[0]).toMatchObject({ amount: 217175n, remittance: 'SETTLEMENT DSB-4001 PAYMENTS SERVICE BV' });
    expect(s!.notes).toEqual(['line 5: a continuation written "88:" read as "88,"']);
    // the same file with "88," has no note: the two read alike
    const [plain] = parseStatementText('c.bai', bai2(account, '70434350'));
    expect(plain!.entries).toEqual(s!.entries);
    expect(plain!.notes).toBeUndefined();
    // an 03's summaries continued by "88:" count in the control total like any other
    const summaries = ['03,0975312468,USD,010,35000000,,,015,35217175,,/', '88:040,35217175,,/', account[1]!,
      account[2]!];
    expect(parseStatementText('c.bai', bai2(summaries, '105651525'))[0]!.closing!.amount).toBe(35217175n);
    expect(refused('c.bai', bai2(summaries, '70434350')).message)
      .toMatch(/line 7 \(49\): account control total 70434350/);
    // only a continuation: another record code with a colon is no BAI2 record
    expect(refused('c.bai', bai2([account[0]!, '16:165,217175,0,BNK0001,DSB-4001,X/'], '70217175')).message)
      .toMatch(/c\.bai: line 4: "16:165,217175.*" is not a BAI2 record/);
  });

  it('refuses a line of digits and a slash that is no record, naming it (the specification has no filler line)', () => {
    const text = bai2([account[0]!, account[1]!, '111111111111111 /', account[2]!], '70434350');
    expect(refused('d.bai', text).message).toMatch(/^d\.bai: line 5: "111111111111111 \/" is not a BAI2 record/);
  });

  it('checks the account control total against every summary continued on newline-delimited 88 records', () => {
    const lines = (total: string) => [
      '01,121000248,RECONCO,261105,0500,7,,,2',
      '02,RECONCO,121000248,1,261104,,USD,2',
      '03,4120067890,USD,010,1250000,,',
      '88,015,1337500,,,040,1337500,,',
      '88,045', // a summary cut between its type code and its amount, continued with the next field
      '88,1337500,,,400,0,0,',
      '16,195,87500,0,WF00001,DSB-5001,SETTLEMENT DSB-5001',
      '88, PAYMENTS SERVICE BV',
      `49,${total},7`,
      `98,${total},1,9`,
      `99,${total},1,11`,
    ].join('\n');
    const [s] = parseStatementText('n.bai2', lines('5350000'));
    expect(s!.opening!.amount).toBe(1250000n);
    expect(s!.closing!.amount).toBe(1337500n);
    expect(s!.entries).toHaveLength(1);
    expect(s!.entries[0]).toMatchObject({ amount: 87500n, remittance: 'SETTLEMENT DSB-5001 PAYMENTS SERVICE BV' });
    // a total that leaves out the summaries of the second and third 88 refuses the file
    expect(refused('n.bai2', lines('2675000')).message).toMatch(/line 9 \(49\): account control total 2675000 is not/);
    expect(refused('n.bai2', lines('4012500')).message).toMatch(/line 9 \(49\): account control total 4012500 is not/);
  });

  it('reads on past an 03 record ending with a defaulted field', () => {
    const text = bai2(['03,0975312468,USD,010,35000000,,,015,35217175,,,/', '88,040,35217175,,,045,35217175,,/',
      account[1]!, account[2]!], '140868700');
    const [s] = parseStatementText('e.bai', text);
    expect(s!.closing!.amount).toBe(35217175n);
    expect(s!.entries.map((e) => e.amount)).toEqual([217175n]);
    expect(refused('e.bai', text.replace(/140868700/g, '105651525')).message).toMatch(/line 7 \(49\)/);
  });
});

describe('MT940 quirks', () => {
  const statement = (lines: string[]) =>
    [':20:STMT261103', ':25:GB29NWBK60161331926819', ':28C:00012/001', ...lines, '-'].join('\n');

  it('reads :61: amounts written with a decimal point exactly, and refuses a file that mixes both marks', () => {
    const text = statement([':60F:C261102GBP100.00', ':61:2611031103C10.5NTRFNONREF//NW0001',
      ':86:SETTLEMENT DSB-9002', ':61:2611031103D0.07NCHGNONREF', ':62F:C261103GBP110.43']);
    expect(signedEntries('p.sta', text))
      .toEqual([[1050n, '2026-11-03', 'NW0001', null], [-7n, '2026-11-03', null, null]]);
    expect(refused('p.sta', text.replace('D0.07', 'D0,07')).message)
      .toMatch(/p\.sta: line 7 \(:61:\): amount "0,07" is written with a decimal comma/);
    expect(refused('p.sta', text.replace('D0.07', 'D0.075')).message)
      .toMatch(/line 7 \(:61:\): amount 0\.075 GBP is not a whole number/);
    expect(refused('p.sta', text.replace('C10.5N', 'C1.000.5N')).message).toMatch(/line 5 \(:61:\)/);
  });

  it('refuses a message cut short: no :62F: and its {4: block not closed before the next {1:', () => {
    const head = '{1:F01RABONL2UAXXX0000000000}{2:I940RABONL2UXXXXN}{4:';
    const text = [head, ':20:940S261103', ':25:NL12RABO0330091234USD', ':28C:00001', ':60F:C261102USD1000,00',
      ':61:261103C500,00NTRFNONREF//B1', ':86:SETTLEMENT DSB-9003', head, ':20:940S261104',
      ':25:NL12RABO0330091234USD', ':28C:00002', ':60F:C261103USD1500,00', ':62F:C261104USD1500,00', '-}'].join('\n');
    expect(refused('t.sta', text).message)
      .toMatch(/t\.sta: line 8: a new message begins before the message opened at line 1/);
    // without the envelope, the missing :62F: alone refuses it
    const bare = text.split('\n').filter((l) => !l.startsWith('{1:') && l !== '-}').join('\n');
    expect(refused('t.sta', bare).message).toMatch(/line 1 \(:20:\): a statement without its closing balance/);
  });

  it('reads a German SEPA statement: ?20–?29 subfields, an entry date, a // bank reference and /OCMT/', () => {
    const text = [':20:STARTUMS', ':25:37040044/0532013000', ':28C:00304/001', ':60F:C261231EUR1000,00',
      ':61:2612310102CR4287,61NTRFNONREF//0511031234567890', '/OCMT/EUR4300,00/CHGS/EUR12,39/',
      ':86:166?00SEPA-GUTSCHRIFT?100599?20EREF+E2E-dsb_0046?21SVWZ+SETTLEMENT dsb_0046 NOV',
      '?22EMBER 2026?30COBADEFFXXX?31DE89370400440532013000?32PAYMENTS SERVICE?33 BV?34000',
      ':61:2701020102DR19,90N005KREF+ABC//7203456789012345', 'RUECKLASTSCHRIFT',
      ':86:105?00SEPA-BASISLASTSCHRIFT?109248?20EREF+RE-2026-0211 ?21MREF+M-77?22CRED+DE98ZZZ09999999999',
      '?23SVWZ+GEBUEHR',
      '?32STADTWERKE KOELN',
      ':62F:C270102EUR5267,71', '-'].join('\r\n');
    const [s] = parseStatementText('sepa.sta', text);
    expect(s!.entries.map((e) => ({ amount: e.amount, direction: e.direction, valueDate: e.valueDate,
      bookingDate: e.bookingDate, bankRef: e.bankRef, endToEndId: e.endToEndId, remittance: e.remittance,
      counterparty: e.counterparty }))).toEqual([
      // valued on 31 December, booked on 2 January: the entry date's year is the next one
      { amount: 428761n, direction: 'credit', valueDate: '2026-12-31', bookingDate: '2027-01-02',
        bankRef: '0511031234567890', endToEndId: 'E2E-dsb_0046',
        remittance: 'EREF+E2E-dsb_0046SVWZ+SETTLEMENT dsb_0046 NOVEMBER 2026', counterparty: 'PAYMENTS SERVICE BV' },
      { amount: 1990n, direction: 'debit', valueDate: '2027-01-02', bookingDate: '2027-01-02',
        bankRef: '7203456789012345', endToEndId: 'RE-2026-0211',
        remittance: 'EREF+RE-2026-0211 MREF+M-77CRED+DE98ZZZ09999999999SVWZ+GEBUEHR',
        counterparty: 'STADTWERKE KOELN' },
    ]);
    expect(s!.closing!.amount).toBe(526771n);
  });
});

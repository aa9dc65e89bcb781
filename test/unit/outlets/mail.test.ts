import ExcelJS from 'exceljs';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSummaryMail, type MailSettings } from '../../../src/outlets/mail.js';
import { parseSmtpUrl } from '../../../src/outlets/smtp-url.js';
import { runSummary } from '../../../src/outlets/summary.js';
import { tempDir } from '../../helpers/recon.js';
import { deadPort, mimePart, startSmtp, subjectOf, type SmtpStub } from '../../helpers/outlets.js';
import { finding, nightFacts, smallWorkbook } from '../../helpers/outlet-fixtures.js';
import { renderHtml, renderText, withThousands } from '../../../src/outlets/render.js';

const PASS = 'p@ss w/ord:7';
const limits = { timeoutMs: 8_000, attempts: 2 };
let dir: string;
let cleanup: () => void;
let workbook: string;
const servers: SmtpStub[] = [];
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  workbook = await smallWorkbook(dir);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  cleanup();
});
async function smtp(opts: Parameters<typeof startSmtp>[0]): Promise<SmtpStub> {
  const s = await startSmtp(opts);
  servers.push(s);
  return s;
}
function settings(url: string, over: Partial<MailSettings> = {}): MailSettings {
  return { to: ['finance@example.com', 'ops@example.com'], from: 'recon@example.com', transport: { kind: 'smtp', smtp: parseSmtpUrl(url) }, maxAttachmentBytes: 10 << 20, ...over };
}
const summary = () => runSummary({
  code: 1, runId: '20261124T023100Z-ab12', startedAt: new Date('2026-11-24T02:30:00Z'), finishedAt: new Date('2026-11-24T02:32:00Z'),
  serviceUrl: 'https://api.example.com', error: null, facts: nightFacts(workbook), results: path.join(dir, 'recon.json'), logFile: null,
}, []);

describe('the summary mail', () => {
  it('goes over STARTTLS with authentication: text and HTML parts, service text escaped, the workbook attached and readable', async () => {
    const server = await smtp({ auth: { user: 'recon', pass: PASS } });
    const url = `smtp://recon:${encodeURIComponent(PASS)}@127.0.0.1:${server.port}?requireTLS=true&tls.rejectUnauthorized=false`;
    const mailed = await sendSummaryMail(settings(url), summary(), limits, []);
    expect(mailed).toEqual({ ok: true, attached: true });
    const [mail] = server.mails;
    expect(mail).toMatchObject({ secure: true, user: 'recon', from: 'recon@example.com', to: ['finance@example.com', 'ops@example.com'] });
    expect(subjectOf(mail!.raw)).toBe('recon run: 2 findings need a person (1 new)');
    const text = mimePart(mail!.raw, 'text/plain')!.toString();
    expect(text).toMatch(/40 disbursements listed at https:\/\/api\.example\.com: 3 read, 37 unchanged, 1 restated/);
    expect(text).toMatch(/errors: 1 new, 1 still open/);
    expect(text).toMatch(/EUR 12\.34 \(1 finding\)\n\s+KWD 0\.005 \(1 finding\)/);
    expect(text).toMatch(/1\. total_identity \(error, new\): dsb_1 amount — at stake EUR 12\.34/);
    expect(text).toMatch(/What to do: Ask the provider which line is missing/);
    expect(text).toMatch(/30 settled, 8 awaiting a statement, 2 unsettled/);
    expect(text).toMatch(/Workbook: recon-2026-11-24-023100Z-ab12\.xlsx \(attached\)/);
    const html = mimePart(mail!.raw, 'text/html')!.toString();
    expect(html).toContain('provider said &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#60;!channel&#62;');
    expect(html).not.toMatch(/<script|<!channel/);
    const attachment = mimePart(mail!.raw, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')!;
    const copy = path.join(dir, 'attachment.xlsx');
    writeFileSync(copy, attachment);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(copy);
    expect(wb.getWorksheet('Summary')!.getCell('B1').value).toBe('a workbook');
  });

  it('goes over smtps:// (TLS from the first byte) as well', async () => {
    const server = await smtp({ secure: true });
    const mailed = await sendSummaryMail(settings(`smtps://127.0.0.1:${server.port}?tls.rejectUnauthorized=false`), summary(), limits, []);
    expect(mailed.ok).toBe(true);
    expect(server.mails[0]!.secure).toBe(true);
  });

  it('names a workbook over the size limit with its path instead of attaching it', async () => {
    const server = await smtp({});
    const mailed = await sendSummaryMail(settings(`smtp://127.0.0.1:${server.port}?ignoreTLS=true`, { maxAttachmentBytes: 100 }), summary(), limits, []);
    expect(mailed).toEqual({ ok: true, attached: false });
    const text = mimePart(server.mails[0]!.raw, 'text/plain')!.toString();
    expect(text).toContain(`Workbook: ${workbook} (`);
    expect(text).toMatch(/over the 0\.0 MB attachment limit, so not attached/);
    expect(mimePart(server.mails[0]!.raw, 'application/vnd.openxmlformats')).toBeNull();
  });

  it('fails with a reason, never the password, when the server is down or refuses the login (no second try for a refusal)', async () => {
    const down = await sendSummaryMail(settings(`smtp://recon:${encodeURIComponent(PASS)}@127.0.0.1:${await deadPort()}`), summary(), limits, []);
    expect(down.ok).toBe(false);
    expect(down.error).toMatch(/ECONNREFUSED|connect/i);
    const server = await smtp({ auth: { user: 'recon', pass: 'the right one' }, allowInsecureAuth: true });
    const refused = await sendSummaryMail(settings(`smtp://recon:${encodeURIComponent(PASS)}@127.0.0.1:${server.port}?ignoreTLS=true`), summary(), limits, []);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/Invalid username or password|535/);
    for (const e of [down.error, refused.error]) expect(e).not.toContain(PASS);
    expect(server.mails).toHaveLength(0);
  });

  it('writes the demo\'s message as an .eml file', async () => {
    const out = path.join(dir, 'outbox');
    const mailed = await sendSummaryMail({ ...settings('smtp://unused'), transport: { kind: 'eml', dir: out } }, summary(), limits, []);
    expect(mailed.eml).toBe(path.join(out, 'recon-20261124T023100Z-ab12.eml'));
    const raw = readFileSync(mailed.eml!, 'utf8');
    expect(subjectOf(raw)).toBe('recon run: 2 findings need a person (1 new)');
    expect(mimePart(raw, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).not.toBeNull();
  });
});

describe('the SMTP URL', () => {
  it('reads host, port, TLS mode, a percent-encoded password and known options; refuses anything else', () => {
    expect(parseSmtpUrl('smtp://u:p%40ss@mail.example.com')).toEqual({ host: 'mail.example.com', port: 587, secure: false, auth: { user: 'u', pass: 'p@ss' } });
    expect(parseSmtpUrl('smtps://mail.example.com?tls.servername=x.example&name=recon.local')).toEqual({
      host: 'mail.example.com', port: 465, secure: true, name: 'recon.local', tls: { servername: 'x.example' },
    });
    expect(() => parseSmtpUrl('http://mail.example.com')).toThrow(/smtp: or smtps:/);
    expect(() => parseSmtpUrl('smtp://mail.example.com?pool=true')).toThrow(/unknown option \?pool/);
    expect(() => parseSmtpUrl('smtp://mail.example.com?requireTLS=yes')).toThrow(/true or false/);
  });
});

describe('the money in the summary', () => {
  const withMoney = (over: Parameters<typeof nightFacts>[1]) => runSummary({
    code: 1, runId: '20261124T023100Z-ab12', startedAt: new Date('2026-11-24T02:30:00Z'), finishedAt: new Date('2026-11-24T02:32:00Z'),
    serviceUrl: null, error: null, facts: nightFacts(workbook, over), results: null, logFile: null,
  }, []);

  it('says what a finding puts at stake, never its bare difference: a credit on another account, a credit that never came', () => {
    const s = withMoney({ top: [
      finding({ key: 'k1', checkId: 'bank_account_mismatch', subject: 'bank credit', expected: 565461n, actual: 565461n, difference: 0n, stake: 565461n }),
      finding({ key: 'k2', checkId: 'bank_missing_credit', subject: 'bank credit', expected: 299569n, actual: 0n, difference: -299569n, stake: 299569n }),
    ] });
    const text = renderText(s);
    expect(text).toMatch(/1\. bank_account_mismatch \(error, new\): dsb_1 bank credit — at stake EUR 5654\.61/);
    expect(text).toMatch(/2\. bank_missing_credit \(error, new\): dsb_1 bank credit — at stake EUR 2995\.69/);
    expect(text).not.toMatch(/EUR 0\.00|EUR -2995/);
  });

  it('right-aligns the amounts of the HTML mail with thousands separators, their digits unchanged', () => {
    const html = renderHtml(withMoney({ moneyAtStake: [{ currency: 'EUR', subunits: 123456789n, findings: 3 }, { currency: 'KWD', subunits: 1234567n, findings: 1 }] }));
    expect(html).toMatch(/<td style="text-align:right;[^"]*">1,234,567\.89<\/td><td style="text-align:right;[^"]*">3<\/td>/);
    expect(html).toMatch(/<td style="text-align:right;[^"]*">1,234\.567<\/td>/);
    expect(withThousands('-1234567')).toBe('-1,234,567');
    expect(withThousands('999.5')).toBe('999.5');
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifyDocument, slackText } from '../../../src/outlets/notify.js';
import { NotifyDocument, notifyJsonSchema } from '../../../src/outlets/notify-schema.js';
import { closeSummary, runSummary } from '../../../src/outlets/summary.js';
import { metricsText } from '../../../src/outlets/metrics.js';
import { checkStatus } from '../../../src/outlets/results.js';
import { escapeMrkdwn, urlOrigin } from '../../../src/outlets/escape.js';
import { ROOT } from '../../helpers/child.js';
import { parsePrometheusText } from '../../helpers/outlets.js';
import { HOSTILE, nightFacts } from '../../helpers/outlet-fixtures.js';

const KEY = 'sk_live_NOTIFY_key_42';
const at = (s: string) => new Date(`2026-11-24T02:${s}Z`);
const nightEnd = (over: Partial<Parameters<typeof runSummary>[0]> = {}): Parameters<typeof runSummary>[0] => ({
  code: 1, runId: 'r1', startedAt: at('30:00'), finishedAt: at('32:00'), serviceUrl: `https://api.example.com/payments/v1?key=${KEY}`,
  error: null, facts: nightFacts('/reports/recon-r1.xlsx'), results: '/reports/recon-r1.json', logFile: null, ...over,
});
const night = (over: Partial<Parameters<typeof runSummary>[0]> = {}) => runSummary(nightEnd(over), [KEY]);

describe('the alert document (--notify-url)', () => {
  it('matches its schema for a night with findings, a failed night and a close, and the committed JSON Schema is the generated one', () => {
    const failed = night({ code: 2, facts: null, error: `cannot reach the service (key ${KEY}): ECONNREFUSED` });
    const close = closeSummary({
      code: 1, runId: 'c1', month: '2026-10', version: 2, workbook: '/r/close-2026-10-v2.xlsx', disbursements: 12, provisional: ['3 open error findings (Open findings)'],
      journal: [{ currency: 'KWD', role: 'bank', account: 'Bank', description: 'x', debit: 1234n, credit: 0n },
        { currency: 'KWD', role: 'clearing', account: 'Payments clearing', description: 'y', debit: 0n, credit: 1234n }],
      journalFiles: ['/r/close-2026-10-v2-xero-KWD.csv'], startedAt: at('00:00'), finishedAt: at('01:00'), serviceUrl: null, error: null, logFile: null,
    }, []);
    for (const s of [night(), failed, close]) expect(() => NotifyDocument.parse(notifyDocument(s))).not.toThrow();
    expect(notifyDocument(close).close).toMatchObject({ status: 'provisional', journal: [{ currency: 'KWD', debit: '1.234', credit: '1.234' }] });
    const doc = notifyDocument(failed);
    expect(doc).toMatchObject({ outcome: 'failed', exit_code: 2, findings: null, service: 'https://api.example.com/…' });
    expect(doc.what_to_check.join(' ')).toMatch(/answers from this machine/);
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'notify-v1.schema.json'), 'utf8')) as unknown;
    expect(committed, 'regenerate docs/notify-v1.schema.json (see docs/outlets.md, Alerts)').toEqual(notifyJsonSchema());
  });

  it('escapes <, > and & of service text in the Slack text, carries no key, and rounds nothing', () => {
    const doc = notifyDocument(night());
    expect(doc.text).toContain('• total_identity (error, new) dsb_1 amount, at stake EUR 12.34');
    const hostile = slackText(runSummary({ ...nightEnd(), facts: { ...nightFacts('/x'), top: [{ ...nightFacts('/x').top[0]!, subject: HOSTILE }] } }, []));
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt;');
    expect(hostile).not.toMatch(/<script|<!channel>/);
    expect(escapeMrkdwn(HOSTILE)).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt; =HYPERLINK("http://x")');
    expect(doc.top_findings[0]!.detail).toContain('<script>'); // JSON itself escapes; the receiver escapes for its medium
    expect(doc.money_at_stake).toEqual([{ currency: 'EUR', amount: '12.34', findings: 1 }, { currency: 'KWD', amount: '0.005', findings: 1 }]);
    expect(JSON.stringify(notifyDocument(night({ code: 2, error: `echo ${KEY}` })))).not.toContain(KEY);
  });
});

describe('urls kept out of logs and the store', () => {
  it('keeps only the origin of webhook and ping URLs', () => {
    expect(urlOrigin('https://hooks.slack.com/services/T0/B0/XYZ')).toBe('https://hooks.slack.com/…');
  });
});

describe('the results file\'s status per check', () => {
  it('fails on an error that needs a person, warns on warnings or acknowledged errors, passes on nothing', () => {
    const counts = nightFacts('/x').counts;
    expect(checkStatus(counts, 'total_identity')).toBe('fail');
    expect(checkStatus(counts, 'missing_files')).toBe('warn');
    expect(checkStatus(counts, 'duplicate_payout')).toBe('pass');
  });
});

describe('the metrics file', () => {
  it('is valid Prometheus text: findings per check and severity, money per currency in major units, no series twice', async () => {
    const text = await metricsText({
      finishedAt: at('32:00'), durationMs: 120_000, exitCode: 1, counters: nightFacts('/x').counters, facts: nightFacts('/x'), published: '/nonexistent',
    });
    const m = parsePrometheusText(text);
    const value = (name: string, labels: Record<string, string> = {}) =>
      m.get(name)?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('recon_last_run_exit_code')).toBe(1);
    expect(value('recon_last_run_success')).toBe(1);
    expect(value('recon_last_run_duration_seconds')).toBe(120);
    expect([value('recon_last_run_requests'), value('recon_last_run_rate_limited'), value('recon_last_run_retries')]).toEqual([55, 1, 2]);
    expect(value('recon_findings', { check: 'total_identity', severity: 'error' })).toBe(2);
    expect(value('recon_findings', { check: 'missing_files', severity: 'warning' })).toBe(1);
    expect(value('recon_findings_need_person', { severity: 'error' })).toBe(2);
    expect(value('recon_findings_need_person', { severity: 'warning' })).toBe(0);
    expect(value('recon_money_at_stake', { currency: 'KWD' })).toBe(0.005);
    expect(text).toContain('recon_money_at_stake{currency="EUR"} 12.34\n');
    expect(value('recon_bank_unsettled_disbursements')).toBe(2);
    expect(m.get('recon_snapshot_age_seconds')).toBeUndefined(); // no snapshot yet
    for (const [, metric] of m) expect(metric.type).toBe('gauge');
  });

  it('a strict parser of the format refuses what the format forbids (the parser itself)', () => {
    expect(() => parsePrometheusText('a 1')).toThrow(/line feed/);
    expect(() => parsePrometheusText('a{b="c} 1\n')).toThrow(/bad label/);
    expect(() => parsePrometheusText('a 1\na 2\n')).toThrow(/series twice/);
    expect(() => parsePrometheusText('a 1\n# TYPE a gauge\n')).toThrow(/TYPE after samples/);
    expect(() => parsePrometheusText('a one\n')).toThrow(/bad value/);
    expect(parsePrometheusText('# TYPE a gauge\na{b="x\\"y"} 1e3\n').get('a')!.samples).toEqual([{ labels: { b: 'x"y' }, value: 1000 }]);
  });
});

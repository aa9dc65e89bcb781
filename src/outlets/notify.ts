// --notify-url: one JSON document per run or close (notify-schema.ts), POSTed to every URL at once, each
// bounded in time and attempts. Never the API key (nothing here knows it), never a redirect to another
// host, never a failure of the night: a URL that does not take it is a warning.
import { escapeMrkdwn } from './escape.js';
import { send, type Delivered } from './http.js';
import type { DeliveryLimits } from './limits.js';
import { NOTIFY_SCHEMA_ID, type NotifyDocument } from './notify-schema.js';
import type { OutcomeSummary } from './summary.js';
import { noStatementsText } from './facts.js';

export function notifyDocument(s: OutcomeSummary): NotifyDocument {
  return {
    schema: NOTIFY_SCHEMA_ID,
    text: slackText(s),
    kind: s.kind,
    outcome: s.outcome,
    exit_code: s.exitCode,
    run_id: s.runId,
    started_at: s.startedAt.toISOString(),
    finished_at: s.finishedAt.toISOString(),
    service: s.service,
    read: s.read,
    findings: s.findings && {
      need_person: s.findings.needPerson, new: s.findings.new, open: s.findings.open, acknowledged: s.findings.acknowledged,
      resolved: s.findings.resolved, by_severity: s.findings.bySeverity,
    },
    money_at_stake: s.moneyAtStake,
    top_findings: s.top.map((t) => ({
      check: t.checkId, severity: t.severity as 'error' | 'warning', status: t.status as 'new' | 'open', disbursement_id: t.disbursementId,
      subject: t.subject, currency: t.currency, difference: t.difference, detail: t.detail, action: t.action,
    })),
    bank: s.bank && { settled: s.bank.settled, awaiting_statement: s.bank.awaiting, unsettled: s.bank.unsettled },
    workbook: s.workbook,
    results: s.results,
    error: s.error,
    what_to_check: s.whatToCheck,
    close: s.close && {
      month: s.close.month, version: s.close.version, status: s.close.status, reasons: s.close.reasons,
      disbursements: s.close.disbursements, journal: s.close.journal, journal_files: s.close.journalFiles,
    },
  };
}

/** The outcome in a few lines of Slack mrkdwn; every piece of text escaped (<, >, &), so no mention or link is injected. */
export function slackText(s: OutcomeSummary): string {
  const m = escapeMrkdwn;
  const lines = [`*${m(s.headline)}*`];
  if (s.error) lines.push(m(s.error), ...s.whatToCheck.slice(0, 2).map((h) => `• check ${m(h)}`));
  if (s.read) lines.push(`${s.read.listed} disbursements listed, ${s.read.read} read, ${s.read.restated} restated`);
  if (s.moneyAtStake.length > 0) lines.push(`At stake: ${s.moneyAtStake.map((a) => `${m(a.currency)} ${a.amount}`).join(', ')}`);
  for (const t of s.top) {
    lines.push(`• ${m(t.checkId)} (${t.severity}, ${t.status}) ${m([t.disbursementId, t.subject].filter(Boolean).join(' '))}${t.atStake ? `, at stake ${m(t.currency ?? '')} ${t.atStake}` : ''}`);
  }
  if (s.bank) lines.push(`Bank: ${s.bank.settled} settled, ${s.bank.awaiting} awaiting a statement, ${s.bank.unsettled} unsettled${noStatementsText(s.bank)}`);
  if (s.close?.reasons.length) lines.push(...s.close.reasons.map((r) => `• ${m(r)}`));
  if (s.close?.journal.length) lines.push(`Journal: ${s.close.journal.map((j) => `${m(j.currency)} ${j.debit}`).join(', ')} (balanced)`);
  if (s.workbook) lines.push(`Workbook: ${m(s.workbook)}`);
  return lines.join('\n');
}

export async function postDocument(urls: readonly string[], doc: NotifyDocument, limits: DeliveryLimits): Promise<Array<Delivered & { url: string }>> {
  const body = { contentType: 'application/json', text: JSON.stringify(doc) };
  return Promise.all(urls.map(async (url) => ({ url, ...(await send('POST', url, body, limits)) })));
}

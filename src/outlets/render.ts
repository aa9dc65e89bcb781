// The summary in words: plain text (the mail's text part, a health ping's body) and HTML (the mail's
// HTML part, every piece of text escaped). Both say the same things in the same order.
import path from 'node:path';
import { escapeHtml } from './escape.js';
import type { AgeingSummary, OutcomeSummary } from './summary.js';
import { noStatementsText } from './facts.js';

/** How the workbook travels with the mail. */
export interface AttachmentNote {
  path: string;
  attached: boolean;
  bytes: number;
  limitBytes: number;
}

const EXIT_MEANING: Record<number, string> = {
  0: 'exit 0: everything reconciles',
  1: 'exit 1: findings need a person; open the workbook',
  2: 'exit 2: the run failed; nothing half-written was committed, and the next run continues where this one stopped',
};
const CLOSE_MEANING: Record<number, string> = {
  0: 'exit 0: the close is final',
  1: 'exit 1: the close is provisional; the reasons are below and on its Summary sheet',
  2: 'exit 2: the close failed; the month is not marked closed',
};

interface Section {
  title: string;
  lines: string[];
  /**
   * A table for HTML (the text lines say the same); `amounts` are the columns of exact decimal amounts and
   * `counts` of whole numbers: both right-aligned, amounts with thousands separators.
   */
  table?: { head: string[]; rows: string[][]; amounts?: number[]; counts?: number[] };
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

function workbookLine(s: OutcomeSummary, a: AttachmentNote | null): string | null {
  if (!s.workbook) return null;
  if (!a) return `Workbook: ${path.resolve(s.workbook)}`;
  return a.attached ? `Workbook: ${path.basename(a.path)} (attached)`
    : `Workbook: ${path.resolve(a.path)} (${mb(a.bytes)}: over the ${mb(a.limitBytes)} attachment limit, so not attached)`;
}

function sections(s: OutcomeSummary, a: AttachmentNote | null): Section[] {
  const out: Section[] = [];
  if (s.error) {
    out.push({ title: 'Reason', lines: [s.error] });
    out.push({ title: 'What to check', lines: s.whatToCheck.map((h) => `- ${h}`) });
  }
  if (s.read) {
    const r = s.read;
    out.push({ title: 'What was read', lines: [`${r.listed} disbursements listed${s.service ? ` at ${s.service}` : ''}: ${r.read} read, ${r.unchanged} unchanged, `
      + `${r.restated} restated by the service, ${r.quarantined} records quarantined`] });
  }
  if (s.findings) {
    const f = s.findings;
    const e = f.bySeverity.error;
    const w = f.bySeverity.warning;
    out.push({
      title: 'Findings that need a person',
      lines: [`errors: ${e.new} new, ${e.open} still open`, `warnings: ${w.new} new, ${w.open} still open`,
        `(${f.acknowledged} acknowledged, ${f.resolved} resolved since the last run)`],
      table: { head: ['', 'new', 'still open'], rows: [['errors', String(e.new), String(e.open)], ['warnings', String(w.new), String(w.open)]],
        counts: [1, 2] },
    });
  }
  if (s.moneyAtStake.length > 0) {
    out.push({
      title: 'Money at stake (per currency, never added across currencies)',
      lines: s.moneyAtStake.map((m) => `${m.currency} ${m.amount} (${m.findings} finding${m.findings === 1 ? '' : 's'})`),
      table: { head: ['currency', 'at stake', 'findings'], rows: s.moneyAtStake.map((m) => [m.currency, m.amount, String(m.findings)]),
        amounts: [1], counts: [2] },
    });
  }
  if (s.ageing.length > 0) {
    const cell = (b: AgeingSummary['buckets'][number]) =>
      (b.amount !== null && b.causes > 0 ? `${b.causes} (${b.amount})` : `${b.causes}`);
    const line = (a: AgeingSummary) => a.buckets.map((b) => `${b.bucket} days ${cell(b)}`).join(' · ');
    out.push({
      title: 'Open causes by age (business days since first seen; per currency, never added across currencies)',
      lines: s.ageing.map((a) => `${a.currency ?? 'no amount'}: ${line(a)}; oldest ${a.oldest}`),
      table: {
        head: ['currency', ...s.ageing[0]!.buckets.map((b) => `${b.bucket} days`), 'oldest'],
        rows: s.ageing.map((a) => [a.currency ?? 'no amount', ...a.buckets.map(cell), String(a.oldest)]),
      },
    });
  }
  if (s.top.length > 0) {
    out.push({
      title: `Top ${s.top.length} finding${s.top.length === 1 ? '' : 's'}`,
      lines: s.top.flatMap((t, i) => [
        `${i + 1}. ${t.checkId} (${t.severity}, ${t.status}): ${[t.disbursementId, t.subject].filter(Boolean).join(' ')}${t.atStake ? ` — at stake ${t.currency} ${t.atStake}` : ''}`,
        `   ${t.detail}`,
        `   What to do: ${t.action}`,
      ]),
    });
  }
  if (s.bank) {
    out.push({ title: 'Bank', lines: [`${s.bank.settled} settled, ${s.bank.awaiting} awaiting a statement, ${s.bank.unsettled} unsettled${noStatementsText(s.bank)} (not arrived, or credited short or elsewhere: see the Bank sheet)`] });
  }
  if (s.close) {
    const c = s.close;
    if (c.status) out.push({ title: 'Close', lines: [`${c.disbursements} disbursements in ${c.month}, version ${c.version}: ${c.status}`] });
    if (c.reasons.length > 0) out.push({ title: 'Why provisional', lines: c.reasons.map((r) => `- ${r}`) });
    if (c.journal.length > 0) {
      out.push({
        title: 'Journal (balanced per currency)',
        lines: c.journal.map((j) => `${j.currency}: debits ${j.debit} = credits ${j.credit}`),
        table: { head: ['currency', 'debits', 'credits'], rows: c.journal.map((j) => [j.currency, j.debit, j.credit]), amounts: [1, 2] },
      });
    }
    if (c.journalFiles.length > 0) {
      const dirs = [...new Set(c.journalFiles.map((f) => path.dirname(path.resolve(f))))];
      out.push({ title: `Journal files for your ledger (${c.journalFiles.length}, in ${dirs.join(', ')})`, lines: [c.journalFiles.map((f) => path.basename(f)).join(', ')] });
    }
    if (c.journalNotes.length > 0) out.push({ title: 'Journal files not written', lines: c.journalNotes.map((n) => `- ${n}`) });
  }
  const files = [workbookLine(s, a), s.results ? `Results (JSON): ${path.resolve(s.results)}` : null].filter((l): l is string => l !== null);
  if (files.length > 0) out.push({ title: 'Files', lines: files });
  return out;
}

function meaning(s: OutcomeSummary): string {
  return (s.kind === 'close' ? CLOSE_MEANING : EXIT_MEANING)[s.exitCode] ?? `exit ${s.exitCode}`;
}

function runLine(s: OutcomeSummary): string {
  const took = Math.max(0, Math.round((s.finishedAt.getTime() - s.startedAt.getTime()) / 1000));
  return `${s.kind === 'close' ? 'recon close' : 'recon run'}${s.runId ? ` ${s.runId}` : ''}, ${s.startedAt.toISOString()}, ${took} s`;
}

export function renderText(s: OutcomeSummary, a: AttachmentNote | null = null): string {
  const parts = [s.headline, `${runLine(s)}; ${meaning(s)}`, ''];
  for (const section of sections(s, a)) parts.push(section.title, ...section.lines.map((l) => `  ${l}`), '');
  return parts.join('\n');
}

/** An exact decimal amount ("-1234567.50") with thousands separators ("-1,234,567.50"); its digits unchanged. */
export function withThousands(amount: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(amount);
  if (!m) return amount;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`;
}

export function renderHtml(s: OutcomeSummary, a: AttachmentNote | null = null): string {
  const h = escapeHtml;
  const body: string[] = [`<h2>${h(s.headline)}</h2>`, `<p>${h(runLine(s))}<br><b>${h(meaning(s))}</b></p>`];
  for (const section of sections(s, a)) {
    body.push(`<h3>${h(section.title)}</h3>`);
    if (section.table) {
      const t = section.table;
      const right = (i: number) => t.amounts?.includes(i) === true || t.counts?.includes(i) === true;
      const cell = (tag: string) => (v: string, i: number) => `<${tag} style="text-align:${right(i) ? 'right' : 'left'};padding:2px 12px 2px 0">`
        + `${h(tag === 'td' && t.amounts?.includes(i) ? withThousands(v) : v)}</${tag}>`;
      body.push(`<table><tr>${t.head.map(cell('th')).join('')}</tr>${t.rows.map((r) => `<tr>${r.map(cell('td')).join('')}</tr>`).join('')}</table>`);
      const rest = section.title.startsWith('Findings') ? section.lines.slice(2) : [];
      if (rest.length > 0) body.push(`<p>${rest.map(h).join('<br>')}</p>`);
    } else {
      body.push(`<p>${section.lines.map(h).join('<br>')}</p>`);
    }
  }
  return `<!doctype html><html><body style="font-family:sans-serif">${body.join('\n')}</body></html>\n`;
}

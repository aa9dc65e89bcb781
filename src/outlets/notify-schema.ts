// The JSON document --notify-url receives, version 1. The schema is the contract: a field is only ever
// added (optional) within a version; anything else is a new `schema` value. `text` makes the document a
// valid Slack (and Mattermost, Rocket.Chat, Teams-workflow) incoming-webhook message as it is: those
// read `text` and ignore the rest. docs/notify-v1.schema.json is generated from this (a test keeps it so).
import { z } from 'zod';

export const NOTIFY_SCHEMA_ID = 'recon.outcome/v1';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/).describe('exact amount in major units of the currency, e.g. "1234.50" (JPY "1234", KWD "1.234")');
const count = z.number().int().min(0);
const severityCounts = z.object({ new: count, open: count }).strict();

export const NotifyDocument = z.object({
  schema: z.literal(NOTIFY_SCHEMA_ID).describe('this document\'s shape and version'),
  text: z.string().describe('the outcome in Slack mrkdwn; service text in it has <, > and & escaped'),
  kind: z.enum(['run', 'close']).describe('recon run (a night) or recon close (a month)'),
  outcome: z.enum(['reconciled', 'findings', 'failed', 'final', 'provisional']),
  exit_code: z.number().int().min(0).max(3).describe('0 reconciled / final, 1 findings / provisional, 2 failed'),
  run_id: z.string().nullable(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  service: z.string().nullable().describe('scheme, host and port of the payments service; never a key'),
  read: z.object({ listed: count, read: count, unchanged: count, restated: count, quarantined: count }).strict().nullable()
    .describe('disbursements of the night; null when the run did not get that far, and for a close'),
  findings: z.object({
    need_person: count.describe('new + still open: what drives exit 1'),
    new: count, open: count, acknowledged: count,
    resolved: count.describe('findings this run closed'),
    by_severity: z.object({ error: severityCounts, warning: severityCounts }).strict(),
  }).strict().nullable(),
  money_at_stake: z.array(z.object({ currency: z.string(), amount: decimal, findings: count }).strict())
    .describe('per currency, never added across currencies: the money of the causes that need a person, each cause once (the workbook\'s Summary)'),
  top_findings: z.array(z.object({
    check: z.string(), severity: z.enum(['error', 'warning']), status: z.enum(['new', 'open']),
    disbursement_id: z.string().nullable(), subject: z.string().nullable(), currency: z.string().nullable(),
    difference: decimal.nullable().describe('the check\'s difference between expected and actual, not the money at stake (a credit on another account has 0): money_at_stake and `text` give that'),
    detail: z.string(), action: z.string().describe('what to do next'),
  }).strict()).max(5).describe('the first findings of the workbook\'s Exceptions sheet that need a person'),
  bank: z.object({ settled: count, awaiting_statement: count, unsettled: count }).strict().nullable()
    .describe('disbursements by bank status; null while no statement was ever imported'),
  workbook: z.string().nullable().describe('path of the workbook on the machine that ran recon'),
  results: z.string().nullable().describe('path of the results file (dbt run_results shape) beside the workbook'),
  error: z.string().nullable().describe('why the run failed'),
  what_to_check: z.array(z.string()),
  close: z.object({
    month: z.string(), version: count.nullable(), status: z.enum(['final', 'provisional']).nullable(),
    reasons: z.array(z.string()), disbursements: count,
    journal: z.array(z.object({ currency: z.string(), debit: decimal, credit: decimal }).strict()),
    journal_files: z.array(z.string()),
  }).strict().nullable(),
}).strict();

export type NotifyDocument = z.infer<typeof NotifyDocument>;

/** The JSON Schema (draft 2020-12) of the document, as docs/notify-v1.schema.json holds it. */
export function notifyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(NotifyDocument);
  return { $schema: schema.$schema, title: NOTIFY_SCHEMA_ID, ...schema };
}

// The short answers the workbooks print: a run's facts and per-currency totals, the Month sheet's days,
// and the close's lines, suspense, open findings and bank split. Read from the marts (sql/marts); each
// list is bounded by currencies, recipients or days, never by the number of payouts.
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { addDays } from 'date-fns';
import { ageInDays } from './findings.js';
import type { CloseLine, FindingRow, MonthShape, SuspenseLine } from './types.js';

/** Currencies charted on a Month sheet, those with the most disbursements first; the rest are named in a note. */
const MAX_CHARTED_CURRENCIES = 6;

const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint);

export interface CurrencyTotal {
  currency: string;
  disbursements: number;
  reported: bigint;
  computed: bigint;
  difference: bigint;
  payouts: bigint;
  refunds: bigint;
  credits: bigint;
  debits: bigint;
}

/** What the Summary sheet says of a run: its times, its payment look-ups and every currency's totals. */
export async function runFacts(c: DuckDBConnection, runId: string): Promise<{
  startedAt: Date | null; finishedAt: Date | null; lookups: { sampled: number; unverified: number }; totals: CurrencyTotal[];
}> {
  const run = (await c.runAndReadAll('SELECT started_at, finished_at FROM runs WHERE run_id = $1', [runId])).getRowObjectsJS()[0];
  const totals = (await c.runAndReadAll('SELECT * FROM currency_totals ORDER BY currency')).getRowObjectsJS();
  const lookups = (await c.runAndReadAll(
    `SELECT count(*), count(*) FILTER (WHERE http_status IS DISTINCT FROM 200 AND http_status IS DISTINCT FROM 404)
       FROM payment_samples WHERE sampled_run_id = $1`, [runId])).getRows()[0] ?? [0, 0];
  return {
    startedAt: (run?.started_at as Date | undefined) ?? null,
    finishedAt: (run?.finished_at as Date | null | undefined) ?? null,
    lookups: { sampled: Number(lookups[0]), unverified: Number(lookups[1]) },
    totals: totals.map((t) => ({
      currency: String(t.currency), disbursements: Number(t.disbursements), reported: big(t.reported), computed: big(t.computed),
      difference: big(t.difference), payouts: big(t.payouts), refunds: big(t.refunds), credits: big(t.credits), debits: big(t.debits),
    })),
  };
}

/** The newest delivery in the store (the data's own last day, whatever the clock says), or null. */
export async function newestDelivery(c: DuckDBConnection): Promise<Date | null> {
  const newest = (await c.runAndReadAll('SELECT max(delivered_at) FROM disbursements')).getRowsJS()[0]?.[0];
  return newest instanceof Date ? newest : null;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The days [from, to) with disbursed totals per currency (the amounts the service reported, in each
 * disbursement's own currency) and open findings per delivery day (daily_disbursed, daily_open_findings).
 */
export async function monthShape(c: DuckDBConnection, title: string, from: Date, to: Date): Promise<MonthShape> {
  const days: Date[] = [];
  for (let d = from; d < to; d = addDays(d, 1)) days.push(d);
  const index = new Map(days.map((d, i) => [day(d), i]));
  const window = [day(from), day(to)];
  const ranked = (await c.runAndReadAll(
    `SELECT currency, sum(disbursements) AS n FROM daily_disbursed WHERE day >= $1::DATE AND day < $2::DATE
      GROUP BY currency ORDER BY n DESC, currency LIMIT 1000`, window,
  )).getRowsJS();
  const charted = ranked.slice(0, MAX_CHARTED_CURRENCIES).map(([cur, n]) => ({ currency: String(cur), disbursements: Number(n), totals: days.map(() => 0n) }));
  const byCurrency = new Map(charted.map((x) => [x.currency, x]));
  // no currency on those days (a books' month of a time zone ahead of UTC can hold only its first hours): no list to
  // pass
  const sums = charted.length === 0 ? [] : (await c.runAndReadAll(
    `SELECT strftime(day, '%Y-%m-%d'), currency, total FROM daily_disbursed
      WHERE day >= $1::DATE AND day < $2::DATE AND currency IN (SELECT unnest($3::VARCHAR[]))`, [...window, listValue(charted.map((x) => x.currency))],
  )).getRowsJS();
  for (const [d, currency, total] of sums) {
    const i = index.get(String(d));
    const x = byCurrency.get(String(currency));
    if (i !== undefined && x) x.totals[i] = BigInt(total as bigint);
  }
  const findings = days.map(() => 0);
  const open = (await c.runAndReadAll(
    `SELECT strftime(day, '%Y-%m-%d'), open_findings FROM daily_open_findings WHERE day >= $1::DATE AND day < $2::DATE`, window,
  )).getRowsJS();
  for (const [d, n] of open) {
    const i = index.get(String(d));
    if (i !== undefined) findings[i] = Number(n);
  }
  return { title, days, currencies: charted, otherCurrencies: ranked.slice(MAX_CHARTED_CURRENCIES).map(([x]) => String(x)), findings };
}

/** The close's lines: per recipient × currency of the month (monthly_summary). */
export async function closeLines(c: DuckDBConnection, month: string): Promise<CloseLine[]> {
  const rows = (await c.runAndReadAll(
    `SELECT recipient_id, currency, payouts, refunds, credit_adjustments, debit_adjustments, computed_net, disbursed_total,
            variance, disbursements FROM monthly_summary WHERE month = $1 ORDER BY currency, recipient_id`,
    [month],
  )).getRowObjectsJS();
  return rows.map((r) => ({
    recipientId: String(r.recipient_id),
    currency: String(r.currency),
    payouts: big(r.payouts),
    refunds: big(r.refunds),
    credits: big(r.credit_adjustments),
    debits: big(r.debit_adjustments),
    computedNet: big(r.computed_net),
    disbursedTotal: big(r.disbursed_total),
    variance: big(r.variance),
    disbursements: Number(r.disbursements),
  }));
}

/** The month's lines in another currency than their disbursement's (currency_suspense). */
export async function suspenseLines(c: DuckDBConnection, month: string): Promise<SuspenseLine[]> {
  const rows = (await c.runAndReadAll(
    `SELECT disbursement_id, recipient_id, disbursement_currency, kind, entry_type, reference, currency, amount, signed_amount
       FROM currency_suspense WHERE month = $1 ORDER BY currency, disbursement_id, kind, line_no`,
    [month],
  )).getRowObjectsJS();
  return rows.map((r) => ({
    disbursementId: String(r.disbursement_id), recipientId: String(r.recipient_id), disbursementCurrency: String(r.disbursement_currency),
    kind: r.kind as SuspenseLine['kind'], entryType: (r.entry_type as string | null) ?? null, reference: (r.reference as string | null) ?? null,
    currency: String(r.currency), amount: BigInt(r.amount as bigint), signedAmount: big(r.signed_amount),
  }));
}

const OF_MONTH = `(o.disbursement_id IS NULL OR o.disbursement_id IN (SELECT disbursement_id FROM disbursements WHERE month_of(delivered_at) = $1))`;

/** Open error findings (not acknowledged) on the month's disbursements, or on none. */
export async function openErrorsOfMonth(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll(
    `SELECT count(*) FROM open_exceptions AS o WHERE o.severity = 'error' AND o.state <> 'acknowledged' AND ${OF_MONTH}`, [month],
  )).getRows()[0]?.[0] ?? 0);
}

/** How many findings openFindingsOfMonth yields (a sheet counts its rows before writing them). */
export async function countOpenFindingsOfMonth(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll(`SELECT count(*) FROM open_exceptions AS o WHERE ${OF_MONTH}`, [month])).getRows()[0]![0]);
}

/**
 * Acknowledgement entries shown per finding on the close's Open findings (the latest; the count says how many in all).
 */
const ACK_HISTORY_SHOWN = 5;

/**
 * The findings open at the close (on the month's disbursements, or on none), aged to `now`, one cause after
 * another (finding_groups): the cause's root first with the cause's money counted once, its other findings
 * below it without money; causes ordered as before (errors first, the most at stake first within each
 * currency, never ranked across currencies). A cause whose root is no longer open is led by its largest
 * open finding. Each finding carries its acknowledgement history (finding_acks), latest first.
 */
export async function* openFindingsOfMonth(c: DuckDBConnection, month: string, now: Date): AsyncGenerator<FindingRow> {
  const rows = (await c.runAndReadAll(
    `WITH o AS (
       SELECT o.*, COALESCE(o.cause, o.finding_key) AS grp FROM open_exceptions AS o WHERE ${OF_MONTH}
     ),
     g AS (
       SELECT o.*, first_value(o.finding_key) OVER w AS root_key,
         CAST(count(*) OVER (PARTITION BY o.grp) AS INTEGER) AS group_size,
         COALESCE(max(o.cause_stake) OVER (PARTITION BY o.grp), max(o.stake) OVER (PARTITION BY o.grp)) AS group_stake
       FROM o
       WINDOW w AS (PARTITION BY o.grp ORDER BY COALESCE(o.is_root, false) DESC, o.stake DESC NULLS LAST, o.finding_key)
     ),
     h AS (
       SELECT finding_key, count(*) AS entries,
         string_agg(CASE WHEN k <= ${ACK_HISTORY_SHOWN} THEN entry END, '; ' ORDER BY seq DESC) AS history
       FROM (
         SELECT a.finding_key, a.seq, row_number() OVER (PARTITION BY a.finding_key ORDER BY a.seq DESC) AS k,
           strftime(a.ack_at AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M') || ' UTC '
             || CASE WHEN a.action = 'withdraw' THEN 'withdrawn by ' ELSE 'acknowledged by ' END || a.ack_by
             || CASE WHEN a.note <> '' THEN ': ' || a.note ELSE '' END AS entry
         FROM finding_acks AS a
         WHERE a.finding_key IN (SELECT finding_key FROM o)
       ) GROUP BY finding_key
     )
     SELECT g.*, g.finding_key = g.root_key AS leads, h.entries AS ack_entries, h.history AS ack_history
     FROM g
     JOIN g AS r ON r.finding_key = g.root_key
     LEFT JOIN h ON h.finding_key = g.finding_key
     ORDER BY r.severity, COALESCE(r.currency, '~'), r.group_stake DESC NULLS LAST, r.check_id, r.disbursement_id, r.subject,
       r.finding_key, leads DESC, g.stake DESC NULLS LAST, g.finding_key`, [month],
  )).getRowObjectsJS();
  for (const r of rows) {
    const leads = r.leads === true;
    const entries = Number(r.ack_entries ?? 0);
    const shown = (r.ack_history as string | null) ?? null;
    yield {
      key: String(r.finding_key), status: r.status as FindingRow['status'], ageDays: ageInDays(r.first_seen as Date, now),
      checkId: String(r.check_id), severity: r.severity as FindingRow['severity'],
      recipientId: (r.recipient_id as string | null) ?? null, disbursementId: (r.disbursement_id as string | null) ?? null,
      subject: (r.subject as string | null) ?? null, currency: (r.currency as string | null) ?? null,
      expected: (r.expected as bigint | null) ?? null, actual: (r.actual as bigint | null) ?? null,
      difference: (r.difference as bigint | null) ?? null, detail: String(r.detail), firstSeen: r.first_seen as Date,
      // the cause's money once, on the line that leads it
      stake: leads && r.group_stake !== null && r.group_stake !== undefined ? BigInt(r.group_stake as bigint) : null,
      rootKey: String(r.root_key), isRoot: leads, groupSize: Number(r.group_size),
      ackNote: (r.ack_note as string | null) ?? null,
      ackBy: (r.ack_by as string | null) ?? null,
      ackAt: (r.ack_at as Date | null) ?? null,
      ackEntries: entries,
      ackHistory: shown === null ? null
        : entries > ACK_HISTORY_SHOWN ? `${shown}; … ${entries - ACK_HISTORY_SHOWN} earlier (SELECT * FROM acknowledgements)` : shown,
    };
  }
}

/**
 * Per currency, what the bank statements say of the month's disbursements (bank_month_split),
 * each disbursement in one place: settled by a credit (what arrived, and what the bank kept as its charge
 * within the tolerance); a credit naming it for less beyond the tolerance (the credit, and what it fell
 * short by); credited on another account; not yet covered by a statement; not arrived.
 */
export interface BankSplitRow {
  settled: bigint;
  bankCharges: bigint;
  shortCredited: bigint;
  shortBy: bigint;
  otherAccount: bigint;
  awaiting: bigint;
  notArrived: bigint;
  /** Settled by a credit on a statement whose balances do not prove it (bank_statement_unbalanced). */
  unproven: bigint;
  /**
   * What the statements booked in the month (bank_month_movement); null when they booked nothing in this currency,
   * undefined when not read.
   */
  movement?: BankMovement | null;
}

/** The month's bank entries in a currency: all credits and debits, and the credits that settled nothing by reason. */
interface BankMovement {
  credits: bigint;
  debits: bigint;
  duplicate: bigint;
  unexpected: bigint;
  otherCredits: bigint;
}

const NO_SPLIT = {
  settled: 0n,
  bankCharges: 0n,
  shortCredited: 0n,
  shortBy: 0n,
  otherAccount: 0n,
  awaiting: 0n,
  notArrived: 0n,
  unproven: 0n,
};

export async function bankSplit(c: DuckDBConnection, month: string): Promise<Map<string, BankSplitRow>> {
  const rows = (await c.runAndReadAll('SELECT * FROM bank_month_split WHERE month = $1', [month])).getRowObjectsJS();
  const out = new Map<string, BankSplitRow>(
    rows.map((r) => [
      String(r.currency),
      {
        settled: big(r.settled),
        bankCharges: big(r.bank_charges),
        shortCredited: big(r.short_credited),
        shortBy: big(r.short_by),
        otherAccount: big(r.other_account),
        awaiting: big(r.awaiting),
        notArrived: big(r.not_arrived),
        unproven: big(r.unproven),
        movement: null,
      },
    ]),
  );
  const moved = (
    await c.runAndReadAll('SELECT * FROM bank_month_movement WHERE month = $1', [month])
  ).getRowObjectsJS();
  for (const r of moved) {
    const currency = String(r.currency);
    const row = out.get(currency) ?? { ...NO_SPLIT, movement: null };
    row.movement = {
      credits: big(r.credits),
      debits: big(r.debits),
      duplicate: big(r.duplicate),
      unexpected: big(r.unexpected),
      otherCredits: big(r.other_credits),
    };
    out.set(currency, row);
  }
  return out;
}

/** A run's money at stake per currency, each cause's money once (the money_at_stake view), by currency. */
export async function runMoneyAtStake(
  c: DuckDBConnection,
  runId: string,
): Promise<Array<{ currency: string; atStake: bigint; causes: number }>> {
  const rows = (
    await c.runAndReadAll('SELECT currency, at_stake, causes FROM money_at_stake WHERE run_id = $1 ORDER BY currency', [
      runId,
    ])
  ).getRowObjectsJS();
  return rows.map((r) => ({ currency: String(r.currency), atStake: big(r.at_stake), causes: Number(r.causes) }));
}

/** Per currency, what a reader must see first: money at stake, money not in the bank, suspense. */
export interface CurrencyStake {
  currency: string;
  /** The money at stake of the run's causes that need a person (new or open roots of finding_groups). */
  atStake: bigint;
  /** How many such causes carry it. */
  causes: number;
  /**
   * Not arrived, awaiting a statement, or the shortfall of a short credit (null: no statement of this currency
   * imported).
   */
  notInBank: bigint | null;
  /** Credited on another account or in another currency (null: no statements imported). */
  elsewhere: bigint | null;
  /** Lines in this currency held in currency suspense (their signed amounts), every month. */
  suspense: bigint;
}

/**
 * Every currency's money at stake in run `runId`, not yet in the bank and in suspense, never added across
 * currencies. `bank`: whether statements were ever imported (the bank views are read only then; the caller
 * holds bank_matches materialised).
 */
export async function currencyStakes(c: DuckDBConnection, runId: string, bank: boolean): Promise<CurrencyStake[]> {
  const stake = await runMoneyAtStake(c, runId);
  const suspense = (
    await c.runAndReadAll(
      'SELECT currency, CAST(sum(signed_amount) AS HUGEINT) AS held FROM currency_suspense GROUP BY currency',
    )
  ).getRowObjectsJS();
  const banked = bank
    ? (
        await c.runAndReadAll(
          `SELECT currency,
       bool_and(bank_status = 'no statements') AS none,
       CAST(COALESCE(sum(amount) FILTER (WHERE bank_status IN ('not arrived', 'awaiting statement', 'credited on an unbalanced statement')), 0)
         + COALESCE(sum(-bank_difference) FILTER (WHERE bank_status = 'short'), 0) AS HUGEINT) AS not_in_bank,
       CAST(COALESCE(sum(amount) FILTER (WHERE bank_status IN ('on another account', 'credited in another currency')), 0) AS HUGEINT) AS elsewhere
     FROM bank_status GROUP BY currency`,
        )
      ).getRowObjectsJS()
    : [];
  const out = new Map<string, CurrencyStake>();
  const at = (currency: string): CurrencyStake => {
    let s = out.get(currency);
    if (!s)
      out.set(
        currency,
        (s = {
          currency,
          atStake: 0n,
          causes: 0,
          notInBank: bank ? 0n : null,
          elsewhere: bank ? 0n : null,
          suspense: 0n,
        }),
      );
    return s;
  };
  for (const r of stake) Object.assign(at(r.currency), { atStake: r.atStake, causes: r.causes });
  for (const r of suspense) at(String(r.currency)).suspense = big(r.held);
  for (const r of banked) {
    // a currency no statement was ever imported for says so, whatever other currencies have
    if (r.none === true) {
      Object.assign(at(String(r.currency)), { notInBank: null, elsewhere: null });
      continue;
    }
    const notInBank = big(r.not_in_bank);
    const elsewhere = big(r.elsewhere);
    if (notInBank !== 0n || elsewhere !== 0n || out.has(String(r.currency)))
      Object.assign(at(String(r.currency)), { notInBank, elsewhere });
  }
  return [...out.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}

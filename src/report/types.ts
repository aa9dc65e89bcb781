// Plain rows the workbook writers take. They are filled by whoever reads DuckDB; the writers never
// query anything themselves. Money is integer subunits (bigint) until the moment a cell is written.

import type { Rates } from '../rates.js';
import type { CurrencyStake } from '../store/read/summaries.js';
import type { CauseAgeing } from '../store/read/ageing.js';
import type {
  BankCreditRow, BankRow, CloseLine, DisbursementRow, FindingRow, MonthShape, Severity, SuspenseLine,
} from '../store/read/types.js';

export type {
  BankCreditRow,
  BankRow,
  CloseLine,
  DisbursementRow,
  DisbursementStatus,
  FindingRow,
  FindingStatus,
  MonthShape,
  Severity,
  SuspenseLine,
} from '../store/read/types.js';

/** A check's words as its file's header gives them (src/checks/contract.ts). */
export interface CheckWords {
  id: string;
  title: string;
  meaning: string;
  nextStep: string;
}

/** Rows may come from a DuckDB reader page by page; writers consume them once, in order. */
export type RowSource<T> = AsyncIterable<T> | Iterable<T>;

/**
 * A list and how many rows it holds: an array, or rows with their count (read from the store first). Rows
 * of unknown count are taken to fit: one past the sheet is an error, so every list read from the store
 * comes with its count.
 */
export type CountedRows<T> = RowSource<T> | { rows: RowSource<T>; count: number };

export interface RunSummary {
  runId: string;
  startedAt: Date;
  finishedAt: Date | null;
  serviceUrl: string;
  disbursementsChecked: number;
  byCheck: Array<{ checkId: string; severity: Severity; count: number }>;
  byStatus: { new: number; open: number; acknowledged: number; resolved: number };
  /** Payment details read this run for payment_cross_check, and those the service refused or never answered. */
  paymentLookups: { sampled: number; unverified: number };
  totalsByCurrency: Array<{
    currency: string;
    disbursements: number;
    reported: bigint;
    computed: bigint;
    difference: bigint;
    payouts?: bigint;
    refunds?: bigint;
    credits?: bigint;
    debits?: bigint;
  }>;
  /** Per currency: money at stake, not yet in the bank, in suspense; left out when absent. */
  stakes?: CurrencyStake[];
  /** The user's rates (--rates): the Summary converts and totals with them and says which they were. */
  rates?: Rates | null;
  /** How long the causes that need a person have been open, per currency (left out when absent). */
  ageing?: CauseAgeing[];
}

export interface Who {
  by: string | null;
  osUser: string | null;
  host: string | null;
}

export interface CloseControls {
  closer: Who;
  acceptance: { osUser: string | null; host: string | null; approval: Who | null } | null;
  /** The close's own trail entry (the head of the chain when the close was recorded). */
  trail: { seq: number; hash: string } | null;
}

/** What a journal line books; recon's account name of each is ROLES in src/report/journal.ts. */
export type JournalRole =
  | 'bank'
  | 'cash_in_transit'
  | 'bank_suspense'
  | 'bank_charges'
  | 'refunds'
  | 'fees'
  | 'clearing'
  | 'credit_adjustments'
  | 'suspense'
  | 'rounding';

/** A journal line: exactly one of debit/credit is non-zero in what buildJournal produces. */
export interface JournalEntry {
  currency: string;
  /** What the line books (src/report/journal.ts ROLES): the key of the chart of accounts. */
  role: JournalRole;
  /** recon's name for the role's account. */
  account: string;
  description: string;
  debit: bigint;
  credit: bigint;
  /** The account of the user's books the line posts to (recon close --accounts); absent without a chart. */
  ledger?: LedgerAccount;
}

/** An account of the user's chart of accounts: its code (number) and its name, either may be empty. */
export interface LedgerAccount {
  code: string;
  name: string;
}

export interface CloseInput {
  /** 'YYYY-MM' */
  month: string;
  /** Re-running a close for the same month produces version 2, 3, … */
  version: number;
  generatedAt: Date;
  serviceUrl: string;
  lines: CloseLine[];
  disbursements: CountedRows<DisbursementRow>;
  openFindings: CountedRows<FindingRow>;
  journal: JournalEntry[];
  /** Lines in another currency than their disbursement's, each in its own currency (held in suspense). */
  suspense: SuspenseLine[];
  /** Why the close is provisional (open error findings, a variance, lines in suspense); empty when final. */
  provisional: string[];
  /**
   * Unaccounted money a person accepted by name with a note; it no longer makes the close provisional
   * unless it waits for a second person's approval (state 'pending': four eyes).
   */
  acceptance?: {
    by: string; note: string; accepted: string[];
    state?: 'accepted' | 'pending' | 'approved'; approvedBy?: string | null;
  } | null;
  /** Who closed it, who accepted and approved, and the close's audit-trail entry (its Summary prints them). */
  controls?: CloseControls;
  /** The books' time zone the month was counted in (--books-tz); UTC when absent. */
  booksTz?: string;
  /** The month's days, drawn on a Month sheet (left out when absent). */
  shape?: MonthShape;
  /**
   * The month's disbursements' bank status and the month's unmatched provider credits (left out without statements).
   */
  bank?: BankSheets;
}

/**
 * What the bank sheets show: the disbursements listed, the credits that settled nothing, and statement files a run
 * refused.
 */
export interface BankSheets {
  disbursements: CountedRows<BankRow>;
  credits: CountedRows<BankCreditRow>;
  /** "file: where: why" of each statement file the run's --bank-dir could not read (or skipped). */
  refusedFiles?: string[];
}


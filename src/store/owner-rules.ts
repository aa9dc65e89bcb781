// Who owns a finding nobody was assigned (`recon assign`): the configured default owners ("defaultOwners":
// {"check:bank_missing_credit": "treasury", "currency:EUR": "ana", "*": "controller"}), kept in the store
// (owner_rules) so that the open_exceptions view, the workbook and accountants' SQL give the same owner. The
// most specific rule wins: an assignment, then the check's rule, then the currency's, then '*'.
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './append.js';
import { inTransaction } from './transaction.js';
import { sqlText } from './sql.js';

/** A rule's name: check:<check id>, currency:<ISO code>, or * for every finding. */
export const OWNER_RULE = /^(check:[a-z0-9_]+|currency:[A-Z]{3}|\*)$/;

type OwnerRules = Readonly<Record<string, string>>;

/**
 * "check:x=treasury,currency:EUR=ana" or the same as JSON text, as the option's variable gives it; an object
 * (the config file's) as it is. Anything else is returned unchanged for the option's schema to refuse.
 */
export function ownerRulesValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  const pairs = text.split(',').map((p) => p.trim()).filter(Boolean).map((p) => p.split('='));
  return pairs.every((p) => p.length === 2) ? Object.fromEntries(pairs.map(([k, v]) => [k!.trim(), v!.trim()])) : value;
}

/** Replaces the store's rules with `rules` (a command given the option says what holds from now on). */
export async function saveOwnerRules(c: DuckDBConnection, rules: OwnerRules): Promise<void> {
  await inTransaction(c, async () => {
    await c.run(sqlText('controls/owner_rules_clear'));
    const rows = Object.entries(rules).map(([rule, owner]) => [rule, owner]);
    await appendRows(c, 'owner_rules', ['varchar', 'varchar'], rows);
  });
}

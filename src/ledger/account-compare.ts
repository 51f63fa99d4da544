/**
 * The account-level comparison: the venue's balances of the whole account against several bots' ledgers, per
 * (market, token), with what no ledger books. Reported (a gauge, `report --account`), never written into any ledger:
 * with several bots on one account no single ledger owns the difference.
 *
 * Owns: that comparison. Invariants: pure; rows sorted by market, then YES before NO; unbooked = venue − Σ ledgers.
 */
import type { Outcome } from '../core/venue-rules/index.js';
import { TOKEN_ORDER, type VenuePosition } from './reconcile.js';
import type { LedgerTokenBalance } from './store.js';

/** One (market, token) of the account: its venue balance, each ledger's balance, and what no ledger books. */
export interface AccountRow {
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly venueRaw: number;
  /** Balance per ledger (bot), in the order the ledgers were given. */
  readonly ledgersRaw: readonly number[];
  /** venueRaw − Σ ledgersRaw: held by the account but booked by none of these ledgers. */
  readonly unbookedRaw: number;
}

/**
 * The account-level comparison (pure): the venue's balances (the whole account) against several bots' ledgers.
 * Reported, never written into any ledger: with several bots on one account no single ledger owns the difference.
 * `markets`, when given, limits the rows to those markets (and lists each of them, held or not). Sorted by market,
 * then YES before NO.
 */
export function compareAccount(
  venue: readonly VenuePosition[],
  ledgers: readonly (readonly LedgerTokenBalance[])[],
  markets?: ReadonlySet<string>,
): AccountRow[] {
  const rows = new Map<string, { marketSlug: string; token: Outcome; venueRaw: number; ledgersRaw: number[] }>();
  const row = (marketSlug: string, token: Outcome) => {
    const name = `${marketSlug}|${token}`;
    let found = rows.get(name);
    if (found === undefined) {
      found = { marketSlug, token, venueRaw: 0, ledgersRaw: ledgers.map(() => 0) };
      rows.set(name, found);
    }
    return found;
  };
  const wanted = (slug: string): boolean => markets === undefined || markets.has(slug);
  for (const position of venue) {
    if (!wanted(position.marketSlug)) continue;
    row(position.marketSlug, 'YES').venueRaw += position.yesRaw;
    row(position.marketSlug, 'NO').venueRaw += position.noRaw;
  }
  ledgers.forEach((balances, index) => {
    for (const balance of balances) {
      if (!wanted(balance.marketSlug)) continue;
      const found = row(balance.marketSlug, balance.token);
      found.ledgersRaw[index] = (found.ledgersRaw[index] ?? 0) + balance.balanceRaw;
    }
  });
  if (markets !== undefined) for (const slug of markets) for (const token of ['YES', 'NO'] as const) row(slug, token);
  return [...rows.values()]
    .sort((a, b) => a.marketSlug.localeCompare(b.marketSlug) || TOKEN_ORDER[a.token] - TOKEN_ORDER[b.token])
    .map((r) => ({ ...r, unbookedRaw: r.venueRaw - r.ledgersRaw.reduce((sum, raw) => sum + raw, 0) }));
}

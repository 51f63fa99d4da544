/**
 * The chain check's repair: a difference between the ledger's holding of a token and the chain's `balanceOfBatch`,
 * seen on two consecutive checks (src/capital/core.ts), is repaired as a REST difference is (src/ledger/reconcile.ts
 * `repairLedger`: a position adjustment at the ledger's average cost, else its mark; stale provisional fills settled
 * by the balance first). The chain is the venue's truth here: the REST portfolio is an indexed cache of it.
 *
 * As with the REST balances (src/booking/ledger-sync.ts), the wallet's balances are the whole account's: they are
 * repaired only when this bot alone trades its markets on the account (`markets.exclusive: true`); otherwise the
 * difference is logged and counted (by the core) and left for an operator.
 *
 * Owns: the view handed to the ledger (`chainPositions`, pure) and the call. Invariants: only the markets named by a
 * difference are compared (the view is not complete: a market it lacks is no evidence); the token of a market with no
 * difference is given its ledger figure (it agrees); nothing is written when not exclusive.
 */
import { errorText } from '../core/errors.js';
import { repairLedger, type LedgerStore, type RepairAction, type VenuePosition } from '../ledger/index.js';
import type { CapitalLog } from './core.js';
import type { HoldingDifference } from './rules.js';

/**
 * The chain's balances of the markets named by the differences, as the ledger's reconciliation reads a venue's; a
 * token without a difference agrees with the chain, so `ledgerRaw` (the ledger's balance) stands in for it. Pure.
 */
export function chainPositions(differences: readonly HoldingDifference[], ledgerRaw: (slug: string, token: 'YES' | 'NO') => number): VenuePosition[] {
  const byMarket = new Map<string, { yesRaw?: number; noRaw?: number; yesTokenId?: string; noTokenId?: string }>();
  for (const d of differences) {
    const entry = byMarket.get(d.slug) ?? {};
    if (d.token === 'YES') Object.assign(entry, { yesRaw: d.chainRaw, yesTokenId: d.tokenId });
    else Object.assign(entry, { noRaw: d.chainRaw, noTokenId: d.tokenId });
    byMarket.set(d.slug, entry);
  }
  return [...byMarket].map(([marketSlug, e]) => ({
    marketSlug,
    yesRaw: e.yesRaw ?? ledgerRaw(marketSlug, 'YES'),
    noRaw: e.noRaw ?? ledgerRaw(marketSlug, 'NO'),
    yesTokenId: e.yesTokenId,
    noTokenId: e.noTokenId,
  }));
}

export interface ChainRepairOptions {
  readonly ledger: LedgerStore;
  /** `markets.exclusive`: the account's balances of the bot's markets are this bot's. */
  readonly exclusive: boolean;
  readonly now: () => number;
  readonly log: Pick<CapitalLog, 'info' | 'warn'>;
  /** Each repair written (a position adjustment, a stale fill settled, or 'unrepaired'). */
  readonly onRepair?: (action: RepairAction) => void;
}

/** The core's `repair` hook for the bot: the repeated chain differences repaired through the ledger's reconciliation. */
export function chainRepairer(o: ChainRepairOptions): (differences: readonly HoldingDifference[]) => void {
  return (differences) => {
    if (differences.length === 0) return;
    if (!o.exclusive) {
      o.log.warn({ differences: differences.map((d) => ({ market: d.slug, token: d.token, ledgerRaw: d.ledgerRaw, chainRaw: d.chainRaw })) }, 'capital: the chain differs from the ledger on two checks; not repaired (markets.exclusive is false: other bots of the account may hold these tokens)');
      return;
    }
    const ledgerOf = new Map(o.ledger.tokenBalances().map((b) => [`${b.marketSlug}|${b.token}`, b.balanceRaw]));
    const positions = chainPositions(differences, (slug, token) => ledgerOf.get(`${slug}|${token}`) ?? 0);
    try {
      const result = repairLedger(o.ledger, { orders: [], positions, positionsComplete: false }, { atMs: o.now() });
      for (const action of result.actions) o.onRepair?.(action);
      o.log.info({ actions: result.actions.map((a) => a.kind), remaining: result.remaining.length }, 'capital: the ledger repaired from the chain\'s balances');
    } catch (error) {
      o.log.warn({ err: errorText(error) }, 'capital: the repair from the chain\'s balances failed; the next check tries again');
    }
  };
}

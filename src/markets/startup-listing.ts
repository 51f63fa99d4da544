/**
 * Whether a market may quote before its own-order listing (`GET /markets/{slug}/user-orders`, one request per market:
 * the venue has no account-wide listing of open orders, ../shared/spec/exchange-api.md), at start-up and when it is
 * joined (`orders.startupListing`). Pure.
 *
 * Invariant: any doubt lists first. With `deferred`, a market quotes first only when the ledger knows no open order of
 * the bot there (live, partially filled, pending new or cancel, unknown outcome — after the start-up catch-up, which
 * closes what the venue says ended). Every order of the bot is recorded in the ledger (synchronous, fsync'd) BEFORE its
 * request leaves, so a run that crashed left each of its orders there as open or ended: a market without an open one
 * can hold an order of the bot only when the ledger is not the account's whole story (a new or replaced ledger file,
 * another process with the same bot tag). The listing still runs (deferred, never skipped: src/orders/deferred-
 * listing.ts) and what it finds is adopted or canceled as at start-up; a fill of such an order meanwhile is an event of
 * an untracked order of the bot, which resyncs its market at once (src/orders/event-router.ts).
 *
 * A ledger that has never recorded an order (a new file) cannot vouch for the account at all: it may hold orders of the
 * bot's tag from a run on another ledger. Then `deferred` is not applied: every market is listed first, as with `first`,
 * for the whole run (decided once, before the first order; `decideStartupListing`), and the start-up line says why.
 */
import type { ExecutorObserver, MarketSyncReport } from '../orders/executor-types.js';

export type StartupListingMode = 'deferred' | 'first';

export interface StartupListingInput {
  readonly mode: StartupListingMode;
  readonly slug: string;
  /** Markets of the orders the ledger last knew as open (live, partially filled, pending or unknown). */
  readonly openOrderMarkets: ReadonlySet<string>;
}

/** The mode a run applies: the configured one, or `first` when `deferred` was configured on a ledger without history. */
export interface StartupListingDecision {
  readonly mode: StartupListingMode;
  readonly configured: StartupListingMode;
  /** Why the configured mode is not applied; null when it is. */
  readonly reason: string | null;
}

/** `ledgerOrders`: how many orders the ledger has ever recorded (any status), read before this run placed one. */
export function decideStartupListing(configured: StartupListingMode, ledgerOrders: number): StartupListingDecision {
  if (configured === 'deferred' && ledgerOrders === 0) {
    return { mode: 'first', configured, reason: 'the ledger has never recorded an order (a new ledger file): the account may hold orders of the bot it does not know' };
  }
  return { mode: configured, configured, reason: null };
}

/** True: the market quotes at once and is listed once its first quotes are out, at probe priority (src/orders/deferred-listing.ts); false: listed first. */
export function quotesBeforeListing(input: StartupListingInput): boolean {
  return input.mode === 'deferred' && !input.openOrderMarkets.has(input.slug);
}

/** The one start-up line saying which markets quoted before their listing (`reports`: the executor's start reports). */
export function startupListingSummary(decision: StartupListingDecision, reports: readonly MarketSyncReport[]): { readonly fields: Record<string, unknown>; readonly msg: string } {
  const { mode, configured, reason } = decision;
  const deferred = reports.filter((r) => r.deferred === true).length;
  const listedFirst = reports.filter((r) => r.deferred !== true).map((r) => r.marketSlug);
  const fields = {
    startupListing: mode,
    ...(reason === null ? {} : { configured, reason }),
    quotingBeforeListing: deferred,
    listedFirst: listedFirst.length,
    ...(listedFirst.length > 0 && deferred > 0 ? { listedFirstMarkets: listedFirst.slice(0, 10) } : {}),
  };
  if (reason !== null) return { fields, msg: `own orders listed in every market before it quotes: ${reason} (orders.startupListing: ${configured} applies once the ledger has history)` };
  if (mode === 'first') return { fields, msg: 'own orders listed in every market before it quotes (orders.startupListing: first)' };
  return {
    fields,
    msg: 'markets whose ledger holds no open order of the bot quote first; their own-order listing follows once their first quotes are out, ahead of requotes (orders.startupListing: deferred); markets with open orders were listed first',
  };
}

/** The executor's observer, with the foreign orders a deferred listing saw noted as any listing's are (`noteForeign`). */
export function withDeferredForeign(observer: ExecutorObserver, noteForeign: (report: MarketSyncReport) => void): ExecutorObserver {
  return {
    ...observer,
    onDeferredListing: (slug, result) => {
      observer.onDeferredListing?.(slug, result);
      if ('report' in result) noteForeign(result.report);
    },
  };
}

/**
 * The bot's periodic status line: one info line every `log.statusIntervalMs` (default a minute) saying how the run
 * is going: markets quoted, open orders, fills since start, PnL (trading, plus the ESTIMATED rewards and rebates the
 * ledger accrued, src/rewards/reward-accrual.ts), requests and the share of the rate limit they used
 * since the last line, the age of each priced underlying's price, which traded markets have no order and why, and
 * the next market expected to be joined and when (src/markets/next-join.ts; between two ladders the line says so), and
 * the capital by state with the markets trimmed for want of it (src/operator/capital-line.ts).
 *
 * Owns: the line's content (`statusLine`, pure: a snapshot of counts in, the message and its fields out) and the
 * tally between two lines (`StatusReporter`, a thin shell that reads the counts from their owners and logs). The
 * figures are never its own: fills from the fill recorder, PnL from the ledger, requests from telemetry, orders from
 * the executor, ages from the pricing store. Invariants: amounts are USDC at cents and ages seconds at a tenth, never
 * raw units; the rate-limit share is the requests of the interval over what `rateLimits.minTimeMs` allows in it
 * (the spacing, the venue's binding limit); a failing read leaves the figure out, never throws into the timer.
 */
import type { Logger } from 'pino';
import { errorText } from '../core/errors.js';
import { describeExpectedJoin, type ExpectedJoin } from '../markets/next-join.js';
import { capitalStatusPart, type CapitalFields } from './capital-line.js';
import type { CapitalStatus } from './capital-view.js';

/** The ledger's PnL (raw 1e6 USDC): trading, and the estimated rewards and rebates (absent: not accrued). */
export interface StatusPnl {
  readonly realizedRaw: number;
  readonly unrealizedRaw: number;
  readonly rewardRaw?: number;
  readonly rebateRaw?: number;
}

/** What the status line is made of; every count read at the moment of the line. */
export interface StatusSnapshot {
  /** Markets the bot trades. */
  readonly markets: number;
  /** Markets with at least one open order of the bot. */
  readonly marketsQuoted: number;
  readonly openOrders: number;
  /** Fills booked since the start of the process. */
  readonly fills: number;
  /** The ledger's PnL (raw 1e6 USDC), or null when it could not be read. */
  readonly pnl: StatusPnl | null;
  /** Requests answered since the start of the process. */
  readonly requests: number;
  /** Requests answered since the last line (or the start), over `intervalMs`. */
  readonly requestsInInterval: number;
  readonly intervalMs: number;
  /** The limiter's spacing between request starts (`rateLimits.minTimeMs`). */
  readonly minTimeMs: number;
  /** Per priced ticker, the age of the price the model uses, ms (null: no price yet); empty when nothing is priced. */
  readonly underlyingAgesMs: Readonly<Record<string, number | null>>;
  /** Traded markets with no open order of the bot, and why (empty when every market is quoted). */
  readonly unquoted: Readonly<Record<string, string>>;
  /** The next market expected to be joined and when (null: none expected by time; absent: not known here). */
  readonly nextJoin?: ExpectedJoin | null;
  /** The time of the snapshot (for "in 3 min"); required with `nextJoin`. */
  readonly nowMs?: number;
  /** The capital by state and the markets trimmed for want of it (absent: not known here). */
  readonly capital?: CapitalStatus;
}

export interface StatusFields {
  readonly markets: number;
  readonly marketsQuoted: number;
  readonly openOrders: number;
  readonly fills: number;
  readonly pnlUsdc?: number;
  readonly realizedPnlUsdc?: number;
  readonly unrealizedPnlUsdc?: number;
  /** Estimated liquidity rewards and maker rebates, included in pnlUsdc. */
  readonly rewardsUsdc?: number;
  readonly rebatesUsdc?: number;
  readonly requests: number;
  readonly requestsInInterval: number;
  readonly intervalSec: number;
  /** Percent of the requests the rate limit allows in the interval. */
  readonly rateLimitUsedPct: number;
  /** Per priced ticker, seconds (null: no price yet); absent when nothing is priced. */
  readonly underlyingAgeSec?: Readonly<Record<string, number | null>>;
  /** Traded markets with no open order, and why; absent when every market is quoted. */
  readonly unquoted?: Readonly<Record<string, string>>;
  /** The next market expected to be joined: its slug, seconds until its join window opens, and the instant (ISO). */
  readonly nextJoin?: { readonly market: string; readonly inSec: number; readonly at: string } | null;
  /** The capital by state (src/operator/capital-line.ts); absent when not known. */
  readonly capital?: CapitalFields;
  /** Markets whose quoting is trimmed for want of capital, and the USDC short; absent when none is. */
  readonly quotingTrimmed?: { readonly markets: number; readonly shortUsdc: number };
}

/** The message names at most this many unquoted markets (the fields have them all). */
export const UNQUOTED_IN_MESSAGE = 5;

export interface StatusLine {
  readonly message: string;
  readonly fields: StatusFields;
}

/** Raw 1e6 USDC → a number at cents (exact for the display: the integer is rounded once). */
function usdcAtCents(raw: number): number {
  return Math.round(raw / 10_000) / 100;
}

function signedUsdc(value: number): string {
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** The share of the rate limit used in the interval, percent at one decimal. */
export function rateLimitUsedPct(requestsInInterval: number, intervalMs: number, minTimeMs: number): number {
  if (intervalMs <= 0) return 0;
  const allowed = minTimeMs > 0 ? intervalMs / minTimeMs : Number.POSITIVE_INFINITY;
  return Math.round((1000 * requestsInInterval) / allowed) / 10;
}

/** The status line of a snapshot. Pure. */
export function statusLine(s: StatusSnapshot): StatusLine {
  const pct = rateLimitUsedPct(s.requestsInInterval, s.intervalMs, s.minTimeMs);
  const intervalSec = Math.round(s.intervalMs / 100) / 10;
  const tickers = Object.keys(s.underlyingAgesMs).sort();
  const ages = Object.fromEntries(tickers.map((t) => [t, ageSec(s.underlyingAgesMs[t] ?? null)]));
  const earned = s.pnl !== null && (s.pnl.rewardRaw !== undefined || s.pnl.rebateRaw !== undefined) ? { reward: s.pnl.rewardRaw ?? 0, rebate: s.pnl.rebateRaw ?? 0 } : null;
  const pnl =
    s.pnl === null
      ? null
      : {
          total: usdcAtCents(s.pnl.realizedRaw + s.pnl.unrealizedRaw + (earned?.reward ?? 0) + (earned?.rebate ?? 0)),
          realized: usdcAtCents(s.pnl.realizedRaw),
          unrealized: usdcAtCents(s.pnl.unrealizedRaw),
        };
  const earnedText = earned === null ? '' : `, rewards est. ${signedUsdc(usdcAtCents(earned.reward))}, rebates est. ${signedUsdc(usdcAtCents(earned.rebate))}`;
  const parts = [
    `${s.marketsQuoted}/${s.markets} markets quoted`,
    `${s.openOrders} open orders`,
    `${s.fills} fills`,
    pnl === null ? 'PnL unavailable' : `PnL ${signedUsdc(pnl.total)} USDC (realized ${signedUsdc(pnl.realized)}, unrealized ${signedUsdc(pnl.unrealized)}${earnedText})`,
    `${s.requests} requests (${s.requestsInInterval} in the last ${intervalSec} s: ${pct.toFixed(1)} % of the rate limit)`,
  ];
  if (tickers.length > 0) parts.push(`underlying age ${tickers.map((t) => `${t} ${ages[t] === null ? 'no price yet' : `${(ages[t] ?? 0).toFixed(1)} s`}`).join(', ')}`);
  const unquoted = Object.keys(s.unquoted).sort();
  if (unquoted.length > 0) {
    const named = unquoted.slice(0, UNQUOTED_IN_MESSAGE).map((slug) => `${slug} (${s.unquoted[slug] ?? '?'})`);
    const more = unquoted.length - named.length;
    parts.push(`not quoted: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  const nowMs = s.nowMs ?? 0;
  if (s.nextJoin !== undefined) parts.push(s.nextJoin === null ? 'next join: none expected among the listed markets (waiting for new listings)' : `next join: ${describeExpectedJoin(s.nextJoin, nowMs)}`);
  const capital = s.capital === undefined ? null : capitalStatusPart(s.capital);
  if (capital !== null) parts.push(...capital.parts);
  // Between two ladders: nothing traded is not "every market quoted".
  if (s.markets === 0) parts.unshift('no market traded now');
  return {
    message: `status: ${parts.join(', ')}`,
    fields: {
      markets: s.markets,
      marketsQuoted: s.marketsQuoted,
      openOrders: s.openOrders,
      fills: s.fills,
      ...(pnl === null ? {} : { pnlUsdc: pnl.total, realizedPnlUsdc: pnl.realized, unrealizedPnlUsdc: pnl.unrealized }),
      ...(earned === null ? {} : { rewardsUsdc: usdcAtCents(earned.reward), rebatesUsdc: usdcAtCents(earned.rebate) }),
      requests: s.requests,
      requestsInInterval: s.requestsInInterval,
      intervalSec,
      rateLimitUsedPct: pct,
      ...(tickers.length === 0 ? {} : { underlyingAgeSec: ages }),
      ...(unquoted.length === 0 ? {} : { unquoted: s.unquoted }),
      ...(s.nextJoin === undefined
        ? {}
        : { nextJoin: s.nextJoin === null ? null : { market: s.nextJoin.slug, inSec: Math.max(0, Math.round((s.nextJoin.atMs - nowMs) / 1000)), at: new Date(s.nextJoin.atMs).toISOString() } }),
      ...(capital?.capital === undefined ? {} : { capital: capital.capital }),
      ...(capital?.quotingTrimmed === undefined ? {} : { quotingTrimmed: capital.quotingTrimmed }),
    },
  };
}

function ageSec(ms: number | null): number | null {
  return ms === null ? null : Math.round(Math.max(0, ms) / 100) / 10;
}

/** Where the reporter reads each figure (their owners). */
export interface StatusSources {
  readonly now: () => number;
  readonly marketSlugs: () => readonly string[];
  /** Open orders of the bot, with their market. */
  readonly openOrders: () => readonly { readonly marketSlug: string }[];
  readonly fills: () => number;
  /** May throw (a closed ledger): the line then says PnL unavailable. */
  readonly pnl: () => StatusPnl;
  readonly requests: () => number;
  readonly minTimeMs: number;
  readonly underlyingAgesMs: () => Readonly<Record<string, number | null>>;
  /** Why a traded market has no open order (absent: the line does not say). */
  readonly unquotedReason?: (slug: string) => string;
  /** The next market expected to be joined (absent: the line does not say). */
  readonly nextJoin?: () => ExpectedJoin | null;
  /** The capital by state and the trims (absent: the line does not say). */
  readonly capital?: () => CapitalStatus;
}

/** Logs the status line; `report()` is called by the composition root's timer. */
export class StatusReporter {
  private lastAtMs: number;
  private lastRequests: number;

  constructor(
    private readonly sources: StatusSources,
    private readonly log: Logger,
  ) {
    this.lastAtMs = sources.now();
    this.lastRequests = sources.requests();
  }

  /** The current snapshot (the counts since the last `report`). */
  snapshot(): StatusSnapshot {
    const { sources } = this;
    const orders = sources.openOrders();
    let pnl: StatusSnapshot['pnl'] = null;
    try {
      pnl = sources.pnl();
    } catch (error) {
      this.log.debug({ err: errorText(error) }, 'status line: PnL unavailable');
    }
    const requests = sources.requests();
    const slugs = sources.marketSlugs();
    const quoted = new Set(orders.map((o) => o.marketSlug));
    const reason = sources.unquotedReason;
    const unquoted = reason === undefined ? {} : Object.fromEntries(slugs.filter((slug) => !quoted.has(slug)).map((slug) => [slug, reason(slug)]));
    return {
      markets: slugs.length,
      marketsQuoted: slugs.filter((slug) => quoted.has(slug)).length,
      openOrders: orders.length,
      fills: sources.fills(),
      pnl,
      requests,
      requestsInInterval: requests - this.lastRequests,
      intervalMs: sources.now() - this.lastAtMs,
      minTimeMs: sources.minTimeMs,
      underlyingAgesMs: sources.underlyingAgesMs(),
      unquoted,
      ...(sources.nextJoin === undefined ? {} : { nextJoin: sources.nextJoin(), nowMs: sources.now() }),
      ...(sources.capital === undefined ? {} : { capital: sources.capital() }),
    };
  }

  report(): void {
    const snapshot = this.snapshot();
    const line = statusLine(snapshot);
    this.log.info(line.fields, line.message);
    this.lastAtMs = this.lastAtMs + snapshot.intervalMs;
    this.lastRequests = snapshot.requests;
  }
}

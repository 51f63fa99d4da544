/**
 * Settlement rules (pure): what a resolved market's payout rule is, what the venue's holding of it pays, what to
 * do before a redeem call given what the venue and the ledger say, what a redeem answer says was paid, how a
 * failed call is handled, and how long to wait before the next attempt.
 *
 * Invariants: amounts are raw 1e6 integers, computed exactly as the ledger values a resolution
 * (`resolutionPayout`: floor of position × numerator / denominator, per token); a redeem is proposed only when
 * the venue holds a redeemable balance; a market whose tokens are gone from the venue while the ledger still
 * expects its payout is reported as already redeemed (the previous run died between the venue's answer and the
 * ledger write, or the answer was lost) so the payout is recorded once, never twice and never lost.
 */
import { ExchangeHttpError, RequestInputError, ValidationError } from '../exchange/errors.js';
import type { Market } from '../exchange/wire.js';
import { resolutionPayout } from '../ledger/position-math.js';
import type { ResolutionInput } from '../ledger/types.js';
import { errorText } from '../core/errors.js';

export interface PayoutRule {
  readonly payoutYes: number;
  readonly payoutNo: number;
}

/** What a holding of YES and NO tokens (raw) pays under a resolution. */
export function payoutOfHolding(holding: { readonly yesRaw: number; readonly noRaw: number }, rule: PayoutRule): number {
  const denominator = rule.payoutYes + rule.payoutNo;
  if (!(denominator > 0)) return 0;
  return resolutionPayout(Math.max(0, holding.yesRaw), rule.payoutYes, denominator) + resolutionPayout(Math.max(0, holding.noRaw), rule.payoutNo, denominator);
}

/** The ledger's resolution input for a market the venue reports resolved; null while it does not. */
export function resolutionOfMarket(market: Pick<Market, 'winningOutcomeIndex' | 'payoutNumerators'>): ResolutionInput | null {
  const index = market.winningOutcomeIndex;
  if (index === 0 || index === 1) return { winningOutcomeIndex: index };
  const numerators = market.payoutNumerators;
  if (numerators !== null && numerators.length === 2) {
    const [yes, no] = numerators;
    if (yes !== undefined && no !== undefined && Number.isSafeInteger(yes) && Number.isSafeInteger(no) && yes >= 0 && no >= 0 && yes + no > 0) {
      return { payoutNumerators: [yes, no] };
    }
  }
  return null;
}

export interface BeforeRedeemInput {
  /** The venue's token balances of the market (0 when it lists no position). */
  readonly venueYesRaw: number;
  readonly venueNoRaw: number;
  readonly rule: PayoutRule;
  /** The payout the ledger still expects (its receivable for the market). */
  readonly ledgerReceivableRaw: number;
  /** The redeemable amount this process last saw on the venue for the market, if any. */
  readonly lastSeenRedeemableRaw: number | null;
}

export type BeforeRedeem =
  | { readonly kind: 'redeem'; readonly expectedRaw: number }
  | { readonly kind: 'already-redeemed'; readonly amountRaw: number }
  | { readonly kind: 'nothing' };

/**
 * Redeem when the venue holds something that pays. When it holds nothing of the market at all but a payout was
 * expected (seen redeemable earlier in this process, else the ledger's receivable), the redemption already
 * happened. Holding only losing tokens (or nothing, with nothing expected) leaves nothing to redeem.
 */
export function beforeRedeem(input: BeforeRedeemInput): BeforeRedeem {
  const expectedRaw = payoutOfHolding({ yesRaw: input.venueYesRaw, noRaw: input.venueNoRaw }, input.rule);
  if (expectedRaw > 0) return { kind: 'redeem', expectedRaw };
  const holdsNothing = input.venueYesRaw <= 0 && input.venueNoRaw <= 0;
  const expected = input.lastSeenRedeemableRaw ?? input.ledgerReceivableRaw;
  if (holdsNothing && expected > 0) return { kind: 'already-redeemed', amountRaw: expected };
  return { kind: 'nothing' };
}

/**
 * The payout a redeem answer reports, raw 1e6. The answer's shape is not published: `payout` as a non-negative
 * integer or a string of digits is read (the simulator's shape); anything else is null (the caller then records
 * the amount it computed from the venue's balances).
 */
export function payoutFromAnswer(answer: Readonly<Record<string, unknown>> | null): number | null {
  const value = answer?.['payout'];
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

export type RedeemFailure =
  /** Not yet possible (not resolved on the venue's side, payout not posted) or a transient failure: try later. */
  | { readonly action: 'retry'; readonly reason: string }
  /** The venue refuses API redemption for this account (not a server-managed wallet, or no `trading` scope). */
  | { readonly action: 'refused'; readonly reason: string }
  /** Retrying cannot help (the request itself is wrong, or the venue does not know the market). */
  | { readonly action: 'give-up'; readonly reason: string };

/** How a failed `POST /portfolio/redeem` (or a read before it) is handled. */
export function classifyRedeemFailure(error: unknown): RedeemFailure {
  const reason = errorText(error);
  if (error instanceof RequestInputError || error instanceof ValidationError) return { action: 'give-up', reason };
  if (error instanceof ExchangeHttpError) {
    if (error.status === 403) return { action: 'refused', reason };
    if (error.status === 404) return { action: 'give-up', reason };
  }
  return { action: 'retry', reason };
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): doubling from `initialMs`, capped at `maxMs`. */
export function retryDelayMs(attempt: number, initialMs: number, maxMs: number): number {
  const exponent = Math.min(Math.max(0, attempt - 1), 30);
  return Math.min(maxMs, initialMs * 2 ** exponent);
}

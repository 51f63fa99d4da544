/**
 * Whether a market joined while the bot runs can hold no order of the bot, so its adoption listing
 * (`GET /markets/{slug}/user-orders`) may be skipped: the venue listed the market after this run started (with a margin
 * for the venue's clock against ours) — a previous run of this ledger ended before this one started (the ledger's owner
 * lock), so it never saw the market — and the ledger knows no open order of the bot there. Pure.
 *
 * Invariant: any doubt lists. A market without a readable `createdAt`, listed before `startedAtMs + clockMarginMs`,
 * or with an order the ledger last knew as open (live, pending or unknown) is listed and adopted as at start-up. The
 * venue has no account-wide listing of open orders (only the per-market one; `../shared/spec/exchange-api.md`), so a
 * market already listed at start-up is always listed.
 */

export interface JoinEvidenceInput {
  readonly slug: string;
  /** When the venue listed the market (ms), null when unknown. */
  readonly createdAtMs: number | null;
  /** When this run started (ms, local clock). */
  readonly startedAtMs: number;
  /** How far the venue's clock may run ahead of ours (`markets.discovery.clockMarginSec`). */
  readonly clockMarginMs: number;
  /** Markets of the orders the ledger last knew as open. */
  readonly openOrderMarkets: ReadonlySet<string>;
}

/** The evidence that no order of the bot can be in the market (a sentence for the log), or null: list it. */
export function noOwnOrdersEvidence(input: JoinEvidenceInput): string | null {
  const { createdAtMs, startedAtMs } = input;
  if (createdAtMs === null || !Number.isFinite(createdAtMs) || createdAtMs < startedAtMs + input.clockMarginMs) return null;
  if (input.openOrderMarkets.has(input.slug)) return null;
  return `listed at ${new Date(createdAtMs).toISOString()}, after this run started (${new Date(startedAtMs).toISOString()}), and no open order of the bot there in the ledger`;
}

/**
 * `GET /portfolio/history` (the official client's HistoryResponse `{data: HistoryEntry[], nextCursor}`; the
 * specification: cursor paging, `limit` 1–100) → typed entries. A HistoryEntry lists one action of the account:
 * CLOB trades (`strategy` Buy, Sell, Limit Buy, Limit Sell, Market Buy, Market Sell), token splits and merges,
 * NegRisk conversions and claims (`Split`, `Merge`, `Convert`, `Claim`), with `blockTimestamp` (unix seconds),
 * `transactionHash`, `collateralAmount`, `outcomeTokenAmount(s)`, `outcomeIndex` and a `market` snapshot.
 *
 * Owns: that shape. Invariants: amounts are read as raw 6-decimal integers (the venue's other portfolio answer
 * documents raw integer strings; unconfirmed here), exactly, never past 2^53 − 1; an element that cannot be read is
 * skipped and reported in `skipped` with its path (never a failure of the page); only a page that is not
 * `{data: [...]}` is a ResponseValidationError.
 */
import { z } from 'zod';
import { ResponseValidationError, type EndpointRef } from './errors.js';
import { orNull, parseAnswer } from './wire-fields.js';
import type { PortfolioSkip } from './wire-rewards.js';

const rawInteger = z.union([z.string().trim().regex(/^\d+$/, 'not a raw integer amount'), z.number().int().nonnegative()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : Number(BigInt(value));
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'raw amount exceeds 2^53 - 1' });
    return z.NEVER;
  }
  return n;
});

const HistoryEntryWire = z.object({
  blockTimestamp: z.number().int().nonnegative(),
  transactionHash: z.string().min(1).nullish(),
  strategy: z.string().nullish(),
  collateralAmount: rawInteger.nullish(),
  outcomeTokenAmount: rawInteger.nullish(),
  outcomeTokenAmounts: z.array(rawInteger).nullish(),
  outcomeIndex: z.number().int().nonnegative().nullish(),
  market: z.object({ slug: z.string().min(1), conditionId: z.string().nullish() }).nullish(),
});

const HistoryPageWire = z.object({ data: z.array(z.unknown()), nextCursor: z.string().nullish() });

export interface HistoryEntry {
  /** ms since epoch (blockTimestamp × 1000). */
  readonly atMs: number;
  readonly txHash: string | null;
  /** As sent: Buy, Sell, Limit Buy, Limit Sell, Market Buy, Market Sell, Split, Merge, Convert, Claim, … */
  readonly strategy: string | null;
  readonly collateralRaw: number | null;
  /** `outcomeTokenAmount`, else the sum of `outcomeTokenAmounts`. */
  readonly tokensRaw: number | null;
  readonly outcomeIndex: number | null;
  readonly marketSlug: string | null;
  readonly conditionId: string | null;
}

export interface HistoryPage {
  readonly entries: readonly HistoryEntry[];
  readonly nextCursor: string | null;
  readonly skipped: readonly PortfolioSkip[];
}

export function parseHistoryPage(data: unknown, endpoint: EndpointRef, status: number): HistoryPage {
  const page = parseAnswer(HistoryPageWire, data, endpoint, status);
  const entries: HistoryEntry[] = [];
  const skipped: PortfolioSkip[] = [];
  page.data.forEach((element, index) => {
    try {
      const e = parseAnswer(HistoryEntryWire, element, endpoint, status, ['data', index], data);
      const tokens = e.outcomeTokenAmount ?? (e.outcomeTokenAmounts ? e.outcomeTokenAmounts.reduce((a, b) => a + b, 0) : null);
      entries.push({
        atMs: e.blockTimestamp * 1000,
        txHash: orNull(e.transactionHash),
        strategy: orNull(e.strategy),
        collateralRaw: orNull(e.collateralAmount),
        tokensRaw: tokens !== null && Number.isSafeInteger(tokens) ? tokens : null,
        outcomeIndex: orNull(e.outcomeIndex),
        marketSlug: e.market?.slug ?? null,
        conditionId: orNull(e.market?.conditionId),
      });
    } catch (error) {
      if (!(error instanceof ResponseValidationError)) throw error;
      const issue = error.issues[0];
      skipped.push({ path: issue?.path ?? `data[${index}]`, reason: `${issue?.message ?? 'invalid'} (got ${issue?.value ?? '?'})` });
    }
  });
  return { entries, nextCursor: orNull(page.nextCursor), skipped };
}

/**
 * `GET /portfolio/history` (the official client's HistoryResponse `{data: HistoryEntry[], nextCursor}`; the
 * specification: cursor paging, `limit` 1–100) → typed entries. A HistoryEntry lists one action of the account:
 * CLOB trades (`strategy` Buy, Sell, Limit Buy, Limit Sell, Market Buy, Market Sell), token splits and merges,
 * NegRisk conversions and claims (`Split`, `Merge`, `Convert`, `Claim`), with `blockTimestamp` (unix seconds),
 * `transactionHash`, `collateralAmount`, `outcomeTokenAmount(s)`, `outcomeIndex` and a `market` snapshot.
 *
 * Owns: that shape. Invariants: amounts are read in the page's unit (./history-amounts.ts: raw 1e6 integers, or
 * decimals in human units; which one the live venue sends is not recorded: `venue.units.historyAmounts`, detected by
 * default) into exact raw 1e6 integers, never past 2^53 − 1; an element that cannot be read is skipped and reported in
 * `skipped` with its path and field (never a failure of the page); only a page that is not `{data: [...]}` is a
 * ResponseValidationError. `collateralAmount` is the USDC the action moved (the official client: "Collateral amount
 * (e.g. USDC spent/received)").
 */
import { z } from 'zod';
import { ResponseValidationError, type EndpointRef } from './errors.js';
import { HistoryAmounts, historyAmountToRaw, type HistoryAmountUnit } from './history-amounts.js';
import { orNull, parseAnswer } from './wire-fields.js';
import type { PortfolioSkip } from './wire-rewards.js';

/** An amount in the page's unit → raw 1e6 integer. */
const amountIn = (unit: HistoryAmountUnit) =>
  z.union([z.string(), z.number()]).transform((value, ctx) => {
    const read = historyAmountToRaw(value, unit);
    if ('raw' in read) return read.raw;
    ctx.addIssue({ code: 'custom', message: `${read.error} (history amounts read as ${unit})` });
    return z.NEVER;
  });

const entryWire = (unit: HistoryAmountUnit) => {
  const amount = amountIn(unit);
  return z.object({
    blockTimestamp: z.number().int().nonnegative(),
    transactionHash: z.string().min(1).nullish(),
    strategy: z.string().nullish(),
    collateralAmount: amount.nullish(),
    outcomeTokenAmount: amount.nullish(),
    outcomeTokenAmounts: z.array(amount).nullish(),
    outcomeIndex: z.number().int().nonnegative().nullish(),
    market: z.object({ slug: z.string().min(1), conditionId: z.string().nullish() }).nullish(),
  });
};
const ENTRY_WIRE: Readonly<Record<HistoryAmountUnit, ReturnType<typeof entryWire>>> = { raw: entryWire('raw'), decimal: entryWire('decimal') };
/** Without a run's setting: raw, the documented shape of the sibling answer (GET /portfolio/positions). */
const RAW_AMOUNTS = new HistoryAmounts('raw');

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

/** One page; `amounts` decides the unit of its amounts from the whole page before any entry is read. */
export function parseHistoryPage(data: unknown, endpoint: EndpointRef, status: number, amounts: HistoryAmounts = RAW_AMOUNTS): HistoryPage {
  const page = parseAnswer(HistoryPageWire, data, endpoint, status);
  const wire = ENTRY_WIRE[amounts.unitForPage(page.data)];
  const entries: HistoryEntry[] = [];
  const skipped: PortfolioSkip[] = [];
  page.data.forEach((element, index) => {
    try {
      const e = parseAnswer(wire, element, endpoint, status, ['data', index], data);
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

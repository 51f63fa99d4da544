/**
 * Reward quoting: the setting every built-in strategy honours (`strategy.params.rewardQuoting`). After the strategy
 * planned its quotes, each YES side of a rewardable market that has no quote earning rewards (≥ minSize, within
 * maxSpread of the reward midpoint) gets one — the side's closest quote moved to `bandFraction` × maxSpread from the
 * midpoint and raised to minSize, or a new one there — when the expected reward per minute it adds (the one scorer,
 * src/strategy/rewards.ts, against the book without the bot's orders) exceeds the expected adverse selection per minute
 * it buys. That cost is judged from the markouts of past fills in the market and its cadence where the view carries
 * them (`view.adverseSelection`: the ledger's live, the backtest's own; src/strategy/adverse-selection.ts: fill rate ×
 * size × adverse selection per share, each shrunk market → cadence → the strategy's view), else — and as the prior —
 * from the strategy's own view: fills per minute on that side (the bot's recent fills, at least `minFillsPerMinute`)
 * × its size × the adverse move per fill (`baseAdverseTicks` + the side's measured toxicity, src/strategy/toxicity.ts).
 *
 * Owns: that decision (`applyRewardQuoting`, pure). Invariants: disabled, or on a market without a pool or a midpoint,
 * the plan is returned unchanged; a quote it adds or moves is on the grid, inside the market's band, on its side of
 * the midpoint and, post-only, not through the others' touch; it never removes a quote nor shrinks one; it sells a
 * token only when the position holds the size (else it buys the complement); diagnostics say what it did per side.
 */
import { z } from 'zod';
import { MAX_TICK, MIN_TICK, SIZE_STEP_RAW, TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { QuoteIntent } from './contract.js';
import { othersBook, touchMid, touchOf } from './own-orders.js';
import type { PlanInput, QuotePlan } from './planner.js';
import { effectiveBand, yesTermsBand } from './rounding.js';
import { estimateRewardShare, ordersAsYesQuotes, rewardMidpoint, rewardSettingsOf } from './rewards.js';
import { estimateToxicity } from './toxicity.js';
import { expectedAdverseSelection, type AdverseSource } from './adverse-selection.js';
import { fromYesTerms, toYesTerms } from './yes-terms.js';
import type { YesSide } from './yes-terms.js';

export const rewardQuotingSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** Where a reward quote goes: this fraction of maxSpread from the midpoint (the farther, the less adverse selection). */
    bandFraction: z.number().gt(0).max(1).default(0.8),
    /** Adverse mid move assumed after any fill, ticks (the measured toxicity adds to it). */
    baseAdverseTicks: z.number().min(0).default(3),
    /** Fills per minute assumed on a side at least (the bot's recent fills raise it). */
    minFillsPerMinute: z.number().min(0).default(0.05),
    /** The window of recent fills for the fill rate and the toxicity, minutes. */
    lookbackMinutes: z.number().gt(0).default(60),
    postOnly: z.boolean().default(true),
    /** Where the adverse selection comes from: the markouts of past fills (market, then cadence) or the view only. */
    adverseFrom: z.enum(['markouts', 'view']).default('markouts'),
    /** The prior's weight against the markouts' adverse selection per share, in fills of the quote's size. */
    priorFills: z.number().min(0).default(5),
    /** The prior's weight against the markouts' fill rate, in minutes of quoting. */
    priorMinutes: z.number().min(0).default(30),
  })
  .prefault({});

export type RewardQuotingParams = z.infer<typeof rewardQuotingSchema>;

const SIDES: readonly YesSide[] = ['bid', 'ask'];
const DIAG: Record<YesSide, string> = { bid: 'rewardQuotingBid', ask: 'rewardQuotingAsk' };
/** The diagnostic's code of what decided the adverse selection: 0 the view alone, 1 the strategy's prior, 2 the cadence, 3 the market. */
const SOURCE_CODE: Record<AdverseSource | 'view', number> = { view: 0, strategy: 1, cadence: 2, market: 3 };

/** The plan with reward quotes added or moved where they pay more than the adverse selection they buy. */
export function applyRewardQuoting(plan: QuotePlan, input: PlanInput, params: RewardQuotingParams): QuotePlan {
  if (!params.enabled) return plan;
  const { view, own } = input;
  const settings = rewardSettingsOf(view.market);
  const band = effectiveBand(view.market);
  if (!(settings.dailyRewardRaw > 0) || !(settings.maxSpreadTicks > 0) || band === null) return plan;
  const others = othersBook(view.yes, own);
  const midpoint = rewardMidpoint(view) ?? touchMid(touchOf(others));
  if (midpoint === null) return plan;
  const midTicks = midpoint * TICKS_PER_UNIT;
  const minSizeRaw = Math.max(SIZE_STEP_RAW, Math.ceil(settings.minSizeRaw / SIZE_STEP_RAW) * SIZE_STEP_RAW);
  const earns = (i: QuoteIntent): boolean => {
    const yes = toYesTerms(i.token, i.side, i.priceTicks);
    return i.sizeRaw >= minSizeRaw && Math.abs(yes.priceTicks - midTicks) < settings.maxSpreadTicks;
  };
  const rewardPerMinute = (intents: readonly QuoteIntent[]): number =>
    estimateRewardShare({ others, bot: ordersAsYesQuotes(intents), midpoint, settings }).rewardPerMinute;
  const toxicity = estimateToxicity(view.recentFills, view.midHistory, view.now, { horizonMs: 60_000, lookbackMs: params.lookbackMinutes * 60_000, priorFills: 3 });
  let intents = plan.intents;
  const diagnostics: Record<string, number> = { ...plan.diagnostics };
  for (const side of SIDES) {
    diagnostics[DIAG[side]] = 0;
    const onSide = intents.filter((i) => toYesTerms(i.token, i.side, i.priceTicks).side === side);
    if (onSide.some(earns)) continue;
    // The target: bandFraction × maxSpread from the midpoint, on the grid, strictly inside the band, on this side.
    const reach = Math.max(1, Math.min(settings.maxSpreadTicks - 1, Math.floor(settings.maxSpreadTicks * params.bandFraction)));
    let ticks = side === 'bid' ? Math.ceil(midTicks - reach) : Math.floor(midTicks + reach);
    if (Math.abs(ticks - midTicks) >= settings.maxSpreadTicks || (side === 'bid' ? ticks >= midTicks : ticks <= midTicks)) continue;
    const touch = side === 'bid' ? (others.asks[0]?.priceTicks ?? null) : (others.bids[0]?.priceTicks ?? null);
    if (params.postOnly && touch !== null && (side === 'bid' ? ticks >= touch : ticks <= touch)) continue;
    ticks = Math.min(MAX_TICK, Math.max(MIN_TICK, ticks));
    const closest = [...onSide].sort((a, b) => Math.abs(toYesTerms(a.token, a.side, a.priceTicks).priceTicks - midTicks) - Math.abs(toYesTerms(b.token, b.side, b.priceTicks).priceTicks - midTicks))[0];
    const sizeRaw = Math.max(minSizeRaw, closest?.sizeRaw ?? 0);
    const held = side === 'bid' ? view.position.noRaw : view.position.yesRaw;
    const token = held >= sizeRaw ? (side === 'bid' ? 'NO' : 'YES') : side === 'bid' ? 'YES' : 'NO';
    const order = fromYesTerms(side, ticks, token);
    const yesBand = yesTermsBand(band, token);
    if (ticks < yesBand.minTicks || ticks > yesBand.maxTicks) continue;
    const quote: QuoteIntent = { slot: closest?.slot ?? `rq-${side}`, token, side: order.side, priceTicks: order.priceTicks, sizeRaw, postOnly: params.postOnly };
    const candidate = [...intents.filter((i) => i !== closest), quote];
    const gainPerMinute = rewardPerMinute(candidate) - rewardPerMinute(intents);
    const recent = view.recentFills.filter((f) => f.atMs >= view.now - params.lookbackMinutes * 60_000 && toYesTerms(f.token, f.side, f.priceTicks).side === side).length;
    const prior = { fillsPerMinute: Math.max(params.minFillsPerMinute, recent / params.lookbackMinutes), perShareUsdc: (params.baseAdverseTicks + toxicity[side].ticks) / TICKS_PER_UNIT };
    const fromMarkouts = params.adverseFrom === 'markouts' && view.adverseSelection ? expectedAdverseSelection(view.adverseSelection, side, prior, sizeRaw / 1e6, params) : null;
    const fillsPerMinute = Math.max(params.minFillsPerMinute, fromMarkouts?.fillsPerMinute ?? prior.fillsPerMinute);
    const adversePerMinute = fillsPerMinute * (sizeRaw / 1e6) * Math.max(0, fromMarkouts?.perShareUsdc ?? prior.perShareUsdc);
    diagnostics[`${DIAG[side]}GainPerMin`] = gainPerMinute;
    diagnostics[`${DIAG[side]}AdversePerMin`] = adversePerMinute;
    diagnostics[`${DIAG[side]}AdverseSource`] = SOURCE_CODE[fromMarkouts?.source ?? 'view'];
    if (!(gainPerMinute > adversePerMinute)) continue;
    intents = candidate;
    diagnostics[DIAG[side]] = 1;
  }
  return { intents, diagnostics };
}

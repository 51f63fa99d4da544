/**
 * Synthetic traders: per market a hidden fair value (log-odds random walk with occasional jumps), a
 * passive maker keeping a ladder of post-only quotes around it, noise takers sending random marketable
 * FAK orders, and informed takers that trade only when the book is mispriced against the fair value —
 * so careless quoting loses money, as it would on the venue.
 *
 * They are ordinary accounts: every order goes through the engine's public `place`/`cancel`, so every
 * rule (amounts, balances, locks, STP, fees) applies. Deterministic for a seed: all randomness comes
 * from the injected PRNG, all time from the host clock. With `streams: 'per-market'` each market's flow draws (its
 * fair-value walk, noise arrivals and informed looks) come from a stream keyed by its slug (keyedStream), in a fixed
 * number per arrival whatever the book holds, so a market's arrivals do not depend on which other markets are listed;
 * order salts (which change nothing) still come from the injected stream.
 */
import { MAX_TICK, MIN_TICK, SIZE_STEP_RAW, TICKS_PER_UNIT, type Outcome, type Side, limitOrderAmounts } from '../../core/venue-rules/index.js';
import type { AccountState } from './ledger.js';
import { NO_ASK, NO_BID, type BookSide } from './order-book.js';
import { worldFair } from './crypto-markets.js';
import { keyedStream, type Prng } from './prng.js';
import type { UnderlyingWorld } from './underlying.js';
import type { MarketState } from './state.js';
import type { ResolvedSynthetic } from './synthetic-config.js';
import type { CancelOutcome, EngineObserver, OrderType, PlaceInput, PlaceOutcome, PriceBand } from './types.js';

export interface SyntheticHost {
  now(): number;
  /** The crypto world, whose strike markets take their fair value from the underlying; null in the generic world. */
  world(): UnderlyingWorld | null;
  markets(): readonly MarketState[];
  account(profileId: number): AccountState | undefined;
  place(input: PlaceInput): PlaceOutcome;
  cancel(profileId: number, orderId: string): CancelOutcome;
  isLive(orderId: string): boolean;
  readonly band: PriceBand;
}

export interface SyntheticAccounts {
  readonly maker: number;
  readonly noise: number;
  readonly informed: number;
}

interface MakerQuote {
  readonly orderId: string;
  readonly key: string;
}

interface MarketFlowState {
  quotedFairTicks: number | null;
  quotes: MakerQuote[];
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** The hidden fair value stays within [2%, 98%]. */
const FAIR_LOG_ODDS_BOUND = Math.log(0.98 / 0.02);
const NOISE_MAX_SLIPPAGE_TICKS = 5;

export class SyntheticTraders {
  private lastStepMs: number | null = null;
  private readonly flow = new Map<string, MarketFlowState>();
  /** Per-market streams (`streams: 'per-market'`), keyed by slug; null: every market draws from `rng`. */
  private readonly streams: Map<string, Prng> | null;
  private readonly streamBase: number;

  constructor(
    private readonly config: ResolvedSynthetic,
    private readonly rng: Prng,
    private readonly host: SyntheticHost,
    private readonly ids: SyntheticAccounts,
    private readonly observer: EngineObserver,
  ) {
    this.streams = config.streams === 'per-market' ? new Map() : null;
    this.streamBase = config.streams === 'per-market' ? rng.nextU32() : 0;
  }

  /** The stream `market`'s flow draws from. */
  private flowRng(market: MarketState): Prng {
    if (this.streams === null) return this.rng;
    const slug = market.spec.slug;
    let stream = this.streams.get(slug);
    if (stream === undefined) {
      stream = keyedStream(this.streamBase, slug);
      this.streams.set(slug, stream);
    }
    return stream;
  }

  step(): void {
    const started = performance.now();
    const now = this.host.now();
    const dtMs = this.lastStepMs === null ? this.config.stepMs : Math.min(HOUR_MS, Math.max(0, now - this.lastStepMs));
    this.lastStepMs = now;
    let placed = 0;
    for (const market of this.host.markets()) {
      if (!market.tradable) {
        this.flow.delete(market.spec.slug);
        this.streams?.delete(market.spec.slug);
        continue;
      }
      this.evolveFairValue(market, dtMs);
      if (this.config.makers.enabled) placed += this.requote(market);
      placed += this.noise(market, dtMs);
      placed += this.informed(market, dtMs);
    }
    this.observer.onSyntheticStep?.(performance.now() - started, placed);
  }

  private evolveFairValue(market: MarketState, dtMs: number): void {
    const world = this.host.world();
    if (market.spec.oracle && world) {
      // The crypto world: the fair value IS the digital on the underlying. Informed traders see the true price; the
      // maker quotes around an older one (the published price, makerLagMs later still), as the venue's books follow
      // the underlying slowly.
      const now = this.host.now();
      const truth = worldFair(world, market.spec.oracle, market.spec.expirationMs, now, 'true');
      const published = worldFair(world, market.spec.oracle, market.spec.expirationMs, now, 'maker');
      if (truth !== null) market.fairLogOdds = logitClamped(truth);
      if (published !== null) market.makerFairLogOdds = logitClamped(published);
      return;
    }
    const hours = dtMs / HOUR_MS;
    const fv = this.config.fairValue;
    const rng = this.flowRng(market);
    let lo = market.fairLogOdds + fv.volatilityPerSqrtHour * Math.sqrt(hours) * rng.normal();
    if (rng.chance(fv.jumpsPerHour * hours)) lo += fv.jumpStdLogOdds * rng.normal();
    market.fairLogOdds = Math.max(-FAIR_LOG_ODDS_BOUND, Math.min(FAIR_LOG_ODDS_BOUND, lo));
  }

  private fairTicks(market: MarketState, logOdds = market.fairLogOdds): number {
    const p = 1 / (1 + Math.exp(-logOdds));
    return Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(p * TICKS_PER_UNIT)));
  }

  /** Keep the maker's ladder around the fair value: cancel quotes that moved, place missing ones. */
  private requote(market: MarketState): number {
    const slug = market.spec.slug;
    let state = this.flow.get(slug);
    if (!state) {
      state = { quotedFairTicks: null, quotes: [] };
      this.flow.set(slug, state);
    }
    state.quotes = state.quotes.filter((q) => this.host.isLive(q.orderId));
    const fair = this.fairTicks(market, market.makerFairLogOdds ?? market.fairLogOdds);
    const m = this.config.makers;
    const moved = state.quotedFairTicks === null || Math.abs(fair - state.quotedFairTicks) >= m.requoteThresholdTicks;
    const complete = state.quotes.length === 2 * m.levels;
    if (!moved && complete) return 0;
    const centre = moved ? fair : (state.quotedFairTicks ?? fair);
    const desired = new Map<string, { side: BookSide; yesTicks: number }>();
    for (let i = 0; i < m.levels; i += 1) {
      const offset = m.spreadTicks + i * m.levelStepTicks;
      for (const [side, yesTicks] of [['bid', centre - offset], ['ask', centre + offset]] as const) {
        if (yesTicks >= this.host.band.minTicks && yesTicks <= this.host.band.maxTicks) {
          desired.set(`${side}:${yesTicks}`, { side, yesTicks });
        }
      }
    }
    const kept: MakerQuote[] = [];
    for (const q of state.quotes) {
      if (desired.has(q.key)) {
        kept.push(q);
        desired.delete(q.key);
      } else {
        this.host.cancel(this.ids.maker, q.orderId);
      }
    }
    const maker = this.host.account(this.ids.maker);
    let placed = 0;
    if (maker) {
      for (const [key, level] of desired) {
        const orderId = this.placeYesExposure(market, maker, level.side, level.yesTicks, m.sizeRaw, 'GTC', true);
        if (orderId !== null) {
          kept.push({ orderId, key });
          placed += 1;
        }
      }
    }
    state.quotes = kept;
    state.quotedFairTicks = centre;
    return placed;
  }

  private noise(market: MarketState, dtMs: number): number {
    const rng = this.flowRng(market);
    const n = rng.poisson((this.config.noise.ratePerMinute * dtMs) / MINUTE_MS);
    const account = this.host.account(this.ids.noise);
    if (!account) return 0;
    let placed = 0;
    for (let i = 0; i < n; i += 1) {
      const steps = rng.int(this.config.noise.minSizeRaw / SIZE_STEP_RAW, this.config.noise.maxSizeRaw / SIZE_STEP_RAW);
      const size = steps * SIZE_STEP_RAW;
      const slippage = rng.int(0, NOISE_MAX_SLIPPAGE_TICKS);
      if (rng.chance(0.5)) {
        if (market.book.bestAsk === NO_ASK) continue;
        const limit = Math.min(this.host.band.maxTicks, market.book.bestAsk + slippage);
        if (this.placeYesExposure(market, account, 'bid', limit, size, 'FAK', false) !== null) placed += 1;
      } else {
        if (market.book.bestBid === NO_BID) continue;
        const limit = Math.max(this.host.band.minTicks, market.book.bestBid - slippage);
        if (this.placeYesExposure(market, account, 'ask', limit, size, 'FAK', false) !== null) placed += 1;
      }
    }
    return placed;
  }

  private informed(market: MarketState, dtMs: number): number {
    const looks = this.flowRng(market).poisson((this.config.informed.ratePerMinute * dtMs) / MINUTE_MS);
    const account = this.host.account(this.ids.informed);
    if (looks === 0 || !account) return 0;
    const fair = this.fairTicks(market);
    const edge = this.config.informed.edgeTicks;
    const size = this.config.informed.maxSizeRaw;
    let placed = 0;
    for (let i = 0; i < looks; i += 1) {
      if (market.book.bestAsk !== NO_ASK && market.book.bestAsk <= fair - edge) {
        if (this.placeYesExposure(market, account, 'bid', fair - edge, size, 'FAK', false) !== null) placed += 1;
      } else if (market.book.bestBid !== NO_BID && market.book.bestBid >= fair + edge) {
        if (this.placeYesExposure(market, account, 'ask', fair + edge, size, 'FAK', false) !== null) placed += 1;
      } else {
        break;
      }
    }
    return placed;
  }

  /**
   * Place an order on `side` of the YES book at `yesTicks`, choosing the instrument that needs no new
   * collateral when possible: a bid is SELL NO if the account holds the NO tokens, else BUY YES; an ask is
   * SELL YES if it holds the YES tokens, else BUY NO. Returns the order id, or null when refused.
   */
  private placeYesExposure(
    market: MarketState,
    account: AccountState,
    side: BookSide,
    yesTicks: number,
    sizeRaw: number,
    orderType: OrderType,
    postOnly: boolean,
  ): string | null {
    if (yesTicks < MIN_TICK || yesTicks > MAX_TICK) return null;
    const sellOutcome: Outcome = side === 'bid' ? 'NO' : 'YES';
    const canSell = account.freeToken(market.tokenOf(sellOutcome)) >= sizeRaw;
    const outcome: Outcome = canSell ? sellOutcome : sellOutcome === 'NO' ? 'YES' : 'NO';
    const orderSide: Side = canSell ? 'SELL' : 'BUY';
    const priceTicks = outcome === 'YES' ? yesTicks : TICKS_PER_UNIT - yesTicks;
    if (priceTicks < this.host.band.minTicks || priceTicks > this.host.band.maxTicks) return null;
    const amounts = limitOrderAmounts(orderSide, priceTicks, sizeRaw);
    const result = this.host.place({
      profileId: account.profileId,
      marketSlug: market.spec.slug,
      orderType,
      tokenId: market.tokenOf(outcome),
      side: orderSide,
      makerAmount: amounts.makerAmount,
      takerAmount: amounts.takerAmount,
      priceTicks,
      feeRateBps: account.feeRateBps,
      salt: this.rng.int(1, 2 ** 52),
      postOnly,
      stpPolicy: 'cancel_taker',
      signature: '0x',
      signedOrderEcho: { synthetic: true },
    });
    return result.ok ? result.order.id : null;
  }
}

/** logit(p) with p kept inside [1e-6, 1 − 1e-6], so a near-certain market has a finite log-odds. */
function logitClamped(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

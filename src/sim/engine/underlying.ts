/**
 * The simulated underlyings of the crypto world: one seeded price path per ticker (geometric Brownian motion with
 * Poisson jumps of log-normal size, no drift in price), stepped on a 1-second grid of the engine's clock, so a
 * virtual-time backtest and a real-time paper run see the same kind of path.
 *
 * Owns: the true price of each ticker, a bounded history of it (for the settlement print and the lagged
 * publication), and the publication lag (the informed traders' lead: they see the true price, everyone else the
 * price of `leadMs` ago, and the synthetic maker, slower still, that of `leadMs + makerLagMs` ago). Invariants: deterministic for a seed and a sequence of `advanceTo` calls at any times (the
 * path depends only on the grid second, never on how often it is read); prices stay finite and > 0; reading before
 * the first grid second or past the history is null, never a guess.
 */
import type { Prng } from './prng.js';

export interface UnderlyingSpec {
  readonly ticker: string;
  /** USD at the start. */
  readonly startPrice: number;
  /** Annualized volatility of the diffusion (0.5 = 50 %/yr). */
  readonly annualVol: number;
  /** Expected jumps per day. */
  readonly jumpsPerDay: number;
  /** Standard deviation of a jump's log size. */
  readonly jumpLogStd: number;
  /** Decimals of the strikes the venue writes for this ticker (BTC/ETH 2, SOL 2, XRP 4). */
  readonly strikeDecimals: number;
  /** The name priceOracleMetadata carries ("Bitcoin"). */
  readonly name: string;
  /** The Pyth feed id the venue names for it (0x + 64 hex). */
  readonly pythFeedId: string;
}

export interface WorldOptions {
  readonly underlyings: readonly UnderlyingSpec[];
  /** How far the informed traders see ahead of the published price, ms. */
  readonly leadMs: number;
  /**
   * How much later than the published price the synthetic maker reacts, ms: the venue's books follow the underlying
   * slowly (which is what a bot quoting from the book alone gets picked off for). Default 20 s.
   */
  readonly makerLagMs?: number;
  /** History kept per ticker, ms (at least the lead and the settlement look-up need). */
  readonly historyMs?: number;
}

const SECONDS_PER_YEAR = 365 * 86_400;
const DEFAULT_HISTORY_MS = 15 * 60_000;
const DEFAULT_MAKER_LAG_MS = 20_000;

/** Real Pyth feed ids (../shared/spec/exchange-facts.md §9); the venue's markets name them in priceOracleMetadata. */
export const DEFAULT_UNDERLYINGS: readonly UnderlyingSpec[] = [
  { ticker: 'BTC', startPrice: 90_000, annualVol: 0.5, jumpsPerDay: 2, jumpLogStd: 0.004, strikeDecimals: 2, name: 'Bitcoin', pythFeedId: '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43' },
  { ticker: 'ETH', startPrice: 3_000, annualVol: 0.65, jumpsPerDay: 2, jumpLogStd: 0.005, strikeDecimals: 2, name: 'Ethereum', pythFeedId: '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace' },
  { ticker: 'SOL', startPrice: 140, annualVol: 0.8, jumpsPerDay: 2, jumpLogStd: 0.006, strikeDecimals: 2, name: 'Solana', pythFeedId: '0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d' },
  { ticker: 'XRP', startPrice: 2, annualVol: 0.8, jumpsPerDay: 2, jumpLogStd: 0.006, strikeDecimals: 4, name: 'XRP', pythFeedId: '0xec5d399846a9209f3fe5881d70aae9268c94339ff9817e8d18ff19fa05eea1c8' },
];

interface Path {
  readonly spec: UnderlyingSpec;
  /** Prices of consecutive grid seconds, oldest first; `firstSecond` is the grid second of `prices[0]`. */
  prices: number[];
  firstSecond: number;
  /** A jump asked for by `shock`, applied at the next step. */
  pendingShock: number;
}

export class UnderlyingWorld {
  private readonly paths = new Map<string, Path>();
  private readonly historySeconds: number;
  private lastSecond: number;

  constructor(
    private readonly options: WorldOptions,
    private readonly rng: Prng,
    startMs: number,
  ) {
    if (!(options.leadMs >= 0)) throw new RangeError(`world.leadMs: must be >= 0 (got ${options.leadMs})`);
    if (options.makerLagMs !== undefined && !(options.makerLagMs >= 0)) throw new RangeError(`world.makerLagMs: must be >= 0 (got ${options.makerLagMs})`);
    this.historySeconds = Math.ceil((options.historyMs ?? DEFAULT_HISTORY_MS) / 1000);
    this.lastSecond = Math.floor(startMs / 1000);
    for (const [i, spec] of options.underlyings.entries()) {
      for (const [field, value] of [['startPrice', spec.startPrice], ['annualVol', spec.annualVol], ['jumpsPerDay', spec.jumpsPerDay], ['jumpLogStd', spec.jumpLogStd]] as const) {
        if (!Number.isFinite(value) || value < 0 || (field === 'startPrice' && value <= 0)) throw new RangeError(`world.underlyings[${i}].${field}: invalid ${String(value)}`);
      }
      if (this.paths.has(spec.ticker)) throw new RangeError(`world.underlyings[${i}].ticker: duplicate ${spec.ticker}`);
      this.paths.set(spec.ticker, { spec, prices: [spec.startPrice], firstSecond: this.lastSecond, pendingShock: 0 });
    }
  }

  get leadMs(): number {
    return this.options.leadMs;
  }

  /** The price the synthetic maker quotes from at `nowMs`: the published one, `makerLagMs` later still. */
  makerViewAt(ticker: string, nowMs: number): number | null {
    return this.publishedAt(ticker, nowMs - (this.options.makerLagMs ?? DEFAULT_MAKER_LAG_MS));
  }

  tickers(): readonly UnderlyingSpec[] {
    return [...this.paths.values()].map((p) => p.spec);
  }

  spec(ticker: string): UnderlyingSpec | undefined {
    return this.paths.get(ticker)?.spec;
  }

  /** Steps every path up to the grid second of `nowMs` (no-op for a time already reached). */
  advanceTo(nowMs: number): void {
    const target = Math.floor(nowMs / 1000);
    while (this.lastSecond < target) {
      this.lastSecond += 1;
      for (const path of this.paths.values()) this.step(path);
    }
  }

  /** The true price at `atMs` (the grid second at or before it); null outside the history. */
  priceAt(ticker: string, atMs: number): number | null {
    const path = this.paths.get(ticker);
    if (!path) return null;
    const index = Math.floor(atMs / 1000) - path.firstSecond;
    if (index < 0) return null;
    return path.prices[Math.min(index, path.prices.length - 1)] ?? null;
  }

  /** The price the world publishes at `nowMs`: the true price of `leadMs` ago (the first price while younger). */
  publishedAt(ticker: string, nowMs: number): number | null {
    const path = this.paths.get(ticker);
    if (!path) return null;
    return this.priceAt(ticker, Math.max(nowMs - this.options.leadMs, path.firstSecond * 1000));
  }

  /**
   * A jump of `logReturn` in `ticker`'s price from the next grid second on (tests and chaos runs: a fast market).
   * The path stays deterministic for the same calls at the same times.
   */
  shock(ticker: string, logReturn: number): void {
    const path = this.paths.get(ticker);
    if (!path || !Number.isFinite(logReturn)) throw new RangeError(`shock: unknown ticker ${ticker} or a non-finite move ${logReturn}`);
    path.pendingShock += logReturn;
  }

  /** Variance of ln S per second of the diffusion plus the jumps (what a perfect estimator would find). */
  variancePerSecond(ticker: string): number | null {
    const spec = this.paths.get(ticker)?.spec;
    if (!spec) return null;
    return (spec.annualVol * spec.annualVol) / SECONDS_PER_YEAR + (spec.jumpsPerDay / 86_400) * spec.jumpLogStd * spec.jumpLogStd;
  }

  private step(path: Path): void {
    const spec = path.spec;
    const sigma = spec.annualVol / Math.sqrt(SECONDS_PER_YEAR);
    let logReturn = sigma * this.rng.normal() - (sigma * sigma) / 2;
    if (spec.jumpsPerDay > 0 && this.rng.chance(spec.jumpsPerDay / 86_400)) logReturn += spec.jumpLogStd * this.rng.normal();
    logReturn += path.pendingShock;
    path.pendingShock = 0;
    const last = path.prices[path.prices.length - 1] ?? spec.startPrice;
    path.prices.push(last * Math.exp(logReturn));
    const excess = path.prices.length - this.historySeconds;
    if (excess > 256) {
      path.prices.splice(0, excess);
      path.firstSecond += excess;
    }
  }
}

/** Φ, for the simulator's own truth (kept apart from the bot's model on purpose: the two must not share a guess). */
function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  // W. H. Press et al., erfc via Chebyshev fit (fractional error < 1.2e-7): enough for the simulator's flow.
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * The true probability that S at the settlement instant ends strictly above K under the world's own dynamics
 * (lognormal, zero price drift, jumps folded into the variance): Φ((ln(S/K) − v/2)/√v), v the variance left.
 */
export function trueDigital(spot: number, strike: number, secondsLeft: number, variancePerSecond: number): number {
  const v = variancePerSecond * Math.max(0, secondsLeft);
  if (v <= 0) return spot > strike ? 1 : 0;
  return normalCdf((Math.log(spot / strike) - v / 2) / Math.sqrt(v));
}

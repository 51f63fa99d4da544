/**
 * The simulated underlyings of the crypto world: one seeded price path per ticker (geometric Brownian motion with
 * Poisson jumps of log-normal size, no drift in price), stepped on a 1-second grid of the engine's clock, so a
 * virtual-time backtest and a real-time paper run see the same kind of path.
 *
 * Owns: the true price of each ticker, a bounded history of it (for the settlement print and the lagged
 * publication), and the publication lag (the informed traders' lead: they see the true price, everyone else the
 * price of `leadMs` ago, and the synthetic maker, slower still, that of `leadMs + makerLagMs` ago). Invariants: deterministic for a seed and a sequence of `advanceTo` calls at any times (the
 * path depends only on the grid second, never on how often it is read); prices stay finite and > 0; reading before
 * the first grid second or past the history is null, never a guess. With `streams: 'per-ticker'` each ticker's path
 * draws from a stream of its own (keyedStream by ticker), so a world of other tickers leaves a ticker's path alone.
 */
import { keyedStream, type Prng } from './prng.js';
import { checkJumpTail, mixtureDigital, normalCdf, normaliseProfile, profileAt, profileSeconds, type JumpTail } from './true-surface.js';

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
  /**
   * Variance multipliers per UTC hour (24, normalised to mean 1; DEFAULT_INTRADAY_PROFILE in true-surface.ts is the
   * simulator's stated assumption). Absent: flat. Set, or with `jumpTail`, the world runs its surface law (below).
   */
  readonly intradayProfile?: readonly number[];
  /**
   * Fat-tailed jumps: a share of them `tailScale` times larger. Absent: every jump of `jumpLogStd`.
   *
   * With either set, the world runs its surface law: the diffusion's variance follows the profile, a jump's log size
   * has mean −s²/2 (the price stays a martingale) and the true digital is exact for any expiry (true-surface.ts).
   * With neither, the path and the digital are the older ones, draw for draw (seeded tests keep their figures).
   */
  readonly jumpTail?: JumpTail;
  /**
   * Where the paths' draws come from: `shared` (default) one stream stepped ticker after ticker; `per-ticker` a stream
   * of its own per ticker (common random numbers: the same seed gives a ticker the same path whatever other tickers the
   * world has).
   */
  readonly streams?: 'shared' | 'per-ticker';
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
  /** The stream this path draws from (the world's own, or the ticker's with `streams: 'per-ticker'`). */
  readonly rng: Prng;
}

export class UnderlyingWorld {
  private readonly paths = new Map<string, Path>();
  private readonly historySeconds: number;
  private lastSecond: number;
  /** The normalised profile (null: flat) and the jump tail (null: none) of the surface law; both null: the older law. */
  private readonly profile: readonly number[] | null;
  private readonly tail: JumpTail | null;

  constructor(
    private readonly options: WorldOptions,
    rng: Prng,
    startMs: number,
  ) {
    if (!(options.leadMs >= 0)) throw new RangeError(`world.leadMs: must be >= 0 (got ${options.leadMs})`);
    if (options.makerLagMs !== undefined && !(options.makerLagMs >= 0)) throw new RangeError(`world.makerLagMs: must be >= 0 (got ${options.makerLagMs})`);
    this.historySeconds = Math.ceil((options.historyMs ?? DEFAULT_HISTORY_MS) / 1000);
    this.lastSecond = Math.floor(startMs / 1000);
    this.profile = options.intradayProfile === undefined ? null : normaliseProfile(options.intradayProfile);
    this.tail = options.jumpTail === undefined ? null : checkJumpTail(options.jumpTail);
    const streamBase = options.streams === 'per-ticker' ? rng.nextU32() : 0;
    for (const [i, spec] of options.underlyings.entries()) {
      for (const [field, value] of [['startPrice', spec.startPrice], ['annualVol', spec.annualVol], ['jumpsPerDay', spec.jumpsPerDay], ['jumpLogStd', spec.jumpLogStd]] as const) {
        if (!Number.isFinite(value) || value < 0 || (field === 'startPrice' && value <= 0)) throw new RangeError(`world.underlyings[${i}].${field}: invalid ${String(value)}`);
      }
      if (this.paths.has(spec.ticker)) throw new RangeError(`world.underlyings[${i}].ticker: duplicate ${spec.ticker}`);
      const pathRng = options.streams === 'per-ticker' ? keyedStream(streamBase, spec.ticker) : rng;
      this.paths.set(spec.ticker, { spec, prices: [spec.startPrice], firstSecond: this.lastSecond, pendingShock: 0, rng: pathRng });
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

  /** Variance of ln S per second of the diffusion plus the jumps, averaged over a day (what a perfect estimator would find). */
  variancePerSecond(ticker: string): number | null {
    const spec = this.paths.get(ticker)?.spec;
    if (!spec) return null;
    return (spec.annualVol * spec.annualVol) / SECONDS_PER_YEAR + (spec.jumpsPerDay / 86_400) * this.jumpVariance(spec);
  }

  /** Whether the world runs its surface law (an intraday profile or fat-tailed jumps; see WorldOptions). */
  get surfaceLaw(): boolean {
    return this.profile !== null || this.tail !== null;
  }

  /**
   * The true probability that `ticker` settles strictly above `strike` at `expiryMs`, seen from `spot` at `nowMs`:
   * under the surface law, the profile's variance over the hours left and the exact jump mixture; otherwise the older
   * lognormal with the jumps folded into the variance. Null for an unknown ticker.
   */
  digital(ticker: string, spot: number, strike: number, nowMs: number, expiryMs: number): number | null {
    const spec = this.paths.get(ticker)?.spec;
    if (!spec) return null;
    const secondsLeft = Math.max(0, (expiryMs - nowMs) / 1000);
    if (!this.surfaceLaw) return trueDigital(spot, strike, secondsLeft, this.variancePerSecond(ticker) ?? 0);
    const base = (spec.annualVol * spec.annualVol) / SECONDS_PER_YEAR;
    const diffusionVariance = base * (this.profile === null ? secondsLeft : profileSeconds(this.profile, nowMs, expiryMs));
    const tail = this.tail ?? { tailShare: 0, tailScale: 1 };
    return mixtureDigital({ spot, strike, diffusionVariance, expectedJumps: (spec.jumpsPerDay / 86_400) * secondsLeft, jumpLogStd: spec.jumpLogStd, tail });
  }

  /** E[jump²] of the log size: small jumps of jumpLogStd, a share of them tailScale times larger. */
  private jumpVariance(spec: UnderlyingSpec): number {
    const small = spec.jumpLogStd * spec.jumpLogStd;
    return this.tail === null ? small : small * (1 - this.tail.tailShare + this.tail.tailShare * this.tail.tailScale * this.tail.tailScale);
  }

  private step(path: Path): void {
    const spec = path.spec;
    const rng = path.rng;
    if (this.surfaceLaw) {
      this.push(path, this.surfaceStep(spec, rng));
      return;
    }
    const sigma = spec.annualVol / Math.sqrt(SECONDS_PER_YEAR);
    let logReturn = sigma * rng.normal() - (sigma * sigma) / 2;
    if (spec.jumpsPerDay > 0 && rng.chance(spec.jumpsPerDay / 86_400)) logReturn += spec.jumpLogStd * rng.normal();
    this.push(path, logReturn);
  }

  /** One grid second under the surface law: the profile's variance for its hour, a martingale jump, small or large. */
  private surfaceStep(spec: UnderlyingSpec, rng: Prng): number {
    const multiplier = this.profile === null ? 1 : profileAt(this.profile, this.lastSecond * 1000);
    const variance = (spec.annualVol * spec.annualVol * multiplier) / SECONDS_PER_YEAR;
    let logReturn = Math.sqrt(variance) * rng.normal() - variance / 2;
    if (spec.jumpsPerDay > 0 && rng.chance(spec.jumpsPerDay / 86_400)) {
      const large = this.tail !== null && this.tail.tailShare > 0 && rng.chance(this.tail.tailShare);
      const s = spec.jumpLogStd * (large ? (this.tail?.tailScale ?? 1) : 1);
      logReturn += s * rng.normal() - (s * s) / 2;
    }
    return logReturn;
  }

  private push(path: Path, stepReturn: number): void {
    const spec = path.spec;
    let logReturn = stepReturn;
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

/**
 * The true probability that S at the settlement instant ends strictly above K under the world's own dynamics
 * (lognormal, zero price drift, jumps folded into the variance): Φ((ln(S/K) − v/2)/√v), v the variance left.
 */
export function trueDigital(spot: number, strike: number, secondsLeft: number, variancePerSecond: number): number {
  const v = variancePerSecond * Math.max(0, secondsLeft);
  if (v <= 0) return spot > strike ? 1 : 0;
  return normalCdf((Math.log(spot / strike) - v / 2) / Math.sqrt(v));
}

/**
 * The crypto world's engine options from the few settings people choose (the keys of the bot config's
 * `venue.underlying`: tickers, cadences, strikesPerExpiry, informedLeadMs, makerLagMs), with the paper world's
 * defaults: the four tickers' simulated underlyings, hourly and daily ladders of three strikes, informed traders
 * 1.5 s ahead of the published price, the synthetic maker 20 s behind it. Used by `sim --world crypto`.
 *
 * Invariants: a bad setting is an EngineConfigError naming the field and the value; the result lists only the
 * chosen tickers' underlyings, in the order of DEFAULT_UNDERLYINGS.
 */
import { CADENCES, DEFAULT_CRYPTO_MARKETS, type Cadence } from './crypto-markets.js';
import { EngineConfigError } from './errors.js';
import type { EngineOptions } from './types.js';
import { DEFAULT_UNDERLYINGS } from './underlying.js';
import { DEFAULT_INTRADAY_PROFILE, DEFAULT_JUMP_TAIL } from './true-surface.js';

export interface CryptoWorldSettings {
  /** Default: every simulated ticker (BTC, ETH, SOL, XRP). */
  readonly tickers?: readonly string[];
  /** Default: hourly and daily. */
  readonly cadences?: readonly Cadence[];
  /** Strikes per ticker and expiry, 1–9 (default 3). */
  readonly strikesPerExpiry?: number;
  /** How far ahead of the published price the informed traders see, ms (default 1500). */
  readonly informedLeadMs?: number;
  /** How far behind the published price the synthetic maker quotes, ms (default 20000). */
  readonly makerLagMs?: number;
  /**
   * The surface law (true-surface.ts): the default intraday profile and fat-tailed jumps (DEFAULT_JUMP_TAIL), the
   * makers quoting the true surface. Default false: the older flat law.
   */
  readonly surface?: boolean;
}

export const DEFAULT_CRYPTO_WORLD = {
  tickers: DEFAULT_UNDERLYINGS.map((u) => u.ticker),
  cadences: ['hourly', 'daily'] satisfies Cadence[],
  strikesPerExpiry: 3,
  informedLeadMs: 1_500,
  makerLagMs: 20_000,
} as const;

function nonNegativeMs(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > 3_600_000) throw new EngineConfigError(field, value, 'must be an integer number of ms in [0, 3600000]');
  return value;
}

function distinctList<T extends string>(field: string, values: readonly string[], allowed: readonly T[]): T[] {
  if (values.length === 0) throw new EngineConfigError(field, values, 'must name at least one');
  const chosen: T[] = [];
  for (const value of values) {
    const match = allowed.find((a) => a === value);
    if (match === undefined) throw new EngineConfigError(field, value, `must be one of ${allowed.join(', ')}`);
    if (chosen.includes(match)) throw new EngineConfigError(field, value, 'is named twice');
    chosen.push(match);
  }
  return chosen;
}

export function cryptoWorldOptions(settings: CryptoWorldSettings = {}): NonNullable<EngineOptions['world']> {
  const tickers = distinctList('tickers', settings.tickers ?? DEFAULT_CRYPTO_WORLD.tickers, DEFAULT_UNDERLYINGS.map((u) => u.ticker));
  const cadences = distinctList('cadences', settings.cadences ?? DEFAULT_CRYPTO_WORLD.cadences, CADENCES);
  const strikesPerExpiry = settings.strikesPerExpiry ?? DEFAULT_CRYPTO_WORLD.strikesPerExpiry;
  if (!Number.isSafeInteger(strikesPerExpiry) || strikesPerExpiry < 1 || strikesPerExpiry > 9) {
    throw new EngineConfigError('strikesPerExpiry', strikesPerExpiry, 'must be an integer in [1, 9]');
  }
  return {
    underlying: {
      underlyings: DEFAULT_UNDERLYINGS.filter((u) => tickers.includes(u.ticker)),
      leadMs: nonNegativeMs('informedLeadMs', settings.informedLeadMs ?? DEFAULT_CRYPTO_WORLD.informedLeadMs),
      makerLagMs: nonNegativeMs('makerLagMs', settings.makerLagMs ?? DEFAULT_CRYPTO_WORLD.makerLagMs),
      ...(settings.surface === true ? { intradayProfile: DEFAULT_INTRADAY_PROFILE, jumpTail: DEFAULT_JUMP_TAIL } : {}),
    },
    markets: { ...DEFAULT_CRYPTO_MARKETS, cadences, strikesPerExpiry },
  };
}

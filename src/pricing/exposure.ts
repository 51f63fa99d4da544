/**
 * Exposure to each underlying: every market on a ticker is a digital on it, so the bot's positions across a strike
 * ladder and several expiries add up to one position in the underlying. Exposure of a market = net YES shares × delta
 * (dp/dS, per USD): in the underlying's units (the delta-equivalent holding, e.g. 0.12 BTC) and × S in USDC (its
 * notional; a 1 % move of the underlying changes the markets' value by 1 % of it).
 *
 * Owns: the sum per ticker and the rule of the cap (pure). Invariants: a market without a model view counts 0 (it is
 * not quoted from the model either); past the cap a market quotes only the side that brings the ticker's exposure back
 * toward 0: with delta ≥ 0 ("above" markets), a YES bid (BUY YES or SELL NO) adds exposure and a YES ask removes it.
 */
export interface MarketExposure {
  readonly ticker: string;
  /** YES − NO held, shares. */
  readonly netYesShares: number;
  /** dp/dS per USD (>= 0). */
  readonly delta: number;
  /** The underlying's price, USD. */
  readonly spot: number;
}

export interface TickerExposure {
  /** Delta-equivalent holding of the underlying (units of it). */
  readonly units: number;
  /** Its notional in USDC (units × spot). */
  readonly usdc: number;
}

export function exposureByTicker(markets: readonly MarketExposure[]): Map<string, TickerExposure> {
  const out = new Map<string, { units: number; usdc: number }>();
  for (const m of markets) {
    if (!Number.isFinite(m.delta) || !Number.isFinite(m.netYesShares) || !Number.isFinite(m.spot)) continue;
    const units = m.netYesShares * m.delta;
    const entry = out.get(m.ticker) ?? { units: 0, usdc: 0 };
    entry.units += units;
    entry.usdc += units * m.spot;
    out.set(m.ticker, entry);
  }
  return out;
}

/** Which YES-terms sides a market on a ticker with this exposure may quote under the cap (USDC, > 0). */
export function sidesUnderCap(exposureUsdc: number, capUsdc: number): { readonly bids: boolean; readonly asks: boolean } {
  return { bids: exposureUsdc < capUsdc, asks: exposureUsdc > -capUsdc };
}

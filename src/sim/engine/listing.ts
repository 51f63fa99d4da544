/**
 * Listing a crypto strike market while the engine runs (the admin's `POST /_sim/markets`): one market on one of the
 * world's tickers, settling at a whole minute in the future, at a given strike or at the money (the published spot,
 * written with the ticker's decimals). It has the world's shape (title, Pyth rule, openPrice = strike, oracle block),
 * the tag and category of the shortest cadence whose period covers its lifetime, no `Recurring` tag and no successor;
 * it settles, resolves and redeems by the same rule as the world's markets, and its listing reaches `marketCreated`
 * listeners.
 *
 * Invariants: a refusal (400 naming `ticker`, `settlesAt` or `strike`; 409 for a slug already listed)
 * changes nothing; a listed strike has exactly the ticker's decimals and is > 0.
 */
import type { EngineCore } from './core.js';
import { cadenceCovering, strikeMarketSlug, strikeMarketSpec } from './crypto-markets.js';
import { failure, fieldFailure } from './errors.js';
import { freshView, addMarket } from './lifecycle.js';
import type { ListStrikeMarketInput, ListStrikeMarketOutcome } from './types.js';

const MINUTE_MS = 60_000;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** The strike written with exactly `decimals` decimals, or why it cannot be. */
function strikeText(raw: string, decimals: number): { readonly ok: true; readonly strike: string } | { readonly ok: false; readonly reason: string } {
  if (!DECIMAL.test(raw)) return { ok: false, reason: 'strike must be a positive decimal number of USD' };
  const [whole = '0', fraction = ''] = raw.split('.');
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) return { ok: false, reason: `strike must have at most ${decimals} decimals for this ticker` };
  const strike = decimals === 0 ? whole.replace(/^0+(?=\d)/, '') : `${whole.replace(/^0+(?=\d)/, '')}.${significant.padEnd(decimals, '0')}`;
  if (!(Number(strike) > 0)) return { ok: false, reason: 'strike must be positive' };
  return { ok: true, strike };
}

export function listStrikeMarket(core: EngineCore, input: ListStrikeMarketInput): ListStrikeMarketOutcome {
  return core.command(() => {
    const world = core.world;
    if (!world) return fieldFailure('INVALID_ARGUMENT', 'ticker', 'ticker cannot be listed: this simulator has no crypto world (start it with one to list strike markets)');
    const underlying = world.spec(input.ticker);
    if (!underlying) {
      return fieldFailure('INVALID_ARGUMENT', 'ticker', `ticker must be one of ${world.tickers().map((t) => t.ticker).join(', ')}`);
    }
    const now = core.clock.now();
    if (!Number.isSafeInteger(input.settlesAt) || input.settlesAt <= now) {
      return fieldFailure('INVALID_ARGUMENT', 'settlesAt', `settlesAt must be ms since epoch in the future (now ${now})`);
    }
    if (input.settlesAt % MINUTE_MS !== 0) {
      return fieldFailure('INVALID_ARGUMENT', 'settlesAt', 'settlesAt must be a whole minute (the opening of a 1-minute candle)');
    }
    world.advanceTo(now);
    const spot = world.publishedAt(input.ticker, now);
    const variancePerSecond = world.variancePerSecond(input.ticker);
    if (spot === null || variancePerSecond === null) return fieldFailure('INVALID_ARGUMENT', 'ticker', 'ticker has no price yet');
    const strike = strikeText(input.strike ?? spot.toFixed(underlying.strikeDecimals), underlying.strikeDecimals);
    if (!strike.ok) return fieldFailure('INVALID_ARGUMENT', 'strike', strike.reason);
    const slug = strikeMarketSlug(underlying.ticker, strike.strike, input.settlesAt, now);
    if (core.marketsBySlug.has(slug)) return failure(409, 'DUPLICATE_MARKET', `A market ${slug} is already listed (same ticker, strike and settlement, listed this millisecond)`);
    const spec = strikeMarketSpec(
      { underlying, strike: strike.strike, spot, variancePerSecond, cadence: cadenceCovering(input.settlesAt - now), expiryMs: input.settlesAt, createdAtMs: now, recurring: false, rewardSettings: core.worldOptions?.markets.rewardSettings },
      core.worldIds,
    );
    addMarket(core, spec, 'listing');
    const market = core.marketsBySlug.get(spec.slug);
    if (!market) return failure(404, 'MARKET_NOT_FOUND', 'Market not found');
    return { ok: true, market: freshView(core, market) };
  });
}

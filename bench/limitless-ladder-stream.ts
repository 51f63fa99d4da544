/**
 * The recorded Limitless BTC ladder (../shared/replay-samples/limitless-btc-ladder-2025-12-17/: the 4 strike markets'
 * objects, 397 REST polls of their books, an exchange's 1-minute klines) as a replay stream in memory, for the
 * surface sweep (bench/surface-sweep.ts). Never written into the repository.
 *
 * The polls carry no trades, and a replay fills only on recorded trades. Each poll does carry the market's
 * `lastTradePrice`: where it changed between two polls of a market, a trade printed in between. This module INFERS
 * that trade — an assumption of the bench, not a recording: at the later poll's time less 1 ms, at that price
 * (rounded to the 0.001 grid), the taker's side BUY when the price is at or above the earlier poll's mid (else SELL),
 * its size the shares the earlier book showed on the side it hit at or through that price and the later one no
 * longer does (at least `MIN_TRADE_SHARES`). 10 trades in 12 minutes, all on one strike: thin, and said so.
 *
 * Owns: the conversion (pure over the files' texts). Invariants: books best first, integer ticks and raw sizes;
 * a level off the 0.001 grid or outside (0, 1) is dropped (none in this sample); terms are the venue's own fields.
 */
import type { ReplayEvent, ReplayHeader, ReplayMarket } from '../src/replay/format.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION } from '../src/replay/format.js';
import { parseUnderlyingFile } from '../src/replay/underlying-import.js';

/** The smallest inferred trade, shares (a trade happened; its size is unknown when no level visibly shrank). */
export const MIN_TRADE_SHARES = 10;

interface Level {
  readonly price: number | string;
  readonly size: number | string;
}
interface Poll {
  readonly capturedAt: string;
  readonly request: string;
  readonly body: { readonly bids: readonly Level[]; readonly asks: readonly Level[]; readonly lastTradePrice?: number | null };
}
interface MarketObject {
  readonly slug: string;
  readonly title: string;
  readonly description: string | null;
  readonly tags: readonly string[];
  readonly metadata: Record<string, unknown>;
  readonly expirationTimestamp: number;
  readonly tokens?: { readonly yes?: string; readonly no?: string };
}

type Side = [number, number][];

function side(levels: readonly Level[]): Side {
  return levels.flatMap((l): [number, number][] => {
    const ticks = Math.round(Number(l.price) * 1000);
    const raw = Math.round(Number(l.size));
    return ticks >= 1 && ticks <= 999 && Math.abs(Number(l.price) * 1000 - ticks) < 1e-6 && raw > 0 ? [[ticks, raw]] : [];
  });
}

/** Shares (raw) at prices `through` the trade that left `before` for `after`. */
function shrunk(before: Side, after: Side, through: (ticks: number) => boolean): number {
  const now = new Map(after);
  return before.reduce((sum, [ticks, raw]) => (through(ticks) ? sum + Math.max(0, raw - (now.get(ticks) ?? 0)) : sum), 0);
}

export interface LadderStream {
  readonly header: ReplayHeader;
  readonly events: ReplayEvent[];
  readonly inferredTrades: number;
}

export function ladderStream(texts: { readonly markets: string; readonly books: string; readonly klines: string; readonly klinesFile: string }): LadderStream {
  const objects = texts.markets
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { body: MarketObject }).body);
  const markets: ReplayMarket[] = objects.map((m) => ({
    slug: m.slug,
    yesTokenId: m.tokens?.yes ?? null,
    noTokenId: m.tokens?.no ?? null,
    tickTicks: 1,
    title: m.title,
    expiresAtMs: m.expirationTimestamp,
    terms: { kind: 'venue', title: m.title, description: m.description, tags: [...m.tags], metadata: { ...m.metadata }, priceOracleMetadata: null, expirationMs: m.expirationTimestamp },
  }));
  const polls = texts.books
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Poll)
    .map((p) => ({ t: Date.parse(p.capturedAt), slug: /\/markets\/([^/\s]+)\/orderbook/.exec(p.request)?.[1] ?? '', bids: side(p.body.bids), asks: side(p.body.asks), last: p.body.lastTradePrice ?? null }))
    .sort((a, b) => a.t - b.t);
  const events: ReplayEvent[] = [];
  const previous = new Map<string, (typeof polls)[number]>();
  let inferred = 0;
  for (const poll of polls) {
    const before = previous.get(poll.slug);
    if (before !== undefined && poll.last !== null && poll.last !== before.last) {
      const priceTicks = Math.min(999, Math.max(1, Math.round(poll.last * 1000)));
      const bestBid = before.bids[0]?.[0];
      const bestAsk = before.asks[0]?.[0];
      const mid = bestBid !== undefined && bestAsk !== undefined ? (bestBid + bestAsk) / 2 : priceTicks;
      const takerSide = priceTicks >= mid ? 'BUY' : 'SELL';
      const gone = takerSide === 'BUY' ? shrunk(before.asks, poll.asks, (t) => t <= priceTicks) : shrunk(before.bids, poll.bids, (t) => t >= priceTicks);
      events.push({ kind: 'trade', t: poll.t - 1, venueTs: null, market: poll.slug, priceTicks, sizeRaw: Math.max(MIN_TRADE_SHARES * 1e6, gone), takerSide, id: `inferred-${inferred}` });
      inferred += 1;
    }
    events.push({ kind: 'book', t: poll.t, venueTs: null, market: poll.slug, bids: poll.bids, asks: poll.asks });
    previous.set(poll.slug, poll);
  }
  const prices = parseUnderlyingFile(texts.klinesFile, texts.klines, 'BTC').events;
  const header: ReplayHeader = {
    kind: 'header',
    format: REPLAY_FORMAT,
    version: REPLAY_VERSION,
    venue: { name: 'limitless', baseUrl: null },
    source: { tool: 'bench:limitless-ladder-stream', version: '0' },
    units: REPLAY_UNITS,
    markets,
    createdAtMs: polls[0]?.t ?? 0,
    part: 0,
  };
  return { header, events: [...prices, ...events].sort((a, b) => a.t - b.t), inferredTrades: inferred };
}

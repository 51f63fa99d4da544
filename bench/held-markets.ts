/**
 * Per-quote cost of the account (src/risk/account-view.ts: `positionView` then `gate`, what the strategy runner calls
 * for every quote) as the number of markets HELD grows: 10 vs 200 held markets (positions left in markets no longer
 * traded, as an account that does not redeem accumulates them), with 20 traded markets quoting 4 orders each; and as
 * the number of markets with OPEN ORDERS grows (10 vs 200 traded markets, 4 orders each, each held), on a real ledger
 * (SQLite, in memory) read through its position book (src/ledger/position-book.ts), the open orders in the executor's
 * order store with their locks kept incrementally (src/orders/open-order-locks.ts).
 *
 * Prints, per case: µs per quote (p50, p99, mean) and the SQLite calls per quote (must be 0: the quoting path
 * never reads SQLite). Before the position book the account walked every held market and read its rows per quote
 * (issue 43's profile: 32.6 s of 53 s busy in PositionsRepo.get on 48 markets).
 *
 *   npx tsx bench/held-markets.ts          (BENCH_HELD_QUOTES, default 20000 per case; exports run() and quoteCost())
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { TradedMarkets } from '../src/markets/traded-markets.js';
import { parseConfigText } from '../src/config/index.js';
import { openLedger } from '../src/ledger/index.js';
import { newOrder } from '../src/orders/order-record.js';
import { OrderStore } from '../src/orders/order-store.js';
import { AccountView } from '../src/risk/account-view.js';
import type { MarketInfo, QuoteIntent } from '../src/strategy/contract.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const TRADED = 20;

function info(slug: string, index: number): MarketInfo {
  return {
    slug,
    tokens: { yes: `${index * 2 + 1}`, no: `${index * 2 + 2}` },
    minSizeRaw: 5_000_000,
    maxSpreadTicks: 30,
    rewardC: 3,
    dailyRewardRaw: 0,
    rewardable: false,
    expiresAtMs: T0 + 86_400_000,
    band: { minTicks: 10, maxTicks: 990 },
  };
}

export interface QuoteCost {
  /** Markets held and not traded. */
  readonly held: number;
  /** Markets traded, each with 4 open orders and a position. */
  readonly traded: number;
  readonly quotes: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly sqliteCallsPerQuote: number;
}

/** Times `quotes` quotes (positionView + gate, round-robin over the traded markets) with `held` markets held beside `traded` traded. */
export function quoteCost(held: number, quotes: number, traded = TRADED): QuoteCost {
  const ledger = openLedger({ path: ':memory:', synchronous: 'NORMAL', now: () => T0 });
  try {
    const infos = Array.from({ length: traded }, (_, i) => info(`traded-${i}`, i));
    // Held markets (not traded), and a small position in every traded one.
    const fills = [...Array.from({ length: held }, (_, i) => info(`held-${i}`, traded + i)), ...infos].map((m, i) => ({
      tradeEventId: `t-${i}`,
      orderId: `o-${i}`,
      marketSlug: m.slug,
      token: 'YES' as const,
      tokenId: m.tokens.yes,
      side: 'BUY' as const,
      priceTicks: 400,
      sizeRaw: 5_000_000,
      feeRaw: 0,
      role: 'maker' as const,
      state: 'mined' as const,
      atMs: T0,
    }));
    ledger.recordFills(fills);
    const markets = new TradedMarkets(infos.map((m, i) => ({ slug: m.slug, id: i })), (m) => infos.find((x) => x.slug === m.slug)!);
    const open = new OrderStore();
    for (const m of infos) {
      for (const [slot, side, price] of [['bid-0', 'BUY', 450], ['bid-1', 'BUY', 440], ['ask-0', 'SELL', 550], ['ask-1', 'SELL', 560]] as const) {
        const order = newOrder({ clientOrderId: `om-b-${m.slug}-${slot}`, marketSlug: m.slug, slot, token: 'YES', tokenId: m.tokens.yes, side, priceTicks: price, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' }, T0);
        open.put({ ...order, state: 'live', orderId: `v-${m.slug}-${slot}` });
      }
    }
    const config = parseConfigText('strategy: {name: fixed-spread}\nrisk: {maxNotional: 100000}\n', { source: '<bench>', baseDir: '/srv' });
    const account = new AccountView({
      ledger: ledger.positionBook,
      orders: { openIn: (slug) => open.openInMarket(slug), locks: open.locks },
      markets,
      risk: config.risk,
      now: () => T0,
      halts: () => ({ killSwitch: false, stale: false }),
      onBlocked: () => undefined,
      log: pino({ level: 'silent' }),
    });
    const intents: QuoteIntent[] = [
      { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 451, sizeRaw: 5_000_000 },
      { slot: 'ask-0', token: 'YES', side: 'SELL', priceTicks: 549, sizeRaw: 5_000_000 },
    ];
    const quote = (i: number): void => {
      const slug = infos[i % traded]!.slug;
      account.positionView(slug);
      account.gate(slug, intents);
    };
    for (let i = 0; i < Math.min(2_000, quotes); i++) quote(i);
    const callsBefore = ledger.sqliteCalls();
    const samples = new Float64Array(quotes);
    for (let i = 0; i < quotes; i++) {
      const started = performance.now();
      quote(i);
      samples[i] = (performance.now() - started) * 1000;
    }
    const calls = ledger.sqliteCalls() - callsBefore;
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
    const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
    return { held, traded, quotes, p50Us: at(0.5), p99Us: at(0.99), meanUs: Math.round(mean * 10) / 10, sqliteCallsPerQuote: calls / quotes };
  } finally {
    ledger.close();
  }
}

export function run(quotes = Number(process.env['BENCH_HELD_QUOTES'] ?? 20_000)): QuoteCost[] {
  return [quoteCost(10, quotes), quoteCost(200, quotes), quoteCost(0, quotes, 10), quoteCost(0, quotes, 200)];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(run());
}

/**
 * A new ladder joined the fast way (the real CLI as a child process, against the simulator's crypto world in this
 * process, selecting every BTC market): twelve strike markets listed in the same moment (`POST /_sim/markets`, the
 * venue's `marketCreated` events) are all quoted with no read of the bot's own orders in them (each was listed after
 * the bot started and the ledger holds no order there: src/markets/join-evidence.ts) and no REST book (each market's
 * first book is the feed's first frame: `feed.firstBookWaitSec`). The bound is in requests, from the simulator's
 * request log: the markets' details, a few cancel-replace batches for their first quotes, and the background's reads.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, spawnBot, startBtcDailyWorld, writeBotConfig } from '../support/bot-process.js';
import { jsonLines, pollFor, stopAfterEach } from './ops-support.js';

const LADDER = 12;
const started = stopAfterEach();

it('quotes twelve markets listed at once without listing their orders or reading their books over REST', async () => {
  const { venue, daily } = await startBtcDailyWorld();
  started.sim = venue;
  const { configPath } = writeBotConfig(venue, {
    // The simulator shares our clock: no margin needed for the venue's clock running ahead.
    marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 20 }, discovery: { pollIntervalSec: 600, clockMarginSec: 0 } },
    pricing: { guard: { enabled: false } },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
    risk: { maxOpenOrders: 4, maxNotional: 5000 },
    // Thirteen markets' orders canceled and confirmed at the venue's pace (a cancel and a listing each).
    shutdown: { budgetMs: 20_000 },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  await running.waitForLine(isQuotingLine, 40_000);
  await pollFor('the daily market quoted', () => (liveOrders(venue, [daily]).length > 0 ? true : undefined), 20_000);

  // A ladder: twelve strikes around the spot, one settlement two hours away, listed in the same moment.
  const seq = venue.control.requestLog().at(-1)?.seq ?? 0;
  const settlesAt = Math.ceil((Date.now() + 2 * 3_600_000) / 60_000) * 60_000;
  const ladder = Array.from({ length: LADDER }, (_, i) => venue.control.listMarket({ ticker: 'BTC', settlesAt, strike: 90_000 + (i - LADDER / 2) * 50 }).slug);
  await pollFor('every market of the ladder quoted', () => (ladder.every((slug) => liveOrders(venue, [slug]).length > 0) ? true : undefined), 30_000, 50);

  const requests = venue.control.requestLog({ sinceSeq: seq });
  const kinds = new Map<string, number>();
  for (const r of requests) {
    const kind = `${r.method} ${r.path.split('?')[0]!.replace(/^\/markets\/[^/]+/, '/markets/{slug}')}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const onLadder = (suffix: string): number => requests.filter((r) => ladder.some((slug) => r.path.startsWith(`/markets/${slug}${suffix}`))).length;
  expect(onLadder('/user-orders'), 'no listing of own orders in a market listed after the start').toBe(0);
  expect(onLadder('/orderbook'), 'no REST book: the first frames are the books').toBe(0);
  // Each market's details once, and its first quotes in shared cancel-replace requests (the daily market's requotes
  // go on beside them and are not counted).
  const ladderBatches = requests.filter((r) => r.path === '/orders/cancel-replace/batch' && (r.detail?.markets ?? []).some((m) => ladder.includes(m)));
  const kindsText = JSON.stringify([...kinds]);
  expect(kinds.get('GET /markets/{slug}'), kindsText).toBe(LADDER);
  expect(ladderBatches.length, `${ladderBatches.map((r) => r.detail?.markets.length).join(',')} ${kindsText}`).toBeLessThanOrEqual(3);
  expect(requests.filter((r) => !ladderBatches.includes(r) && r.path !== '/orders/cancel-replace/batch' && !r.path.startsWith('/markets/dollarbtc')).length, kindsText).toBeLessThanOrEqual(4);
  const skipped = jsonLines(running).filter((line) => line.msg === 'joined without listing its orders: no order of the bot can be there');
  expect(skipped.map((line) => line['market']).sort()).toEqual([...ladder].sort());

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);
}, 120_000);

/**
 * Many bots, one account (issue 16, items 3–5), through the public entry: whole Bots (in-process) against a
 * standalone simulator seen as a live venue, every bot on the simulator's ONE demo account.
 *
 * - Two bots (tags `alpha`, `beta`) quote one market: neither cancels, adopts or books the other's orders at start-up,
 *   in the ledger check or at shutdown (cancels by the bot's own ids, never `DELETE /orders/all`); each bot's ledger
 *   equals the venue's trades of its own orders; the other bot's orders are counted (`outcome_maker_foreign_orders`)
 *   and what the account holds beyond the bot's ledger is reported (`outcome_maker_account_unbooked_shares`).
 * - A placement refused for insufficient balance (tokens the account's other orders lock) is counted and takes the
 *   refused side out of the bot's funding until balances are read again: no retry loop.
 * - A ledger check in flight when the bot stops never touches the closed ledger.
 *
 * The bot's 60 s ledger-check timer is held by the test's scheduler and fired on demand (`HeldCheckScheduler`), so no
 * test waits a minute.
 */
import { describe, it, type TestContext } from 'vitest';
import { pino } from 'pino';
import { Bot } from '../../src/app/bot.js';
import { systemScheduler, type CancelTimer, type Scheduler } from '../../src/core/clock.js';
import type { AppConfig } from '../../src/config/index.js';
import { openLedger } from '../../src/ledger/index.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import {
  cleanupAfterTest,
  gaugeValue,
  LADDER_500,
  liveOrders,
  OPENING_BOOK,
  setThirdPartyQuotes,
  orderText,
  liveEnv,
  sameLadder,
  startBookedSim,
  tempDatabasePath,
  testConfig,
  thirdPartyPlace,
  waitFor,
  when,
  type Cleanup,
  type TestConfigOptions,
} from '../support/bot-harness.js';
import { limitOrderAmounts } from '../../src/core/venue-rules/index.js';

const CHECK_INTERVAL_MS = 60_000;

/** The system clock and timers, except the bot's periodic ledger check (a 60 s timer): held, fired by `fire()`. */
class HeldCheckScheduler implements Scheduler {
  private held: (() => void)[] = [];
  now(): number {
    return Date.now();
  }
  schedule(delayMs: number, callback: () => void): CancelTimer {
    if (delayMs !== CHECK_INTERVAL_MS) return systemScheduler.schedule(delayMs, callback);
    this.held.push(callback);
    return () => {
      this.held = this.held.filter((entry) => entry !== callback);
    };
  }
  heldCount(): number {
    return this.held.length;
  }
  fire(): void {
    const due = this.held;
    this.held = [];
    for (const callback of due) callback();
  }
}

interface TestBot {
  readonly bot: Bot;
  readonly config: AppConfig;
  readonly logs: string[];
  readonly checks: HeldCheckScheduler;
  /** `msg` of every line at or above `level` (pino numbers: 30 info, 40 warn, 50 error). */
  messages(level?: number): string[];
  stop(): Promise<{ clean: boolean }>;
}

async function startTestBot(sim: RunningSimulator, cleanup: Cleanup, options: Omit<TestConfigOptions, 'venue'>): Promise<TestBot> {
  const config = testConfig({ venue: { kind: 'live', sim }, ...options });
  const logs: string[] = [];
  const checks = new HeldCheckScheduler();
  const bot = new Bot(config, { dryRun: false, logger: pino({ level: 'debug', base: null }, { write: (line: string) => void logs.push(line) }), env: liveEnv(sim), scheduler: checks });
  let stopped: Promise<{ clean: boolean }> | null = null;
  const stop = (): Promise<{ clean: boolean }> => (stopped ??= bot.stop());
  cleanup.add(stop);
  await bot.start();
  await bot.whenQuoting();
  const messages = (level = 30): string[] =>
    logs.flatMap((line) => {
      const parsed = JSON.parse(line) as { level?: number; msg?: string };
      return (parsed.level ?? 0) >= level ? [parsed.msg ?? ''] : [];
    });
  return { bot, config, logs, checks, messages, stop };
}

/** Fires the bot's ledger check and waits until it has run to its end. */
async function runLedgerCheck(bot: TestBot): Promise<void> {
  const before = bot.messages(10).filter((msg) => msg === 'ledger check done').length;
  bot.checks.fire();
  await waitFor(() => when(bot.messages(10).filter((msg) => msg === 'ledger check done').length > before), 10_000, 'the ledger check to finish', () => bot.logs.slice(-5));
}

/** Slot → description of the live orders of ONE bot tag (the harness's `ladderOf` reads the whole account). */
function tagLadder(sim: RunningSimulator, slug: string, tag: string): Record<string, string> {
  const entries = liveOrders(sim, slug, tag).flatMap(({ order, slot, tagged }): [string, string][] => (tagged && slot !== null ? [[slot, orderText(order)]] : []));
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

function liveIdsOf(sim: RunningSimulator, slug: string, tag: string): string[] {
  return sim.engine
    .orders(sim.demoAccount.profileId, slug, ['LIVE'])
    .filter((order) => order.clientOrderId?.startsWith(`${tag}-`) === true)
    .map((order) => order.id)
    .sort();
}

/** The venue's trades of the orders of one bot tag: signed size per token, and the order ids. */
function venueTradesOf(sim: RunningSimulator, tag: string): { readonly byToken: Map<string, number>; readonly orderIds: Set<string> } {
  const byToken = new Map<string, number>();
  const orderIds = new Set<string>();
  for (const fill of sim.engine.accountTrades(sim.demoAccount.profileId)) {
    if (fill.clientOrderId?.startsWith(`${tag}-`) !== true) continue;
    const key = `${fill.marketSlug}|${fill.outcome}`;
    byToken.set(key, (byToken.get(key) ?? 0) + (fill.side === 'BUY' ? fill.sizeRaw : -fill.sizeRaw));
    orderIds.add(fill.orderId);
  }
  return { byToken, orderIds };
}

/** A closed bot's ledger: balance per token (non-zero) and the venue order ids it holds fills of. */
function ledgerOf(path: string): { readonly byToken: Map<string, number>; readonly filledOrderIds: (ids: Iterable<string>) => string[] } {
  const ledger = openLedger({ path, mustExist: true });
  try {
    const byToken = new Map<string, number>();
    for (const balance of ledger.tokenBalances()) if (balance.balanceRaw !== 0) byToken.set(`${balance.marketSlug}|${balance.token}`, balance.balanceRaw);
    const fillsByOrder = new Map<string, number>();
    return {
      byToken,
      filledOrderIds: (ids) => {
        const reopened = openLedger({ path, mustExist: true });
        try {
          for (const id of ids) fillsByOrder.set(id, reopened.fillsForOrder(id).length);
        } finally {
          reopened.close();
        }
        return [...fillsByOrder].filter(([, count]) => count > 0).map(([id]) => id);
      },
    };
  } finally {
    ledger.close();
  }
}

const BETA_LADDER: Readonly<Record<string, string>> = { 'ask-0': 'BUY NO 450 x 5000000', 'bid-0': 'BUY YES 450 x 5000000' };

const BOT_OPTIONS = (slug: string, tag: string, cleanup: Cleanup): Omit<TestConfigOptions, 'venue'> => ({
  markets: [slug],
  orders: { botTag: tag },
  database: tempDatabasePath(cleanup),
});

describe.concurrent('many bots, one account', () => {
  it('two bots on one market: neither cancels, adopts or books the other\'s orders; each ledger is its own trades', async ({ expect, onTestFinished }: TestContext) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const alpha = await startTestBot(sim, cleanup, BOT_OPTIONS(slug, 'alpha', cleanup));
    await waitFor(() => when(sameLadder(tagLadder(sim, slug, 'alpha'), LADDER_500)), 10_000, 'alpha to quote', () => tagLadder(sim, slug, 'alpha'));
    const alphaIds = liveIdsOf(sim, slug, 'alpha');
    expect(alphaIds).toHaveLength(2);

    // Start-up: beta leaves alpha's orders alone (counts them as foreign) and adopts none of them. Beta quotes wider,
    // behind the third party's touch, so alpha's view of the others' book (and so its quotes) does not change.
    const beta = await startTestBot(sim, cleanup, { ...BOT_OPTIONS(slug, 'beta', cleanup), strategy: { bidSpread: 0.05, askSpread: 0.05 } });
    await waitFor(() => when(sameLadder(tagLadder(sim, slug, 'beta'), BETA_LADDER)), 10_000, 'beta to quote', () => tagLadder(sim, slug, 'beta'));
    expect(liveIdsOf(sim, slug, 'alpha')).toEqual(alphaIds);
    // Counted by beta's own-order listing (its ledger is new: listed before it quotes, src/markets/startup-listing.ts).
    await waitFor(async () => when((await gaugeValue(beta.bot, 'outcome_maker_foreign_orders', { market: slug })) === 2), 10_000, 'beta to count alpha\'s orders as foreign');
    expect(beta.bot.summary().openOrders).toBe(2);
    expect(alpha.bot.summary().openOrders).toBe(2);

    // A taker buys NO down to both bots' YES bids (alpha 0.48, beta 0.45; 5 shares each): each books its own fill only.
    thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 550, sizeRaw: 10_000_000, orderType: 'FAK' });
    await waitFor(() => when(alpha.bot.summary().fills === 1 && beta.bot.summary().fills === 1), 10_000, 'one fill each', () => [alpha.bot.summary(), beta.bot.summary()]);
    // The sweep took the third party's own bid (self-trade prevention): its book is put back, so both bots settle.
    setThirdPartyQuotes(sim, slug, OPENING_BOOK);
    // Each now holds 5 YES: its ask is a SELL YES of its own tokens (the account holds 10: enough for both).
    const alphaHeld = { 'ask-0': 'SELL YES 520 x 5000000', 'bid-0': 'BUY YES 480 x 5000000' };
    const betaHeld = { 'ask-0': 'SELL YES 550 x 5000000', 'bid-0': 'BUY YES 450 x 5000000' };
    await waitFor(() => when(sameLadder(tagLadder(sim, slug, 'alpha'), alphaHeld) && sameLadder(tagLadder(sim, slug, 'beta'), betaHeld)), 10_000, 'both ladders back', () => [tagLadder(sim, slug, 'alpha'), tagLadder(sim, slug, 'beta')]);

    // Ledger checks (twice: a repair needs two sightings): the account holds 10 YES, each ledger 5; nothing is
    // adjusted, nothing reported unrepaired, and the account-level difference is a metric.
    for (let round = 0; round < 2; round += 1) {
      await runLedgerCheck(alpha);
      await runLedgerCheck(beta);
    }
    for (const bot of [alpha, beta]) {
      expect(bot.messages(40).filter((msg) => /ledger (mismatch|repaired)|disagree|caught up/.test(msg))).toEqual([]);
      expect(await gaugeValue(bot.bot, 'outcome_maker_account_unbooked_shares', { market: slug, token: 'YES' })).toBe(5);
    }

    // Shutdown of beta: its own orders canceled by id, alpha's untouched, no cancel-all on the account.
    const alphaLive = liveIdsOf(sim, slug, 'alpha');
    const seq = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;
    expect((await beta.stop()).clean).toBe(true);
    expect(liveIdsOf(sim, slug, 'beta')).toEqual([]);
    expect(liveIdsOf(sim, slug, 'alpha')).toEqual(alphaLive);
    const sent = sim.control.requestLog({ sinceSeq: seq });
    expect(sent.filter((entry) => entry.path.startsWith('/orders/all'))).toEqual([]);
    expect(sent.filter((entry) => entry.method === 'POST' && ['/orders/cancel-batch', '/orders/batch-cancel'].includes(entry.path)).length).toBeGreaterThan(0);
    expect((await alpha.stop()).clean).toBe(true);
    expect(sim.control.requestLog({ sinceSeq: seq }).filter((entry) => entry.path.startsWith('/orders/all'))).toEqual([]);

    // Each ledger equals the venue's trades of its own orders, and holds no fill of the other bot's orders.
    for (const [bot, other] of [
      [alpha, 'beta'],
      [beta, 'alpha'],
    ] as const) {
      const own = venueTradesOf(sim, bot.config.orders.botTag);
      const ledger = ledgerOf(bot.config.database.path);
      expect(own.orderIds.size).toBeGreaterThan(0);
      expect(ledger.byToken).toEqual(own.byToken);
      expect(ledger.filledOrderIds(venueTradesOf(sim, other).orderIds)).toEqual([]);
    }
  }, 60_000);

  it('start-up with foreignOrders: cancel cancels other tags\' orders, never adopts them', async ({ expect, onTestFinished }: TestContext) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const alpha = await startTestBot(sim, cleanup, { ...BOT_OPTIONS(slug, 'alpha', cleanup), shutdown: { leaveOrdersResting: true } });
    await waitFor(() => when(liveIdsOf(sim, slug, 'alpha').length === 2), 10_000, 'alpha to quote');
    const alphaIds = liveIdsOf(sim, slug, 'alpha');
    await alpha.stop();
    expect(liveIdsOf(sim, slug, 'alpha')).toEqual(alphaIds);
    const beta = await startTestBot(sim, cleanup, { ...BOT_OPTIONS(slug, 'beta', cleanup), orders: { botTag: 'beta', foreignOrders: 'cancel' } });
    await waitFor(() => when(liveIdsOf(sim, slug, 'alpha').length === 0), 10_000, 'alpha\'s orders to be canceled');
    expect(beta.bot.summary().openOrders).toBe(2);
  }, 60_000);

  it('a placement refused for insufficient tokens is counted and not retried until balances are read again', async ({ expect, onTestFinished }: TestContext) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    // Refusals counted as POST /orders 400s: the single-placement path (placements as cancel-replace operations off).
    const bot = await startTestBot(sim, cleanup, { ...BOT_OPTIONS(slug, 'alpha', cleanup), orders: { botTag: 'alpha', batchPlacements: 'off' } });
    await waitFor(() => when(sameLadder(tagLadder(sim, slug, 'alpha'), LADDER_500)), 10_000, 'the bot to quote', () => tagLadder(sim, slug, 'alpha'));
    // The bot buys 5 YES; it then offers them (SELL YES) as its ask.
    thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK' });
    await waitFor(() => when(bot.bot.summary().fills === 1), 10_000, 'the fill');
    const market = sim.engine.market(slug)!;
    const isSellYes = (order: { outcome: string; side: string }): boolean => order.outcome === 'YES' && order.side === 'SELL';
    await waitFor(() => when(sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).some((o) => o.clientOrderId?.startsWith('alpha-') === true && isSellYes(o))), 10_000, 'the SELL YES ask');
    // Another process of the account takes the YES tokens (here: a sale straight into the engine, no clientOrderId),
    // while the bot's own ask is being replaced: from now on every SELL YES the bot places is refused.
    const amounts = limitOrderAmounts('SELL', 990, 5_000_000);
    const sellAll = (): void => {
      const placed = sim.engine.place({
        profileId: sim.demoAccount.profileId, marketSlug: slug, orderType: 'GTC', tokenId: market.yesTokenId, side: 'SELL',
        makerAmount: amounts.makerAmount, takerAmount: amounts.takerAmount, priceTicks: 990, feeRateBps: 300, salt: Date.now(),
        postOnly: true, stpPolicy: 'cancel_maker', signature: '0x', signedOrderEcho: {},
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.body));
    };
    const ownSell = sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).find((o) => o.clientOrderId?.startsWith('alpha-') === true && isSellYes(o))!;
    sim.engine.cancel(sim.demoAccount.profileId, ownSell.id);
    sellAll();
    const seq = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;
    const refusals = (): number => sim.control.requestLog({ sinceSeq: seq }).filter((e) => e.method === 'POST' && e.path === '/orders' && e.status === 400).length;
    await waitFor(() => when(refusals() === 1), 10_000, 'the first refusal');
    // The book changes again and again (depth behind the touch): every change is a requote of the market.
    const requotes = async (): Promise<number> => (await gaugeValue(bot.bot, 'outcome_maker_requotes_total', { market: slug })) ?? 0;
    for (let i = 0; i < 6; i += 1) {
      const before = await requotes();
      thirdPartyPlace(sim, slug, { outcome: 'YES', side: 'BUY', priceTicks: 455 - i, sizeRaw: 1_000_000 });
      await waitFor(async () => when((await requotes()) > before), 5_000, 'a requote');
    }
    // The refused SELL YES was not tried again: one refusal, counted.
    expect(refusals()).toBe(1);
    expect(await gaugeValue(bot.bot, 'outcome_maker_risk_blocks_total', { market: slug, reason: 'insufficient-balance' })).toBe(1);
    // The ask is still quoted, as BUY NO (same exposure, paid in USDC).
    await waitFor(() => when(sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).some((o) => o.clientOrderId?.startsWith('alpha-') === true && o.outcome === 'NO' && o.side === 'BUY')), 10_000, 'the ask as BUY NO');
  }, 60_000);

  it('joins a busy account: start-up reads refused with 429 beyond the client\'s retries are retried with backoff', async ({ expect, onTestFinished }: TestContext) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    // The market lookups answer 429 eight times in a row: more than the client's own retries (3) can absorb.
    sim.control.failNextRequests({ status: 429, count: 8, pathPrefix: '/markets/', retryAfterSeconds: 1 });
    const bot = await startTestBot(sim, cleanup, BOT_OPTIONS(slug, 'alpha', cleanup));
    await waitFor(() => when(sameLadder(tagLadder(sim, slug, 'alpha'), LADDER_500)), 10_000, 'the bot to quote', () => tagLadder(sim, slug, 'alpha'));
    expect(sim.control.pendingFaults()).toEqual([]);
    expect(bot.messages(40)).toContain('start-up read refused (rate limited): retrying (the account may be busy)');
  }, 60_000);

  it('a ledger check in flight at shutdown never touches the closed ledger', async ({ expect, onTestFinished }: TestContext) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const bot = await startTestBot(sim, cleanup, BOT_OPTIONS(slug, 'alpha', cleanup));
    // The check's balance read answers 503 twice: the client retries it (1 s, then 2 s) while the bot stops.
    sim.control.failNextRequests({ status: 503, count: 2, pathPrefix: '/portfolio/positions' });
    const firedAt = bot.logs.length;
    bot.checks.fire();
    await waitFor(() => when(sim.control.pendingFaults().length === 0 || sim.control.pendingFaults()[0]!.remaining < 2), 5_000, 'the check to be in flight');
    expect((await bot.stop()).clean).toBe(true);
    // The held read comes back after the stop (its retries end within ~3 s): the check ends there, writing nothing. On a
    // loaded machine the stop itself can outlast the retries: the end is looked for from the check's start, not the stop's.
    const end = await waitFor(() => bot.logs.slice(firedAt).find((line) => /ledger check (done|failed|cut short)/.test(line)), 10_000, 'the check in flight to end');
    expect(end).not.toContain('ledger check failed');
    expect(bot.logs.slice(firedAt).join('\n')).not.toMatch(/ledger check failed|not open/i);
  }, 30_000);
});

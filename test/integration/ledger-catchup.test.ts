/**
 * A fill that happens while the bot is down reaches the ledger before the bot quotes again: the restarted bot
 * looks up the orders its ledger knew as open and repairs the ledger from the venue's answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { stringify } from 'yaml';
import { Bot } from '../../src/app/bot.js';
import { parseConfigText } from '../../src/config/index.js';
import { openLedger } from '../../src/ledger/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { limitOrderAmounts } from '../../src/core/venue-rules/index.js';

const TAKER = { profileId: 77, address: '0x00000000000000000000000000000000000000a7' };

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function configFor(running: RunningSimulator, slug: string, dbPath: string) {
  const text = stringify({
    version: 1,
    venue: { kind: 'live', baseUrl: running.baseUrl, socketUrl: running.socketUrl, headerPrefix: running.headerPrefix },
    credentials: { apiTokenId: 'T_ID', apiSecret: 'T_SECRET', privateKey: 'T_KEY' },
    markets: { slugs: [slug] },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02, levels: 1, orderSize: 5 } },
    orders: { botTag: 'catchup', recvWindowMs: null },
    shutdown: { leaveOrdersResting: true, budgetMs: 5000 },
    metrics: { enabled: false },
    database: { path: dbPath },
    log: { level: 'silent', pretty: false },
  });
  return parseConfigText(text, { source: 'catchup.yaml', baseDir: tmpdir() });
}

describe('ledger catch-up after a restart', () => {
  it('records a fill that happened while the bot was down, exactly once', async () => {
    sim = await startSimulator({ port: 0, seed: 5, markets: 4, settlementDelayMs: 50 });
    const running = sim;
    const slug = running.engine.markets().find((m) => m.groupSlug === undefined)!.slug;
    const market = running.engine.market(slug)!;
    // Some depth so the strategy has a mid to quote around.
    running.control.addAccount({ profileId: TAKER.profileId, address: TAKER.address, feeRateBps: 0, usdc: '100000', tokens: { [market.yesTokenId]: '1000' } });
    const place = (side: 'BUY' | 'SELL', ticks: number, sizeRaw: number, orderType: 'GTC' | 'FAK') => {
      const amounts = limitOrderAmounts(side, ticks, sizeRaw);
      return running.engine.place({
        profileId: TAKER.profileId, marketSlug: slug, orderType, tokenId: market.yesTokenId, side,
        makerAmount: amounts.makerAmount, takerAmount: amounts.takerAmount, priceTicks: ticks, feeRateBps: 0,
        salt: Math.floor(Math.random() * 1e9), postOnly: false, stpPolicy: 'cancel_maker', signature: '0x', signedOrderEcho: {},
      });
    };
    expect(place('BUY', 400, 20_000_000, 'GTC').ok).toBe(true);
    expect(place('SELL', 600, 20_000_000, 'GTC').ok).toBe(true);

    const dbPath = join(mkdtempSync(join(tmpdir(), 'om-catchup-')), 'bot.db');
    const env = { T_ID: running.demoAccount.tokenId, T_SECRET: running.demoAccount.secret, T_KEY: running.demoAccount.privateKey };
    const logger = pino({ level: 'silent' });

    const first = new Bot(configFor(running, slug, dbPath), { dryRun: false, logger, env });
    await first.start();
    await first.whenQuoting();
    const demo = running.demoAccount.profileId;
    const bid = await waitFor(
      () => running.engine.orders(demo, slug, ['LIVE']).find((o) => o.side === 'BUY' && o.outcome === 'YES'),
      10_000,
      'the bot to rest a YES bid',
    );
    const stopped = await first.stop();
    expect(stopped.clean).toBe(true);
    expect(running.engine.orders(demo, slug, ['LIVE']).some((o) => o.id === bid.id)).toBe(true);

    // While the bot is down, a taker sells into its bid.
    const sold = place('SELL', bid.priceTicks ?? 0, 5_000_000, 'FAK');
    expect(sold.ok).toBe(true);
    await waitFor(() => (running.engine.accountTrades(demo).length > 0 ? true : undefined), 5_000, 'the trade');

    const before = openLedger({ path: dbPath });
    expect(before.fillsForOrder(bid.id)).toHaveLength(0);
    before.close();

    const second = new Bot(configFor(running, slug, dbPath), { dryRun: false, logger, env });
    await second.start();
    await second.stop();

    const after = openLedger({ path: dbPath });
    const fills = after.fillsForOrder(bid.id);
    expect(fills.reduce((sum, f) => sum + f.sizeRaw, 0)).toBe(5_000_000);
    expect(after.tokenPosition(slug, 'YES').positionRaw).toBe(5_000_000);
    expect(after.verify()).toEqual([]);
    after.close();
  }, 60_000);
});

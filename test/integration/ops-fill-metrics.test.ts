/**
 * `outcome_maker_fills_total` (and the fill volume and notional counters) carry the token: a BUY of NO (the bot's
 * ask) and a BUY of YES (its bid) are counted apart. Checked through /metrics of the real CLI run against the
 * simulator: every fill sample names a token (YES or NO), and per (market, side, token) the counts agree with the
 * bot's own 'fill' log lines; both kinds of BUY appear.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { familySamples, jsonLines, metricsUrlOf, pollFor, scrape, stopAfterEach } from './ops-support.js';

const started = stopAfterEach();

it('fills_total{market,side,token}: BUY YES and BUY NO counted apart, each count as the bot logged its fills', async () => {
  const venue = await startProcessSimulator({ synthetic: { noise: { ratePerMinute: 120 } } });
  started.sim = venue;
  const slugs = simMarketSlugs(venue);
  const { configPath } = writeBotConfig(venue, {
    markets: slugs,
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
    orders: { filledOrderDelaySec: 0 },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine, 60_000);

  const key = (market: unknown, side: unknown, token: unknown): string => `${String(market)} ${String(side)} ${String(token)}`;
  const agreed = await pollFor(
    'fills of both tokens, counted as logged',
    async () => {
      const samples = familySamples((await scrape(url)).samples, 'outcome_maker_fills_total').filter((s) => s.value > 0);
      const counted = new Map(samples.map((s) => [key(s.labels['market'], s.labels['side'], s.labels['token']), s.value]));
      const logged = new Map<string, number>();
      for (const line of jsonLines(running).filter((l) => l.msg === 'fill')) {
        const k = key(line['market'], line['side'], line['token']);
        logged.set(k, (logged.get(k) ?? 0) + 1);
      }
      const buys = new Set(samples.filter((s) => s.labels['side'] === 'BUY').map((s) => s.labels['token']));
      const same = counted.size === logged.size && [...counted].every(([k, v]) => logged.get(k) === v);
      return same && buys.has('YES') && buys.has('NO') ? samples : undefined;
    },
    90_000,
    250,
  );
  for (const sample of agreed) {
    expect(['YES', 'NO']).toContain(sample.labels['token']);
    expect(['BUY', 'SELL']).toContain(sample.labels['side']);
    expect(slugs).toContain(sample.labels['market']);
  }
  const { samples } = await scrape(url);
  for (const name of ['outcome_maker_fill_volume_shares_total', 'outcome_maker_fill_notional_usdc_total']) {
    const family = familySamples(samples, name).filter((s) => s.value > 0);
    expect(family.length, name).toBeGreaterThan(0);
    expect(family.every((s) => s.labels['token'] === 'YES' || s.labels['token'] === 'NO'), name).toBe(true);
  }
  expect((await running.stop('SIGTERM')).code).toBe(0);
}, 150_000);

import { isQuotingLine, liveOrders, spawnBot, startBtcDailyWorld, writeBotConfig } from '../test/support/bot-process.ts';
const { venue, daily } = await startBtcDailyWorld();
const { configPath } = writeBotConfig(venue, {
  marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 10 }, discovery: { pollIntervalSec: 600 } },
  pricing: { stopBeforeSettlementSec: 5, guard: { enabled: false } },
  strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
  log: { level: 'debug' },
});
const bot = spawnBot(venue, configPath);
await bot.waitForLine(isQuotingLine, 60_000);
const settlesAt = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
const listed = venue.control.listMarket({ ticker: 'BTC', settlesAt });
console.log('listed', listed.slug, 'settles in', settlesAt - Date.now());
await bot.waitForLine((l) => l.includes('"msg":"market left"'), 120_000);
await bot.waitForLine((l) => /redeem|resolved/i.test(l) && l.includes(listed.slug), 60_000).catch(() => console.log('no redeem line'));
await new Promise((r) => setTimeout(r, Number(process.argv[2] ?? 3000)));
const t0 = Date.now();
const r = await bot.stop('SIGTERM', 30_000);
console.log('STOP', r, Date.now() - t0);
const i = bot.lines.findIndex((l) => l.includes('"msg":"market left"'));
for (const l of bot.lines.slice(i)) console.log(l.slice(0, 330));
await venue.close();

/**
 * Observability overhead benchmark: the cost of the metric calls made on the hot path (per book update,
 * per requote, per HTTP attempt), of a /metrics scrape with 50 markets, of one info log line through the
 * secret censor, and of loading and validating a config file. Target: each hot-path metric call under
 * 5 µs, i.e. under 0.5% of one core at 1,000 book updates per second.
 *
 * Run: npx tsx bench/metrics.ts   (exports `run()` for bench/all.ts)
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Registry } from 'prom-client';
import { loadConfigFile } from '../src/config/index.js';
import { createLogger, LogCensor } from '../src/log.js';
import { createMetrics } from '../src/metrics/index.js';

function nanosPerCall(iterations: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(iterations, 1000); i++) fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / iterations;
}

const round = (value: number, digits = 0): number => Number(value.toFixed(digits));

export async function run(): Promise<Record<string, number | string>> {
  const registry = new Registry();
  const metrics = createMetrics({ registry, collectDefault: true });
  const markets = Array.from({ length: 50 }, (_, i) => `market-${i}`);

  const bookUpdated = nanosPerCall(200_000, (i) => metrics.bookUpdated(markets[i % 50] ?? 'm'));
  const requoted = nanosPerCall(200_000, (i) => metrics.requoted(markets[i % 50] ?? 'm', 0.4));
  const httpRequest = nanosPerCall(200_000, (i) => metrics.httpRequest(i % 2 ? 'POST /orders' : 'DELETE /orders/:id', 200, 85));
  for (const market of markets) {
    metrics.fill(market, 'BUY', 'YES', 10_000_000, 5_000_000);
    metrics.position(market, 10_000_000, 0);
    metrics.pnl(market, 1_000_000, -500_000);
  }
  const scrapeStart = process.hrtime.bigint();
  const scrapes = 50;
  let bytes = 0;
  for (let i = 0; i < scrapes; i++) bytes = (await registry.metrics()).length;
  const scrapeMs = Number(process.hrtime.bigint() - scrapeStart) / scrapes / 1e6;

  const censor = new LogCensor();
  censor.addSecret(Buffer.from('a-bench-secret-value-for-censor').toString('base64'));
  censor.addSecret(`0x${'ab'.repeat(32)}`);
  let written = 0;
  const logger = createLogger({ pretty: false, censor, destination: { write: (line) => (written += line.length) } });
  const child = logger.child({ component: 'orders', market: 'market-1' });
  const logLine = nanosPerCall(50_000, (i) => child.info({ clientOrderId: `om-m1-bid-0-${i}`, priceTicks: 455, sizeRaw: 10_000_000, txHash: `0x${'cd'.repeat(32)}` }, 'order placed'));

  const paper = resolve(fileURLToPath(new URL('.', import.meta.url)), '../config/paper.yaml');
  const loadConfig = nanosPerCall(200, () => loadConfigFile(paper));

  return {
    'metric_book_updated_ns': round(bookUpdated),
    'metric_requoted_ns': round(requoted),
    'metric_http_request_ns': round(httpRequest),
    'scrape_50_markets_ms': round(scrapeMs, 2),
    'scrape_50_markets_bytes': bytes,
    'log_info_line_censored_us': round(logLine / 1000, 2),
    'log_bytes_written': written,
    'load_config_paper_ms': round(loadConfig / 1e6, 3),
    'target_metric_call_ns': 5000,
    'meets_target': Math.max(bookUpdated, requoted, httpRequest) < 5000 ? 'yes' : 'NO',
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(34)} ${value}`);
}

/**
 * Capital turnover over a virtual day (issue 38's "done when"): `backtest --synthetic` with config/paper.yaml
 * (fixed-spread, its risk limits, 1,000 USDC, the default externally owned account) on recurring BTC and ETH HOURLY
 * ladders of 2 strikes, once with the capital core (on-chain redemption and merges through the engine's port) and,
 * with --compare, once without it. Prints per hour of the run: the mean quoting share of the markets settling at its
 * end, the fills of those markets, USDC redeemed and merged in the hour, and gas.
 *
 *   nice -n 10 npx tsx bench/capital-day.ts [--hours 24] [--compare | --without] [--seed 7] [--json]
 *
 * `--without` runs only the run without the core (to run the pair as two processes side by side on a loaded machine).
 *
 * CPU-heavy (a 24-hour run is many minutes on a loaded machine); the figures are deterministic for the seed.
 */
import { pathToFileURL } from 'node:url';
import { loadConfigFile, validateStrategy } from '../src/config/index.js';
import type { AppConfig } from '../src/config/types.js';
import { runBacktest, type BacktestResult } from '../src/backtest/index.js';
import { syntheticOptions } from '../src/backtest/synthetic-command.js';

const HOUR_MS = 3_600_000;

export interface HourRow {
  readonly hour: number;
  /** The settlement instant of the markets counted (UTC, ISO minute). */
  readonly settles: string;
  readonly markets: number;
  readonly quotingPct: number;
  readonly fills: number;
  readonly redeemedUsdc: number;
  readonly mergedUsdc: number;
  readonly gasUsdc: number;
}

/** Per hour of the run: the markets settling at its end (mean quoting share, fills) and the capital the hour brought back. */
export function hourRows(result: BacktestResult): HourRow[] {
  const hours = Math.ceil(result.durationMs / HOUR_MS);
  const rows: HourRow[] = [];
  for (let hour = 0; hour < hours; hour += 1) {
    const endMs = result.startMs + (hour + 1) * HOUR_MS;
    const settling = result.markets.filter((m) => m.expiresAtMs === endMs);
    const capital = result.capital?.byHour[hour];
    rows.push({
      hour,
      settles: new Date(endMs).toISOString().slice(0, 16),
      markets: settling.length,
      quotingPct: settling.length === 0 ? 0 : Number(((100 * settling.reduce((a, m) => a + m.quotingFraction, 0)) / settling.length).toFixed(1)),
      fills: settling.reduce((a, m) => a + m.fills, 0),
      redeemedUsdc: (capital?.redeemedRaw ?? 0) / 1e6,
      mergedUsdc: (capital?.mergedRaw ?? 0) / 1e6,
      gasUsdc: (capital?.gasUsdcRaw ?? 0) / 1e6,
    });
  }
  return rows;
}

/** config/paper.yaml with hourly BTC and ETH ladders only (2 strikes), as the issue measured. */
export function hourlyLadders(config: AppConfig): AppConfig {
  if (config.venue.kind !== 'sim') throw new Error('config/paper.yaml is expected to be a simulator config');
  return { ...config, venue: { ...config.venue, underlying: { ...config.venue.underlying, tickers: ['BTC', 'ETH'], cadences: ['hourly'], strikesPerExpiry: 2 } } };
}

export async function capitalDay(hours: number, capital: boolean, seed?: number): Promise<BacktestResult> {
  const config = hourlyLadders(loadConfigFile(new URL('../config/paper.yaml', import.meta.url).pathname));
  const check = await validateStrategy(config);
  if (!check.ok) throw new Error(check.issues.map((i) => i.message).join('; '));
  const { options } = syntheticOptions(config, check.module, { configPath: 'config/paper.yaml', durationMs: hours * HOUR_MS, latencyMs: 50, feeRateBps: 300, world: 'crypto', json: false, ...(seed === undefined ? {} : { seed }) });
  return runBacktest({ ...options, capital: { enabled: capital } });
}

function table(on: readonly HourRow[], off: readonly HourRow[] | null): string {
  const header = ['hour', 'settles (UTC)', 'markets', 'quoting %', 'fills', 'redeemed USDC', 'merged USDC', 'gas USDC', ...(off === null ? [] : ['quoting % (off)', 'fills (off)'])];
  const lines = on.map((r, i) => [String(r.hour), r.settles.slice(11), String(r.markets), r.quotingPct.toFixed(1), String(r.fills), r.redeemedUsdc.toFixed(2), r.mergedUsdc.toFixed(2), r.gasUsdc.toFixed(4), ...(off === null ? [] : [(off[i]?.quotingPct ?? 0).toFixed(1), String(off[i]?.fills ?? 0)])]);
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n');
}

async function main(argv: readonly string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const hours = Number(arg('--hours') ?? '24');
  const seed = arg('--seed') === undefined ? undefined : Number(arg('--seed'));
  const started = Date.now();
  const on = await capitalDay(hours, !argv.includes('--without'), seed);
  const off = argv.includes('--compare') ? await capitalDay(hours, false, seed) : null;
  const onRows = hourRows(on);
  const offRows = off === null ? null : hourRows(off);
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ hours, seed: on.seed, capital: on.capital, fills: on.fills, pnlUsdc: on.pnlRaw / 1e6, rows: onRows, off: off === null ? null : { fills: off.fills, pnlUsdc: off.pnlRaw / 1e6, rows: offRows } })}\n`);
    return;
  }
  const minQuoting = Math.min(...onRows.filter((r) => r.markets > 0).map((r) => r.quotingPct));
  process.stdout.write(`${table(onRows, offRows)}\n\n`);
  process.stdout.write(`with capital: ${on.fills} fills, PnL ${(on.pnlRaw / 1e6).toFixed(2)} USDC, redeemed ${((on.capital?.redeemedRaw ?? 0) / 1e6).toFixed(2)}, merged ${((on.capital?.mergedRaw ?? 0) / 1e6).toFixed(2)} USDC, gas ${((on.capital?.gasUsdcRaw ?? 0) / 1e6).toFixed(4)} USDC (${on.capital?.redemptions ?? 0} redemptions, ${on.capital?.merges ?? 0} merges); lowest hourly quoting share ${minQuoting.toFixed(1)} %\n`);
  if (off !== null) process.stdout.write(`without: ${off.fills} fills, PnL ${(off.pnlRaw / 1e6).toFixed(2)} USDC\n`);
  process.stdout.write(`wall time ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

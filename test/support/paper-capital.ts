/**
 * Paper runs of the capital path (test/integration/paper-capital*.test.ts): a paper config on the embedded simulator's
 * DEFAULT account (externally owned) written to a temporary directory, the bot started in-process on it with its
 * log lines captured, and the reads of its /metrics and /status.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { stringify } from 'yaml';
import { Bot } from '../../src/app/bot.js';
import { loadConfigFile } from '../../src/config/index.js';
import { nextSeed, type Cleanup } from './bot-harness.js';

/** Sections of the config to add or replace (each replaces the default section whole, except `capital` and `venue`, merged). */
export type PaperOverrides = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The paper config (3 generic markets, no synthetic flow, fast capital and chain checks); returns its path. */
export function writePaperConfig(dir: string, maxNotional = 1000, overrides: PaperOverrides = {}): string {
  const { venue, capital, ...rest } = overrides;
  const config = {
    version: 1,
    venue: { kind: 'sim', seed: nextSeed(), markets: 3, settlementDelayMs: 100, flow: { enabled: false }, ...venue },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02, levels: 1, orderSize: 5, sizeSkew: 0, maxPriceShift: 0 } },
    orders: { botTag: 'it', filledOrderDelaySec: 0 },
    risk: { maxPositionPerToken: 1000, maxNetPosition: 1000, maxOpenOrders: 20, maxNotional, dailyLossLimit: 1000 },
    redemption: { retryInitialSec: 0.2, retryMaxSec: 0.4 },
    capital: { intervalSec: 0.2, chainCheckSec: 0.5, ...capital },
    maintenance: { pollIntervalSec: 1 },
    metrics: { enabled: true, port: 0 },
    database: { path: join(dir, 'paper.db') },
    log: { level: 'info', pretty: false, statusIntervalSec: 0 },
    shutdown: { budgetMs: 5000 },
    ...rest,
  };
  const path = join(dir, 'paper.yaml');
  writeFileSync(path, stringify(config));
  return path;
}

export async function getText(url: string): Promise<string> {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`GET ${url}: ${answer.status}`);
  return answer.text();
}

/** A sample's value in a Prometheus exposition (the line `name{labels} value`); undefined when absent. */
export function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels === '' ? ' ' : `{${labels}} `}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

export interface PaperBot {
  readonly bot: Bot;
  /** Every log line (JSON). */
  readonly logs: string[];
  /** The messages at WARN and above. */
  readonly warnings: () => string[];
}

/** Starts the bot without waiting for quotes: the markets have no book until the third party quotes one. */
export async function startPaper(configPath: string, cleanup: Cleanup): Promise<PaperBot> {
  const logs: string[] = [];
  const bot = new Bot(loadConfigFile(configPath), { dryRun: false, logger: pino({ level: 'info', base: null }, { write: (line: string) => void logs.push(line) }), env: {} });
  cleanup.add(async () => void (await bot.stop()));
  await bot.start();
  return { bot, logs, warnings: () => logs.filter((l) => (JSON.parse(l) as { level: number }).level >= 40).map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

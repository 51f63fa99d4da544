/**
 * `outcome-maker backtest --replay PATH --config FILE [...]`: reads a replay stream, runs the replay backtest
 * (./replay-backtest.ts) once or over a grid (`--sweep name=a,b,c`, repeatable: every combination), and prints the
 * report: a table, or `--json`; with `--out DIR` also `DIR/report.html` (charts, opens without a server) and
 * `DIR/report.json`. Every output is in shares, USDC, prices, seconds and percent (./report.ts `peopleFigures`,
 * `peopleReport`), never raw units.
 *
 * Owns: the grid and the outputs. Invariants: a sweep parameter names a strategy parameter, or `latencyMs` /
 * `queueModel`; every combination's strategy parameters pass the strategy's own schema before anything runs (an
 * invalid one is an error naming it); runs are independent and deterministic. `--compare` (./backtest-command.ts
 * `runCompareCommand`) runs several whole configs on the same recording and prints one row each.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/types.js';
import { validateStrategy } from '../config/index.js';
import { describeTruncation, readReplay } from './reader.js';
import { runReplayBacktest } from './replay-backtest.js';

export { ReplaySelectionError } from './replay-backtest.js';
import type { QueueModel } from './queue-matcher.js';
import { chartAssets, formatCompare, formatSweep, formatTable, peopleFigures, peopleReport, renderHtml, type ReplayReport } from './report.js';

export interface ReplayCommandOptions {
  readonly replay: string;
  readonly market?: string;
  readonly latencyMs: number;
  readonly queueModel: QueueModel;
  readonly feeRateBps: number;
  readonly out?: string;
  readonly json: boolean;
  /** `name=a,b,c` each. */
  readonly sweep: readonly string[];
  /** Replay a truncated or corrupt recording up to its last complete line (the reports say where it ends). */
  readonly allowTruncated?: boolean;
}

export class ReplayCommandError extends Error {
  override readonly name = 'ReplayCommandError';
}

interface Axis {
  readonly name: string;
  readonly values: readonly string[];
}

export function parseSweep(specs: readonly string[]): Axis[] {
  return specs.map((spec) => {
    const match = /^([A-Za-z][A-Za-z0-9_]*)=(.+)$/.exec(spec.trim());
    const values = match?.[2]?.split(',').map((v) => v.trim()) ?? [];
    if (match?.[1] === undefined || values.length === 0 || values.some((v) => v === '')) {
      throw new ReplayCommandError(`--sweep ${JSON.stringify(spec)}: expected name=value1,value2,...`);
    }
    return { name: match[1], values };
  });
}

/** Every combination of the axes, first axis slowest. */
export function grid(axes: readonly Axis[]): Record<string, string>[] {
  return axes.reduce<Record<string, string>[]>((combos, axis) => combos.flatMap((combo) => axis.values.map((value) => ({ ...combo, [axis.name]: value }))), [{}]);
}

function parseValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  const n = Number(text);
  return Number.isFinite(n) && text !== '' ? n : text;
}

async function runOne(config: AppConfig, options: ReplayCommandOptions, params: Readonly<Record<string, string>>, stream: ReturnType<typeof readReplay>): Promise<ReplayReport> {
  const strategyParams: Record<string, unknown> = { ...config.strategy.params };
  let latencyMs = options.latencyMs;
  let queueModel = options.queueModel;
  for (const [name, value] of Object.entries(params)) {
    if (name === 'latencyMs') {
      latencyMs = Number(value);
      if (!Number.isInteger(latencyMs) || latencyMs < 0) throw new ReplayCommandError(`--sweep latencyMs: ${value} is not a whole number of ms`);
    } else if (name === 'queueModel') {
      if (value !== 'conservative' && value !== 'probabilistic') throw new ReplayCommandError(`--sweep queueModel: ${value} is not conservative or probabilistic`);
      queueModel = value;
    } else strategyParams[name] = parseValue(value);
  }
  const swept: AppConfig = { ...config, strategy: { ...config.strategy, params: strategyParams } };
  const check = await validateStrategy(swept);
  if (!check.ok) throw new ReplayCommandError(`strategy parameters ${JSON.stringify(params)}: ${check.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return runReplayBacktest({
    config: swept,
    strategy: check.module.create(check.params),
    header: stream.header,
    events: stream.events,
    ...(options.market === undefined ? {} : { market: options.market }),
    latencyMs,
    queueModel,
    feeRateBps: options.feeRateBps,
    truncated: stream.truncated.map(describeTruncation),
  });
}

function readStream(options: ReplayCommandOptions): ReturnType<typeof readReplay> {
  return readReplay(options.replay, { allowTruncated: options.allowTruncated === true });
}

/** Runs the command; returns what to print. */
export async function runReplayCommand(config: AppConfig, options: ReplayCommandOptions): Promise<string> {
  const axes = parseSweep(options.sweep);
  const stream = readStream(options);
  if (axes.length === 0) {
    const report = await runOne(config, options, {}, stream);
    if (options.out !== undefined) {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'report.html'), renderHtml(report, chartAssets()));
      const people = peopleReport(report);
      writeFileSync(join(options.out, 'report.json'), `${JSON.stringify({ ...people, figures: jsonFigures(report) })}\n`);
    }
    return options.json ? `${JSON.stringify(jsonFigures(report))}\n` : withSelectionLine(formatTable(report), report);
  }
  const runs: { params: Record<string, string>; report: ReplayReport; figures: ReplayReport['figures'] }[] = [];
  for (const params of grid(axes)) {
    const report = await runOne(config, options, params, stream);
    runs.push({ params, report, figures: report.figures });
  }
  return options.json ? `${JSON.stringify(runs.map((run) => ({ params: run.params, figures: jsonFigures(run.report) })))}\n` : formatSweep(runs);
}

/** A run's figures for a person, with the selection it ran (every JSON output and report.json carry the same object). */
function jsonFigures(report: ReplayReport): Record<string, unknown> {
  return { ...peopleFigures(report.figures), selection: report.selection };
}

/** The selection the replay ran, under the table's headline: its rules, how many markets it joined of how many listed. */
function withSelectionLine(table: string, report: ReplayReport): string {
  const s = report.selection;
  if (s === undefined) return table;
  const line = `selection ${s.rules}: ${s.joined} joined, at most ${s.peakJoined} at once, of ${s.listed} listed${s.notJoined === '' ? '' : ` (not joined: ${s.notJoined})`}`;
  const cut = table.indexOf('\n\n');
  return cut < 0 ? `${table}${line}\n` : `${table.slice(0, cut)}\n${line}${table.slice(cut)}`;
}

/** A config of `--compare`, named as the user gave it. */
export interface CompareConfig {
  readonly name: string;
  readonly config: AppConfig;
}

/**
 * `backtest --replay PATH --config A --compare B [--compare C]`: every config on the same recording (read once),
 * one row each (src/replay/report.ts `formatCompare`), or one JSON array of `{config, figures}`.
 */
export async function runCompareCommand(configs: readonly CompareConfig[], options: ReplayCommandOptions): Promise<string> {
  if (options.sweep.length > 0) throw new ReplayCommandError('--compare and --sweep do not go together: compare whole configs, or sweep one');
  const stream = readStream(options);
  const runs: { name: string; report: ReplayReport; figures: ReplayReport['figures'] }[] = [];
  for (const { name, config } of configs) {
    const report = await runOne(config, options, {}, stream);
    runs.push({ name, report, figures: report.figures });
  }
  return options.json ? `${JSON.stringify(runs.map((r) => ({ config: r.name, figures: jsonFigures(r.report) })))}\n` : formatCompare(runs);
}

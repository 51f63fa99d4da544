/**
 * `outcome-maker backtest --synthetic` through the real CLI (a child process from the TypeScript source): a seeded
 * run of a few virtual minutes on the simulator's synthetic flow, through the bot's strategy runner, gate and order
 * executor. The same seed prints the same report, another seed another; every figure a person reads is in USDC or
 * shares (no raw 1e6 unit); the totals add up over the markets; options a synthetic run cannot use (and synthetic
 * options given to a replay) are refused (exit 2) by name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCliProcess } from '../support/cli-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'om-synthetic-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const paper = join(ROOT, 'config', 'paper.yaml');
const cli = (args: readonly string[]): ReturnType<typeof runCliProcess> => runCliProcess(['backtest', '--synthetic', '--config', paper, ...args], home);

const market = z.strictObject({
  market: z.string(),
  settlesAt: z.iso.datetime().nullable(),
  fills: z.int().min(0),
  volumeUsdc: z.number(),
  pnlUsdc: z.number(),
  feesUsdc: z.number(),
  yesShares: z.number(),
  noShares: z.number(),
  maxAbsInventoryShares: z.number(),
  quotingPct: z.number().min(0).max(100),
});
const report = z.looseObject({
  strategy: z.literal('fixed-spread'),
  seed: z.int(),
  world: z.enum(['generic', 'crypto']),
  virtualSeconds: z.number(),
  pnlUsdc: z.number(),
  realizedUsdc: z.number(),
  unrealizedUsdc: z.number(),
  feesUsdc: z.number(),
  fills: z.int().min(0),
  volumeUsdc: z.number(),
  maxAbsInventoryShares: z.number(),
  quotingPct: z.number(),
  requests: z.looseObject({ total: z.int().min(1) }),
  markets: z.array(market).min(1),
});

/** At most `digits` decimals: a figure at a person's precision, not a raw or float artefact. */
const atMost = (value: number, digits: number): boolean => Math.abs(value * 10 ** digits - Math.round(value * 10 ** digits)) < 1e-6;

describe('backtest --synthetic', () => {
  it('seeded: the same seed prints the same figures, another seed others; USDC at cents, shares at 0.01, totals add up', async () => {
    const [first, again, other] = await Promise.all([cli(['--duration', '2m', '--seed', '3', '--json']), cli(['--duration', '2m', '--seed', '3', '--json']), cli(['--duration', '2m', '--seed', '4', '--json'])]);
    for (const run of [first, again, other]) expect(run.code, run.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(other.stdout).not.toBe(first.stdout);
    const text = first.stdout;
    expect(text).not.toMatch(/Raw"|"raw/i);
    const r = report.parse(JSON.parse(text));
    expect(r).toMatchObject({ seed: 3, world: 'crypto', virtualSeconds: 120 });
    expect(r.markets.map((m) => m.market).every((slug) => /^dollar(btc|eth)-above/.test(slug))).toBe(true);
    expect(r.fills).toBeGreaterThan(0);
    for (const usdc of [r.pnlUsdc, r.realizedUsdc, r.unrealizedUsdc, r.feesUsdc, r.volumeUsdc, ...r.markets.flatMap((m) => [m.volumeUsdc, m.pnlUsdc])]) expect(atMost(usdc, 2), String(usdc)).toBe(true);
    for (const shares of [r.maxAbsInventoryShares, ...r.markets.flatMap((m) => [m.yesShares, m.noShares])]) expect(atMost(shares, 2), String(shares)).toBe(true);
    expect(r.markets.reduce((n, m) => n + m.fills, 0)).toBe(r.fills);
    // Each market rounded to the cent: the sum is within a cent per market of the total.
    expect(Math.abs(r.markets.reduce((n, m) => n + m.volumeUsdc, 0) - r.volumeUsdc)).toBeLessThanOrEqual(0.01 * r.markets.length);
    expect(Math.abs(r.realizedUsdc + r.unrealizedUsdc - r.feesUsdc - r.pnlUsdc)).toBeLessThanOrEqual(0.02);
  }, 120_000);

  it('the table: what ran, the totals and one row per market, in USDC and shares; the generic world on request', async () => {
    const run = await cli(['--duration', '90s', '--seed', '5', '--world', 'generic']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('synthetic backtest of fixed-spread (' + paper + '): seed 5, 90 s of virtual time in 1 s steps');
    // The config's selection (paper.yaml has no markets section: every market its simulator lists, 8) ran it.
    expect(lines[1]).toBe('selection markets: select top 8 by dailyReward: 4 joined, at most 4 at once, of 4 listed');
    expect(lines[2]).toBe('generic world: 4 markets, a passive maker, noise and informed takers; quoted from the book');
    expect(lines[3]).toBe('requests: 50 ms one way, 320 ms between starts, at most 2 in flight; taker fee 300 bps');
    expect(run.stdout).toMatch(/^PnL at fair value \(USDC\)\s+-?\d+\.\d\d$/m);
    expect(run.stdout).toMatch(/^volume \(USDC\)\s+\d+\.\d\d$/m);
    expect(run.stdout).toMatch(/^max \|YES−NO\| \(shares\)\s+\d+\.\d$/m);
    const perMarket = lines.slice(lines.findIndex((l) => l.startsWith('market ')) + 1).filter((l) => l.trim() !== '');
    expect(perMarket).toHaveLength(4);
    for (const row of perMarket) expect(row).toMatch(/^\S+\s+\d+\s+\d+\.\d\d\s+-?\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d %\s+(-|\d{4}-\d\d-\d\d \d\d:\d\d)$/);
    // No figure with more decimals than a person reads (markouts: 3).
    expect(run.stdout).not.toMatch(/\d\.\d{4,}/);
  }, 120_000);

  it('refuses, with exit 2 and the option named: a replay option, a bad duration, both or neither of --replay and --synthetic', async () => {
    const [queue, duration, both, neither, replaySeed] = await Promise.all([
      cli(['--duration', '1m', '--queue-model', 'probabilistic']),
      cli(['--duration', '0s']),
      cli(['--replay', join(home, 'x.ndjson.gz')]),
      runCliProcess(['backtest', '--config', paper], home),
      runCliProcess(['backtest', '--replay', join(home, 'x.ndjson.gz'), '--config', paper, '--seed', '3'], home),
    ]);
    expect([queue.code, duration.code, both.code, neither.code, replaySeed.code]).toEqual([2, 2, 2, 2, 2]);
    expect(replaySeed.stderr).toContain('backtest --replay: --seed: only for --synthetic');
    expect(queue.stderr).toContain('--queue-model: only for --replay');
    expect(duration.stderr).toContain('--duration "0s"');
    expect(both.stderr).toContain('give one of --replay <path> and --synthetic');
    expect(neither.stderr).toContain('give one of --replay <path> and --synthetic');
    for (const run of [queue, duration, both, neither, replaySeed]) expect(run.stdout).toBe('');
  }, 120_000);
});

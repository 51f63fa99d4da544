/**
 * `outcome-maker rehearse` through the real CLI (a child process with an environment holding no credential): the
 * hourly example config, unchanged, rehearsed on the simulator for a short time. The simulator is started for it (its
 * tickers, cadences and header prefix, read from the file), the bot runs the live code path against it with the demo
 * account wired in, and the simulator says what the bot placed: orders in BTC and ETH hourly markets only.
 * The example joins a ladder 50 minutes before its hour: in the ten minutes after each hour there is nothing to join,
 * and the rehearsal says so before it starts; the test then also rehearses a copy without that rule, which quotes.
 * (The 90 s rehearsal is run by hand: `npx outcome-maker rehearse --config config/hourly-crypto.example.yaml
 * --duration 90`.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfigFile } from '../../src/config/index.js';
import { rehearsalPlan } from '../../src/rehearse/plan.js';
import { runCliProcess } from '../support/cli-process.js';
import { poll } from '../support/poll.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const HOURLY = join(ROOT, 'config', 'hourly-crypto.example.yaml');
const home = mkdtempSync(join(tmpdir(), 'om-rehearse-test-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const DURATION_S = 25;
/** The run that finds nothing to join: the warning comes before the bot starts; long enough for a start-up. */
const SAYS_NOTHING_JOINABLE_S = 8;

const placed = /^rehearsal: the bot placed (\d+) orders in (\d+) markets of the simulator \(([^)]*)\); (\d+) fills$/m;

describe('rehearse', () => {
  it('runs the hourly example on the simulator with no edit to the file: the live path, its header prefix, the demo account; it quotes BTC and ETH hourly markets', async () => {
    const before = readFileSync(HOURLY, 'utf8');
    const prefix = (parse(before) as { venue: { headerPrefix: string } }).venue.headerPrefix;
    const config = loadConfigFile(HOURLY);
    // Two clean cases, judged by the CLI's own plan: a ladder joinable now and for the whole run (it stops a minute
    // before its hour), with a margin for the start-up; or none joinable until well after a short run ends (the ten
    // minutes after each hour). Between them (the minute before a ladder stops, the seconds before the next is joined)
    // the CLI, started a moment later, may judge either way: the test waits until the clock has left that edge.
    const { joinableNow } = await poll(
      () => {
        const now = Date.now();
        const plan = rehearsalPlan(config, HOURLY, now);
        const joinable = plan.firstJoin !== null && plan.firstJoin.atMs <= now + 5_000 && plan.firstJoin.settlesAtMs - 60_000 - now > (DURATION_S + 30) * 1000;
        const idle = plan.firstJoin === null || plan.firstJoin.atMs > now + (SAYS_NOTHING_JOINABLE_S + 15) * 1000;
        return joinable || idle ? { joinableNow: joinable } : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 1000, failure: () => 'the clock to leave the edge of a join window' },
    );
    // When nothing is joinable, the first run only has to say so and place nothing: a short one (the copy below quotes).
    const run = await runCliProcess(['rehearse', '--config', HOURLY, '--duration', String(joinableNow ? DURATION_S : SAYS_NOTHING_JOINABLE_S)], home);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(HOURLY, 'utf8')).toBe(before);
    expect(run.stdout).toMatch(/^rehearse: .*hourly-crypto\.example\.yaml on the simulator at http:\/\/127\.0\.0\.1:\d+ \(never the live venue\)/m);
    expect(run.stdout).toContain(`rehearse: crypto world BTC, ETH, hourly ladders of 3 strikes (seed 1); header prefix ${prefix}; ledger `);
    expect(run.stdout).toContain('"venue":"live"');
    expect(run.stdout).not.toContain('limitless.exchange');
    if (joinableNow) {
      const seen = placed.exec(run.stdout);
      expect(seen, run.stdout.slice(-2000)).not.toBeNull();
      expect(Number(seen?.[1])).toBeGreaterThan(0);
      for (const slug of (seen?.[3] ?? '').split(', ')) expect(slug).toMatch(/^dollar(btc|eth)-above-dollar\d+-on-[a-z]{3}-\d+-\d{4}-utc-\d+$/);
      return;
    }
    // Between the hour and ten past: nothing to join, said before it starts; a copy without the join window quotes.
    expect(run.stderr).toMatch(/^rehearse: warning: no market can be joined before \d\d:\d\d:\d\d UTC/m);
    expect(run.stdout).toContain('rehearsal: the bot placed no order on the simulator');
    const doc = parse(before) as { markets: { select: Record<string, unknown> } };
    delete doc.markets.select['joinBeforeSettlementSec'];
    doc.markets.select['cadences'] = ['hourly', 'daily'];
    const anytime = join(home, 'anytime.yaml');
    writeFileSync(anytime, stringify(doc));
    const again = await runCliProcess(['rehearse', '--config', anytime, '--duration', String(DURATION_S)], home);
    expect(again.code, again.stderr).toBe(0);
    expect(Number(placed.exec(again.stdout)?.[1] ?? 0)).toBeGreaterThan(0);
    // A hang bound: up to a minute's wait for the clock, two rehearsals under the suite's load.
  }, 210_000);

  it('refuses a simulator config (run it as it is), exit 2', async () => {
    const run = await runCliProcess(['rehearse', '--config', join(ROOT, 'config', 'paper.yaml'), '--duration', '5'], home);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a simulator config (venue.kind: sim): run it as it is');
  }, 60_000);
});
